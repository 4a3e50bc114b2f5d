import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
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

/** Per-account feeds in this process, trimmed by age only, like the Redis streams. */
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

  /** Appends synchronously, so that a store write and its notices are one step. */
  appendNow(notices: readonly Notice[]): void {
    for (const notice of notices) {
      for (const account of new Set(notice.to)) {
        const feed = this.feed(account);
        const event: FeedEvent = {
          seq: ++feed.last,
          epoch: feed.epoch,
          type: notice.type,
          at: notice.at,
          data: notice.data,
        };
        const cutoff = Date.parse(notice.at) - this.retentionMs;
        while (feed.events.length > 0 && Date.parse((feed.events[0] as FeedEvent).at) < cutoff) {
          feed.events.shift();
        }
        feed.events.push(event);
        if (feed.events.length > this.maxEvents) feed.events.splice(0, feed.events.length - this.maxEvents);
        const json = JSON.stringify(event);
        setImmediate(() => this.emitter.emit(account, json));
      }
    }
  }

  /** The newest seq and the epoch of the account's feed, read synchronously. */
  head(account: string): { readonly last: number; readonly epoch: string } {
    const feed = this.feed(account);
    return { last: feed.last, epoch: feed.epoch };
  }

  async read(account: string, after: number, limit: number): Promise<FeedPage> {
    const feed = this.feed(account);
    const events = feed.events.filter((e) => e.seq > after).slice(0, limit);
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
