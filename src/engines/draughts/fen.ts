// Position strings: PDN FEN with algebraic squares, plus the draw counters as one trailing field.
//
//   W:Wa1,c1,Kd4:Bb8,d8            side to move, White's pieces, Black's pieces (K = king)
//   W:WKa1:BKh8,Kf6:D4,12,0        … and the draw counters, in plies: kings-only (7.2.5),
//                                    balance unchanged (7.2.4 / 7.2.6), lone king (7.2.7 / 7.2.8)
//
// The `D` field is written only when a counter is non-zero, so ordinary positions are plain PDN
// FEN; a FEN without it reads as all counters zero. On input squares may also be lidraughts numbers
// (b8 = 1 … g1 = 32) and numeric ranges (`1-12`, `K5-7`); lidraughts' `H`/`F` fields are ignored.
// Position history is not part of the string: a parsed state starts with an empty history.
import { err, ok, type EngineError, type Result, type Side } from '../types';
import { ROW_1, ROW_8, parseSquare, squareName, squaresOf } from './board';
import { computeOutcome, type DraughtsState } from './state';

const MAX_COUNTER = 10_000;

function invalid(code: 'INVALID_NOTATION' | 'INVALID_POSITION', message: string): Result<never, EngineError> {
  return err({ code, message });
}

interface PieceList {
  readonly men: number;
  readonly kings: number;
}

function parsePieces(text: string): Result<PieceList, EngineError> {
  let men = 0;
  let kings = 0;
  if (text === '') return ok({ men, kings });
  for (const raw of text.split(',')) {
    const item = raw.trim();
    const king = item.startsWith('K');
    const body = king ? item.slice(1) : item;
    const range = /^(\d{1,2})-(\d{1,2})$/.exec(body);
    const squares: number[] = [];
    if (range) {
      const lo = Number(range[1]);
      const hi = Number(range[2]);
      if (lo < 1 || hi > 32 || lo > hi) return invalid('INVALID_NOTATION', `bad square range ${item}`);
      for (let n = lo; n <= hi; n++) squares.push(parseSquare(String(n)));
    } else {
      const s = parseSquare(body);
      if (s < 0) return invalid('INVALID_NOTATION', `bad square ${JSON.stringify(item)}`);
      squares.push(s);
    }
    for (const s of squares) {
      if (((men | kings) & (1 << s)) !== 0)
        return invalid('INVALID_POSITION', `square ${squareName(s)} listed twice`);
      if (king) kings |= 1 << s;
      else men |= 1 << s;
    }
  }
  return ok({ men, kings });
}

function parseCounters(text: string): Result<[number, number, number], EngineError> {
  const m = /^(\d{1,5}),(\d{1,5}),(\d{1,5})$/.exec(text);
  if (!m) return invalid('INVALID_NOTATION', `bad counter field D${text}`);
  const values = [Number(m[1]), Number(m[2]), Number(m[3])] as [number, number, number];
  if (values.some((v) => v > MAX_COUNTER)) return invalid('INVALID_POSITION', 'draw counter out of range');
  return ok(values);
}

/** Reads a position string (see the module header); never throws. */
export function parseFen(input: string): Result<DraughtsState, EngineError> {
  if (typeof input !== 'string') return invalid('INVALID_NOTATION', 'position must be a string');
  const fields = input.trim().replace(/\.$/, '').split(':');
  const turn = fields[0]?.trim().toUpperCase();
  if (turn !== 'W' && turn !== 'B') return invalid('INVALID_NOTATION', 'position must start with W or B');
  const side: Side = turn === 'W' ? 0 : 1;
  const lists: Array<PieceList | undefined> = [undefined, undefined];
  let counters: [number, number, number] = [0, 0, 0];
  for (const raw of fields.slice(1)) {
    const field = raw.trim();
    const tag = field[0];
    if (tag === 'W' || tag === 'B') {
      const index = tag === 'W' ? 0 : 1;
      if (lists[index]) return invalid('INVALID_NOTATION', `two ${tag} piece lists`);
      const parsed = parsePieces(field.slice(1));
      if (!parsed.ok) return parsed;
      lists[index] = parsed.value;
    } else if (tag === 'D') {
      const parsed = parseCounters(field.slice(1));
      if (!parsed.ok) return parsed;
      counters = parsed.value;
    } else if (tag === 'H' || tag === 'F') {
      if (!/^[HF]\d{1,5}$/.test(field)) return invalid('INVALID_NOTATION', `bad field ${field}`);
    } else {
      return invalid('INVALID_NOTATION', `unknown field ${JSON.stringify(field)}`);
    }
  }
  const [w, b] = lists;
  if (!w || !b) return invalid('INVALID_NOTATION', 'position needs a W and a B piece list');
  const white = w.men | w.kings;
  const black = b.men | b.kings;
  if ((white & black) !== 0) return invalid('INVALID_POSITION', 'a square holds a white and a black piece');
  if ((w.men & ROW_8) !== 0 || (b.men & ROW_1) !== 0) {
    return invalid('INVALID_POSITION', 'a man stands on its promotion rank');
  }
  const state: DraughtsState = {
    white,
    black,
    kings: w.kings | b.kings,
    side,
    kingPlies: counters[0],
    balancePlies: counters[1],
    lonePlies: counters[2],
    prev: null,
    outcome: null,
  };
  return ok({ ...state, outcome: computeOutcome(state) });
}

function formatPieces(pieces: number, kings: number): string {
  return squaresOf(pieces)
    .map((s) => ((kings & (1 << s)) !== 0 ? `K${squareName(s)}` : squareName(s)))
    .join(',');
}

/** Writes the position string (see the module header). */
export function formatFen(state: DraughtsState): string {
  const base = `${state.side === 0 ? 'W' : 'B'}:W${formatPieces(state.white, state.kings)}:B${formatPieces(
    state.black,
    state.kings,
  )}`;
  const { kingPlies, balancePlies, lonePlies } = state;
  return kingPlies || balancePlies || lonePlies ? `${base}:D${kingPlies},${balancePlies},${lonePlies}` : base;
}
