import type { GameKind } from '../../engines/types';
import type { FeaturedIndex } from '../store';

/** TV candidates in this process: per kind, game id → score. */
export class MemoryFeaturedIndex implements FeaturedIndex {
  private readonly kinds = new Map<GameKind, Map<string, number>>();

  add(kind: GameKind, game: string, score: number): Promise<void> {
    let scores = this.kinds.get(kind);
    if (!scores) this.kinds.set(kind, (scores = new Map()));
    scores.set(game, score);
    return Promise.resolve();
  }

  remove(kind: GameKind, game: string): Promise<void> {
    this.kinds.get(kind)?.delete(game);
    return Promise.resolve();
  }

  top(kind: GameKind, limit: number): Promise<string[]> {
    const scores = [...(this.kinds.get(kind) ?? new Map<string, number>())];
    // As a sorted set's ZREVRANGE: score descending, then member descending.
    scores.sort(([a, x], [b, y]) => y - x || (a < b ? 1 : a > b ? -1 : 0));
    return Promise.resolve(scores.slice(0, limit).map(([id]) => id));
  }
}
