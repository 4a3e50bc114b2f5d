// The playing levels: each is a budget (depth, nodes, time) and an amount of randomness. Budgets
// are counted in nodes first so that a level plays the same moves on any idle machine: level 8's
// 200 000 nodes take 0.2–0.3 s in Oware and Congkak (700k–870k nodes/s on one idle core here),
// Kalah's 350 000 about 0.4 s, draughts' 500 000 about 0.65 s, Congo's 350 000 about 1.5 s (≈240k
// nodes/s), under the time caps, which only bind on a machine several times slower (then a move
// may differ). Levels 6–8 differ by about 3× in nodes or more, the steps the ladder (`npm run bench
// -- ai ladder`) measures; some kinds shape some levels their own way (BY_KIND). docs/ai.md has the
// table and the ladder.
import type { GameKind } from '../engines/types';
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

/** A level's budget without its number. */
type Budget = Omit<LevelBudget, 'level'>;

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

/**
 * Levels of one kind that differ from TABLE. Congkak's games are short (about 30 plies) and its
 * positions small: at TABLE's budgets levels 6–8 all play them exactly from about ply 8–16, so
 * they drew level (50–53 % over 72 games a step) and the opening decided the game. Its levels 6
 * and 7 look less far ahead instead (a fixed depth, no exact endgames), so that each level still
 * loses to the one above.
 */
const BY_KIND: Readonly<Partial<Record<GameKind, Partial<Record<AiLevel, Partial<Budget>>>>>> = {
  congo: {
    8: { nodes: 350_000, timeMs: 2_500 },
  },
  // At 200 000 nodes draughts' level 8 scored 65.0 % against level 7 over 100 games (42 drawn).
  'russian-draughts': {
    6: { nodes: 15_000 },
    8: { nodes: 500_000, timeMs: 2_500 },
  },
  // At 200 000 nodes Kalah's level 8 scored 63.5 % against level 7 over 100 games.
  kalah: {
    8: { nodes: 350_000, timeMs: 2_500 },
  },
  // Levels 3 and 4 with more noise: at TABLE's (150, 80) 4v3 and 5v4 scored 65.0 and 65.5 %.
  congkak: {
    3: { noise: 300 },
    4: { noise: 120 },
    5: { depth: 4, noise: 0 },
    6: { depth: 6, solve: false },
    7: { depth: 8, solve: false },
  },
};

/**
 * The search's revision per kind: raised whenever a change to the search or a kind's evaluation
 * can change the moves its levels play (a level's budget is part of the ladder's keys anyway), so
 * that measurements of the old one (the ladder's results file) are not taken for the new one.
 * 3: contempt for Congo and draughts, and Congo's evaluation of activity.
 */
export const SEARCH_REVISIONS: Readonly<Record<GameKind, number>> = {
  congo: 3,
  'russian-draughts': 3,
  kalah: 2,
  oware: 2,
  congkak: 2,
};

/** Analysis requests (no level) get the strongest level's budget as their cap. */
export const ANALYSIS_LEVEL: AiLevel = 8;

export function isLevel(value: unknown): value is AiLevel {
  return typeof value === 'number' && (AI_LEVELS as readonly number[]).includes(value);
}

/**
 * The budget of a level (1 plays almost at random, 8 as strongly as its budget allows), for `kind`
 * when given (some kinds shape some levels differently: BY_KIND).
 */
export function levelBudget(level: AiLevel, kind?: GameKind): LevelBudget {
  return { level, ...TABLE[level], ...(kind ? BY_KIND[kind]?.[level] : undefined) };
}
