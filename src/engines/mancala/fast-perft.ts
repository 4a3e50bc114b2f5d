// Perft over preallocated pit buffers (one per ply): copy the parent, sow in place, recurse. Runs the
// same `sow` / `settle` as `play`, so it differs from the generic perft only in not building states.
import type { Side } from '../types';
import type { Ruleset } from './rules';
import { EXTRA_MOVE, ONGOING, capturedOf, legalMask, settle, sow } from './sow';
import { occurrences, samePosition, type History, type MancalaState } from './state';

function popcount(mask: number): number {
  let count = 0;
  for (let m = mask; m !== 0; m &= m - 1) count++;
  return count;
}

interface Search {
  readonly r: Ruleset;
  readonly bufs: Uint16Array[];
  /** Side to move at each ply of the current line. */
  readonly sides: Side[];
  readonly root: History | undefined;
  /** Plies left before the move limit ends the game. */
  readonly left: number;
}

/** Number of legal move sequences of length `depth` from `state`. */
export function mancalaPerft(state: MancalaState, depth: number): number {
  if (depth <= 0) return 1;
  if (state.outcome) return 0;
  const r = state.rules;
  const bufs = Array.from({ length: depth + 1 }, () => new Uint16Array(r.n));
  (bufs[0] as Uint16Array).set(state.pits);
  const left = r.moveLimit - state.ply;
  const search: Search = { r, bufs, sides: new Array<Side>(depth + 1).fill(0), root: state.history, left };
  search.sides[0] = state.toMove;
  return r.repetition
    ? withHistory(search, 0, depth, state.toMove, 0)
    : plain(r, bufs, 0, depth, state.toMove, left);
}

function plain(
  r: Ruleset,
  bufs: Uint16Array[],
  ply: number,
  depth: number,
  side: Side,
  left: number,
): number {
  const p = bufs[ply] as Uint16Array;
  const mask = legalMask(r, p, side);
  if (depth === 1) return popcount(mask);
  const child = bufs[ply + 1] as Uint16Array;
  let nodes = 0;
  for (let house = 0, m = mask; m !== 0; house++, m >>>= 1) {
    if ((m & 1) === 0) continue;
    child.set(p);
    const next: Side = (sow(r, child, side, house) & EXTRA_MOVE) !== 0 ? side : side === 0 ? 1 : 0;
    if (settle(r, child, next) !== ONGOING || ply + 1 >= left) continue; // ended (or the move limit)
    nodes += plain(r, bufs, ply + 1, depth - 1, next, left);
  }
  return nodes;
}

/**
 * Oware: as `plain`, plus the threefold-repetition end. `since` is the ply where the current
 * capture-free stretch starts; 0 means it reaches back into the root state's history.
 */
function withHistory(s: Search, ply: number, depth: number, side: Side, since: number): number {
  const { r, bufs, sides } = s;
  const p = bufs[ply] as Uint16Array;
  const mask = legalMask(r, p, side);
  if (depth === 1) return popcount(mask);
  const child = bufs[ply + 1] as Uint16Array;
  let nodes = 0;
  for (let house = 0, m = mask; m !== 0; house++, m >>>= 1) {
    if ((m & 1) === 0) continue;
    child.set(p);
    const packed = sow(r, child, side, house);
    const next: Side = (packed & EXTRA_MOVE) !== 0 ? side : side === 0 ? 1 : 0;
    if (settle(r, child, next) !== ONGOING) continue;
    let childSince = since;
    if (capturedOf(packed) > 0) childSince = ply + 1;
    else {
      let seen = since === 0 ? occurrences(s.root, child, next) : 0;
      for (let k = since === 0 ? 1 : since; k <= ply; k++) {
        if (sides[k] === next && samePosition(bufs[k] as Uint16Array, child)) seen++;
      }
      if (seen >= 2) continue;
    }
    if (ply + 1 >= s.left) continue; // the move limit
    sides[ply + 1] = next;
    nodes += withHistory(s, ply + 1, depth - 1, next, childSince);
  }
  return nodes;
}
