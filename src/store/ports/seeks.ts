import type { GameKind, Options } from '../../engines/types';
import type { StoredGameSettings } from './games';
import type { TimeControl } from './time-control';
import type { GameVisibility } from '../../vocabulary';

// Seeks: two compatible seeks (same `pool`) make a game.

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
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface SeekStore {
  /**
   * Atomically: remove and return the oldest unexpired seek in `seek.pool` by another account;
   * if there is none, store `seek` and return undefined. Expired seeks met on the way are dropped;
   * seeks of the accounts in `avoid` (blocks, either way) are passed over and keep waiting.
   */
  matchOrAdd(seek: StoredSeek, now: string, avoid?: readonly string[]): Promise<StoredSeek | undefined>;
  getSeek(id: string): Promise<StoredSeek | undefined>;
  /** Removes a waiting seek; false when it is not waiting (matched, expired or never existed). */
  removeSeek(id: string): Promise<boolean>;
}
