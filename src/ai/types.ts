import type { GameKind, Options } from '../engines/types';
import type { AiLevel } from '../vocabulary';
export { AI_LEVELS, type AiLevel } from '../vocabulary';

// The contract between the search (src/ai/*, pure, runs in worker threads) and the service that
// asks it for moves and analysis. Everything here is JSON-safe: requests and results cross a
// worker_threads boundary.

export interface SearchRequest {
  readonly kind: GameKind;
  /** Parsed options (engine.parseOptions), defaults filled in. */
  readonly options: Options;
  /** The position the game started from (engine.formatState of the start). */
  readonly start: string;
  /** The moves played since `start`, in notation; the search replays them (repetition history). */
  readonly moves: readonly string[];
  /** A playing level (its budget and randomness, src/ai/levels.ts); absent: analysis at full strength. */
  readonly level?: AiLevel;
  /** Limits; the tightest of these and the level's own budget applies. */
  readonly depth?: number;
  readonly timeMs?: number;
  readonly nodes?: number;
  /** Same request and seed, same answer (randomness at low levels, tie-breaks). */
  readonly seed: number;
}

/** Exact game-theoretic value, for positions the search solved. */
export interface SolvedValue {
  /** From the side to move's point of view. */
  readonly result: 'win' | 'draw' | 'loss';
  /** Plies to the end with best play (win: fastest, loss: longest). */
  readonly plies: number;
  /**
   * true: solved exactly (the score is the final margin with best play, plies exact). false: the
   * ordinary search proved the result only; the score and plies are those of the line it found,
   * bounds (a win by at least that margin, a loss by at least that much).
   */
  readonly exact: boolean;
}

export interface SearchResult {
  /** The chosen move, in the game's notation; a legal move of the position. */
  readonly best: string;
  /** Principal variation, starting with `best`. */
  readonly pv: readonly string[];
  /** Evaluation from the side to move's point of view, in hundredths of a seed / man / pawn. */
  readonly score: number;
  readonly solved?: SolvedValue;
  /** Completed iterative-deepening depth. */
  readonly depth: number;
  readonly nodes: number;
  readonly timeMs: number;
}
