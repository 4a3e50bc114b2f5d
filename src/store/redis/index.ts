import type Redis from 'ioredis';
import { createLimiter } from '../limiter';
import type { FeedOptions, Storage } from '../store';
import { RedisAccountStore, revocationChannel } from './accounts';
import { RedisChallengeStore } from './challenges';
import { ChannelFanout, connectRedis, type RedisClientSettings } from './client';
import { RedisClockStore } from './clocks';
import { RedisEventFeed } from './feed';
import { RedisEventBus, RedisGameStore } from './games';
import { RedisIdempotencyStore } from './idempotency';
import { migrateV1, type MigrationReport } from './migrate';
import { RedisSeekStore } from './seeks';
import { RedisWebhookStore } from './webhooks';

export { RedisAccountStore } from './accounts';
export { RedisChallengeStore } from './challenges';
export {
  ChannelFanout,
  connectRedis,
  DEFAULT_COMMAND_TIMEOUT_MS,
  redisClientOptions,
  type RedisClientSettings,
} from './client';
export { RedisClockStore } from './clocks';
export { RedisEventFeed } from './feed';
export { RedisEventBus, RedisGameStore } from './games';
export { RedisIdempotencyStore } from './idempotency';
export { migrateV1, type MigrationReport } from './migrate';
export { RedisSeekStore } from './seeks';
export { RedisWebhookStore } from './webhooks';

// The Redis storage, one module per port (the Lua in game-scripts.ts, relay-scripts.ts,
// feed-scripts.ts and lua.ts). The key layout is v2 (docs/data-model.md): games and accounts are
// spread over shards (keys.ts), each script touches one shard, and the outbox relay (relay.ts)
// carries what a game write means for its accounts to their shards. Per shard s, game g, account a
// (prefix p):
//   p game:{s}:g            hash: head (JSON GameHead), version, status, kind, lseq (listing score),
//                           turn, reminded; once finished: packed (the moves, packMoves), nmoves
//   p moves:{s}:g           list of move JSON (until the game is finished and packed)
//   p idem:{s}:g:<key>      hash: fingerprint, head, moves (the answer: that head and the first moves)
//   p updates:{s}:g         channel: each GameChange (head and move)
//   p outbox:{s}            stream of entries for the relay; :cursor (last applied), :lease
//   p deadlines:{s}, p reminders:{s}   sorted sets of game ids (score: when, or a claim's lease end)
//   p gseq:{s}              counter for listing scores
//   p games:{s}:all, p games:{s}[:kind:<k>][:status:<st>]   listings without an account
//   p games:{s}:account:a[:kind:<k>][:status:<st>]          an account's listings (via the relay)
//   p turn:{s}:a            sorted set of ongoing games where a is to move (score: deadline, or
//                           NO_DEADLINE_SCORE + turn start)
//   p ongoing:{s}:a         set of a's ongoing games (limits count it)
//   p applied:{s}:a         hash: origin (g:<id>, r:<id>) → the newest version a has applied
//   p feed:{s}:a            stream, entry id <seq>-0, fields type, at, ms, epoch, data; trimmed by age
//   p feedseq:{s}:a, p feedepoch:{s}:a (id, origin, epochs), channel p feedlive:{s}:a
//   p layout                '2' once the v1 layout's data is moved (migrateV1, migrate.ts)
// Not yet in shards (one Redis only until they are; see docs/data-model.md):
//   p account:<a>, p token:<hash>, p tokens:<a>, p tokenused:<hash>, p revocations (channel),
//   p idemcreate:<key>, p challenge:<c> (hash: doc, version), p challenges:open:<a>,
//   p challenges:expiry, p seek:<s>, p seeks:pool:<sha1>, p vacation:<a>, p rl:<name>…, and the
//   webhook keys (webhooks.ts).

export interface RedisStorageOptions extends RedisClientSettings {
  readonly feed?: FeedOptions;
  /** Told what migrateV1 did at startup (see migrate.ts). */
  readonly onMigrated?: (report: MigrationReport) => void;
}

/** The whole storage over two connections: `data` for commands, `subscriber` for pub/sub. */
export function redisStorage(
  data: Redis,
  subscriber: Redis,
  prefix: string,
  options: RedisStorageOptions = {},
): Storage {
  const feedOptions = options.feed ?? {};
  const fanout = new ChannelFanout(subscriber);
  const games = new RedisGameStore(data, prefix, { feed: feedOptions });
  return {
    name: 'redis',
    games,
    events: new RedisEventBus(fanout, (id) => games.channel(id), revocationChannel(prefix)),
    clocks: new RedisClockStore(data, prefix, games, feedOptions),
    accounts: new RedisAccountStore(data, prefix),
    challenges: new RedisChallengeStore(data, prefix, games, feedOptions),
    seeks: new RedisSeekStore(data, prefix),
    feed: new RedisEventFeed(data, prefix, fanout, feedOptions),
    webhooks: new RedisWebhookStore(data, prefix),
    idempotency: new RedisIdempotencyStore(data, prefix),
    limiter: (options) => createLimiter(options, { client: data, prefix }),
  };
}

/** Everything in Redis: one data connection and one subscriber connection. */
export async function createRedisStorage(
  url: string,
  prefix: string,
  options: RedisStorageOptions = {},
): Promise<Storage> {
  const data = await connectRedis(url, undefined, options);
  const subscriber = await connectRedis(url, undefined, options).catch(async (error: unknown) => {
    data.disconnect();
    throw error;
  });
  // Data of the v1 layout is moved to v2 once, before the node serves (migrate.ts).
  let report: MigrationReport;
  try {
    report = await migrateV1(data, prefix);
  } catch (error) {
    data.disconnect();
    subscriber.disconnect();
    throw error;
  }
  options.onMigrated?.(report);
  const storage = redisStorage(data, subscriber, prefix, options);
  // Every node sweeps the outboxes, so that entries a node left behind when it died are relayed.
  (storage.games as RedisGameStore).relay.start();
  return storage;
}
