import type { GameKind } from '../../engines/types';

// TV: per kind, the ongoing games worth showing, best first. The service adds a game when it
// starts and removes it when it ends (after the game's own write); an entry left behind (a node
// that died between the two) is harmless: TV drops a finished candidate on sight.

/** A candidate's score: the seats' average rating at start (absent = 0), then the start time. */
export function featuredScore(ratings: ReadonlyArray<number | undefined>, startedAtMs: number): number {
  const average = ratings.reduce<number>((sum, r) => sum + (r ?? 0), 0) / Math.max(1, ratings.length);
  // Ratings in whole points (0 … 9999) above seconds since the epoch (< 10^10): exact in a double.
  const points = Math.max(0, Math.min(9999, Math.round(average)));
  return points * 1e10 + Math.floor(startedAtMs / 1000);
}

export interface FeaturedIndex {
  /** Adds `game` to the candidates of `kind` (or sets its score). */
  add(kind: GameKind, game: string, score: number): Promise<void>;
  /** Takes `game` out of the candidates of `kind` (no-op when absent). */
  remove(kind: GameKind, game: string): Promise<void>;
  /** Up to `limit` candidates of `kind`, best first (highest score; ties: greatest id). */
  top(kind: GameKind, limit: number): Promise<string[]>;
}
