// The Congo game state: board, side to move, the ply count (for the move limit), and the chain of earlier positions since the last
// irreversible move (capture, drowning or promotion), for the threefold-repetition house rule.
import type { Side } from '../types';
import { LION, SQUARES, inCastle } from './board';

/**
 * The house move limit (docs/rules/README.md, "House rules"): a game still going on after this many
 * plies is drawn with reason `move-limit`. Far above real games. The kind's descriptor (./kind.ts)
 * publishes it.
 */
export const CONGO_MOVE_LIMIT = 600;

export interface CongoState {
  /** Mailbox board (see board.ts); never written after the state is built. */
  readonly board: Int8Array;
  readonly side: Side;
  /** 32-bit Zobrist key of (board, side); equal keys are confirmed on the boards. */
  readonly hash: number;
  /** The previous position while no irreversible move intervened, else undefined. */
  readonly prev: CongoState | undefined;
  /** How often this exact position (board, side) occurred before in `prev`'s chain. */
  readonly repeats: number;
  /** Plies played since the start of the game (or since the position it was set up from). */
  readonly ply: number;
}

// Deterministic keys (xorshift32), 17 codes per square: piece value + 8.
const ZOBRIST = new Int32Array(SQUARES * 17);
let seed = 0x9e3779b9 | 0;
for (let i = 0; i < ZOBRIST.length; i++) {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  ZOBRIST[i] = seed;
}
const BLACK_TO_MOVE = 0x5bd1e995;

/** Zobrist key of a position. */
export function hashPosition(board: Int8Array, side: Side): number {
  let h = side === 0 ? 0 : BLACK_TO_MOVE;
  for (let sq = 0; sq < SQUARES; sq++) {
    const p = board[sq] as number;
    if (p !== 0) h ^= ZOBRIST[sq * 17 + p + 8] as number;
  }
  return h;
}

/** True when two boards hold the same pieces on the same squares. */
export function sameBoard(a: Int8Array, b: Int8Array): boolean {
  for (let sq = 0; sq < SQUARES; sq++) if (a[sq] !== b[sq]) return false;
  return true;
}

/**
 * Builds a state at `ply`; `prev` is the position before a reversible move (undefined after an
 * irreversible one).
 */
export function makeState(
  board: Int8Array,
  side: Side,
  prev: CongoState | undefined,
  ply: number,
): CongoState {
  const hash = hashPosition(board, side);
  let repeats = 0;
  // Same side to move only every second position back.
  for (let s = prev?.prev; s; s = s.prev?.prev) {
    if (s.hash === hash && s.side === side && sameBoard(s.board, board)) repeats++;
  }
  return { board, side, hash, prev, repeats, ply };
}

/**
 * Where a side's lion can stand: its own castle, then the other one (where it stands after taking
 * the other lion by the facing-lions move; fen.ts refuses any other square). Searched instead of the
 * whole board: the search's evaluation and end-of-game check look for both lions at every node.
 */
const LION_SQUARES: readonly Int8Array[] = [0, 1].map((side) => {
  const squares = Array.from({ length: SQUARES }, (_, sq) => sq);
  const own = squares.filter((sq) => inCastle(sq, side as Side));
  const other = squares.filter((sq) => inCastle(sq, (1 - side) as Side));
  return Int8Array.from([...own, ...other]);
});

/** Square of `side`'s lion, or -1 once it has been captured. */
export function lionSquare(board: Int8Array, side: Side): number {
  const lion = side === 0 ? LION : -LION;
  for (const sq of LION_SQUARES[side] as Int8Array) if (board[sq] === lion) return sq;
  return -1;
}

/** Number of pieces on the board. */
export function pieceCount(board: Int8Array): number {
  let n = 0;
  for (let sq = 0; sq < SQUARES; sq++) if (board[sq] !== 0) n++;
  return n;
}
