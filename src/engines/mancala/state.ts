// The opaque mancala state and the one step every path goes through: sow, settle, decide the end.
// A finished game's position is the board after every end-of-game rule (docs/rules/README.md,
// "Finished games"): on every end but a majority win each player's remaining seeds go into his
// store, so the final position shows the final score.
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
  sweep,
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
  /** Plies played since the start of the game (or since the position it was set up from). */
  readonly ply: number;
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

/** The outcome for `reason`, with the end-of-game sweep applied to `pits` in place (not for a majority). */
function finish(r: Ruleset, pits: Uint16Array, reason: OutcomeReason): Outcome {
  const outcome = outcomeFor(r, pits, reason);
  if (reason !== 'majority') sweep(r, pits);
  return outcome;
}

/**
 * A state for a position read from text or set up, at `ply`: its end is decided from the board
 * alone, and a finished position is shown after the end-of-game rules (a copy of `pits` is swept).
 */
export function makeState(rules: Ruleset, pits: Uint16Array, toMove: Side, ply = 0): MancalaState {
  const end = endOf(rules, pits, toMove);
  let board = pits;
  let outcome: Outcome | undefined;
  if (end !== ONGOING) {
    board = pits.slice();
    outcome = finish(rules, board, REASONS[end] as OutcomeReason);
  } else if (ply >= rules.moveLimit) {
    board = pits.slice();
    outcome = finish(rules, board, 'move-limit');
  }
  return {
    rules,
    pits: board,
    toMove,
    outcome,
    history: rules.repetition ? { pits: board, side: toMove, prev: undefined } : undefined,
    ply,
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
  let outcome = end === ONGOING ? undefined : finish(r, pits, REASONS[end] as OutcomeReason);
  let history: History | undefined;
  if (r.repetition) {
    const prev = captured > 0 ? undefined : state.history;
    if (!outcome && occurrences(prev, pits, toMove) >= 2) outcome = finish(r, pits, 'threefold-repetition');
    history = { pits, side: toMove, prev };
  }
  const ply = state.ply + 1;
  if (!outcome && ply >= r.moveLimit) outcome = finish(r, pits, 'move-limit');
  return { state: { rules: r, pits, toMove, outcome, history, ply }, captured, extraMove };
}
