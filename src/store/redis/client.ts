import Redis, { type RedisOptions } from 'ioredis';
import type { ChallengeUpdateResult } from '../store';
import { SCRIPTS } from './lua';

export type Arg = string | number;
export type StreamEntry = [id: string, fields: string[]];

export interface ScriptedRedis extends Redis {
  boardhostCreate(...args: Arg[]): Promise<number | string>;
  boardhostUpdate(...args: Arg[]): Promise<[string, string?]>;
  boardhostClaimDue(...args: Arg[]): Promise<string[]>;
  boardhostIndexOngoing(...args: Arg[]): Promise<number>;
  boardhostMarkReminded(...args: Arg[]): Promise<number>;
  boardhostSaveVacation(...args: Arg[]): Promise<number>;
  boardhostCreateAccount(...args: Arg[]): Promise<number>;
  boardhostAddToken(...args: Arg[]): Promise<number>;
  boardhostCompareAndSet(...args: Arg[]): Promise<number>;
  boardhostRevokeToken(...args: Arg[]): Promise<'revoked' | 'changed' | 'last-root'>;
  boardhostClaimIdempotency(...args: Arg[]): Promise<string[]>;
  boardhostReleaseIdempotency(...args: Arg[]): Promise<number>;
  boardhostCreateChallenge(...args: Arg[]): Promise<number>;
  boardhostUpdateChallenge(...args: Arg[]): Promise<Exclude<ChallengeUpdateResult, object> | string>;
  boardhostMatchOrAdd(...args: Arg[]): Promise<string | null>;
  boardhostRemoveSeek(...args: Arg[]): Promise<number>;
  boardhostAppend(...args: Arg[]): Promise<number>;
  boardhostReadFeed(...args: Arg[]): Promise<[StreamEntry[], string, string]>;
}

const scriptedClients = new WeakSet<Redis>();

/** The client with every script defined (once per client, whichever store asks first). */
export function scripted(redis: Redis): ScriptedRedis {
  if (!scriptedClients.has(redis)) {
    for (const [name, definition] of Object.entries(SCRIPTS)) redis.defineCommand(name, definition);
    scriptedClients.add(redis);
  }
  return redis as ScriptedRedis;
}

/** Client options that fail fast when Redis is down, so requests get 503 instead of hanging. */
export function redisClientOptions(): RedisOptions {
  return {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    // Concurrent requests share round trips: one write per event-loop tick instead of one per command.
    enableAutoPipelining: true,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  };
}

/** Opens a client and waits until it is ready (or fails after `timeoutMs`). */
export async function connectRedis(url: string, timeoutMs = 5000): Promise<Redis> {
  const client = new Redis(url, { ...redisClientOptions(), lazyConnect: true });
  client.on('error', () => {
    // Connection errors surface on the commands that fail; without a listener ioredis logs them.
  });
  const timer = setTimeout(() => client.disconnect(), timeoutMs);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new Error(`cannot connect to Redis at ${url}: ${(error as Error).message}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/**
 * Fans Redis pub/sub messages out to this process's listeners: one subscriber connection, one
 * channel subscription however many listeners share it (game updates and feeds alike).
 */
export class ChannelFanout {
  private readonly channels = new Map<
    string,
    { readonly listeners: Set<(message: string) => void>; readonly subscribed: Promise<unknown> }
  >();

  constructor(private readonly subscriber: Redis) {
    subscriber.on('message', (channel: string, message: string) => {
      const entry = this.channels.get(channel);
      if (!entry) return;
      for (const listener of entry.listeners) listener(message);
    });
  }

  /** Resolves once Redis confirmed the subscription; returns the unsubscribe function. */
  async listen(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    let entry = this.channels.get(channel);
    if (!entry) {
      entry = { listeners: new Set(), subscribed: this.subscriber.subscribe(channel) };
      this.channels.set(channel, entry);
    }
    // A second listener also waits for the SUBSCRIBE, so it misses nothing published after it returns.
    const joined = entry;
    joined.listeners.add(listener);
    const leave = async () => {
      if (!joined.listeners.delete(listener) || joined.listeners.size > 0) return;
      if (this.channels.get(channel) !== joined) return;
      this.channels.delete(channel);
      await this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
    try {
      await joined.subscribed;
    } catch (error) {
      // Forget the failed subscription, so that the next listener subscribes again.
      await leave();
      throw error;
    }
    return leave;
  }

  async close(): Promise<void> {
    this.channels.clear();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
