// Writes data exactly as the v1 Redis store did (before the v2 shards; the v1 scripts are in
// `git show 1584958:src/store/redis/lua.ts`), for the tests of migrateV1. Self-contained on
// purpose: the shapes below are v1's and must not follow later changes of src/. Prefix p, game g,
// account a:
//   p game:{g}               hash: doc (StoredGame JSON, moves included), version, status, turn
//                            (the ply while ongoing, 'over' once finished), reminded (the turn a
//                            reminder was sent for)
//   p games:seq              counter of the listing scores (INCR per game created)
//   p games:all, p games[:account:<a>][:kind:<k>][:status:<s>]   sorted sets, score = that seq
//   p deadlines, p reminders sorted sets of game ids, score = epoch ms
//   p games:turn:<a>         sorted set: ongoing games where a is to move, score = deadline ms or
//                            1e15 + when the turn began
//   p games:ongoing:<a>      set of a's ongoing games
//   p games:listings = '2', p games:ongoing-indexed = '1'   v1's own markers
//   p idem:{g}:<key>         JSON {fingerprint, response: StoredGame}, EX ttl
//   p feed:{a}               stream, ids <seq>-0, fields type, at, ms, epoch, data (JSON)
//   p feedseq:{a}            the last seq
//   p feedepoch:{a}          hash: id, origin (run_id:master_replid of the Redis), epochs (JSON
//                            [[id, since], …], newest first)
//   p account:<a>, p token:<hash> (JSON), p tokens:<a> (sorted set of hashes, score createdAt ms)
import type Redis from 'ioredis';
import type { FeedEvent, FeedEpoch, StoredAccount, StoredGame, StoredToken } from '../../src/store/store';

/** v1's NO_DEADLINE_SCORE (my-turn score of a game without deadline: this + when the turn began). */
const NO_DEADLINE = 1e15;

/** v1's listing indexes of a game: (any | a seat's account) × (any | its kind) × (any | its status). */
function v1Listings(game: StoredGame): string[] {
  const accounts = [...new Set(game.seats.flatMap((s) => (s.account === null ? [] : [s.account])))];
  const names: string[] = [];
  for (const account of [undefined, ...accounts]) {
    for (const kind of [undefined, game.kind]) {
      for (const status of [undefined, game.status]) {
        let key = 'games';
        if (account !== undefined) key += `:account:${account}`;
        if (kind !== undefined) key += `:kind:${kind}`;
        if (status !== undefined) key += `:status:${status}`;
        names.push(key === 'games' ? 'games:all' : key);
      }
    }
  }
  return names;
}

/** A game as v1's create then index_clock wrote it (`reminded`: a reminder was sent for this turn). */
export async function writeV1Game(
  redis: Redis,
  p: string,
  game: StoredGame,
  options: { reminded?: boolean } = {},
): Promise<number> {
  const ongoing = game.status === 'ongoing';
  const turn = ongoing ? String(game.ply) : 'over';
  const key = `${p}game:{${game.id}}`;
  await redis.hset(key, 'doc', JSON.stringify(game), 'version', game.version, 'status', game.status);
  const seq = await redis.incr(`${p}games:seq`);
  for (const index of v1Listings(game)) await redis.zadd(`${p}${index}`, seq, game.id);
  // index_clock
  const deadline = ongoing && game.deadlineAt ? Date.parse(game.deadlineAt) : null;
  const reminder = ongoing && game.reminderAt ? Date.parse(game.reminderAt) : null;
  if (deadline !== null) await redis.zadd(`${p}deadlines`, deadline, game.id);
  await redis.hset(key, 'turn', turn);
  if (options.reminded) await redis.hset(key, 'reminded', turn);
  if (reminder !== null && !options.reminded) await redis.zadd(`${p}reminders`, reminder, game.id);
  const accounts = [...new Set(game.seats.flatMap((s) => (s.account === null ? [] : [s.account])))];
  for (const account of accounts) {
    if (ongoing) await redis.sadd(`${p}games:ongoing:${account}`, game.id);
    else await redis.srem(`${p}games:ongoing:${account}`, game.id);
  }
  const mover = ongoing && game.toMove !== null ? game.seats[game.toMove]?.account : null;
  if (mover) {
    const turnStart = Date.parse(game.moves[game.moves.length - 1]?.at ?? game.createdAt);
    await redis.zadd(`${p}games:turn:${mover}`, deadline ?? NO_DEADLINE + turnStart, game.id);
  }
  await redis.set(`${p}games:listings`, '2');
  await redis.set(`${p}games:ongoing-indexed`, '1');
  return seq;
}

/** An idempotency record of a game write, as v1's update script kept it. */
export async function writeV1Idempotency(
  redis: Redis,
  p: string,
  gameId: string,
  key: string,
  record: { fingerprint: string; response: StoredGame },
  ttlSeconds: number,
): Promise<void> {
  await redis.set(`${p}idem:{${gameId}}:${key}`, JSON.stringify(record), 'EX', ttlSeconds);
}

/** The origin v1's feed_epoch records: run_id:master_replid of this Redis. */
export async function redisOrigin(redis: Redis): Promise<string> {
  const server = await redis.info('server');
  const replication = await redis.info('replication');
  return `${/run_id:(\w+)/.exec(server)?.[1] ?? ''}:${/master_replid:(\w+)/.exec(replication)?.[1] ?? ''}`;
}

/** An account's feed as v1's append_notices left it, on this Redis (its origin). */
export async function writeV1Feed(
  redis: Redis,
  p: string,
  account: string,
  feed: { events: readonly FeedEvent[]; last: number; epoch: string; epochs: readonly FeedEpoch[] },
): Promise<void> {
  for (const e of feed.events) {
    await redis.xadd(
      `${p}feed:{${account}}`,
      `${e.seq}-0`,
      'type',
      e.type,
      'at',
      e.at,
      'ms',
      String(Date.parse(e.at)),
      'epoch',
      e.epoch,
      'data',
      JSON.stringify(e.data),
    );
  }
  await redis.set(`${p}feedseq:{${account}}`, String(feed.last));
  await redis.hset(
    `${p}feedepoch:{${account}}`,
    'id',
    feed.epoch,
    'origin',
    await redisOrigin(redis),
    'epochs',
    JSON.stringify(feed.epochs.map((e) => [e.id, e.since])),
  );
}

/** An account and its tokens, as v1's account store wrote them. */
export async function writeV1Account(
  redis: Redis,
  p: string,
  account: StoredAccount,
  tokens: readonly StoredToken[],
): Promise<void> {
  await redis.set(`${p}account:${account.id}`, JSON.stringify(account));
  for (const token of tokens) {
    await redis.set(`${p}token:${token.hash}`, JSON.stringify(token));
    await redis.zadd(`${p}tokens:${account.id}`, Date.parse(token.createdAt), token.hash);
  }
}

/** Every key under a prefix (prefix cut off) with its type, content and whether it expires. */
export async function snapshot(redis: Redis, p: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  let cursor = '0';
  const names: string[] = [];
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${p}*`, 'COUNT', 1000);
    cursor = next;
    names.push(...keys);
  } while (cursor !== '0');
  for (const name of names.sort()) {
    const type = await redis.type(name);
    let value: unknown;
    if (type === 'string') value = await redis.get(name);
    else if (type === 'hash') value = await redis.hgetall(name);
    else if (type === 'list') value = await redis.lrange(name, 0, -1);
    else if (type === 'set') value = (await redis.smembers(name)).sort();
    else if (type === 'zset') value = await redis.zrange(name, 0, -1, 'WITHSCORES');
    else if (type === 'stream') value = await redis.xrange(name, '-', '+');
    out[name.slice(p.length)] = { type, value, expires: (await redis.pttl(name)) > 0 };
  }
  return out;
}
