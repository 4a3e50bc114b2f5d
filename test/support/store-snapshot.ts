// A Redis keyspace under one prefix as JSON, and back: a store written by one version of the server
// is kept as a fixture (test/fixtures/store-*.json) and loaded under a new prefix for the next
// version's tests. Every type the store uses: strings, hashes, lists, sets, sorted sets, streams.
import type Redis from 'ioredis';

type Value =
  | { type: 'string'; value: string }
  | { type: 'hash'; value: Record<string, string> }
  | { type: 'list'; value: string[] }
  | { type: 'set'; value: string[] }
  | { type: 'zset'; value: Array<[string, string]> }
  | { type: 'stream'; value: Array<[string, string[]]> };

export interface Snapshot {
  /** What wrote it (a commit and what the writer did). */
  readonly writtenBy: string;
  /** Keys without the prefix, with their values (TTLs are dropped: the fixture is a moment). */
  readonly keys: Record<string, Value>;
}

export async function dumpPrefix(redis: Redis, prefix: string, writtenBy: string): Promise<Snapshot> {
  const keys: Record<string, Value> = {};
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    for (const key of found) {
      const type = await redis.type(key);
      const name = key.slice(prefix.length);
      if (type === 'string') keys[name] = { type, value: (await redis.get(key)) ?? '' };
      else if (type === 'hash') keys[name] = { type, value: await redis.hgetall(key) };
      else if (type === 'list') keys[name] = { type, value: await redis.lrange(key, 0, -1) };
      else if (type === 'set') keys[name] = { type, value: (await redis.smembers(key)).sort() };
      else if (type === 'zset') {
        const flat = await redis.zrange(key, 0, -1, 'WITHSCORES');
        const pairs: Array<[string, string]> = [];
        for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i] as string, flat[i + 1] as string]);
        keys[name] = { type, value: pairs };
      } else if (type === 'stream') {
        keys[name] = { type, value: (await redis.xrange(key, '-', '+')) as Array<[string, string[]]> };
      } else throw new Error(`${key}: a ${type} the snapshot does not know`);
    }
  } while (cursor !== '0');
  return { writtenBy, keys: Object.fromEntries(Object.entries(keys).sort(([a], [b]) => a.localeCompare(b))) };
}

/** Writes the snapshot's keys under `prefix` (on one Redis: a pipeline). */
export async function loadSnapshot(redis: Redis, prefix: string, snapshot: Snapshot): Promise<void> {
  const pipeline = redis.pipeline();
  for (const [name, entry] of Object.entries(snapshot.keys)) {
    const key = `${prefix}${name}`;
    if (entry.type === 'string') pipeline.set(key, entry.value);
    else if (entry.type === 'hash') pipeline.hset(key, entry.value);
    else if (entry.type === 'list') pipeline.rpush(key, ...entry.value);
    else if (entry.type === 'set') pipeline.sadd(key, ...entry.value);
    else if (entry.type === 'zset')
      pipeline.zadd(key, ...entry.value.flatMap(([member, score]) => [score, member]));
    else for (const [id, fields] of entry.value) pipeline.xadd(key, id, ...fields);
  }
  await pipeline.exec();
}
