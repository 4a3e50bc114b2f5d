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
  /**
   * An app feed's events: the account whose feed the event was first appended to (its `seq` and
   * `epoch` are the app feed's). Absent in an account's own feed: the feed's account.
   */
  readonly account?: string;
  readonly type: FeedEventType;
  readonly at: string;
  readonly data: Readonly<Record<string, unknown>>;
}

// App feeds. Every event appended to the feed of an app's account (id `<app>.<16 hex>`) also goes,
// once and in the account's order, to its app's feed: a feed like an account's (numbered, resumable,
// epochs, live), named by the owner id appFeedOwner(app), each event naming its `account`. Open
// accounts (no dot in their id) belong to no app feed. The app's webhook endpoints follow it as an
// account's follow its feed (an endpoint's `account` is its owner: an account id, or an app's owner
// id). Memory appends to both at once; Redis forwards in the background (redis/feed/forwarder.ts),
// so an app feed may lag its accounts' by a moment.

/** Owner ids of app feeds begin with this: no account id has a ':' (usernames and app account ids do not). */
const APP_OWNER_PREFIX = 'app:';

/** The owner id of an app's feed and webhook endpoints. */
export function appFeedOwner(app: string): string {
  return `${APP_OWNER_PREFIX}${app}`;
}

/** The app whose feed `owner` names; undefined for an account's. */
export function appOfFeedOwner(owner: string): string | undefined {
  return owner.startsWith(APP_OWNER_PREFIX) ? owner.slice(APP_OWNER_PREFIX.length) : undefined;
}

/** The app feed an account's events also go to: its app's (undefined for open accounts, no dot in the id). */
export function appFeedOfAccount(account: string): string | undefined {
  const dot = account.indexOf('.');
  return dot < 0 ? undefined : appFeedOwner(account.slice(0, dot));
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
  /**
   * Appends each notice to its accounts' feeds (atomically) and publishes them live; each event of
   * an app account also reaches its app's feed (at once, or soon: see forwardApps).
   */
  append(notices: readonly Notice[]): Promise<void>;
  /**
   * Carries the app accounts' events not yet in their app feeds there now (Redis: what the
   * background forwarder does every moment; memory: nothing waits). Resolves when done.
   */
  forwardApps(): Promise<void>;
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

/** An app feed holds every account's events: it keeps this many times an account feed's cap (trimmed by age too). */
export const APP_FEED_EVENTS_FACTOR = 100;
