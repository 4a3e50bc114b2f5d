import type { GameKind, Options } from '../../engines/types';
import type { TimeControl } from './time-control';
import type { BulkState } from '../../vocabulary';
export type { BulkState } from '../../vocabulary';

// Bulk pairings (docs/data-model.md, "Bulk pairings"): many games between pairs of accounts made in
// one all-or-nothing step. The bulk document moves through a state machine in its own shard; the
// places it takes in its accounts' ongoing-games caps are reserved in each account's shard
// (GameStore.reserve) and the games are created after the commit with ids fixed by the bulk.

export interface BulkPair {
  /** The account on the first seat, then the second. */
  readonly accounts: readonly [string, string];
  /** The id of the game this pair plays (fixed when the bulk is made: creation is idempotent). */
  readonly game: string;
}

/** Why a bulk was refused (a GameError's code, message and details; `index` is the failing pair's). */
export interface BulkRefusal {
  readonly code: string;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

export interface StoredBulk {
  readonly id: string;
  /** The account that made the bulk. */
  readonly creator: string;
  readonly kind: GameKind;
  readonly options: Options;
  readonly timeControl: TimeControl;
  readonly rated: boolean;
  /** A game from a position: that position (canonical); absent for the standard start. */
  readonly initialPosition?: string;
  /** The seat that moves first in each game. */
  readonly first: 0 | 1;
  readonly pairs: readonly BulkPair[];
  /** When its games are created (ISO); its createdAt when not scheduled. */
  readonly startAt: string;
  readonly createdAt: string;
  readonly state: BulkState;
  readonly refusal?: BulkRefusal;
  /** When it reached its last state (ISO). */
  readonly updatedAt: string;
}

export interface BulkPage {
  readonly items: readonly StoredBulk[];
  /** Pass back as `before` for the next page; null on the last page. */
  readonly next: number | null;
}

export interface BulkStore {
  /**
   * Stores a new bulk in state `reserving`, leased until `leaseUntil` (ms): a node that finds it
   * still reserving after that refuses it (its maker died). Listed under its creator.
   */
  begin(bulk: StoredBulk, leaseUntil: number): Promise<void>;
  /**
   * reserving → scheduled (due at startAt), or → creating leased until `leaseUntil` when its
   * startAt has come (`now`); undefined (nothing changed) when it is no longer reserving.
   */
  commit(id: string, now: number, leaseUntil: number): Promise<StoredBulk | undefined>;
  /**
   * reserving → refused with `refusal`; false when no longer reserving. A refused bulk stays due
   * (its places are released by whoever settles it).
   */
  refuse(id: string, refusal: BulkRefusal, now: number): Promise<boolean>;
  /** scheduled → canceled (due now: its places are to be released); undefined when it was not scheduled. */
  cancel(id: string, now: number): Promise<StoredBulk | undefined>;
  /** creating → created. */
  finish(id: string, now: number): Promise<void>;
  /** A refused or canceled bulk's places were released: it is no longer due. */
  settle(id: string): Promise<void>;
  /**
   * Bulks due by `now` (a lease ran out, startAt came, places to release), up to `limit` (Redis: per
   * shard, its due sets claimed at once; every bulk claimed is answered), each leased
   * until `leaseUntil` so that one node at a time works on it; a scheduled bulk becomes creating.
   */
  claimDue(now: number, leaseUntil: number, limit: number): Promise<StoredBulk[]>;
  get(id: string): Promise<StoredBulk | undefined>;
  /** The creator's bulks, newest first; `before` is a previous page's `next`. */
  list(creator: string, limit: number, before?: number): Promise<BulkPage>;
}
