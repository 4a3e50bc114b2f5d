import { EventEmitter } from 'node:events';
import { FEED_RETENTION_MS, type EventFeed, type FeedEvent, type FeedPage, type Notice } from '../store';

/** Per-account feeds in this process, trimmed by age like the Redis streams. */
export class MemoryEventFeed implements EventFeed {
  private readonly feeds = new Map<string, { last: number; events: FeedEvent[] }>();
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  constructor(private readonly retentionMs = FEED_RETENTION_MS) {}

  async append(notices: readonly Notice[]): Promise<void> {
    this.appendNow(notices);
  }

  /** Appends synchronously, so that a store write and its notices are one step. */
  appendNow(notices: readonly Notice[]): void {
    for (const notice of notices) {
      for (const account of new Set(notice.to)) {
        let feed = this.feeds.get(account);
        if (!feed) {
          feed = { last: 0, events: [] };
          this.feeds.set(account, feed);
        }
        const event: FeedEvent = { seq: ++feed.last, type: notice.type, at: notice.at, data: notice.data };
        const cutoff = Date.parse(notice.at) - this.retentionMs;
        while (feed.events.length > 0 && Date.parse((feed.events[0] as FeedEvent).at) < cutoff) {
          feed.events.shift();
        }
        feed.events.push(event);
        const json = JSON.stringify(event);
        setImmediate(() => this.emitter.emit(account, json));
      }
    }
  }

  /** The newest seq of the account's feed (0 when it never had an event), read synchronously. */
  lastSeq(account: string): number {
    return this.feeds.get(account)?.last ?? 0;
  }

  async read(account: string, after: number, limit: number): Promise<FeedPage> {
    const feed = this.feeds.get(account) ?? { last: 0, events: [] };
    const events = feed.events.filter((e) => e.seq > after).slice(0, limit);
    return {
      events: JSON.parse(JSON.stringify(events)) as FeedEvent[],
      last: feed.last,
      first: feed.events[0]?.seq ?? feed.last + 1,
    };
  }

  async subscribe(account: string, listener: (event: FeedEvent) => void): Promise<() => Promise<void>> {
    const handler = (json: string) => listener(JSON.parse(json) as FeedEvent);
    this.emitter.on(account, handler);
    return async () => {
      this.emitter.off(account, handler);
    };
  }
}
