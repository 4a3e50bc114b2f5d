// Russian draughts (shashki) behind the Engine contract (rules: docs/rules/russian-draughts.md).
// The representation (bitboards, see board.ts) stays inside this folder; callers see notation.
//
// Resolutions of the rules' open questions (B1–B11):
// - moves() lists capture sequences with duplicates dropped (same origin, destination, captured set
//   and crowning = one move); the first path generated is the one shown. perft.ts also counts the
//   keep convention. A king's straight-on continuation is generated from the first landing square.
//   parseMove accepts every legal path, listed or not, and answers with the listed one (B11).
// - Draw counts are plies, one per rule (state.ts): 7.2.5 kings only 30, 7.2.4 30 (a side with ≥ 3
//   kings against a lone king, men allowed; restarts at every capture and promotion, B9), 7.2.6
//   60 / 120 by total pieces (B7), 7.2.7 / 7.2.8 10. Each count starts at 0 on the move that makes
//   its condition hold and runs while it holds (B10). A side without a move loses before any draw
//   applies; simultaneous draws are reported most specific first: long-diagonal, small-material,
//   three-kings-vs-one, endgame-30-60, kings-only-15, threefold-repetition, then the move limit.
import type { Engine, GameRecord } from '../engine';
import { err, ok, type BoardView, type EngineError, type Options, type Result, type Side } from '../types';
import { squareName, squaresOf } from './board';
import { formatFen, parseFen } from './fen';
import { MoveList, generate } from './movegen';
import { formatMoveText, parseMoveText, type DraughtsMove, type OtherPaths } from './notation';
import { followCapturePath } from './path';
import { writePdn } from './pdn';
import { statePerft } from './perft';
import { applyMove, freshState, type DraughtsState } from './state';

export type { DraughtsMove } from './notation';
export type { DraughtsState } from './state';

const START_WHITE = 0x00000fff;
const START_BLACK = 0xfff00000 | 0;

/** The standard start with `first` to move. */
function startState(first: Side): DraughtsState {
  return freshState(START_WHITE, START_BLACK, 0, first);
}

// Legal-move lists per state (states are immutable, so a weak cache is safe).
const movesCache = new WeakMap<DraughtsState, readonly DraughtsMove[]>();
const pathsCache = new WeakMap<DraughtsState, readonly DraughtsMove[]>();

function listMoves(state: DraughtsState, keep: boolean): readonly DraughtsMove[] {
  if (state.outcome !== null) return [];
  const list = new MoveList();
  list.paths = [];
  const own = state.side === 0 ? state.white : state.black;
  const opp = state.side === 0 ? state.black : state.white;
  generate(own, opp, state.kings, state.side === 0, list, keep);
  const paths = list.paths;
  return Array.from({ length: list.n }, (_, i) => ({
    from: list.from[i] as number,
    path: paths[i] as number[],
    captured: list.captured[i] as number,
    promotes: list.promotes[i] === 1,
  }));
}

/** Every legal move of `state` (drop-duplicates convention); [] once the game is over. */
export function legalMoves(state: DraughtsState): readonly DraughtsMove[] {
  let moves = movesCache.get(state);
  if (!moves) movesCache.set(state, (moves = listMoves(state, false)));
  return moves;
}

/** What parseMove also accepts: every capture path, and any path that obeys the rules (B11). */
function otherPaths(state: DraughtsState): OtherPaths {
  const own = state.side === 0 ? state.white : state.black;
  const opp = state.side === 0 ? state.black : state.white;
  return {
    paths: () => {
      let paths = pathsCache.get(state);
      if (!paths) pathsCache.set(state, (paths = listMoves(state, true)));
      return paths;
    },
    follow: (squares) => followCapturePath(squares, own, opp, state.kings, state.side === 0),
  };
}

/** The listed move `text` means (any legal path or unambiguous shorthand). */
function parseMove(state: DraughtsState, text: string): Result<DraughtsMove, EngineError> {
  if (state.outcome !== null && typeof text === 'string') {
    return err({ code: 'GAME_OVER', message: 'the game is over' });
  }
  return parseMoveText(legalMoves(state), text, otherPaths(state));
}

/** Bytes of a state object, and of one cached move (object and landing-square array), estimated. */
const STATE_BYTES = 200;
const MOVE_BYTES = 120;

/** The states kept alive by `state` (its history chain) and their cached move lists, in bytes. */
function stateBytes(state: DraughtsState): number {
  let bytes = 0;
  for (let s: DraughtsState | null = state; s !== null; s = s.prev) {
    bytes += STATE_BYTES + MOVE_BYTES * ((movesCache.get(s)?.length ?? 0) + (pathsCache.get(s)?.length ?? 0));
  }
  return bytes;
}

function isState(value: unknown): value is DraughtsState {
  const s = value as DraughtsState | null;
  return typeof s === 'object' && s !== null && typeof s.white === 'number' && (s.side === 0 || s.side === 1);
}

/** The legal move equal to `move` (same origin and landing squares), if any. */
function findLegal(state: DraughtsState, move: unknown): DraughtsMove | undefined {
  const m = move as DraughtsMove | null;
  if (typeof m !== 'object' || m === null || !Array.isArray(m.path)) return undefined;
  return legalMoves(state).find(
    (l) => l.from === m.from && l.path.length === m.path.length && l.path.every((s, i) => s === m.path[i]),
  );
}

function play(state: DraughtsState, move: DraughtsMove): Result<DraughtsState, EngineError> {
  if (!isState(state)) return err({ code: 'INVALID_POSITION', message: 'not a draughts state' });
  if (state.outcome !== null) return err({ code: 'GAME_OVER', message: 'the game is over' });
  const legal = findLegal(state, move);
  if (!legal) return err({ code: 'ILLEGAL_MOVE', message: 'not a legal move here' });
  return ok(
    applyMove(state, legal.from, legal.path[legal.path.length - 1] as number, legal.captured, legal.promotes),
  );
}

function board(state: DraughtsState): BoardView {
  const pieces = [...squaresOf(state.white), ...squaresOf(state.black)].map((s) => ({
    square: squareName(s),
    side: ((state.white & (1 << s)) !== 0 ? 0 : 1) as Side,
    piece: (state.kings & (1 << s)) !== 0 ? 'king' : 'man',
  }));
  return { type: 'grid', files: 8, ranks: 8, pieces, zones: [] };
}

function parseOptions(raw: unknown): Result<Options, EngineError> {
  if (raw === undefined || raw === null) return ok({});
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return err({ code: 'INVALID_OPTIONS', message: 'options must be an object' });
  }
  const names = Object.keys(raw);
  if (names.length > 0) {
    return err({
      code: 'INVALID_OPTIONS',
      message: `Russian draughts has no options (got ${names.join(', ')})`,
    });
  }
  return ok({});
}

/** Replays a record's moves from its start, for canonical notation; stops at the first bad move. */
function exportRecord(record: GameRecord): string {
  const start = record.initialPosition === undefined ? undefined : parseFen(record.initialPosition);
  let state = start?.ok ? start.value : startState(record.first);
  const moves: string[] = [];
  for (const text of record.moves) {
    const move = parseMove(state, text);
    if (!move.ok) {
      moves.push(text);
      continue;
    }
    moves.push(formatMoveText(move.value));
    const next = play(state, move.value);
    if (next.ok) state = next.value;
  }
  const startFen = record.initialPosition ?? (record.first === 1 ? formatFen(startState(1)) : undefined);
  return writePdn(record, moves, startFen);
}

export const russianDraughts: Engine<DraughtsState, DraughtsMove> = {
  kind: 'russian-draughts',
  rulesVersion: '2',
  seatNames: ['white', 'black'],
  parseOptions,
  setup: (_options: Options, first: Side = 0) => startState(first),
  turn: (state) => state.side,
  moves: legalMoves,
  play,
  outcome: (state) => state.outcome ?? undefined,
  parseMove,
  formatMove: (_state, move) => formatMoveText(move),
  parseState: (text) => parseFen(text),
  formatState: formatFen,
  board,
  stateBytes,
  perft: statePerft,
  describeMove: (state, move) => {
    const legal = findLegal(state, move);
    return {
      family: 'draughts',
      captured: legal ? squaresOf(legal.captured).map(squareName) : [],
      promoted: legal?.promotes ?? false,
      path: legal ? [legal.from, ...legal.path].map(squareName) : [],
    };
  },
  exportRecord,
};
