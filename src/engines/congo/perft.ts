// Fast perft: copy-make over per-ply buffers, bulk counting at depth 1, and the same end-of-game
// rules as the engine (lion captured, bare lions, threefold repetition, no moves, move limit).
import type { Side } from '../types';
import { SQUARES } from './board';
import { LION_TAKEN, MoveList, PROMOTED, generate, lionFacing, makeMove } from './movegen';
import { CONGO_MOVE_LIMIT, hashPosition, lionSquare, pieceCount, sameBoard, type CongoState } from './state';

interface Search {
  readonly lists: MoveList[];
  readonly buffers: Int8Array[];
  /** Positions in game order: the reversible history, then the current search path. */
  readonly hashes: Int32Array;
  readonly boards: Int8Array[];
  /** Index in hashes/boards of the root position. */
  readonly root: number;
  /** Plies left before the move limit ends the game. */
  readonly plies: number;
}

/** Number of move sequences of length `depth` from `state` (equals the generic perft). */
export function congoPerft(state: CongoState, depth: number): number {
  if (depth <= 0) return 1;
  if (lionSquare(state.board, state.side) < 0) return 0;
  const history: CongoState[] = [];
  for (let s: CongoState | undefined = state; s; s = s.prev) history.unshift(s);
  const root = history.length - 1;
  const search: Search = {
    lists: Array.from({ length: depth + 1 }, () => new MoveList()),
    buffers: Array.from({ length: depth + 1 }, () => new Int8Array(SQUARES)),
    hashes: new Int32Array(root + depth + 1),
    boards: history.map((s) => s.board),
    root,
    plies: CONGO_MOVE_LIMIT - state.ply,
  };
  history.forEach((s, i) => (search.hashes[i] = s.hash));
  const board = search.buffers[0] as Int8Array;
  board.set(state.board);
  return node(search, board, state.side, depth, 0, 0, pieceCount(board));
}

function node(
  s: Search,
  board: Int8Array,
  side: Side,
  depth: number,
  ply: number,
  lo: number,
  pieces: number,
): number {
  const sign = side === 0 ? 1 : -1;
  if (pieces === 2 && lionFacing(board, sign, lionSquare(board, side)) < 0) return 0; // bare lions
  const c = s.root + ply;
  let hash = 0;
  if (depth > 1 || c - lo >= 4) {
    hash = hashPosition(board, side);
    if (c - lo >= 4 && repeated(s, board, hash, c, lo)) return 0;
  }
  const list = s.lists[ply] as MoveList;
  list.reset();
  generate(board, side, list);
  if (list.n > 0 && (ply >= s.plies || list.overflow)) return 0; // the move limit
  if (depth === 1) return list.n;
  s.hashes[c] = hash;
  s.boards[c] = board;
  const child = s.buffers[ply + 1] as Int8Array;
  const next: Side = side === 0 ? 1 : 0;
  let total = 0;
  for (let i = 0, n = list.n; i < n; i++) {
    child.set(board);
    const r = makeMove(child, side, list, i);
    if (r & LION_TAKEN) continue; // the game is over: no moves below
    const removed = r & 255;
    const childLo = removed > 0 || r & PROMOTED ? c + 1 : lo;
    total += node(s, child, next, depth - 1, ply + 1, childLo, pieces - removed);
  }
  return total;
}

/** The position at index c occurred at least twice before (same side to move: every 2nd index). */
function repeated(s: Search, board: Int8Array, hash: number, c: number, lo: number): boolean {
  let seen = 0;
  for (let j = c - 2; j >= lo; j -= 2) {
    if (s.hashes[j] === hash && sameBoard(s.boards[j] as Int8Array, board) && ++seen >= 2) return true;
  }
  return false;
}
