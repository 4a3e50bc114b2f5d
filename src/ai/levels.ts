// The playing levels: each is a budget (depth, nodes, time) and an amount of randomness. Budgets
// are counted in nodes first so that a level plays the same moves on any idle machine: the node
// budgets take about 0.6–1.1 s at level 8 at the speeds measured here (≈140k–250k nodes/s), under
// the time caps, which only bind on a slow or loaded machine (then a move may differ). docs/ai.md
// has the table.
import { AI_LEVELS, type AiLevel } from './types';

export interface LevelBudget {
  readonly level: AiLevel;
  /** Deepest iteration (plies; mancala extra moves count as plies). */
  readonly depth: number;
  /** Nodes (positions visited, quiescence included). */
  readonly nodes: number;
  /** Wall-clock cap, milliseconds. */
  readonly timeMs: number;
  /**
   * Root noise: each root move's score gets a seeded uniform random number in [-noise, +noise]
   * (hundredths of a seed / man / pawn) before the best is picked; 0 = none.
   */
  readonly noise: number;
  /** Mancala endgames (Kalah, Congkak) are searched to the end exactly when few seeds remain. */
  readonly solve: boolean;
}

const TABLE: Readonly<Record<AiLevel, Omit<LevelBudget, 'level'>>> = {
  1: { depth: 1, nodes: 1_000, timeMs: 100, noise: 100_000, solve: false },
  2: { depth: 1, nodes: 1_500, timeMs: 100, noise: 300, solve: false },
  3: { depth: 2, nodes: 3_000, timeMs: 200, noise: 150, solve: false },
  4: { depth: 3, nodes: 8_000, timeMs: 300, noise: 80, solve: false },
  5: { depth: 4, nodes: 20_000, timeMs: 500, noise: 40, solve: false },
  6: { depth: 6, nodes: 40_000, timeMs: 800, noise: 0, solve: true },
  7: { depth: 12, nodes: 80_000, timeMs: 1_200, noise: 0, solve: true },
  8: { depth: 64, nodes: 150_000, timeMs: 1_500, noise: 0, solve: true },
};

/** Analysis requests (no level) get the strongest level's budget as their cap. */
export const ANALYSIS_LEVEL: AiLevel = 8;

export function isLevel(value: unknown): value is AiLevel {
  return typeof value === 'number' && (AI_LEVELS as readonly number[]).includes(value);
}

/** The budget of a level (1 plays almost at random, 8 as strongly as its budget allows). */
export function levelBudget(level: AiLevel): LevelBudget {
  return { level, ...TABLE[level] };
}
