// What a write of a game causes besides the new document, decided in one place from the game before
// and after it: the feed notices, each seated account's indexes (listings, my-turn, ongoing, a rated
// result), TV's featured list, and the deadline the sweeper wakes for. Pure: the writer
// (./writer.ts) reads what it needs first (the ratings a rated ending is scored against), the store
// applies `notices` and `accounts` atomically with the document (GameStore.update), and the writer
// applies `featured` and `wake` after it.
import type { GameKind } from '../../engines/types';
import {
  accountEffectsOf,
  clockIndexOf,
  featuredScore,
  publiclyListed,
  type ClockIndex,
  type GameEffects,
  type RatingResult,
  type StoredGame,
} from '../../store/store';
import { gameNotices } from '../delivery/feed';
import type { GameHeadView, MoveView } from './view';

export type { AccountEffect, GameEffects } from '../../store/store';

/** TV's candidates: the game joins its kind's list (with its score) or leaves it. */
export type FeaturedChange =
  | { readonly kind: GameKind; readonly id: string; readonly add: true; readonly score: number }
  | { readonly kind: GameKind; readonly id: string; readonly add: false };

/** What the writer applies after the store's write (both are best-effort and never undo it). */
export interface AfterCommit {
  /** A game that starts joins TV's candidates, one that ends leaves them; null: no change. */
  readonly featured: FeaturedChange | null;
  /** The earliest deadline or reminder this version sets (epoch ms), for the sweeper; null: none. */
  readonly wake: number | null;
}

/** Everything a write turning `before` into `after` causes. `ratings`: a rated ending's results. */
export function effectsOf(
  before: StoredGame,
  after: StoredGame,
  views: { readonly game: GameHeadView; readonly move: MoveView | null },
  ratings: readonly RatingResult[] = [],
): GameEffects & AfterCommit {
  const index = clockIndexOf(after);
  return {
    notices: gameNotices(before, after, views, after.updatedAt),
    accounts: accountEffectsOf(after, ratings, index),
    clock: index,
    // A takeback: the store drops the moves after the new last one.
    ...(after.moves.length < before.moves.length ? { truncate: true } : {}),
    featured: after.status === before.status ? null : featuredOf(after),
    wake: wakeOf(after, index),
  };
}

/**
 * TV's change for a game whose status is `game.status` now; null for a game never on TV (only
 * publicly listed games are: public, of the open pool).
 */
export function featuredOf(game: StoredGame): FeaturedChange | null {
  if (!publiclyListed(game)) return null;
  return game.status === 'ongoing'
    ? {
        kind: game.kind,
        id: game.id,
        add: true,
        score: featuredScore(
          game.seats.map((s) => s.rating),
          Date.parse(game.createdAt),
        ),
      }
    : { kind: game.kind, id: game.id, add: false };
}

/** The deadline or reminder (the earlier) an ongoing game's sweeper wakes for; null: none. */
export function wakeOf(game: StoredGame, index: ClockIndex = clockIndexOf(game)): number | null {
  if (game.status !== 'ongoing') return null;
  if (index.deadline === null) return index.reminder;
  return index.reminder === null ? index.deadline : Math.min(index.deadline, index.reminder);
}
