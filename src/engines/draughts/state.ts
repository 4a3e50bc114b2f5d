// The game state: bitboards, side to move, the draw counters (in plies, as lidraughts counts), the
// ply count (for the move limit) and a back-pointer to the previous state for threefold repetition,
// cut at every irreversible move (a man move or a capture), so repetition checks only walk back over
// king moves.
import type { Outcome, OutcomeReason, Side } from '../types';
import { LONG_DIAGONAL, popcount } from './board';
import { countKingSteps, countManSteps, hasCapture } from './movegen';

/**
 * The house move limit (docs/rules/README.md, "House rules"): a game still going on after this many
 * plies is drawn with reason `move-limit`. Far above real games. The kind's descriptor (./kind.ts)
 * publishes it.
 */
export const DRAUGHTS_MOVE_LIMIT = 600;

/** The draw counters, one per automatic draw rule that counts moves (rules B9, B10). */
export interface DrawCounts {
  /** 7.2.5: plies since the last man move or capture. */
  readonly kingsOnly: number;
  /** 7.2.6: plies both sides have had kings in a 4- to 7-piece ending without capture or promotion. */
  readonly endgame: number;
  /** 7.2.4: plies of three or more kings against a lone king since it arose, the last capture or promotion. */
  readonly threeKings: number;
  /** 7.2.7: plies of three pieces against a lone king on the long diagonal. */
  readonly longDiagonal: number;
  /** 7.2.8: plies of at most two pieces (one a king) against a lone king. */
  readonly smallMaterial: number;
}

export const ZERO_COUNTS: DrawCounts = {
  kingsOnly: 0,
  endgame: 0,
  threeKings: 0,
  longDiagonal: 0,
  smallMaterial: 0,
};

export interface DraughtsState extends DrawCounts {
  readonly white: number;
  readonly black: number;
  readonly kings: number;
  readonly side: Side;
  /** Plies played since the start of the game (or since the position it was set up from). */
  readonly ply: number;
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

type Board = Pick<DraughtsState, 'white' | 'black' | 'kings'>;

/** True when `side` (a bitboard) is a single king. */
const loneKing = (side: number, kings: number): boolean => popcount(side) === 1 && (side & kings) !== 0;

/** The material conditions of the counting draw rules, each true or false for a board. */
export interface Conditions {
  /** 7.2.4: one side has three or more kings (and any men), the other a single king. */
  readonly threeKings: boolean;
  /** 7.2.6: both sides have kings, 4–7 pieces in all; the limit in plies (0 when it does not hold). */
  readonly endgameLimit: number;
  /** 7.2.7: three pieces (at least one a king) against a lone king on the otherwise empty long diagonal. */
  readonly longDiagonal: boolean;
  /** 7.2.8: one or two pieces (at least one a king) against a lone king. */
  readonly smallMaterial: boolean;
}

export function conditions({ white, black, kings }: Board): Conditions {
  let threeKings = false;
  let longDiagonal = false;
  let smallMaterial = false;
  for (const [weak, strong] of [
    [white, black],
    [black, white],
  ] as const) {
    if (!loneKing(weak, kings)) continue;
    const strongCount = popcount(strong);
    if (popcount(strong & kings) >= 3) threeKings = true;
    if ((strong & kings) === 0) continue;
    if (strongCount <= 2) smallMaterial = true;
    if (strongCount === 3 && (weak & LONG_DIAGONAL) !== 0 && (strong & LONG_DIAGONAL) === 0)
      longDiagonal = true;
  }
  let endgameLimit = 0;
  if ((white & kings) !== 0 && (black & kings) !== 0) {
    const total = popcount(white) + popcount(black);
    endgameLimit =
      total === 4 || total === 5 ? LIMITS.endgame45 : total === 6 || total === 7 ? LIMITS.endgame67 : 0;
  }
  return { threeKings, endgameLimit, longDiagonal, smallMaterial };
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

/** The draw rule whose count has run out, most specific first (rules B8), or null. */
export function drawByCount(state: DraughtsState, c: Conditions = conditions(state)): OutcomeReason | null {
  if (c.longDiagonal && state.longDiagonal >= LIMITS.lone) return 'long-diagonal';
  if (c.smallMaterial && state.smallMaterial >= LIMITS.lone) return 'small-material';
  if (c.threeKings && state.threeKings >= LIMITS.threeKings) return 'three-kings-vs-one';
  if (c.endgameLimit > 0 && state.endgame >= c.endgameLimit) return 'endgame-30-60';
  if (state.kingsOnly >= LIMITS.kingsOnly) return 'kings-only-15';
  return null;
}

/**
 * The outcome of a state whose fields other than `outcome` are set. A side without a move loses
 * before any draw rule applies; among the draw rules the most specific wins (rules B8); the move
 * limit (a house rule) comes last.
 */
export function computeOutcome(state: DraughtsState, c: Conditions = conditions(state)): Outcome | null {
  if (!hasMove(state)) return { winner: state.side === 0 ? 1 : 0, reason: 'no-moves' };
  const reason = drawByCount(state, c);
  if (reason !== null) return { reason };
  if (state.prev !== null && repetitions(state) >= 3) return { reason: 'threefold-repetition' };
  if (state.ply >= DRAUGHTS_MOVE_LIMIT) return { reason: 'move-limit' };
  return null;
}

/**
 * The counts after a move from a board with conditions `before` to one with conditions `after`
 * (rules B9, B10): each count starts at 0 on the move that makes its condition hold and goes on
 * while it holds; 7.2.4 and 7.2.6 also restart at every capture and promotion.
 */
export function nextCounts(
  counts: DrawCounts,
  before: Conditions,
  after: Conditions,
  irreversible: boolean,
  changedBalance: boolean,
): DrawCounts {
  const go = (held: boolean, holds: boolean, count: number, restart = false) =>
    holds && held && !restart ? count + 1 : 0;
  return {
    kingsOnly: irreversible ? 0 : counts.kingsOnly + 1,
    endgame: go(before.endgameLimit > 0, after.endgameLimit > 0, counts.endgame, changedBalance),
    threeKings: go(before.threeKings, after.threeKings, counts.threeKings, changedBalance),
    longDiagonal: go(before.longDiagonal, after.longDiagonal, counts.longDiagonal),
    smallMaterial: go(before.smallMaterial, after.smallMaterial, counts.smallMaterial),
  };
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
  const after = conditions({ white, black, kings });
  const next: DraughtsState = {
    white,
    black,
    kings,
    side: state.side === 0 ? 1 : 0,
    ...nextCounts(state, conditions(state), after, irreversible, captured !== 0 || promotes),
    ply: state.ply + 1,
    prev: irreversible ? null : state,
    outcome: null,
  };
  return { ...next, outcome: computeOutcome(next, after) };
}

/** A position with no history and the given draw counters; its outcome computed. */
export function freshState(
  white: number,
  black: number,
  kings: number,
  side: Side,
  counts: DrawCounts = ZERO_COUNTS,
  ply = 0,
): DraughtsState {
  const state: DraughtsState = {
    white,
    black,
    kings,
    side,
    ...counts,
    ply,
    prev: null,
    outcome: null,
  };
  return { ...state, outcome: computeOutcome(state) };
}
