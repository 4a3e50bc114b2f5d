// Position strings: PDN FEN with algebraic squares, plus the draw counts as one trailing field.
//
//   W:Wa1,c1,Kd4:Bb8,d8              side to move, White's pieces, Black's pieces (K = king)
//   W:WKa1:BKh8,Kf6:D4,12,0,0,0      … and the draw counts in plies, one per rule:
//                                      7.2.5 kings only, 7.2.6 endgame, 7.2.4 three kings,
//                                      7.2.7 long diagonal, 7.2.8 small material
//
// The `D` field is written only when a count is non-zero, so ordinary positions are plain PDN FEN;
// a FEN without it reads as all counts zero. The older three-count form `D<7.2.5>,<balance>,<lone>`
// (written before the rules got a count each) is still read: the balance count goes to 7.2.6 and
// 7.2.4, the lone count to 7.2.7 or 7.2.8, each where its condition holds. On input squares may also
// be lidraughts numbers (b8 = 1 … g1 = 32) and numeric ranges (`1-12`, `K5-7`); lidraughts' `H`/`F`
// fields are ignored. Position history (threefold repetition) and the ply count (move limit) are
// not part of the string: a parsed state starts with an empty history at ply 0.
//
// Every parsed position is checked (docs/rules/russian-draughts.md, "Position strings"): pieces on
// dark squares only, at most 12 per side, no man on its promotion rank, the side that has just
// moved has a piece, and each non-zero count belongs to a rule whose condition holds, within its
// limit.
import { err, ok, type EngineError, type Result, type Side } from '../types';
import { ROW_1, ROW_8, popcount, parseSquare, squareName, squaresOf } from './board';
import { LIMITS, conditions, freshState, type DrawCounts, type DraughtsState } from './state';

const MAX_COUNTER = 10_000;
const MAX_PIECES = 12;

function invalid(code: 'INVALID_NOTATION' | 'INVALID_POSITION', message: string): Result<never, EngineError> {
  return err({ code, message });
}

interface PieceList {
  readonly men: number;
  readonly kings: number;
}

function parsePieces(text: string, colour: string): Result<PieceList, EngineError> {
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
      if (s < 0 && /^[a-h][1-8]$/.test(body)) {
        return invalid(
          'INVALID_POSITION',
          `${colour} piece on ${body}, a light square (pieces stand on dark squares)`,
        );
      }
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

function parseCounters(text: string): Result<number[], EngineError> {
  const m = /^\d{1,5}(,\d{1,5}){2}(,\d{1,5},\d{1,5})?$/.exec(text);
  if (!m) return invalid('INVALID_NOTATION', `bad count field D${text}: expected five counts (D0,0,0,0,0)`);
  const values = text.split(',').map(Number);
  if (values.some((v) => v > MAX_COUNTER)) return invalid('INVALID_POSITION', 'draw count out of range');
  return ok(values);
}

/** The draw counts of a `D` field for a board: five counts, or the older three (see the header). */
function countsFor(values: readonly number[], board: Parameters<typeof conditions>[0]): DrawCounts {
  const [a = 0, b = 0, c = 0, d = 0, e = 0] = values;
  if (values.length === 5)
    return { kingsOnly: a, endgame: b, threeKings: c, longDiagonal: d, smallMaterial: e };
  // Written by this server's earlier rules version, so within the limits; clamped all the same.
  const held = conditions(board);
  return {
    kingsOnly: Math.min(a, LIMITS.kingsOnly),
    endgame: held.endgameLimit > 0 ? Math.min(b, held.endgameLimit) : 0,
    threeKings: held.threeKings ? Math.min(b, LIMITS.threeKings) : 0,
    longDiagonal: held.longDiagonal ? Math.min(c, LIMITS.lone) : 0,
    smallMaterial: held.smallMaterial ? Math.min(c, LIMITS.lone) : 0,
  };
}

/** A message naming what is wrong with the counts of a board, or undefined when they fit it. */
function countProblem(
  counts: DrawCounts,
  board: Parameters<typeof conditions>[0],
  mover: number,
): string | undefined {
  const held = conditions(board);
  const checks: Array<[number, boolean, number, string]> = [
    [counts.kingsOnly, true, LIMITS.kingsOnly, '7.2.5 (kings only)'],
    [counts.endgame, held.endgameLimit > 0, held.endgameLimit || LIMITS.endgame67, '7.2.6 (endgame)'],
    [counts.threeKings, held.threeKings, LIMITS.threeKings, '7.2.4 (three kings against one)'],
    [counts.longDiagonal, held.longDiagonal, LIMITS.lone, '7.2.7 (long diagonal)'],
    [counts.smallMaterial, held.smallMaterial, LIMITS.lone, '7.2.8 (small material)'],
  ];
  for (const [count, holds, limit, rule] of checks) {
    if (count > 0 && !holds) return `the ${rule} count is ${count} but its material condition does not hold`;
    if (count > limit) return `the ${rule} count is ${count}, above its limit of ${limit} plies`;
  }
  // 7.2.5 counts king moves: the last one was made by the side that has just moved.
  if (counts.kingsOnly > 0 && (mover & board.kings) === 0) {
    return `the 7.2.5 (kings only) count is ${counts.kingsOnly} but the side that has just moved has no king`;
  }
  if (counts.kingsOnly > 1 && ((board.white & board.kings) === 0 || (board.black & board.kings) === 0)) {
    return `the 7.2.5 (kings only) count is ${counts.kingsOnly} but only one side has kings`;
  }
  return undefined;
}

/** Reads a position string (see the module header); never throws. */
export function parseFen(input: string): Result<DraughtsState, EngineError> {
  if (typeof input !== 'string') return invalid('INVALID_NOTATION', 'position must be a string');
  const fields = input.trim().replace(/\.$/, '').split(':');
  const turn = fields[0]?.trim().toUpperCase();
  if (turn !== 'W' && turn !== 'B') return invalid('INVALID_NOTATION', 'position must start with W or B');
  const side: Side = turn === 'W' ? 0 : 1;
  const lists: Array<PieceList | undefined> = [undefined, undefined];
  let values: number[] = [];
  for (const raw of fields.slice(1)) {
    const field = raw.trim();
    const tag = field[0];
    if (tag === 'W' || tag === 'B') {
      const index = tag === 'W' ? 0 : 1;
      if (lists[index]) return invalid('INVALID_NOTATION', `two ${tag} piece lists`);
      const parsed = parsePieces(field.slice(1), index === 0 ? 'white' : 'black');
      if (!parsed.ok) return parsed;
      lists[index] = parsed.value;
    } else if (tag === 'D') {
      const parsed = parseCounters(field.slice(1));
      if (!parsed.ok) return parsed;
      values = parsed.value;
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
  const both = white & black;
  if (both !== 0) {
    return invalid(
      'INVALID_POSITION',
      `${squareName(squaresOf(both)[0] as number)} holds a white and a black piece`,
    );
  }
  for (const [name, pieces] of [
    ['White', white],
    ['Black', black],
  ] as const) {
    const n = popcount(pieces);
    if (n > MAX_PIECES)
      return invalid('INVALID_POSITION', `${name} has ${n} pieces; a side has at most ${MAX_PIECES}`);
  }
  const menOnLastRank = (w.men & ROW_8) | (b.men & ROW_1);
  if (menOnLastRank !== 0) {
    const square = squaresOf(menOnLastRank)[0] as number;
    const colour = (w.men & (1 << square)) !== 0 ? 'white' : 'black';
    return invalid(
      'INVALID_POSITION',
      `the ${colour} man on ${squareName(square)} stands on its promotion rank (it would be a king)`,
    );
  }
  const mover = side === 0 ? black : white;
  if (mover === 0) {
    return invalid('INVALID_POSITION', `${side === 0 ? 'Black' : 'White'} has just moved but has no piece`);
  }
  const board = { white, black, kings: w.kings | b.kings };
  const counts = countsFor(values, board);
  const problem = countProblem(counts, board, mover);
  if (problem) return invalid('INVALID_POSITION', problem);
  return ok(freshState(white, black, board.kings, side, counts));
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
  const counts = [state.kingsOnly, state.endgame, state.threeKings, state.longDiagonal, state.smallMaterial];
  return counts.some((c) => c > 0) ? `${base}:D${counts.join(',')}` : base;
}
