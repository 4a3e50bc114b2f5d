// The opaque mancala state and the one step every path goes through: sow, settle, decide the end.
import type { Outcome, OutcomeReason, Side } from '../types';
import type { Ruleset } from './rules';
import {
  EXTRA_MOVE,
  MAJORITY,
  NO_MOVES,
  ONGOING,
  ROW_EMPTY,
  capturedOf,
  endOf,
  settle,
  sow,
  type SowTrace,
} from './sow';

/**
 * Positions since the last capture, newest first (a persistent list: states share their tails).
 * Seeds on the board only ever decrease, so no position before a capture can recur after it.
 */
export interface History {
  readonly pits: Uint16Array;
  readonly side: Side;
  readonly prev: History | undefined;
}

export interface MancalaState {
  readonly rules: Ruleset;
  /** Houses and stores (layout in ./rules.ts). Never mutated once the state exists. */
  readonly pits: Uint16Array;
  readonly toMove: Side;
  readonly outcome: Outcome | undefined;
  /** Oware only: the repetition history, this position included. */
  readonly history: History | undefined;
}

/** What one move did, beside the new state. */
export interface StepResult {
  readonly state: MancalaState;
  readonly captured: number;
  readonly extraMove: boolean;
}

/** Same board and side to move. */
export function samePosition(a: Uint16Array, b: Uint16Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** How often (pits, side) occurs in `history`. */
export function occurrences(history: History | undefined, pits: Uint16Array, side: Side): number {
  let count = 0;
  for (let node = history; node; node = node.prev) {
    if (node.side === side && samePosition(node.pits, pits)) count++;
  }
  return count;
}

/**
 * The outcome for an end reason. The score is the stores plus, except for a majority win (which
 * ends the game at once), the seeds left in each player's own row.
 */
export function outcomeFor(r: Ruleset, p: Uint16Array, reason: OutcomeReason): Outcome {
  const h = r.houses;
  let south = p[h] as number;
  let north = p[2 * h + 1] as number;
  if (reason !== 'majority') {
    for (let i = 0; i < h; i++) {
      south += p[i] as number;
      north += p[h + 1 + i] as number;
    }
  }
  const score = [south, north] as const;
  if (south === north) return { reason, score };
  return { winner: south > north ? 0 : 1, reason, score };
}

const REASONS: Record<number, OutcomeReason> = {
  [ROW_EMPTY]: 'row-empty',
  [MAJORITY]: 'majority',
  [NO_MOVES]: 'cannot-feed',
};

/** A state for a position read from text or set up: its end is decided from the board alone. */
export function makeState(rules: Ruleset, pits: Uint16Array, toMove: Side): MancalaState {
  const end = endOf(rules, pits, toMove);
  return {
    rules,
    pits,
    toMove,
    outcome: end === ONGOING ? undefined : outcomeFor(rules, pits, REASONS[end] as OutcomeReason),
    history: rules.repetition ? { pits, side: toMove, prev: undefined } : undefined,
  };
}

/** Play house `house` (0-based; legality already checked) of the side to move. */
export function step(state: MancalaState, house: number, trace?: SowTrace): StepResult {
  const r = state.rules;
  const pits = state.pits.slice();
  const mover = state.toMove;
  const packed = sow(r, pits, mover, house, trace);
  const extraMove = (packed & EXTRA_MOVE) !== 0;
  const captured = capturedOf(packed);
  const toMove: Side = extraMove ? mover : mover === 0 ? 1 : 0;
  const end = settle(r, pits, toMove);
  let outcome = end === ONGOING ? undefined : outcomeFor(r, pits, REASONS[end] as OutcomeReason);
  let history: History | undefined;
  if (r.repetition) {
    const prev = captured > 0 ? undefined : state.history;
    if (!outcome && occurrences(prev, pits, toMove) >= 2)
      outcome = outcomeFor(r, pits, 'threefold-repetition');
    history = { pits, side: toMove, prev };
  }
  return { state: { rules: r, pits, toMove, outcome, history }, captured, extraMove };
}
