import type Redis from 'ioredis';
import type {
  EventFeed,
  FeedEpoch,
  FeedEvent,
  FeedEventType,
  FeedOptions,
  FeedPage,
  Notice,
} from '../../store';
import { epochCandidate, noticesArgument, wholeNumber } from '../games/arguments';
import type { ChannelFanout } from '../client';
import { readFeed } from '../lua';
import { appendAccount } from '../relay/scripts';
import { Keys } from '../keys';
import { AppFeedForwarder } from './forwarder';

/** The epochs as feed_epoch keeps them (JSON [[id, since], …], newest first). */
export function epochsOf(json: string): FeedEpoch[] {
  return (JSON.parse(json) as Array<[string, number]>).map(([id, since]) => ({ id, since }));
}

/**
 * Per-account feeds: one stream each, trimmed by age on append, published live, with epochs that
 * change when the Redis behind them comes back older (see FEED_EPOCH in lua.ts). App feeds are
 * feeds of an owner id (ports/feed.ts), filled by the forwarder (forwarder.ts).
 */
export class RedisEventFeed implements EventFeed {
  private readonly keys: Keys;
  /** Carries app accounts' events to their app feeds (createRedisStorage starts it). */
  readonly forwarder: AppFeedForwarder;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly fanout: ChannelFanout,
    private readonly options: FeedOptions = {},
    private readonly publish: 'PUBLISH' | 'SPUBLISH' = 'PUBLISH',
    /** Told what goes wrong in the forwarder's background passes (it retries by itself). */
    onError?: (error: unknown) => void,
  ) {
    this.keys = new Keys(prefix);
    this.forwarder = new AppFeedForwarder(redis, this.keys, this, {
      feed: options,
      publish: this.publish,
      ...(onError ? { onError } : {}),
    });
  }

  forwardApps(): Promise<void> {
    return this.forwarder.forward();
  }

  /** Appends to each account's feed in its own step (one shard each). */
  async append(notices: readonly Notice[]): Promise<void> {
    const accounts = [...new Set(notices.flatMap((n) => n.to))];
    for (const account of accounts) {
      await appendAccount.run(this.redis, this.keys.feedWrite(account), {
        notices: noticesArgument(
          notices.filter((n) => n.to.includes(account)),
          this.options,
          account,
        ),
        candidate: epochCandidate(),
        publish: this.publish,
        live: this.keys.feedChannel(account),
      });
    }
  }

  async erase(account: string): Promise<void> {
    // One slot (the account's shard): one command.
    await this.redis.del(this.keys.feed(account), this.keys.feedSeq(account), this.keys.feedEpoch(account));
  }

  async read(account: string, after: number, limit: number): Promise<FeedPage> {
    const [entries, last, oldest, epoch, epochs] = await readFeed.run(
      this.redis,
      { feed: this.keys.feed(account), seq: this.keys.feedSeq(account), epoch: this.keys.feedEpoch(account) },
      { after: wholeNumber(after), limit: wholeNumber(limit), candidate: epochCandidate() },
    );
    const events = entries.map(([id, fields]): FeedEvent => {
      const value: Record<string, string> = {};
      for (let i = 0; i + 1 < fields.length; i += 2) value[fields[i] as string] = fields[i + 1] as string;
      return {
        seq: parseInt(id, 10),
        // Entries written before epochs have none: they belong to the current one's history.
        epoch: value.epoch ?? epoch,
        ...(value.account !== undefined ? { account: value.account } : {}),
        type: value.type as FeedEventType,
        at: value.at as string,
        data: JSON.parse(value.data ?? '{}') as FeedEvent['data'],
      };
    });
    const lastSeq = Number(last);
    return {
      events,
      last: lastSeq,
      first: oldest ? parseInt(oldest, 10) : lastSeq + 1,
      epoch,
      epochs: epochsOf(epochs),
    };
  }

  async subscribe(
    account: string,
    listener: (event: FeedEvent) => void,
    onResync?: () => void,
  ): Promise<() => Promise<void>> {
    return this.fanout.listen(
      this.keys.feedChannel(account),
      (message) => listener(JSON.parse(message) as FeedEvent),
      onResync,
    );
  }
}
