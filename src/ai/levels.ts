// The playing levels: each is a budget (depth, nodes, time) and an amount of randomness. Budgets
// are counted in nodes first so that a level plays the same moves on any idle machine: level 8's
// 200 000 nodes take 0.2–0.3 s in Oware and Congkak (700k–870k nodes/s on one idle core here),
// Kalah's 350 000 about 0.4 s, draughts' 500 000 about 0.65 s, Congo's 350 000 about 1.5 s (≈240k
// nodes/s), under the time caps, which only bind on a machine several times slower (then a move
// may differ). Levels 6–8 differ by about 3× in nodes or more, the steps the ladder (`npm run bench
// -- ai ladder`) measures; some kinds shape some levels their own way (./kinds.ts). docs/ai.md has the
// table and the ladder.
import { aiKindOf, type Budget } from './kinds';
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

const TABLE: Readonly<Record<AiLevel, Budget>> = {
  1: { depth: 1, nodes: 1_000, timeMs: 100, noise: 100_000, solve: false },
  2: { depth: 1, nodes: 1_500, timeMs: 100, noise: 300, solve: false },
  3: { depth: 2, nodes: 3_000, timeMs: 200, noise: 150, solve: false },
  4: { depth: 3, nodes: 8_000, timeMs: 300, noise: 80, solve: false },
  5: { depth: 5, nodes: 10_000, timeMs: 400, noise: 30, solve: false },
  6: { depth: 64, nodes: 25_000, timeMs: 600, noise: 0, solve: true },
  7: { depth: 64, nodes: 70_000, timeMs: 1_000, noise: 0, solve: true },
  8: { depth: 64, nodes: 200_000, timeMs: 1_500, noise: 0, solve: true },
};

/** Analysis requests (no level) get the strongest level's budget as their cap. */
export const ANALYSIS_LEVEL: AiLevel = 8;

export function isLevel(value: unknown): value is AiLevel {
  return typeof value === 'number' && (AI_LEVELS as readonly number[]).includes(value);
}

/**
 * The budget of a level (1 plays almost at random, 8 as strongly as its budget allows), for `kind`
 * when given (some kinds shape some levels differently: AI_KINDS' `levels`).
 */
export function levelBudget(level: AiLevel, kind?: string): LevelBudget {
  return { level, ...TABLE[level], ...(kind ? aiKindOf(kind)?.levels?.[level] : undefined) };
}
