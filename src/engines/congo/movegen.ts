// Move generation and execution over the mailbox board (see board.ts). Allocation-free in the
// hot path: moves go into a reusable MoveList, monkey paths into its byte pool.
import { MONKEY_SEQUENCE_LIMIT } from '../limits';
import type { Side } from '../types';
import {
  BACK_RAYS,
  CROCODILE,
  ELEPHANT,
  ELEPHANT_MOVES,
  GIRAFFE,
  JUMPS,
  KNIGHT_LEAP,
  LAST_RANK,
  LEAP2,
  LION,
  LION_STEPS,
  MONKEY,
  PAWN,
  PAWN_FORWARD,
  RIVER_RANK,
  SIDEWAYS,
  SIZE,
  SQUARES,
  STEP8,
  SUPERPAWN,
  ZEBRA,
  fileOf,
  rankOf,
  type Table,
} from './board';

/**
 * A list of moves. Move i is `from | to << 6`, plus JUMP_FLAG for a monkey capture sequence whose
 * landing squares are pool[jump[i] + 1 .. jump[i] + pool[jump[i]]] (the last one is `to`).
 */
export class MoveList {
  n = 0;
  /** Monkey capture sequences listed; generation stops once they pass MONKEY_SEQUENCE_LIMIT. */
  jumps = 0;
  overflow = false;
  mv = new Int32Array(128);
  jump = new Int32Array(128);
  pool = new Int8Array(512);
  poolN = 0;

  reset(): void {
    this.n = 0;
    this.poolN = 0;
    this.jumps = 0;
    this.overflow = false;
  }

  add(from: number, to: number): void {
    if (this.n === this.mv.length) this.grow();
    this.mv[this.n++] = from | (to << 6);
  }

  addJump(from: number, path: Int8Array, len: number): void {
    if (this.n === this.mv.length) this.grow();
    if (this.poolN + len + 1 > this.pool.length) {
      const bigger = new Int8Array(Math.max(this.pool.length * 2, this.poolN + len + 1));
      bigger.set(this.pool);
      this.pool = bigger;
    }
    const at = this.poolN;
    this.pool[at] = len;
    for (let k = 0; k < len; k++) this.pool[at + 1 + k] = path[k] as number;
    this.poolN = at + len + 1;
    this.jump[this.n] = at;
    this.mv[this.n++] = from | ((path[len - 1] as number) << 6) | JUMP_FLAG;
  }

  private grow(): void {
    const mv = new Int32Array(this.mv.length * 2);
    mv.set(this.mv);
    this.mv = mv;
    const jump = new Int32Array(this.jump.length * 2);
    jump.set(this.jump);
    this.jump = jump;
  }

  /** The visited squares of move i: from, then every landing square. */
  path(i: number): number[] {
    const m = this.mv[i] as number;
    const from = m & 63;
    if (!(m & JUMP_FLAG)) return [from, (m >> 6) & 63];
    const at = this.jump[i] as number;
    const len = this.pool[at] as number;
    const out = [from];
    for (let k = 1; k <= len; k++) out.push(this.pool[at + k] as number);
    return out;
  }
}

export const JUMP_FLAG = 1 << 12;

// Scratch state for the monkey search (generation is not re-entrant).
const jumped = new Uint8Array(SQUARES);
const jumpPath = new Int8Array(64);

/** Appends every legal move of `side` on `board` to `out` (which is not reset). */
export function generate(board: Int8Array, side: Side, out: MoveList): void {
  const sign = side === 0 ? 1 : -1;
  for (let sq = 0; sq < SQUARES; sq++) {
    const p = (board[sq] as number) * sign;
    if (p <= 0) continue;
    switch (p) {
      case LION:
        targets(board, sign, sq, LION_STEPS[side], out);
        facingLions(board, sign, sq, out);
        break;
      case ZEBRA:
        targets(board, sign, sq, KNIGHT_LEAP, out);
        break;
      case ELEPHANT:
        targets(board, sign, sq, ELEPHANT_MOVES, out);
        break;
      case GIRAFFE:
        quiet(board, sq, STEP8, out);
        targets(board, sign, sq, LEAP2, out);
        break;
      case CROCODILE:
        targets(board, sign, sq, STEP8, out);
        crocodileSlides(board, sign, sq, out);
        break;
      case MONKEY:
        quiet(board, sq, STEP8, out);
        board[sq] = 0; // the monkey has left its square: it may land there again
        monkeyJumps(board, sign, sq, sq, 0, out);
        board[sq] = p * sign;
        break;
      case PAWN:
        targets(board, sign, sq, PAWN_FORWARD[side], out);
        // Only a pawn strictly past the river (not in it) may retreat.
        if (side === 0 ? rankOf(sq) > RIVER_RANK : rankOf(sq) < RIVER_RANK) retreats(board, sq, side, 1, out);
        break;
      case SUPERPAWN:
        targets(board, sign, sq, PAWN_FORWARD[side], out);
        targets(board, sign, sq, SIDEWAYS, out);
        retreats(board, sq, side, 3, out);
        break;
    }
  }
}

/** Targets of a table that are empty or hold an enemy piece. */
function targets(board: Int8Array, sign: number, from: number, t: Table, out: MoveList): void {
  const to = t.to;
  for (let i = t.start[from] as number, end = t.start[from + 1] as number; i < end; i++) {
    const sq = to[i] as number;
    if ((board[sq] as number) * sign <= 0) out.add(from, sq);
  }
}

/** Targets of a table that are empty (non-capturing moves). */
function quiet(board: Int8Array, from: number, t: Table, out: MoveList): void {
  const to = t.to;
  for (let i = t.start[from] as number, end = t.start[from + 1] as number; i < end; i++) {
    const sq = to[i] as number;
    if (board[sq] === 0) out.add(from, sq);
  }
}

/** Non-capturing, non-jumping retreats of 1 or 2 squares along the first `rays` backward rays. */
function retreats(board: Int8Array, from: number, side: Side, rays: number, out: MoveList): void {
  const t = BACK_RAYS[side];
  const to = t.to;
  const end = Math.min(t.start[from + 1] as number, (t.start[from] as number) + 2 * rays);
  for (let i = t.start[from] as number; i < end; i += 2) {
    const one = to[i] as number;
    if (board[one] !== 0) continue;
    out.add(from, one);
    const two = to[i + 1] as number;
    if (two >= 0 && board[two] === 0) out.add(from, two);
  }
}

/** The lion of the mover on `from` captures the enemy lion along an open file or diagonal. */
function facingLions(board: Int8Array, sign: number, from: number, out: MoveList): void {
  const target = lionFacing(board, sign, from);
  if (target >= 0) out.add(from, target);
}

/** The enemy lion's square if the lion on `from` faces it along an open file or diagonal, else -1. */
export function lionFacing(board: Int8Array, sign: number, from: number): number {
  const f = fileOf(from);
  const step = sign * SIZE; // toward the enemy castle
  // Only three lines can join the castles: the file, and the two diagonals through d4.
  for (let pass = 0; pass < 3; pass++) {
    const df = pass === 0 ? 0 : pass === 1 ? 1 : -1;
    let sq = from;
    let file = f;
    for (;;) {
      file += df;
      sq += step + df;
      if (file < 0 || file >= SIZE || sq < 0 || sq >= SQUARES) break;
      const q = board[sq] as number;
      if (q === 0) continue;
      if (q === -sign * LION) return sq;
      break;
    }
  }
  return -1;
}

/** Crocodile slides (steps are generated separately; a square reachable both ways is one move). */
function crocodileSlides(board: Int8Array, sign: number, from: number, out: MoveList): void {
  const r = rankOf(from);
  if (r === RIVER_RANK) {
    const f = fileOf(from);
    slide(board, sign, from, -1, f, out);
    slide(board, sign, from, 1, SIZE - 1 - f, out);
  } else if (r < RIVER_RANK) slide(board, sign, from, SIZE, RIVER_RANK - r, out);
  else slide(board, sign, from, -SIZE, r - RIVER_RANK, out);
}

function slide(board: Int8Array, sign: number, from: number, d: number, len: number, out: MoveList): void {
  if (len < 2 || board[from + d] !== 0) return; // the first square is a step
  for (let k = 2, sq = from + 2 * d; k <= len; k++, sq += d) {
    const q = (board[sq] as number) * sign;
    if (q > 0) return;
    out.add(from, sq);
    if (q < 0) return;
  }
}

/**
 * Every non-empty capture sequence of the monkey from `at` (jumped pieces stay until the end), up to
 * MONKEY_SEQUENCE_LIMIT in all; past it `out.overflow` is set and the search stops.
 */
function monkeyJumps(
  board: Int8Array,
  sign: number,
  from: number,
  at: number,
  len: number,
  out: MoveList,
): void {
  const to = JUMPS.to;
  for (let i = JUMPS.start[at] as number, end = JUMPS.start[at + 1] as number; i < end; i += 2) {
    const mid = to[i] as number;
    const land = to[i + 1] as number;
    const q = (board[mid] as number) * sign;
    if (q >= 0 || board[land] !== 0 || jumped[mid]) continue;
    if (out.jumps >= MONKEY_SEQUENCE_LIMIT) {
      out.overflow = true;
      return;
    }
    jumpPath[len] = land;
    out.addJump(from, jumpPath, len + 1);
    out.jumps++;
    if (q === -LION) continue; // jumping the lion ends the move (and the game)
    jumped[mid] = 1;
    monkeyJumps(board, sign, from, land, len + 1, out);
    jumped[mid] = 0;
  }
}

/** What a move did, for clients (squares as indices). */
export interface MoveReport {
  captured: number[];
  drowned: number[];
  promoted: boolean;
}

/** Bits of makeMove's result above the removed-piece count. */
export const LION_TAKEN = 1 << 8;
export const PROMOTED = 1 << 9;

/**
 * Plays move i of `list` for `side` on `board` in place: captures, promotion, then drowning.
 * Returns the number of pieces removed, plus LION_TAKEN / PROMOTED bits.
 */
export function makeMove(
  board: Int8Array,
  side: Side,
  list: MoveList,
  i: number,
  report?: MoveReport,
): number {
  const m = list.mv[i] as number;
  const from = m & 63;
  const to = (m >> 6) & 63;
  const sign = side === 0 ? 1 : -1;
  let piece = board[from] as number;
  let removed = 0;
  let flags = 0;
  board[from] = 0;
  if (m & JUMP_FLAG) {
    const pool = list.pool;
    const at = list.jump[i] as number;
    let prev = from;
    for (let k = 1, len = pool[at] as number; k <= len; k++) {
      const land = pool[at + k] as number;
      const mid = (prev + land) >> 1;
      if (board[mid] === -sign * LION) flags |= LION_TAKEN;
      board[mid] = 0;
      removed++;
      if (report) report.captured.push(mid);
      prev = land;
    }
  } else if (board[to] !== 0) {
    if (board[to] === -sign * LION) flags |= LION_TAKEN;
    removed++;
    if (report) report.captured.push(to);
  }
  if (piece === sign * PAWN && rankOf(to) === LAST_RANK[side]) {
    piece = sign * SUPERPAWN;
    flags |= PROMOTED;
    if (report) report.promoted = true;
  }
  board[to] = piece;
  // Drowning: the mover's non-crocodile pieces in the river, except the piece that just moved
  // there from land.
  const exempt = rankOf(from) === RIVER_RANK ? -1 : to;
  for (let sq = RIVER_RANK * SIZE, end = sq + SIZE; sq < end; sq++) {
    const q = (board[sq] as number) * sign;
    if (q > 0 && q !== CROCODILE && sq !== exempt) {
      board[sq] = 0;
      removed++;
      if (report) report.drowned.push(sq);
    }
  }
  return removed | flags;
}
