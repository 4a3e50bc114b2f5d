import type Redis from 'ioredis';
import type { EventFeed, FeedEvent, FeedEventType, FeedPage, Notice } from '../store';
import { noticesArgument, wholeNumber } from './arguments';
import { scripted, type ScriptedRedis, type ChannelFanout } from './client';

/** Per-account feeds: one stream each, trimmed by age on append, published live. */
export class RedisEventFeed implements EventFeed {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly fanout: ChannelFanout,
  ) {
    this.redis = scripted(redis);
  }

  async append(notices: readonly Notice[]): Promise<void> {
    if (notices.length === 0) return;
    await this.redis.boardhostAppend(this.prefix, noticesArgument(notices));
  }

  async read(account: string, after: number, limit: number): Promise<FeedPage> {
    const [entries, last, oldest] = await this.redis.boardhostReadFeed(
      `${this.prefix}feed:{${account}}`,
      `${this.prefix}feedseq:{${account}}`,
      wholeNumber(after),
      wholeNumber(limit),
    );
    const events = entries.map(([id, fields]): FeedEvent => {
      const value: Record<string, string> = {};
      for (let i = 0; i + 1 < fields.length; i += 2) value[fields[i] as string] = fields[i + 1] as string;
      return {
        seq: parseInt(id, 10),
        type: value.type as FeedEventType,
        at: value.at as string,
        data: JSON.parse(value.data ?? '{}') as FeedEvent['data'],
      };
    });
    const lastSeq = Number(last);
    return { events, last: lastSeq, first: oldest ? parseInt(oldest, 10) : lastSeq + 1 };
  }

  async subscribe(account: string, listener: (event: FeedEvent) => void): Promise<() => Promise<void>> {
    return this.fanout.listen(`${this.prefix}feedlive:{${account}}`, (message) =>
      listener(JSON.parse(message) as FeedEvent),
    );
  }
}
