// The game state: bitboards, side to move, the draw counters (in plies, as lidraughts counts) and a
// back-pointer to the previous state for threefold repetition, cut at every irreversible move (a man
// move or a capture), so repetition checks only walk back over king moves.
import type { Outcome, Side } from '../types';
import { LONG_DIAGONAL, popcount } from './board';
import { countKingSteps, countManSteps, hasCapture } from './movegen';

export interface DraughtsState {
  readonly white: number;
  readonly black: number;
  readonly kings: number;
  readonly side: Side;
  /** 7.2.5: plies since the last man move or capture. */
  readonly kingPlies: number;
  /** 7.2.4 / 7.2.6: plies since the last capture or promotion (the balance of pieces arose). */
  readonly balancePlies: number;
  /** 7.2.7 / 7.2.8: plies for which the small lone-king balance has held (0 when it does not). */
  readonly lonePlies: number;
  /** The previous state while only reversible (king, non-capturing) moves were made, else null. */
  readonly prev: DraughtsState | null;
  /** Set once the game is over. */
  readonly outcome: Outcome | null;
}

/** Draw limits in plies (one "move" of the rules = one move by each player = 2 plies). */
export const LIMITS = {
  kingsOnly: 30, // 7.2.5: 15 moves
  threeKings: 30, // 7.2.4: 15 moves
  endgame45: 60, // 7.2.6: 30 moves in 4- and 5-piece endings
  endgame67: 120, // 7.2.6: 60 moves in 6- and 7-piece endings
  lone: 10, // 7.2.7 / 7.2.8: 5 moves
} as const;

/** The small lone-king balances of 7.2.7 and 7.2.8, or null if neither holds. */
export function loneBalance(
  white: number,
  black: number,
  kings: number,
): 'long-diagonal' | 'small-material' | null {
  for (const [weak, strong] of [
    [white, black],
    [black, white],
  ] as const) {
    if (popcount(weak) !== 1 || (weak & kings) === 0 || (strong & kings) === 0) continue;
    const strongCount = popcount(strong);
    if (strongCount <= 2) return 'small-material';
    // 7.2.7: three pieces against a lone king standing on the otherwise empty long diagonal.
    if (strongCount === 3 && (weak & LONG_DIAGONAL) !== 0 && (strong & LONG_DIAGONAL) === 0)
      return 'long-diagonal';
  }
  return null;
}

/** True when one side has three or more kings against a lone king (7.2.4). */
function threeKingsVsOne(white: number, black: number, kings: number): boolean {
  return (
    (popcount(white) === 1 && (white & kings) !== 0 && popcount(black & kings) >= 3) ||
    (popcount(black) === 1 && (black & kings) !== 0 && popcount(white & kings) >= 3)
  );
}

/** True if the side to move has any legal move. */
export function hasMove(state: Pick<DraughtsState, 'white' | 'black' | 'kings' | 'side'>): boolean {
  const own = state.side === 0 ? state.white : state.black;
  const opp = state.side === 0 ? state.black : state.white;
  const empty = ~(own | opp);
  if (countManSteps(own & ~state.kings, empty, state.side === 0) > 0) return true;
  if (countKingSteps(own & state.kings, empty) > 0) return true;
  return hasCapture(own, opp, state.kings);
}

function repetitions(state: DraughtsState): number {
  let count = 1;
  for (let s = state.prev; s !== null; s = s.prev) {
    if (
      s.white === state.white &&
      s.black === state.black &&
      s.kings === state.kings &&
      s.side === state.side
    ) {
      count++;
    }
  }
  return count;
}

/**
 * The outcome of a state whose fields other than `outcome` are set. A side without a move loses
 * before any draw rule applies; among the draw rules the most specific wins (rules B8).
 */
export function computeOutcome(state: DraughtsState): Outcome | null {
  if (!hasMove(state)) return { winner: state.side === 0 ? 1 : 0, reason: 'no-moves' };
  const { white, black, kings } = state;
  const lone = loneBalance(white, black, kings);
  if (lone !== null && state.lonePlies >= LIMITS.lone) return { reason: lone };
  if (threeKingsVsOne(white, black, kings) && state.balancePlies >= LIMITS.threeKings) {
    return { reason: 'three-kings-vs-one' };
  }
  if ((white & kings) !== 0 && (black & kings) !== 0) {
    const total = popcount(white) + popcount(black);
    const limit =
      total === 4 || total === 5 ? LIMITS.endgame45 : total === 6 || total === 7 ? LIMITS.endgame67 : 0;
    if (limit > 0 && state.balancePlies >= limit) return { reason: 'endgame-30-60' };
  }
  if (state.kingPlies >= LIMITS.kingsOnly) return { reason: 'kings-only-15' };
  if (state.prev !== null && repetitions(state) >= 3) return { reason: 'threefold-repetition' };
  return null;
}

/** The state after a legal move (from, to, captured set, promotion); counters and history updated. */
export function applyMove(
  state: DraughtsState,
  from: number,
  to: number,
  captured: number,
  promotes: boolean,
): DraughtsState {
  const fromBit = 1 << from;
  const toBit = 1 << to;
  const wasKing = (state.kings & fromBit) !== 0;
  let kings = state.kings & ~captured & ~fromBit;
  if (wasKing || promotes) kings |= toBit;
  const white = state.side === 0 ? (state.white & ~fromBit) | toBit : state.white & ~captured;
  const black = state.side === 1 ? (state.black & ~fromBit) | toBit : state.black & ~captured;
  const irreversible = !wasKing || captured !== 0;
  const hadLone = loneBalance(state.white, state.black, state.kings) !== null;
  const hasLone = loneBalance(white, black, kings) !== null;
  const next: DraughtsState = {
    white,
    black,
    kings,
    side: state.side === 0 ? 1 : 0,
    kingPlies: irreversible ? 0 : state.kingPlies + 1,
    balancePlies: captured !== 0 || promotes ? 0 : state.balancePlies + 1,
    lonePlies: hasLone && hadLone ? state.lonePlies + 1 : 0,
    prev: irreversible ? null : state,
    outcome: null,
  };
  return { ...next, outcome: computeOutcome(next) };
}

/** A position with no history and zeroed draw counters; its outcome computed. */
export function freshState(white: number, black: number, kings: number, side: Side): DraughtsState {
  const state: DraughtsState = {
    white,
    black,
    kings,
    side,
    kingPlies: 0,
    balancePlies: 0,
    lonePlies: 0,
    prev: null,
    outcome: null,
  };
  return { ...state, outcome: computeOutcome(state) };
}
