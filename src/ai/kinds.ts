// The AI's one table of kinds: for each kind it plays, the search adapter, the search revision, the
// levels it shapes its own way and (mancala) when endgames are solved exactly. The server's facts
// about a kind (family, move limit…) are its descriptor's (src/engines/kinds.ts); this table holds
// only what the search needs. A kind without an entry (a registered one) is refused: UNKNOWN_KIND.
import type { AnyEngine } from '../engines/engine';
import type { GameKind } from '../engines/types';
import type { Adapter } from './adapter';
import { congoAdapter } from './congo';
import { draughtsAdapter } from './draughts';
import { SearchError } from './errors';
import type { LevelBudget } from './levels';
import { mancalaAdapter } from './mancala';
import type { AiLevel } from './types';

/** A level's budget without its number. */
export type Budget = Omit<LevelBudget, 'level'>;

export interface AiKind {
  /** The search adapter over the kind's engine. */
  readonly adapter: (engine: AnyEngine) => Adapter;
  /**
   * The search's revision: raised whenever a change to the search or the kind's evaluation can
   * change the moves its levels play (a level's budget is part of the ladder's keys anyway), so that
   * measurements of the old one (the ladder's results file) are not taken for the new one.
   * 3: contempt for Congo and draughts, and Congo's evaluation of activity.
   */
  readonly searchRevision: number;
  /** Levels that differ from the common table (./levels.ts). */
  readonly levels?: Readonly<Partial<Record<AiLevel, Partial<Budget>>>>;
  /** Mancala: seeds still in the houses at or below which `search` tries an exact solve first. */
  readonly solveSeeds?: number;
}

const mancala = (e: AnyEngine) => mancalaAdapter(e) as unknown as Adapter;

export const AI_KINDS: Readonly<Record<GameKind, AiKind>> = {
  congo: {
    adapter: (e) => congoAdapter(e) as unknown as Adapter,
    searchRevision: 3,
    levels: { 8: { nodes: 350_000, timeMs: 2_500 } },
  },
  'russian-draughts': {
    adapter: (e) => draughtsAdapter(e) as unknown as Adapter,
    searchRevision: 3,
    // At 200 000 nodes draughts' level 8 scored 65.0 % against level 7 over 100 games (42 drawn).
    levels: { 6: { nodes: 15_000 }, 8: { nodes: 500_000, timeMs: 2_500 } },
  },
  kalah: {
    adapter: mancala,
    searchRevision: 2,
    // At 200 000 nodes Kalah's level 8 scored 63.5 % against level 7 over 100 games.
    levels: { 8: { nodes: 350_000, timeMs: 2_500 } },
    solveSeeds: 20,
  },
  oware: {
    // Not solved exactly: its repetition rule makes a value depend on the path.
    adapter: mancala,
    searchRevision: 2,
  },
  congkak: {
    adapter: mancala,
    searchRevision: 2,
    // Congkak's games are short (about 30 plies) and its positions small: at the common budgets
    // levels 6–8 all play them exactly from about ply 8–16, so they drew level (50–53 % over 72
    // games a step) and the opening decided the game. Its levels 6 and 7 look less far ahead
    // instead (a fixed depth, no exact endgames), so that each level still loses to the one above.
    // Levels 3 and 4 with more noise: at the common (150, 80) 4v3 and 5v4 scored 65.0 and 65.5 %.
    levels: {
      3: { noise: 300 },
      4: { noise: 120 },
      5: { depth: 4, noise: 0 },
      6: { depth: 6, solve: false },
      7: { depth: 8, solve: false },
    },
    solveSeeds: 14,
  },
};

/** The AI's entry for a kind, or undefined for a kind it does not play. */
export function aiKindOf(kind: string): AiKind | undefined {
  return Object.hasOwn(AI_KINDS, kind) ? AI_KINDS[kind as GameKind] : undefined;
}

/** Whether the AI plays a kind (a kind registered beside the built-in ones it does not). */
export function aiPlays(kind: string): boolean {
  return aiKindOf(kind) !== undefined;
}

const adapters = new Map<string, Adapter>();

/** The search adapter of an engine's kind (made once per kind); UNKNOWN_KIND for a kind not in AI_KINDS. */
export function adapterFor(engine: AnyEngine): Adapter {
  let adapter = adapters.get(engine.kind);
  if (!adapter) {
    const entry = aiKindOf(engine.kind);
    if (!entry) throw new SearchError('UNKNOWN_KIND', `the AI does not play ${engine.kind}`);
    adapters.set(engine.kind, (adapter = entry.adapter(engine)));
  }
  return adapter;
}
