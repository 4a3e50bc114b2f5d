// Fast perft over the bitboards. Positions without kings cannot reach a draw rule (every move there
// is irreversible and the draw rules need kings), so they recurse on bare bitboards; the first node
// with a king (reached by a promotion: all counters zero, no history) continues over full states so
// that the draw rules count exactly as in `moves()`/`play()`.
import type { Side } from '../types';
import { MoveList, countMoves, generate } from './movegen';
import { DRAUGHTS_MOVE_LIMIT, ZERO_COUNTS, applyMove, freshState, type DraughtsState } from './state';

const LISTS: MoveList[] = [];
const listAt = (ply: number): MoveList => {
  while (LISTS.length <= ply) LISTS.push(new MoveList());
  return LISTS[ply] as MoveList;
};

function bitsPerft(
  white: number,
  black: number,
  kings: number,
  side: Side,
  depth: number,
  keep: boolean,
  ply: number,
): number {
  const own = side === 0 ? white : black;
  const opp = side === 0 ? black : white;
  const list = listAt(depth);
  if (depth === 1) return countMoves(own, opp, kings, side === 0, list, keep);
  generate(own, opp, kings, side === 0, list, keep);
  const next: Side = side === 0 ? 1 : 0;
  let nodes = 0;
  for (let i = 0, n = list.n; i < n; i++) {
    const fromBit = 1 << (list.from[i] as number);
    const toBit = 1 << (list.to[i] as number);
    const captured = list.captured[i] as number;
    let k = kings & ~captured & ~fromBit;
    if ((kings & fromBit) !== 0 || list.promotes[i] === 1) k |= toBit;
    const w = side === 0 ? (white & ~fromBit) | toBit : white & ~captured;
    const b = side === 0 ? black & ~captured : (black & ~fromBit) | toBit;
    if (keep || k === 0) nodes += bitsPerft(w, b, k, next, depth - 1, keep, ply + 1);
    else nodes += statePerft(freshState(w, b, k, next, ZERO_COUNTS, ply + 1), depth - 1);
  }
  return nodes;
}

/** Perft with the draw rules, equal to the generic perft over `moves()` (drop convention). */
export function statePerft(state: DraughtsState, depth: number): number {
  if (depth === 0) return 1;
  if (state.outcome !== null) return 0;
  // Bare bitboards also skip the move limit: only when the line cannot reach it.
  if (state.kings === 0 && state.ply + depth < DRAUGHTS_MOVE_LIMIT)
    return bitsPerft(state.white, state.black, 0, state.side, depth, false, state.ply);
  const list = listAt(depth);
  const own = state.side === 0 ? state.white : state.black;
  const opp = state.side === 0 ? state.black : state.white;
  generate(own, opp, state.kings, state.side === 0, list, false);
  if (depth === 1) return list.n;
  let nodes = 0;
  for (let i = 0; i < list.n; i++) {
    const child = applyMove(
      state,
      list.from[i] as number,
      list.to[i] as number,
      list.captured[i] as number,
      list.promotes[i] === 1,
    );
    nodes += statePerft(child, depth - 1);
  }
  return nodes;
}

/**
 * Perft in the keep-duplicates convention (rules B1/B2: every capture path counted, a king's
 * straight-on continuation once). A move-generator check: draw rules are not applied.
 */
export function perftKeep(state: DraughtsState, depth: number): number {
  if (depth === 0) return 1;
  if (state.outcome !== null && state.outcome.reason === 'no-moves') return 0;
  return bitsPerft(state.white, state.black, state.kings, state.side, depth, true, state.ply);
}
