import Redis, { Cluster, Command, type ClusterOptions, type RedisOptions } from 'ioredis';
import { parseClusterNode } from './cluster-nodes';

export { parseClusterNode };

/**
 * What the stores run on: one Redis (or Sentinel's master), or a Redis Cluster. Both have the same
 * command methods, `defineCommand`, `multi` and `pipeline`; on a Cluster every script's keys, and
 * every pipeline's, must share one hash slot, and keyless commands (SCAN, WAIT, PING…) go to a node
 * of ioredis' choosing: see `connectRedisCluster`.
 */
export type RedisClient = Redis | Cluster;

/** How long a command may wait for Redis before it fails (REDIS_COMMAND_TIMEOUT_MS). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 2000;

export interface RedisClientSettings {
  /**
   * A command that has no answer after this many ms fails ("Command timed out"), which requests
   * answer with 503 STORE_UNAVAILABLE. No command here blocks on the server (no BLPOP, no XREAD
   * BLOCK), so one timeout fits every command of both connections.
   */
  readonly commandTimeoutMs?: number;
  /** CLIENT SETNAME of each Cluster node connection (`ioredis-cluster(ssubscriber):<name>` for subscribers). */
  readonly connectionName?: string;
}

/**
 * Client options that fail fast when Redis is down or stalled, so requests get 503 instead of
 * hanging.
 */
export function redisClientOptions(settings: RedisClientSettings = {}): RedisOptions {
  return {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    // A command in flight when the connection drops fails (a 503 to a request; the relay retries
    // from Redis) instead of being sent again after the reconnect: the Redis it would reach may
    // have come back from an older dump, where a resent relay step re-applied the notices of
    // writes the restart had lost (feed events of moves the game no longer had).
    autoResendUnfulfilledCommands: false,
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
  failFastWhenStalled(client, settings.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS);
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
 * Once a command times out, the connection counts as stalled: every command fails at once (the
 * same "Command timed out", a 503) until a PING sent on it answers. Without this, a command issued
 * while a batch was in flight waited for that batch to time out before it was even sent (ioredis
 * sends one auto-pipelined batch at a time), then for its own timeout: a request whose store calls
 * followed one another answered after twice REDIS_COMMAND_TIMEOUT_MS. Commands are failed before
 * they are written, never halfway through a batch (a MULTI is sent whole or not at all).
 */
function failFastWhenStalled(client: Redis, timeoutMs: number): void {
  let stalled = false;
  let probing = false;
  const send = client.sendCommand.bind(client);
  const probe = () => {
    if (probing) return;
    probing = true;
    const ping = new Command('ping', []);
    ping.setTimeout(timeoutMs);
    send(ping);
    ping.promise.then(
      () => {
        stalled = false;
        probing = false;
      },
      () => {
        probing = false;
        // Still stalled (or the connection is down: its own reconnect decides): ask again soon.
        if (stalled) setTimeout(probe, Math.min(timeoutMs, 500)).unref();
      },
    );
  };
  client.sendCommand = (command: Command, stream?: Parameters<Redis['sendCommand']>[1]) => {
    if (stalled && client.status === 'ready') {
      command.reject(new Error('Command timed out'));
      return command.promise;
    }
    const sent = send(command, stream);
    command.promise.then(
      () => undefined,
      (error: unknown) => {
        if (!stalled && (error as Error)?.message === 'Command timed out') {
          stalled = true;
          probe();
        }
      },
    );
    return sent;
  };
  // A new connection is not the stalled one.
  client.on('ready', () => {
    stalled = false;
  });
}

const CLUSTER_RETRY_DELAY_MS = 100;

/** What a Cluster connection is for: commands, or sharded pub/sub (one subscriber per master). */
export type ClusterRole = 'commands' | 'subscriber';

/**
 * Cluster options equivalent to `redisClientOptions`: commands fail fast while the cluster is down
 * or a slot's master is unreachable (no offline queue; a command sent waits `commandTimeout` at
 * most, one that cannot be sent is retried for about as long), reads go to masters (replicas may
 * lag behind a write the caller just made), and the topology is refreshed on MOVED, on a lost node
 * and every 5 s.
 */
export function redisClusterOptions(
  settings: RedisClientSettings = {},
  role: ClusterRole = 'commands',
): ClusterOptions {
  const { connectTimeout, commandTimeout, maxRetriesPerRequest, autoResendUnfulfilledCommands } =
    redisClientOptions(settings);
  const timeoutMs = commandTimeout ?? DEFAULT_COMMAND_TIMEOUT_MS;
  return {
    enableOfflineQueue: false,
    enableReadyCheck: true,
    enableAutoPipelining: true,
    scaleReads: 'master',
    // Reconnects to the cluster (every node lost) forever, at most every 2 s, like retryStrategy.
    clusterRetryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    // A command to a slot whose master is unreachable is never sent, so commandTimeout does not
    // bound it: ioredis retries it every 100 ms (refreshing the topology) until it has been
    // redirected or retried maxRedirections times. As many retries as fit in commandTimeout make a
    // failover's few seconds answer 503s as fast as a stalled Redis does (and leave room for the
    // MOVED/ASK hops of a resharding).
    maxRedirections: Math.max(3, Math.floor(timeoutMs / CLUSTER_RETRY_DELAY_MS) - 1),
    retryDelayOnFailover: CLUSTER_RETRY_DELAY_MS,
    retryDelayOnClusterDown: CLUSTER_RETRY_DELAY_MS,
    retryDelayOnTryAgain: CLUSTER_RETRY_DELAY_MS,
    slotsRefreshTimeout: Math.min(1000, timeoutMs),
    slotsRefreshInterval: 5000,
    shardedSubscribers: role === 'subscriber',
    redisOptions: {
      connectTimeout,
      commandTimeout,
      maxRetriesPerRequest,
      autoResendUnfulfilledCommands,
      ...(settings.connectionName ? { connectionName: settings.connectionName } : {}),
    },
  };
}

/**
 * Opens a Redis Cluster client from a seed list (`host:port`, any nodes of the cluster: the rest are
 * discovered) and waits until it is ready: the slots are known and `CLUSTER INFO` says ok. Fails
 * after `timeoutMs`, or as soon as no seed answers, naming the seeds and the last node error.
 *
 * `role: 'subscriber'` turns on ioredis' sharded subscribers (`ssubscribe` goes to a connection of
 * its own to the master of the channel's slot); give it to `ChannelFanout`.
 */
export async function connectRedisCluster(
  nodes: readonly string[],
  timeoutMs = 5000,
  settings: RedisClientSettings = {},
  role: ClusterRole = 'commands',
): Promise<Cluster> {
  const seeds = nodes.map(parseClusterNode);
  const client = new Cluster(seeds, { ...redisClusterOptions(settings, role), lazyConnect: true });
  // What went wrong on the way, for the message (the node errors say more than "None of startup
  // nodes is available"); without a listener ioredis would also log them.
  const seen = new Set<string>();
  const remember = (error: Error & { lastNodeError?: Error }) => {
    seen.add(error.message);
    if (error.lastNodeError) seen.add(error.lastNodeError.message);
  };
  client.on('error', remember);
  client.on('node error', remember);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`not ready after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    client.disconnect();
    const { message } = error as Error;
    seen.delete(message);
    const detail = seen.size > 0 ? `${message} (${[...seen].join('; ')})` : message;
    throw new Error(`cannot connect to Redis Cluster at ${nodes.join(',')}: ${detail}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/** Called with each message of a channel. */
export type ChannelListener = (message: string) => void;

/**
 * Fans Redis pub/sub messages out to this process's listeners: one subscription per channel however
 * many listeners share it (game updates and feeds alike).
 *
 * On one Redis: SUBSCRIBE on the subscriber connection, messages of PUBLISH. On a Cluster (a client
 * of `connectRedisCluster(…, 'subscriber')`): sharded pub/sub, SSUBSCRIBE on ioredis' subscriber
 * connection to the master of the channel's slot, messages of SPUBLISH (which stay in that shard
 * instead of crossing the whole cluster bus).
 *
 * When a subscriber connection drops, messages published until it is back are lost (pub/sub keeps
 * nothing). ioredis reconnects and subscribes again (on a Cluster: a new connection to the slot's
 * master, after a failover the promoted replica); once Redis has confirmed that, every listener's
 * `onResync` is called, so that it can compare what it has with the store.
 */
export class ChannelFanout {
  private readonly channels = new Map<
    string,
    {
      readonly listeners: Map<ChannelListener, (() => void) | undefined>;
      readonly subscribed: Promise<unknown>;
    }
  >();
  /** Set when a subscriber connection drops; cleared when it is back and subscribed again. */
  private interrupted = false;
  /** Counts resubscriptions: only the flush after the latest one may clear `interrupted`. */
  private resubscriptions = 0;
  private readonly sharded: boolean;

  constructor(private readonly subscriber: RedisClient) {
    this.sharded = subscriber instanceof Cluster;
    if (subscriber instanceof Cluster && !subscriber.options.shardedSubscribers) {
      throw new Error("ChannelFanout needs a Cluster client with sharded subscribers (role 'subscriber')");
    }
    const deliver = (channel: string, message: string) => {
      const entry = this.channels.get(channel);
      if (!entry) return;
      for (const listener of entry.listeners.keys()) listener(message);
    };
    if (subscriber instanceof Cluster) {
      subscriber.on('smessage', deliver);
      // ioredis replaces a sharded subscriber whose connection ended, moves the channels of slots
      // whose master changed (a failover, a resharding), and starts every subscriber afresh when
      // the cluster connection was lost; each time it SSUBSCRIBEs the channels again and then says
      // 'subscribersReady' (and only then). Messages may have been lost in between.
      subscriber.on('subscribersReady', () => {
        this.interrupted = true;
        this.resubscribed();
      });
    } else {
      subscriber.on('message', deliver);
      subscriber.on('close', () => {
        this.interrupted = true;
      });
      // ioredis sent the SUBSCRIBEs again before emitting 'ready'.
      subscriber.on('ready', () => this.resubscribed());
    }
  }

  private resubscribed(): void {
    if (!this.interrupted) return;
    const resubscription = ++this.resubscriptions;
    // A PING answered after the (S)SUBSCRIBEs means every channel is subscribed again, so a store
    // read from now on misses nothing.
    this.flush().then(
      () => {
        if (!this.interrupted || resubscription !== this.resubscriptions) return; // a later one will
        if (!this.sharded && this.subscriber.status !== 'ready') return;
        this.interrupted = false;
        for (const entry of [...this.channels.values()]) {
          for (const resync of [...entry.listeners.values()]) resync?.();
        }
      },
      () => undefined, // dropped again: the next reconnection tries again
    );
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
      const subscribed = this.sharded
        ? this.subscriber.ssubscribe(channel)
        : this.subscriber.subscribe(channel);
      entry = { listeners: new Map(), subscribed };
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
      const left = this.sharded
        ? this.subscriber.sunsubscribe(channel)
        : this.subscriber.unsubscribe(channel);
      await left.catch(() => undefined);
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

  /**
   * Resolves once every message published before this call has been handed to the listeners: Redis
   * answers a PING after writing out every message published before it. On a Cluster each master's
   * messages come on their own connection, so every sharded subscriber in use is pinged (in
   * parallel); one whose connection is down fails the flush, as the subscriber connection does on
   * one Redis.
   */
  async flush(): Promise<void> {
    if (!(this.subscriber instanceof Cluster)) {
      await this.subscriber.ping();
      return;
    }
    await Promise.all(
      shardedSubscribers(this.subscriber).map(async (sub) => {
        if (sub.subscriberStatus === 'idle') return; // never used: no channel of its slots
        const connection = sub.getInstance();
        if (!connection || sub.subscriberStatus === 'ended' || sub.subscriberStatus === 'stopping') {
          throw new Error(`the sharded subscriber of ${sub.getNodeKey()} is down`);
        }
        await connection.ping();
      }),
    );
  }

  async close(): Promise<void> {
    this.channels.clear();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}

/** The part of ioredis' (5.11) ShardedSubscriber that `flush` uses. */
interface ShardedSubscriber {
  readonly subscriberStatus: 'idle' | 'starting' | 'connected' | 'stopping' | 'ended';
  getInstance(): Redis | null;
  getNodeKey(): string;
}

/**
 * ioredis keeps its sharded subscribers private (Cluster#shardedSubscribers, a ClusterSubscriberGroup
 * with a Map of node key to ShardedSubscriber); the fanout test fails if that changes.
 */
function shardedSubscribers(cluster: Cluster): ShardedSubscriber[] {
  const group = (cluster as unknown as { shardedSubscribers?: { shardedSubscribers?: unknown } })
    .shardedSubscribers;
  const subscribers = group?.shardedSubscribers;
  if (!(subscribers instanceof Map)) {
    throw new Error('ioredis has no Cluster#shardedSubscribers.shardedSubscribers Map (changed internals?)');
  }
  return [...(subscribers.values() as Iterable<ShardedSubscriber>)];
}
