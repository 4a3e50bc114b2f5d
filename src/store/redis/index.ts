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
export { RedisSeekStore } from './seeks';
export { RedisWebhookStore } from './webhooks';

// The Redis storage, one module per port (the Lua in game-scripts.ts, relay-scripts.ts,
// feed-scripts.ts, challenge-scripts.ts and lua.ts). The key layout is v2 (docs/data-model.md):
// games, challenges, seek pools and accounts are spread over shards (keys.ts), each script touches
// one shard, and the outbox relay (relay.ts) carries what a game or challenge write means for its
// accounts to their shards. Per shard s, game g, challenge c, account a, token hash h, seek k of a
// pool whose sha1 is q (prefix p; s is the shard of the id the key is named after, unless said):
//   p game:{s}:g            hash: head (JSON GameHead), version, status, kind, lseq (listing score),
//                           turn, reminded; once finished: packed (the moves, packMoves), nmoves
//   p moves:{s}:g           list of move JSON (until the game is finished and packed)
//   p idem:{s}:g:<key>      hash: fingerprint, head, moves (the answer: that head and the first moves)
//   p updates:{s}:g         channel: each GameChange (head and move)
//   p challenge:{s}:c       hash: doc (StoredChallenge JSON), version, relayed (JSON account → the
//                           relay version of the last entry with a part for it); its game has id c
//   p outbox:{s}            stream of entries for the relay (o, v, b, d; a: per-account befores);
//                           :cursor (last applied), :lease
//   p deadlines:{s}, p reminders:{s}   sorted sets of game ids (score: when, or a claim's lease end)
//   p challenges:expiry:{s} sorted set of the shard's open challenge ids (score: expiresAt ms)
//   p gseq:{s}              counter for listing scores
//   p games:{s}:all, p games:{s}[:kind:<k>][:status:<st>]   listings without an account
//   p games:{s}:account:a[:kind:<k>][:status:<st>]          an account's listings (via the relay)
//   p turn:{s}:a            sorted set of ongoing games where a is to move (score: deadline, or
//                           NO_DEADLINE_SCORE + turn start)
//   p ongoing:{s}:a         set of a's ongoing games (limits count it)
//   p challenges:open:{s}:a sorted set of the open challenges involving a (score: createdAt ms; via
//                           the relay)
//   p applied:{s}:a         hash: origin (g:<id>, c:<id>, r:<id>) → the newest version a has applied
//   p feed:{s}:a            stream, entry id <seq>-0, fields type, at, ms, epoch, data; trimmed by age
//   p feedseq:{s}:a, p feedepoch:{s}:a (id, origin, epochs), channel p feedlive:{s}:a
//   p account:{s}:a         StoredAccount JSON
//   p tokens:{s}:a          sorted set of a's token hashes (score: createdAt ms)
//   p token:{s}:h, p tokenused:{s}:h   a token's doc (StoredToken JSON) and last use; s: a's shard
//   p tokenat:{s}:h         the token's account id (written before the token, never changed)
//   p seeks:pool:{s}:q      list of waiting seek ids, oldest first
//   p seek:{s}:k            hash: doc, account, expires, pool (q); s: the shard of q
//   p seekat:{s}:k          q while k waits (expires an hour after the seek)
// Single keys outside shards: p vacation:<a> (hash: doc, version), p idemcreate:<key>, p rl:<name>…;
// channel p revocations. Not yet in shards: the webhook keys (webhooks.ts).

export interface RedisStorageOptions extends RedisClientSettings {
  readonly feed?: FeedOptions;
}

/** The whole storage over two connections: `data` for commands, `subscriber` for pub/sub. */
export function redisStorage(
  data: Redis,
  subscriber: Redis,
  prefix: string,
  options: RedisStorageOptions = {},
): Storage {
  const feedOptions = options.feed ?? {};
  // rate-limiter-flexible defines its script on the client when a limiter is made, and a pipeline
  // (enableAutoPipelining) begun before that lacks it ("pipeline[functionName] is not a function",
  // the pipeline's answers then misaligned): one limiter made now defines it before any command.
  createLimiter({ name: 'define', points: 1, windowSeconds: 1 }, { client: data, prefix });
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
  const storage = redisStorage(data, subscriber, prefix, options);
  // Every node sweeps the outboxes, so that entries a node left behind when it died are relayed.
  (storage.games as RedisGameStore).relay.start();
  return storage;
}
