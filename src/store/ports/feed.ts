import type { FeedEventType } from '../../vocabulary';
export { FEED_EVENT_TYPES, type FeedEventType } from '../../vocabulary';

// One event feed per account: ordered, numbered, resumable.

/** An event to append to the feed of each account in `to`. */
export interface Notice {
  readonly to: readonly string[];
  readonly type: FeedEventType;
  /** ISO time of the event; also the clock for trimming old events. */
  readonly at: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * An event as stored in one account's feed: `seq` counts 1, 2, 3… per account, without gaps.
 * `epoch` is the feed's epoch when the event was written: (epoch, seq) names one event for good.
 */
export interface FeedEvent {
  readonly seq: number;
  readonly epoch: string;
  readonly type: FeedEventType;
  readonly at: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * A feed's epoch. A feed begins a new epoch when the Redis serving it is not the one that last
 * touched it (restarted, restored from a backup, failed over to a replica): writes may have been
 * lost, so seqs after `since` may be reused for other events. Each epoch begins at the feed's newest
 * seq then (`since`); the events up to it are those of the earlier epoch, unchanged.
 */
export interface FeedEpoch {
  /** A random id, never reused within a feed. */
  readonly id: string;
  /** The newest seq of the feed when the epoch began. */
  readonly since: number;
}

export interface FeedPage {
  readonly events: readonly FeedEvent[];
  /** The newest seq of the feed (0 when it never had an event). */
  readonly last: number;
  /** The oldest seq still kept (events before it were trimmed); last + 1 when nothing is kept. */
  readonly first: number;
  /** The feed's current epoch. */
  readonly epoch: string;
  /** The current epoch and those before it, newest first (a few kept). */
  readonly epochs: readonly FeedEpoch[];
}

/**
 * The newest seq up to which a reader that follows the feed in `epoch` saw the same events as the
 * feed holds now: no limit (MAX_SAFE_INTEGER) in the current epoch; for an earlier one, the least
 * `since` of the epochs that began after it (the events after that were lost); for an epoch the
 * feed does not remember, the least `since` it remembers.
 */
export function sharedUpTo(epochs: readonly FeedEpoch[], epoch: string): number {
  let shared = Number.MAX_SAFE_INTEGER;
  for (const e of epochs) {
    if (e.id === epoch) return shared;
    shared = Math.min(shared, e.since);
  }
  return shared === Number.MAX_SAFE_INTEGER ? 0 : shared;
}

export interface EventFeed {
  /** Appends each notice to its accounts' feeds (atomically) and publishes them live. */
  append(notices: readonly Notice[]): Promise<void>;
  /**
   * Up to `limit` events with seq > `after`, oldest first, with the feed's bounds and epochs. A read
   * may begin a new epoch (see FeedEpoch), like an append.
   */
  read(account: string, after: number, limit: number): Promise<FeedPage>;
  /**
   * Calls `listener` with each event appended to the account's feed from now on. Live delivery is
   * best effort: `onResync` is called once a dropped connection is back (events appended while it
   * was down were not delivered; read them from the feed).
   */
  subscribe(
    account: string,
    listener: (event: FeedEvent) => void,
    onResync?: () => void,
  ): Promise<() => Promise<void>>;
  /** Deletes the account's feed and its events (an erased account's). */
  erase(account: string): Promise<void>;
}

/**
 * Feed events older than this are trimmed (on append), by age only. The default (21 days) outlasts
 * the longest correspondence period (14 days per move) with a week to spare; FEED_RETENTION_DAYS.
 */
export const FEED_RETENTION_MS = 21 * 24 * 60 * 60 * 1000;

/** Feed settings of a storage. */
export interface FeedOptions {
  /** How long events are kept (default FEED_RETENTION_MS). */
  readonly retentionMs?: number;
  /** The most events an account's feed keeps (the oldest trimmed first, as by age; default FEED_MAX_EVENTS). */
  readonly maxEvents?: number;
}

/** Events kept per account feed at most (FEED_MAX_EVENTS): a flood of notices cannot grow one without bound. */
export const FEED_MAX_EVENTS = 10_000;
