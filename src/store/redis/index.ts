import type { Redis } from 'ioredis';
import { createLimiter } from '../limiter';
import type { FeedOptions, Storage } from '../store';
import { RedisAccountStore, revocationChannel } from './accounts';
import { RedisChallengeStore } from './challenges';
import {
  ChannelFanout,
  connectRedis,
  connectRedisCluster,
  type RedisClient,
  type RedisClientSettings,
} from './client';
import { RedisClockStore } from './clocks';
import { RedisEventFeed } from './feed';
import { RedisEventBus, RedisGameStore } from './games';
import { RedisIdempotencyStore } from './idempotency';
import { RedisSeekStore } from './seeks';
import { RedisWebhookStore } from './webhooks';

export { RedisAccountStore } from './accounts';
export { RedisChallengeStore } from './challenges';
export {
  ChannelFanout,
  connectRedis,
  connectRedisCluster,
  DEFAULT_COMMAND_TIMEOUT_MS,
  parseClusterNode,
  redisClientOptions,
  redisClusterOptions,
  type ClusterRole,
  type RedisClient,
  type RedisClientSettings,
} from './client';
export { RedisClockStore } from './clocks';
export { RedisEventFeed } from './feed';
export { RedisEventBus, RedisGameStore } from './games';
export { RedisIdempotencyStore } from './idempotency';
export { RedisSeekStore } from './seeks';
export { RedisWebhookStore } from './webhooks';

// The Redis storage, one module per port (the Lua they share in lua.ts).
//
// Key layout (prefix p, game id g, account id a). A game's keys share the `{g}` hash tag, and a
// feed's keys the `{a}` tag, so that each lives on one Redis Cluster slot:
//   p game:{g}              hash: doc (JSON), version, status (the listings' view of it)
//   p idem:{g}:<key>        JSON IdempotencyRecord, expires after 24 h
//   p updates:{g}           pub/sub channel carrying each new doc
// Listing indexes (sorted sets, score = creation sequence from the counter p games:seq), one per
// combination of the filters (see listingIndex): p games:all, p games[:account:<a>][:kind:<k>]
// [:status:<s>] (e.g. p games:account:ann:kind:oware:status:ongoing). The script that creates a game
// writes them; the update script moves the status entries when the status changes (game:{g} field
// status). list() reads the one index of its filter and re-checks each document it returns.
//   p games:ongoing:<a>     set of a's ongoing game ids (index_clock keeps it; game limits count it)
//   p account:<a>           JSON StoredAccount
//   p token:<hash>          JSON StoredToken (revoked ones stay, so callers can say "revoked")
//   p tokens:<a>            sorted set of token hashes, score = createdAt ms (oldest first)
//   p tokenused:<hash>      ISO time the token last authenticated a request (at most once a minute)
//   p revocations           pub/sub channel carrying the hash of each token revoked (same script)
//   p idemcreate:<key>      hash: state (pending/done), fingerprint, response: a create's idempotency
//                           record (key = sha256 of scope and Idempotency-Key; response sealed)
//   p challenge:<c>         hash: doc (JSON), version
//   p challenges:open:<a>   sorted set of open challenge ids involving a, score = createdAt ms
//   p challenges:expiry     sorted set of open challenge ids, score = expiresAt ms
//   p seek:<s>              hash: doc (JSON), account, expires (ms), pool (sha1 of the pool string)
//   p seeks:pool:<sha1>     list of waiting seek ids, oldest first
//   p feed:{a}              stream, entry id <seq>-0, fields type, at, ms (at in epoch ms), epoch
//                           (the feed's epoch when written), data (JSON); trimmed by age only
//   p feedseq:{a}           the feed's last seq (INCR)
//   p feedepoch:{a}         hash: id (the current epoch), origin (run_id:replid of the Redis that
//                           last touched the feed), epochs (JSON [[id, since], …], newest first)
//   p feedlive:{a}          pub/sub channel carrying each appended event as FeedEvent JSON
// Clocks (kept in step by every script that writes a game; see index_clock):
//   p deadlines             sorted set of game ids, score = deadline ms (or a claim's lease end)
//   p reminders             sorted set of game ids, score = reminder ms (or a claim's lease end)
//   p games:turn:<a>        sorted set of ongoing games where a is to move, score = deadline ms
//                           (no deadline: NO_DEADLINE_SCORE + turn start ms)
//   game:{g} fields turn, reminded: the game's turn, and the turn a reminder was sent for
//   p vacation:<a>          hash: doc (JSON StoredVacation), version
//   p rl:<name>...          rate-limiter-flexible's counters
// Writes that append notices do so in the same script, so they touch feeds on other slots: this
// relies on a single Redis (a Cluster deployment would need an outbox instead).
// Webhook endpoints, their due set and delivery logs: see the layout in webhooks.ts.

export interface RedisStorageOptions extends RedisClientSettings {
  readonly feed?: FeedOptions;
  /**
   * REDIS_WAIT_REPLICAS: after a write, `WAIT waitReplicas <timeout>` (0: no WAIT). WAIT counts the
   * replicas that acknowledged the writes made before it on the same connection, so it must follow
   * the write on the connection to the write's master (on a Cluster: in one pipeline with the write,
   * which ioredis sends to the slot's master).
   */
  readonly waitReplicas?: number;
}

/** Where the data is: one Redis (`redis://…` URL) or a Redis Cluster (seed nodes, `host:port`). */
export type RedisTarget = string | { readonly clusterNodes: readonly string[] };

/**
 * The v1 stores type their client as one Redis. On a Cluster they run as long as each command's keys
 * share a slot, which their cross-slot scripts do not (CROSSSLOT): the v2 stores take a RedisClient
 * and this cast goes.
 */
function v1Client(client: RedisClient): Redis {
  return client as Redis;
}

/** The whole storage over two connections: `data` for commands, `subscriber` for pub/sub. */
export function redisStorage(
  client: RedisClient,
  subscriber: RedisClient,
  prefix: string,
  options: RedisStorageOptions = {},
): Storage {
  const data = v1Client(client);
  const feedOptions = options.feed ?? {};
  const fanout = new ChannelFanout(subscriber);
  const games = new RedisGameStore(data, prefix, feedOptions);
  return {
    name: 'redis',
    games,
    events: new RedisEventBus(fanout, (id) => games.channel(id), revocationChannel(prefix)),
    clocks: new RedisClockStore(data, prefix, feedOptions),
    accounts: new RedisAccountStore(data, prefix),
    challenges: new RedisChallengeStore(data, prefix, feedOptions),
    seeks: new RedisSeekStore(data, prefix),
    feed: new RedisEventFeed(data, prefix, fanout, feedOptions),
    webhooks: new RedisWebhookStore(data, prefix),
    idempotency: new RedisIdempotencyStore(data, prefix),
    limiter: (options) => createLimiter(options, { client: data, prefix }),
  };
}

/**
 * Everything in Redis: one data connection and one subscriber connection (on a Cluster: a Cluster
 * client for commands, and one whose sharded subscribers connect to each master for pub/sub).
 */
export async function createRedisStorage(
  target: RedisTarget,
  prefix: string,
  options: RedisStorageOptions = {},
): Promise<Storage> {
  const connect = (role: 'commands' | 'subscriber'): Promise<RedisClient> =>
    typeof target === 'string'
      ? connectRedis(target, undefined, options)
      : connectRedisCluster(target.clusterNodes, undefined, options, role);
  const data = await connect('commands');
  const subscriber = await connect('subscriber').catch(async (error: unknown) => {
    data.disconnect();
    throw error;
  });
  // Data written before the listings had an index per filter combination, or before ongoing games
  // were counted per account, gets them (once per deployment; marker keys record it).
  const games = new RedisGameStore(v1Client(data), prefix);
  await (async () => {
    await games.indexListings();
    await games.indexOngoing();
  })().catch((error: unknown) => {
    data.disconnect();
    subscriber.disconnect();
    throw error;
  });
  return redisStorage(data, subscriber, prefix, options);
}
