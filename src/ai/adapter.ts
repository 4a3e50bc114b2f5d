// What the generic alpha-beta driver (./alphabeta.ts) needs from a game: its states are the
// engine's own (immutable) states, so a principal variation is formatted with engine.formatMove.
import type { AnyEngine } from '../engines/engine';
import type { Side } from '../engines/types';

/** Score of a won game at the root (minus the plies to it); evaluations stay far below. */
export const WIN = 1_000_000;
/** Mancala terminal scores add the final margin in these units (a larger margin is a better win). */
export const MARGIN_UNIT = 1000;
/** Longer lines than this are never searched (every game's move limit is below it). */
export const MAX_PLY = 999;
/** Any |score| at or above this is a decided game, not an evaluation. */
export const DECIDED = WIN - MAX_PLY;
/** Static evaluations are clamped to this. */
export const EVAL_LIMIT = 500_000;

export interface Adapter<S = unknown, M = unknown> {
  readonly engine: AnyEngine;
  /**
   * Legal moves in a stable order ([] once the game is over). `ply` (plies below the root) lets an
   * adapter reuse one move buffer per ply: the moves stay playable until moves() is next called at
   * the same ply.
   */
  moves(s: S, ply: number): readonly M[];
  /** The state after a listed move (no legality re-check). */
  play(s: S, m: M): S;
  turn(s: S): Side;
  /** Terminal score from the side to move, `ply` plies below the root; undefined while the game goes on. */
  terminal(s: S, ply: number): number | undefined;
  /** Static evaluation from the side to move, in hundredths of a seed / man / pawn. */
  evaluate(s: S): number;
  /** A 64-bit position key as two 32-bit halves (history is not part of it). */
  hash(s: S, out: Int32Array): void;
  /** A capture (searched first, and in the quiescence search). */
  noisy(s: S, m: M): boolean;
  /** A small number (< 4096) naming the move for the killer and history tables. */
  moveKey(s: S, m: M): number;
  /**
   * Bounds on the final margin (seeds, side to move's view) that hold whatever is played, written
   * to out[0] (lowest) and out[1] (highest); false when the game has none. Mancala only.
   */
  marginBounds?(s: S, out: Int32Array): boolean;
  /** Captures are compulsory (draughts): no stand-pat in the quiescence search when one exists. */
  readonly forcedCaptures: boolean;
  /** Search captures past the horizon. */
  readonly quiescence: boolean;
  /**
   * Contempt, hundredths: when a level plays (not in an analysis), a drawn end scores this much
   * below zero for the side the search plays for and above zero for its opponent, so that neither
   * repeats its way into a draw from a position it judges about equal. 0 or absent: draws are 0.
   */
  readonly contempt?: number;
}

/** The terminal score of an outcome for the side to move; `margin` in seeds (mancala), else 0. */
export function outcomeScore(winner: Side | undefined, toMove: Side, margin: number, ply: number): number {
  if (winner === undefined) return 0;
  const value = WIN + margin * MARGIN_UNIT - ply;
  return winner === toMove ? value : -value;
}
