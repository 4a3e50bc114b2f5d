import type { GameKind, Options } from '../../engines/types';
import type { StoredGameSettings } from './games';
import type { TimeControl } from './time-control';
import type { GameVisibility, SeekRemovalReason } from '../../vocabulary';

// Seeks: two compatible seeks (same `pool`) make a game. Waiting seeks are listed in their lobby (the
// seeker's app pool), which a viewer pages through and follows live.

/** The ratings a seeker admits as its opponent's (absolute, in the seek's perf); absent bound: any. */
export interface RatingRange {
  readonly min?: number;
  readonly max?: number;
}

export interface StoredSeek {
  readonly id: string;
  readonly account: string;
  readonly kind: GameKind;
  readonly options: Options;
  readonly timeControl: TimeControl;
  /** A seek for a game from a position: the position (canonical notation); absent: the standard start. */
  readonly initialPosition?: string;
  /** A seek for a rated game (absent: casual); rated seeks pair only with rated seeks (it is in the pool). */
  readonly rated?: boolean;
  /** Who may read the game it becomes (absent: public); a match takes the stricter of the two seeks'. */
  readonly visibility?: GameVisibility;
  /** What the game allows (absent: the defaults); a match takes the stricter of the two seeks'. */
  readonly settings?: StoredGameSettings;
  /** Seeks with equal pools are compatible (kind, canonical options, time control and start position). */
  readonly pool: string;
  /** The lobby it is listed in: the seeker's app pool (absent: the open pool, OPEN_APP). */
  readonly lobby?: string;
  /** The seeker's rating in the seek's perf when it posted it (what the other side's range is held to). */
  readonly rating?: number;
  /** The opponent ratings the seeker admits (absent: any). */
  readonly ratingRange?: RatingRange;
  readonly createdAt: string;
  readonly expiresAt: string;
}

/** Where a lobby page starts: after this seek (oldest first: by createdAt, then id). */
export interface LobbyCursor {
  readonly createdAt: string;
  readonly id: string;
}

export interface LobbyPage {
  readonly items: StoredSeek[];
  /** The cursor of the last item when more may follow; undefined on the last page. */
  readonly next?: LobbyCursor;
}

/** A change of a lobby, as every node hears it. */
export type LobbyChange =
  | { readonly type: 'added'; readonly seek: StoredSeek }
  | { readonly type: 'removed'; readonly id: string; readonly reason: SeekRemovalReason };

/** Whether a seeker rated `rating` is admitted by `range` (no range, or no rating to hold: admitted only without a range). */
export function admits(range: RatingRange | undefined, rating: number | undefined): boolean {
  if (!range || (range.min === undefined && range.max === undefined)) return true;
  if (rating === undefined) return false;
  return (range.min === undefined || rating >= range.min) && (range.max === undefined || rating <= range.max);
}

/** Whether two seeks' ranges admit each other's seeker (pairing honours both sides). */
export function rangesAgree(a: StoredSeek, b: StoredSeek): boolean {
  return admits(a.ratingRange, b.rating) && admits(b.ratingRange, a.rating);
}

export interface SeekStore {
  /**
   * Atomically: remove and return the oldest unexpired seek in `seek.pool` by another account whose
   * rating range and `seek`'s admit each other's seeker (rangesAgree); if there is none, store `seek`
   * and return undefined. Expired seeks met on the way are dropped; seeks of the accounts in `avoid`
   * (blocks, either way) and out of range are passed over and keep waiting. The seek's lobby hears
   * `added` (stored) or the partner's `removed` (matched).
   */
  matchOrAdd(seek: StoredSeek, now: string, avoid?: readonly string[]): Promise<StoredSeek | undefined>;
  getSeek(id: string): Promise<StoredSeek | undefined>;
  /**
   * Removes a waiting seek, once however many callers race (its lobby hears `removed` with `reason`,
   * default canceled); false when it is not waiting (matched, expired or never existed).
   */
  removeSeek(id: string, reason?: SeekRemovalReason): Promise<boolean>;
  /**
   * A page of the lobby's waiting, unexpired seeks (at `now`), oldest first, after `after`: at most
   * `limit` of those `where` keeps (the caller's filter; the store decides nothing).
   */
  listSeeks(
    lobby: string,
    options: {
      readonly now: string;
      readonly limit: number;
      readonly after?: LobbyCursor;
      readonly where?: (seek: StoredSeek) => boolean;
    },
  ): Promise<LobbyPage>;
  /**
   * Calls `listener` with every change of the lobby from now on, from any node (best effort, like
   * GameEventBus: `onResync` once a lost connection is back, for the caller to list again).
   * Expiries are not announced (a seek's expiresAt says when it goes). Returns the unsubscribe function.
   */
  watchLobby(
    lobby: string,
    listener: (change: LobbyChange) => void,
    onResync?: () => void,
  ): Promise<() => Promise<void>>;
}
