// The playing levels: each is a budget (depth, nodes, time) and an amount of randomness. Budgets
// are counted in nodes first so that a level plays the same moves on a slow or a busy machine; the
// time is only a cap (a level whose node budget outlasts its time cap may play differently under
// load). docs/ai.md has the table and how it was chosen.
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
  2: { depth: 1, nodes: 2_000, timeMs: 100, noise: 300, solve: false },
  3: { depth: 2, nodes: 5_000, timeMs: 200, noise: 150, solve: false },
  4: { depth: 3, nodes: 20_000, timeMs: 300, noise: 80, solve: false },
  5: { depth: 4, nodes: 60_000, timeMs: 500, noise: 40, solve: false },
  6: { depth: 6, nodes: 200_000, timeMs: 800, noise: 0, solve: true },
  7: { depth: 12, nodes: 600_000, timeMs: 1_200, noise: 0, solve: true },
  8: { depth: 64, nodes: 2_000_000, timeMs: 1_500, noise: 0, solve: true },
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
