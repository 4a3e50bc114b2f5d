import Redis, { type RedisOptions } from 'ioredis';
import { CHALLENGE_SCRIPTS } from './challenge-scripts';
import { GAME_SCRIPTS } from './game-scripts';
import { SCRIPTS } from './lua';
import { RELAY_SCRIPTS } from './relay-scripts';

export type Arg = string | number;
export type StreamEntry = [id: string, fields: string[]];

export interface ScriptedRedis extends Redis {
  boardhostCreateGame(...args: Arg[]): Promise<[number, string?]>;
  boardhostUpdateGame(...args: Arg[]): Promise<[string, ...Array<string | number>]>;
  boardhostReadGame(...args: Arg[]): Promise<[string, string, string[], number] | null>;
  boardhostMarkRemindedV2(...args: Arg[]): Promise<0 | [number, string]>;
  boardhostReserveGame(...args: Arg[]): Promise<number>;
  boardhostRelayAccount(...args: Arg[]): Promise<string>;
  boardhostAdvanceOutbox(...args: Arg[]): Promise<number>;
  boardhostReleaseOutbox(...args: Arg[]): Promise<string>;
  boardhostAppendAccount(...args: Arg[]): Promise<number>;
  boardhostClaimDue(...args: Arg[]): Promise<string[]>;
  boardhostSaveVacation(...args: Arg[]): Promise<number>;
  boardhostCreateAccount(...args: Arg[]): Promise<number>;
  boardhostAddToken(...args: Arg[]): Promise<number>;
  boardhostRevokeToken(...args: Arg[]): Promise<'revoked' | 'changed' | 'last-root'>;
  boardhostClaimIdempotency(...args: Arg[]): Promise<string[]>;
  boardhostReleaseIdempotency(...args: Arg[]): Promise<number>;
  boardhostCreateChallenge(...args: Arg[]): Promise<[0] | [1, string, string]>;
  boardhostUpdateChallenge(
    ...args: Arg[]
  ): Promise<['updated', string, string, string, string] | ['missing' | 'conflict' | 'game-exists']>;
  boardhostMatchOrAdd(...args: Arg[]): Promise<string | null>;
  boardhostRemoveSeek(...args: Arg[]): Promise<number>;
  boardhostReadFeed(...args: Arg[]): Promise<[StreamEntry[], string, string, string, string]>;
}

const scriptedClients = new WeakSet<Redis>();

/** The client with every script defined (once per client, whichever store asks first). */
export function scripted(redis: Redis): ScriptedRedis {
  if (!scriptedClients.has(redis)) {
    for (const scripts of [SCRIPTS, GAME_SCRIPTS, RELAY_SCRIPTS, CHALLENGE_SCRIPTS]) {
      for (const [name, definition] of Object.entries(scripts)) redis.defineCommand(name, definition);
    }
    scriptedClients.add(redis);
  }
  return redis as ScriptedRedis;
}

/** How long a command may wait for Redis before it fails (REDIS_COMMAND_TIMEOUT_MS). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 2000;

export interface RedisClientSettings {
  /**
   * A command that has no answer after this many ms fails ("Command timed out"), which requests
   * answer with 503 STORE_UNAVAILABLE. No command here blocks on the server (no BLPOP, no XREAD
   * BLOCK), so one timeout fits every command of both connections.
   */
  readonly commandTimeoutMs?: number;
}

/**
 * Client options that fail fast when Redis is down or stalled, so requests get 503 instead of
 * hanging.
 */
export function redisClientOptions(settings: RedisClientSettings = {}): RedisOptions {
  return {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    // Concurrent requests share round trips: one write per event-loop tick instead of one per command.
    enableAutoPipelining: true,
    connectTimeout: 2000,
    commandTimeout: settings.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  };
}

/** Opens a client and waits until it is ready (or fails after `timeoutMs`). */
export async function connectRedis(
  url: string,
  timeoutMs = 5000,
  settings: RedisClientSettings = {},
): Promise<Redis> {
  const client = new Redis(url, { ...redisClientOptions(settings), lazyConnect: true });
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

/** Called with each message of a channel. */
export type ChannelListener = (message: string) => void;

/**
 * Fans Redis pub/sub messages out to this process's listeners: one subscriber connection, one
 * channel subscription however many listeners share it (game updates and feeds alike).
 *
 * When the subscriber connection drops, messages published until it is back are lost (pub/sub
 * keeps nothing). ioredis reconnects and subscribes again; once Redis has confirmed that, every
 * listener's `onResync` is called, so that it can compare what it has with the store.
 */
export class ChannelFanout {
  private readonly channels = new Map<
    string,
    {
      readonly listeners: Map<ChannelListener, (() => void) | undefined>;
      readonly subscribed: Promise<unknown>;
    }
  >();
  /** Set when the connection drops; cleared when it is back and subscribed again. */
  private interrupted = false;

  constructor(private readonly subscriber: Redis) {
    subscriber.on('message', (channel: string, message: string) => {
      const entry = this.channels.get(channel);
      if (!entry) return;
      for (const listener of entry.listeners.keys()) listener(message);
    });
    subscriber.on('close', () => {
      this.interrupted = true;
    });
    subscriber.on('ready', () => {
      if (!this.interrupted) return;
      // ioredis sent the SUBSCRIBEs again before emitting 'ready': a PING answered after them
      // means every channel is subscribed again, so a store read from now on misses nothing.
      subscriber.ping().then(
        () => {
          if (!this.interrupted || subscriber.status !== 'ready') return;
          this.interrupted = false;
          for (const entry of [...this.channels.values()]) {
            for (const resync of [...entry.listeners.values()]) resync?.();
          }
        },
        () => undefined, // dropped again: the next 'ready' tries again
      );
    });
  }

  /**
   * Resolves once Redis confirmed the subscription; returns the unsubscribe function. `onResync`
   * runs after each reconnection of the subscriber (messages may have been lost meanwhile).
   */
  async listen(
    channel: string,
    listener: ChannelListener,
    onResync?: () => void,
  ): Promise<() => Promise<void>> {
    let entry = this.channels.get(channel);
    if (!entry) {
      entry = { listeners: new Map(), subscribed: this.subscriber.subscribe(channel) };
      this.channels.set(channel, entry);
    }
    // A second listener also waits for the SUBSCRIBE, so it misses nothing published after it returns.
    const joined = entry;
    // Each call is its own registration, even with the same function.
    const own: ChannelListener = (message) => listener(message);
    joined.listeners.set(own, onResync);
    const leave = async () => {
      if (!joined.listeners.delete(own) || joined.listeners.size > 0) return;
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

  /** Resolves once every message published before this call has been handed to the listeners. */
  async flush(): Promise<void> {
    // Redis answers the PING after writing out every message published before it.
    await this.subscriber.ping();
  }

  async close(): Promise<void> {
    this.channels.clear();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
