import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  APP_FEED_EVENTS_FACTOR,
  appFeedOfAccount,
  FEED_MAX_EVENTS,
  FEED_RETENTION_MS,
  type EventFeed,
  type FeedEvent,
  type FeedOptions,
  type FeedPage,
  type Notice,
} from '../store';

interface MemoryFeed {
  last: number;
  /** One epoch for the feed's life: this process's memory cannot come back older. */
  readonly epoch: string;
  events: FeedEvent[];
}

/**
 * Per-account feeds in this process, trimmed by age and count like the Redis streams; an app
 * account's events go to its app's feed in the same step (ports/feed.ts).
 */
export class MemoryEventFeed implements EventFeed {
  private readonly feeds = new Map<string, MemoryFeed>();
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private readonly retentionMs: number;

  constructor(options: FeedOptions = {}) {
    this.retentionMs = options.retentionMs ?? FEED_RETENTION_MS;
    this.maxEvents = options.maxEvents ?? FEED_MAX_EVENTS;
  }
  private readonly maxEvents: number;

  async append(notices: readonly Notice[]): Promise<void> {
    this.appendNow(notices);
  }

  /** Nothing waits: appendNow writes app feeds in the same step. */
  async forwardApps(): Promise<void> {}

  /** Appends synchronously, so that a store write and its notices are one step. */
  appendNow(notices: readonly Notice[]): void {
    for (const notice of notices) {
      for (const account of new Set(notice.to)) {
        this.push(account, notice, undefined);
        const app = appFeedOfAccount(account);
        if (app !== undefined) this.push(app, notice, account);
      }
    }
  }

  /** Appends one event to `owner`'s feed (`account`: an app feed's, the account it came from). */
  private push(owner: string, notice: Notice, account: string | undefined): void {
    const feed = this.feed(owner);
    const event: FeedEvent = {
      seq: ++feed.last,
      epoch: feed.epoch,
      ...(account !== undefined ? { account } : {}),
      type: notice.type,
      at: notice.at,
      data: notice.data,
    };
    const cutoff = Date.parse(notice.at) - this.retentionMs;
    while (feed.events.length > 0 && Date.parse((feed.events[0] as FeedEvent).at) < cutoff) {
      feed.events.shift();
    }
    feed.events.push(event);
    const max = account === undefined ? this.maxEvents : this.maxEvents * APP_FEED_EVENTS_FACTOR;
    if (feed.events.length > max) feed.events.splice(0, feed.events.length - max);
    const json = JSON.stringify(event);
    setImmediate(() => this.emitter.emit(owner, json));
  }

  /** The newest seq and the epoch of the account's feed, read synchronously. */
  head(account: string): { readonly last: number; readonly epoch: string } {
    const feed = this.feed(account);
    return { last: feed.last, epoch: feed.epoch };
  }

  async read(account: string, after: number, limit: number): Promise<FeedPage> {
    const feed = this.feed(account);
    // Seqs are consecutive (trimming drops the oldest only): the page starts at an index.
    const start = Math.max(0, after + 1 - (feed.events[0]?.seq ?? 0));
    const events = feed.events.slice(start, start + Math.max(0, limit));
    return {
      events: JSON.parse(JSON.stringify(events)) as FeedEvent[],
      last: feed.last,
      first: feed.events[0]?.seq ?? feed.last + 1,
      epoch: feed.epoch,
      epochs: [{ id: feed.epoch, since: 0 }],
    };
  }

  async erase(account: string): Promise<void> {
    this.feeds.delete(account);
  }

  async subscribe(account: string, listener: (event: FeedEvent) => void): Promise<() => Promise<void>> {
    const handler = (json: string) => listener(JSON.parse(json) as FeedEvent);
    this.emitter.on(account, handler);
    return async () => {
      this.emitter.off(account, handler);
    };
  }

  private feed(account: string): MemoryFeed {
    let feed = this.feeds.get(account);
    if (!feed) {
      feed = { last: 0, epoch: randomBytes(9).toString('base64url'), events: [] };
      this.feeds.set(account, feed);
    }
    return feed;
  }
}
