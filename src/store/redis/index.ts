import { Cluster, type Redis } from 'ioredis';
import { createLimiter } from '../limiter';
import type { FeedOptions, Storage } from '../store';
import { RedisAccountStore } from './accounts';
import { RedisAppStore } from './apps/store';
import { Revocations } from './revocations';
import { RedisBlockStore } from './challenges/blocks';
import { RedisChallengeStore } from './challenges/store';
import { RedisChatStore } from './chat/store';
import {
  ChannelFanout,
  connectRedis,
  DEFAULT_COMMAND_TIMEOUT_MS,
  connectRedisCluster,
  type RedisClient,
  type RedisClientSettings,
} from './client';
import { RedisClockStore } from './clocks';
import { RedisEventFeed } from './feed/store';
import { RedisEventBus, RedisGameStore } from './games/store';
import { RedisIdempotencyStore } from './idempotency';
import { migrateV1, type MigrationReport } from './migrate/migrate';
import { RedisRatingStore } from './ratings/store';
import { RedisSeekStore } from './challenges/seeks';
import { RedisBulkStore } from './bulks/store';
import { RedisTournamentStore } from './tournaments/store';
import { RedisFeaturedIndex } from './games/featured';
import { RedisPushEndpointStore } from './push';
import { RedisWebhookStore } from './webhooks/store';
import { defineScripts } from './script';
import { SCRIPTS } from './scripts';

export { RedisAccountStore } from './accounts';
export { RedisBlockStore } from './challenges/blocks';
export { RedisChallengeStore } from './challenges/store';
export { RedisChatStore } from './chat/store';
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
export { RedisEventFeed } from './feed/store';
export { RedisEventBus, RedisGameStore } from './games/store';
export { RedisIdempotencyStore } from './idempotency';
export { migrateV1, type MigrationReport } from './migrate/migrate';
export { RedisRatingStore } from './ratings/store';
export { RedisSeekStore } from './challenges/seeks';
export { RedisBulkStore } from './bulks/store';
export { RedisTournamentStore } from './tournaments/store';
export { RedisWebhookStore } from './webhooks/store';

// The Redis storage, one module per port; the Lua in *-scripts.ts and lua.ts, each script
// declared with script() (script.ts) and listed in scripts.ts. The key layout is v2 (docs/data-model.md):
// games, challenges, seek pools and accounts are spread over shards (keys.ts), each script touches
// one shard, and the outbox relay (relay/relay.ts) carries what a game or challenge write means for its
// accounts to their shards. Per shard s, game g, challenge c, account a, token hash h, seek k of a
// pool whose sha1 is q (prefix p; s is the shard of the id the key is named after, unless said):
//   p game:{s}:g            hash: head (JSON GameHead), version, status, kind, lseq (listing score),
//                           turn, reminded, eo/ep (the Redis that wrote it last, the game epoch:
//                           relay/relay.ts GameEpoch); once finished: packed (the moves, packMoves), nmoves
//   p moves:{s}:g           list of move JSON (until the game is finished and packed)
//   p idem:{s}:g:<key>      hash: fingerprint, head, moves (the answer: that head and the first moves)
//   p updates:{s}:g         channel: each GameChange (head and move)
//   p challenge:{s}:c       hash: doc (StoredChallenge JSON), version, relayed (JSON account → the
//                           relay version of the last entry with a part for it); its game has id c
//   p outbox:{s}            stream of entries for the relay (o, v, b, d; a: per-account befores;
//                           e: a game's epoch);
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
//   p applied:{s}:a         hash: origin (g:<id>, c:<id>, r:<id>) → the newest version a has applied;
//                           <origin>@e → the game epoch of that version
//   p feed:{s}:a            stream, entry id <seq>-0, fields type, at, ms, epoch, data; trimmed by age
//   p feedseq:{s}:a, p feedepoch:{s}:a (id, origin, epochs), channel p feedlive:{s}:a
//   p account:{s}:a         StoredAccount JSON
//   p tokens:{s}:a          sorted set of a's token hashes (score: createdAt ms)
//   p token:{s}:h, p tokenused:{s}:h   a token's doc (StoredToken JSON) and last use; s: a's shard
//   p tokenat:{s}:h         the token's account id (written before the token, never changed)
//   p blocks:{s}:a          hash: the accounts a blocks → since (ISO); p blockedby:{s}:b set of b's
//                           blockers (challenges/blocks.ts)
//   p chat:{s}:g, p chatseq:{s}:g, p chatmute:{s}:g   a game's chat in its slot: messages (list), their
//                           count, the seats that mute the others; channel p chatlive:{s}:g (chat/store.ts)
//   p seeks:pool:{s}:q      list of waiting seek ids, oldest first
//   p seek:{s}:k            hash: doc, account, expires, pool (q), rating, min, max; s: the shard of q
//   p seekat:{s}:k          q while k waits (expires an hour after the seek)
//   p lobby:{lobby:<pool>}  sorted set k|q → createdAt ms: an app pool's listed seeks (its own slot);
//                           also the channel of its changes
//   p ratings:{s}:a         hash: perf → StoredRating JSON; p rated:{s}:a set of the games applied;
//                           p ratinghist:{s}:a:<perf> list of history entries, newest first
//   p leaderboard:{lb:<perf>:<category>}  sorted set account → rating (non-provisional), and
//                           :entries (hash account → {v, account, name, rating, rd}): a slot each
// Single keys outside shards: p vacation:<a> (hash: doc, version), p idemcreate:<key>, p rl:<name>…;
// channel p revocations.
//   p webhook:{s}:w, p webhooklog:{s}:w  an endpoint of a and its delivery log (webhooks/store.ts)
//   p webhooks:{s}:a        set of a's webhook endpoints; p webhooks:due:{s} the shard's due set
//   p appfeed:dirty:{s}     sorted set of the shard's app accounts with events to forward to their
//                           app feed (score: ms of the first); :lease (feed/forwarder.ts)
//   p feed:{s}:app:<app>…   an app feed: the feed keys (feed, feedseq, feedepoch, feedlive, webhooks)
//                           of the owner id app:<app>, in its shard; p appfeedapplied:{s}:app:<app>
//                           hash: account → "<epoch> <seq>", its newest event the app feed holds
//   p pushbots              hash: account → its push endpoint (push.ts)
//   p tournament:{s}:t      hash: doc (StoredTournament JSON), version, status, seq (tournaments/store.ts)
//   p tournaments:{s}:all, p tournaments:{s}:status:<st>   the shard's tournament listings (score: seq)
//   p tournaments:{s}:account:a   sorted set of the tournaments a joined or made (score: seq)
//   p tournaments:seq, p tournaments:active   counter; set of open and ongoing ids (the director's)
//   p tv:<kind>             sorted set: TV's candidates of the kind (score: featuredScore; games/featured.ts)
//   p layout                '2' once the v1 layout's data is moved (migrateV1, migrate/migrate.ts)

export interface RedisStorageOptions extends RedisClientSettings {
  readonly feed?: FeedOptions;
  /** Told what migrateV1 did at startup (see migrate/migrate.ts). */
  readonly onMigrated?: (report: MigrationReport) => void;
  /** See RelayOptions.relayOwnWrites (tests of a node that dies right after its writes). */
  readonly relayOwnWrites?: boolean;
  /** How long a node holds a shard's outbox while relaying it (RelayOptions.leaseMs; default 10 s). */
  readonly relayLeaseMs?: number;
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
 * The stores are typed with one Redis's client; a Cluster's has the same command methods, and every
 * script and pipeline of theirs keeps to one slot (test/cluster/store-contract.test.ts runs them on
 * a real Cluster). Typing the stores with RedisClient would drop this cast.
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
  // Every script, before any store sends a command.
  defineScripts(data, SCRIPTS);
  const feedOptions = options.feed ?? {};
  // rate-limiter-flexible defines its script on the client when a limiter is made, and a pipeline
  // (enableAutoPipelining) begun before that lacks it ("pipeline[functionName] is not a function",
  // the pipeline's answers then misaligned): one limiter made now defines it before any command.
  createLimiter({ name: 'define', points: 1, windowSeconds: 1 }, { client: data, prefix });
  const fanout = new ChannelFanout(subscriber);
  const webhooks = new RedisWebhookStore(data, prefix);
  // Live messages go out on sharded pub/sub on a Cluster (each channel lives in its key's slot).
  const publish = client instanceof Cluster ? 'SPUBLISH' : 'PUBLISH';
  const ratings = new RedisRatingStore(data, prefix, feedOptions, publish);
  // The relay's errors (it retries by itself) go to whoever listens: the app logs and counts them.
  const errorListeners = new Set<(error: unknown, source: string) => void>();
  const games = new RedisGameStore(data, prefix, {
    feed: feedOptions,
    publish,
    onError: (error, source = 'relay') => {
      for (const listener of errorListeners) listener(error, source);
    },
    rate: (result) => ratings.record(result),
    ...(options.relayOwnWrites === false ? { relayOwnWrites: false } : {}),
    ...(options.relayLeaseMs ? { leaseMs: options.relayLeaseMs } : {}),
    ...(options.waitReplicas
      ? {
          replication: {
            replicas: options.waitReplicas,
            // WAIT must answer before the command times out, or its write looks lost.
            timeoutMs: Math.max(10, Math.floor((options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS) / 2)),
          },
        }
      : {}),
  });
  const feed = new RedisEventFeed(data, prefix, fanout, feedOptions, publish, (error) => {
    for (const listener of errorListeners) listener(error, 'app-feed');
  });
  // App feeds are filled by the forwarder, the relay's next stage: it runs and stops with the relay.
  games.relay.attach(feed.forwarder);
  const revocations = new Revocations(data, prefix, publish);
  const accounts = new RedisAccountStore(data, prefix, revocations);
  return {
    name: 'redis',
    games,
    events: new RedisEventBus(
      fanout,
      (id) => games.channel(id),
      revocations.channel,
      (hash) => revocations.publishNow(hash),
    ),
    clocks: new RedisClockStore(data, prefix, games, feedOptions),
    accounts,
    apps: new RedisAppStore(data, prefix, accounts, revocations),
    challenges: new RedisChallengeStore(data, prefix, games, feedOptions),
    seeks: new RedisSeekStore(data, prefix, fanout, publish),
    blocks: new RedisBlockStore(data, prefix),
    chat: new RedisChatStore(data, prefix, fanout, publish),
    bulks: new RedisBulkStore(data, prefix),
    feed,
    featured: new RedisFeaturedIndex(data, prefix),
    webhooks,
    push: new RedisPushEndpointStore(data, prefix),
    tournaments: new RedisTournamentStore(data, prefix, games, feedOptions),
    ratings,
    idempotency: new RedisIdempotencyStore(data, prefix),
    limiter: (options) => createLimiter(options, { client: data, prefix }),
    onBackgroundError(listener) {
      errorListeners.add(listener);
      return () => errorListeners.delete(listener);
    },
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
  // Data of the v1 layout is moved to v2 once, before the node serves (migrate/migrate.ts).
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
