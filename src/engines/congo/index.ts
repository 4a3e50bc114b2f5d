// The Congo engine (7×7 chess variant by Demian Freeling), rules as in docs/rules/congo.md:
// monkey-captured pieces leave at the end of the move, a jump over the lion ends the move, a
// river-start monkey whose sequence ends in the river drowns (A5), bare lions draw unless the side
// to move can capture (A11), no legal move loses.
// House rules (not Congo rules): the third occurrence of a position (board and side to move) is
// a draw, 'threefold-repetition'; a game reaching the move limit (CONGO_MOVE_LIMIT, ./state.ts) is a draw,
// 'move-limit'. History lives in the state (`prev` chain); parseState starts it empty at ply 0.
import type { Engine } from '../engine';
import { MONKEY_SEQUENCE_LIMIT } from '../limits';
import {
  err,
  ok,
  other,
  type BoardView,
  type EngineError,
  type GridZone,
  type Options,
  type Outcome,
  type Result,
  type Side,
} from '../types';
import { PIECE_NAMES, SQUARES, inCastle, parseSquare, squareName, RIVER_RANK, SIZE } from './board';
import { START_FEN, formatFen, parseFen } from './fen';
import { LION_TAKEN, MoveList, PROMOTED, generate, lionFacing, makeMove, type MoveReport } from './movegen';
import { congoPerft } from './perft';
import { exportCongoRecord } from './record';
import { CONGO_MOVE_LIMIT, lionSquare, makeState, pieceCount, type CongoState } from './state';

/** A move: the visited squares (from, then every landing square). Opaque outside this module. */
export interface CongoMove {
  readonly path: readonly number[];
}

interface Analysis {
  readonly outcome: Outcome | undefined;
  readonly list: MoveList;
  readonly moves: readonly CongoMove[];
}

// States are immutable, so their legal moves and outcome can be computed once.
const analyses = new WeakMap<CongoState, Analysis>();

function analyse(state: CongoState): Analysis {
  const cached = analyses.get(state);
  if (cached) return cached;
  const list = new MoveList();
  const outcome = endOf(state, list);
  const moves: CongoMove[] = [];
  if (!outcome)
    for (let i = 0; i < list.n; i++) moves.push(Object.freeze({ path: Object.freeze(list.path(i)) }));
  const analysis = { outcome, list, moves: Object.freeze(moves) };
  analyses.set(state, analysis);
  return analysis;
}

/**
 * The outcome of a position; fills `list` with the legal moves when the game goes on. The rules'
 * ends come first, then the house rules: repetition, and the move limit, which also ends a game in
 * the (never constructed) position with more monkey sequences than the engine lists.
 */
function endOf(state: CongoState, list: MoveList): Outcome | undefined {
  const { board, side } = state;
  const lion = lionSquare(board, side);
  if (lion < 0) return { winner: other(side), reason: 'lion-captured' };
  if (pieceCount(board) === 2 && lionFacing(board, side === 0 ? 1 : -1, lion) < 0) {
    return { reason: 'bare-lions' };
  }
  if (state.repeats >= 2) return { reason: 'threefold-repetition' };
  generate(board, side, list);
  if (list.n === 0) return { winner: other(side), reason: 'no-moves' };
  if (state.ply >= CONGO_MOVE_LIMIT || list.overflow) return { reason: 'move-limit' };
  return undefined;
}

/** Index of `move` among the state's legal moves, or -1. */
function indexOf(analysis: Analysis, move: unknown): number {
  if (typeof move !== 'object' || move === null) return -1;
  const path = (move as { path?: unknown }).path;
  if (!Array.isArray(path)) return -1;
  return analysis.moves.findIndex(
    (m) => m.path.length === path.length && m.path.every((sq, k) => sq === path[k]),
  );
}

const fail = (code: EngineError['code'], message: string): Result<never, EngineError> =>
  err({ code, message });

const SQUARE_LIST = (filter: (sq: number) => boolean): string[] =>
  Array.from({ length: SQUARES }, (_, sq) => sq)
    .filter(filter)
    .map(squareName);
const ZONES: readonly GridZone[] = [
  { name: 'river', squares: SQUARE_LIST((sq) => Math.floor(sq / SIZE) === RIVER_RANK) },
  { name: 'castle', side: 0, squares: SQUARE_LIST((sq) => inCastle(sq, 0)) },
  { name: 'castle', side: 1, squares: SQUARE_LIST((sq) => inCastle(sq, 1)) },
];

/** Bytes of a state (object and board), and of one listed move (object and path array), estimated. */
const STATE_BYTES = 300;
const MOVE_BYTES = 100;

/** The states kept alive by `state` (its history chain) and their cached analyses, in bytes. */
function stateBytes(state: CongoState): number {
  let bytes = 0;
  for (let s: CongoState | undefined = state; s; s = s.prev) {
    bytes += STATE_BYTES;
    const analysis = analyses.get(s);
    if (analysis) {
      const { list } = analysis;
      bytes += list.mv.byteLength + list.jump.byteLength + list.pool.byteLength;
      bytes += MOVE_BYTES * analysis.moves.length;
    }
  }
  return bytes;
}

const MOVE_SYNTAX = /^[a-g][1-7](-[a-g][1-7])+$/;

/** The Congo engine. */
export const congoEngine: Engine<CongoState, CongoMove> = {
  kind: 'congo',
  rulesVersion: 'congo-2',
  seatNames: ['white', 'black'],

  parseOptions(raw: unknown): Result<Options, EngineError> {
    if (raw === undefined || raw === null) return ok({});
    if (typeof raw !== 'object' || Array.isArray(raw))
      return fail('INVALID_OPTIONS', 'options must be an object');
    const names = Object.keys(raw);
    if (names.length > 0) return fail('INVALID_OPTIONS', `Congo has no options (got ${names.join(', ')})`);
    return ok({});
  },

  setup(_options: Options, first: Side = 0): CongoState {
    const start = parseFen(START_FEN.replace(/ w$/, first === 0 ? ' w' : ' b'));
    if (!start.ok) throw new Error(`bad start position: ${start.error.message}`); // a bug, not input
    return makeState(start.value.board, start.value.side, undefined, 0);
  },

  turn: (state) => state.side,

  moves: (state) => analyse(state).moves,

  play(state, move) {
    const analysis = analyse(state);
    if (analysis.outcome) return fail('GAME_OVER', `the game is over (${analysis.outcome.reason})`);
    const i = indexOf(analysis, move);
    if (i < 0) return fail('ILLEGAL_MOVE', 'not a legal move in this position');
    const board = state.board.slice();
    const r = makeMove(board, state.side, analysis.list, i);
    const irreversible = (r & 255) > 0 || (r & (PROMOTED | LION_TAKEN)) !== 0;
    return ok(makeState(board, other(state.side), irreversible ? undefined : state, state.ply + 1));
  },

  outcome: (state) => analyse(state).outcome,

  parseMove(state, text) {
    if (typeof text !== 'string') return fail('INVALID_NOTATION', 'a move is a string such as c2-c3');
    const notation = text.trim().toLowerCase();
    if (!MOVE_SYNTAX.test(notation)) return fail('INVALID_NOTATION', `not Congo move notation: ${text}`);
    const analysis = analyse(state);
    if (analysis.outcome) return fail('GAME_OVER', `the game is over (${analysis.outcome.reason})`);
    const path = notation.split('-').map(parseSquare);
    const i = indexOf(analysis, { path });
    if (i < 0) return fail('ILLEGAL_MOVE', `${notation} is not legal here`);
    return ok(analysis.moves[i] as CongoMove);
  },

  formatMove: (_state, move) => {
    let text = squareName(move.path[0] as number);
    for (let k = 1; k < move.path.length; k++) text += `-${squareName(move.path[k] as number)}`;
    return text;
  },

  parseState(text) {
    const parsed = parseFen(text);
    if (!parsed.ok) return parsed;
    const state = makeState(parsed.value.board, parsed.value.side, undefined, 0);
    const { list } = analyse(state);
    if (list.overflow) {
      return fail(
        'INVALID_POSITION',
        `the monkey has more than ${MONKEY_SEQUENCE_LIMIT} capture sequences here; the engine lists at most that many`,
      );
    }
    return ok(state);
  },

  formatState: (state) => formatFen(state.board, state.side),

  board(state): BoardView {
    const pieces = [];
    for (let sq = 0; sq < SQUARES; sq++) {
      const p = state.board[sq] as number;
      if (p === 0) continue;
      const side: Side = p > 0 ? 0 : 1;
      pieces.push({ square: squareName(sq), side, piece: PIECE_NAMES[Math.abs(p) - 1] as string });
    }
    return { type: 'grid', files: SIZE, ranks: SIZE, pieces, zones: ZONES };
  },

  stateBytes,

  perft: (state, depth) => congoPerft(state, depth),

  /** Captured and drowned squares and promotion of a legal move (empty for any other value). */
  describeMove(state, move) {
    const analysis = analyse(state);
    const report: MoveReport = { captured: [], drowned: [], promoted: false };
    const i = analysis.outcome ? -1 : indexOf(analysis, move);
    if (i >= 0) makeMove(state.board.slice(), state.side, analysis.list, i, report);
    return {
      family: 'congo',
      captured: report.captured.map(squareName),
      drowned: report.drowned.map(squareName),
      promoted: report.promoted,
    };
  },

  exportRecord: exportCongoRecord,
};
