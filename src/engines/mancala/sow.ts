// The one sowing routine of all mancala games. It works in place on a pit array (layout in
// ./rules.ts) so that the engine (on a fresh copy) and the perft fast path (on preallocated
// buffers) run exactly the same code.
import { storeIndex, type Ruleset } from './rules';

/** Optional record of what a move did, for describeMove. Pit indices, in order. */
export interface SowTrace {
  readonly pits: number[];
  readonly relays: number[];
  readonly captures: number[];
}

/** Packed sow result: bit 0 = last seed in the mover's store (extra move), the rest = seeds captured. */
export const EXTRA_MOVE = 1;
export const capturedOf = (packed: number): number => packed >>> 1;

/** End codes returned by `settle`. */
export const ONGOING = 0;
export const ROW_EMPTY = 1;
export const MAJORITY = 2;
export const NO_MOVES = 3;

/** Sow house `house` (0-based) of `side` in place, apply captures; returns the packed result. */
export function sow(r: Ruleset, p: Uint16Array, side: number, house: number, trace?: SowTrace): number {
  const h = r.houses;
  const base = side === 0 ? 0 : h + 1;
  const ownStore = base + h;
  const next = r.next[side as 0 | 1];
  const origin = base + house;
  let pos = origin;
  let hand = p[origin] as number;
  p[origin] = 0;
  for (;;) {
    while (hand > 0) {
      pos = next[pos] as number;
      if (pos === origin && r.skipOrigin) pos = next[pos] as number;
      p[pos] = (p[pos] as number) + 1;
      hand--;
      if (trace) trace.pits.push(pos);
    }
    // Relay: a last seed in an occupied house (either side, never a store) lifts it and goes on.
    if (r.relay && pos !== ownStore && (p[pos] as number) > 1) {
      hand = p[pos] as number;
      p[pos] = 0;
      if (trace) trace.relays.push(pos);
      continue;
    }
    break;
  }
  if (pos === ownStore) return r.storesSown ? EXTRA_MOVE : 0;
  return r.capture === 'opposite'
    ? captureOpposite(r, p, pos, base, ownStore, trace)
    : captureChain(r, p, pos, side, trace);
}

/** Kalah / Congkak: last seed alone in an own house takes the opposite house and itself. */
function captureOpposite(
  r: Ruleset,
  p: Uint16Array,
  pos: number,
  base: number,
  ownStore: number,
  trace: SowTrace | undefined,
): number {
  if (pos < base || pos >= ownStore || p[pos] !== 1) return 0;
  const opposite = 2 * r.houses - pos;
  const seeds = p[opposite] as number;
  if (seeds === 0 && !r.emptyCapture) return 0;
  p[opposite] = 0;
  p[pos] = 0;
  p[ownStore] = (p[ownStore] as number) + seeds + 1;
  if (trace) trace.captures.push(...(seeds > 0 ? [opposite, pos] : [pos]));
  return (seeds + 1) << 1;
}

/** Oware: 2s and 3s in the opponent's row, from the last seed backwards; grand slam per rules. */
function captureChain(
  r: Ruleset,
  p: Uint16Array,
  pos: number,
  side: number,
  trace: SowTrace | undefined,
): number {
  const h = r.houses;
  const oppBase = side === 0 ? h + 1 : 0;
  if (pos < oppBase || pos >= oppBase + h) return 0;
  let q = pos;
  let sum = 0;
  while (q >= oppBase && (p[q] === 2 || p[q] === 3)) sum += p[q--] as number;
  if (sum === 0) return 0;
  if (r.grandSlam === 'noCapture') {
    let left = 0;
    for (let i = oppBase; i < oppBase + h; i++) left += p[i] as number;
    if (left === sum) return 0;
  }
  for (let i = pos; i > q; i--) {
    p[i] = 0;
    if (trace) trace.captures.push(i);
  }
  const store = storeIndex(h, side);
  p[store] = (p[store] as number) + sum;
  return sum << 1;
}

/** Seeds in `side`'s houses. */
export function rowSeeds(r: Ruleset, p: Uint16Array, side: number): number {
  const base = side === 0 ? 0 : r.houses + 1;
  let sum = 0;
  for (let i = base; i < base + r.houses; i++) sum += p[i] as number;
  return sum;
}

/** Legal houses of `side` as a bit mask (bit i = house i+1); the end of the game is not checked. */
export function legalMask(r: Ruleset, p: Uint16Array, side: number): number {
  const h = r.houses;
  const base = side === 0 ? 0 : h + 1;
  const feed = r.mustFeed && rowSeeds(r, p, 1 - side) === 0;
  let mask = 0;
  for (let i = 0; i < h; i++) {
    const seeds = p[base + i] as number;
    // Feeding: the sowing must reach the opponent's first house, h - i pits away.
    if (seeds > 0 && (!feed || seeds >= h - i)) mask |= 1 << i;
  }
  return mask;
}

/**
 * Decide whether the game ended after `mover`'s move, with `toMove` to play next. Row-empty games
 * sweep each row into its owner's store in place (the rules' final position shows the sweep).
 */
export function settle(r: Ruleset, p: Uint16Array, toMove: number): number {
  const h = r.houses;
  if (r.end === 'row-empty') {
    const south = rowSeeds(r, p, 0);
    const north = rowSeeds(r, p, 1);
    if (south !== 0 && north !== 0) return ONGOING;
    for (let i = 0; i < h; i++) p[i] = 0;
    for (let i = h + 1; i <= 2 * h; i++) p[i] = 0;
    p[h] = (p[h] as number) + south;
    p[2 * h + 1] = (p[2 * h + 1] as number) + north;
    return ROW_EMPTY;
  }
  if ((p[h] as number) > r.majorityAbove || (p[2 * h + 1] as number) > r.majorityAbove) return MAJORITY;
  return legalMask(r, p, toMove) === 0 ? NO_MOVES : ONGOING;
}

/** Like `settle` for a position read from text: decides the end without changing the pits. */
export function endOf(r: Ruleset, p: Uint16Array, toMove: number): number {
  if (r.end === 'row-empty') return rowSeeds(r, p, 0) === 0 || rowSeeds(r, p, 1) === 0 ? ROW_EMPTY : ONGOING;
  return settle(r, p, toMove);
}

/** Each player takes the seeds left in his own row into his own store, in place. */
export function sweep(r: Ruleset, p: Uint16Array): void {
  const h = r.houses;
  for (let side = 0; side < 2; side++) {
    const base = side * (h + 1);
    let seeds = 0;
    for (let i = base; i < base + h; i++) {
      seeds += p[i] as number;
      p[i] = 0;
    }
    p[base + h] = (p[base + h] as number) + seeds;
  }
}
