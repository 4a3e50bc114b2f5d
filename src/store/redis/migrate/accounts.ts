import type Redis from 'ioredis';
import { Keys, shardOf } from '../keys';
import { SEEK_POINTER_MARGIN_MS } from '../challenges/seeks';

// Startup migration steps from the v1 layout (one Redis, keys without shard tags) to the v2 keys of
// challenges, seeks, accounts and tokens (docs/data-model.md). Each step moves what it finds with
// RENAME and friends, so it runs on the one Redis that holds v1 data, before any v2 node serves (the
// startup migration, migrateV1, calls them once per deployment, under its marker). Every step is
// idempotent and safe to re-run: what was moved is not found again (v1 keys carry no `{`, v2 keys
// carry their shard tag right after the family's name), and a step that stopped half-way goes on
// from where it was. A v1 key whose v2 key exists already is left in place and counted in
// `conflicts` (it can only be there if a v1 node wrote after the migration).

/** What a step did. */
export interface MigrationCounts {
  /** v1 keys moved (or merged into their v2 key). */
  moved: number;
  /** v1 keys left in place because their v2 key exists (see above). */
  conflicts: number;
}

const SCAN_COUNT = 1000;
const BATCH = 1000;

/** Every v1 key of a family: `p <family>:<id>` with an id that has no shard tag. */
async function* v1Keys(
  redis: Redis,
  prefix: string,
  family: string,
): AsyncGenerator<[key: string, id: string]> {
  const head = `${prefix}${family}:`;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${escapeGlob(head)}*`, 'COUNT', SCAN_COUNT);
    cursor = next;
    for (const key of keys) {
      const id = key.slice(head.length);
      if (key.startsWith(head) && id !== '' && !id.startsWith('{')) yield [key, id];
    }
  } while (cursor !== '0');
}

/** A prefix as a SCAN pattern matching itself only. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** RENAMENX, told apart: 'moved', 'exists' (`to` exists; `from` stays) or 'gone' (no `from`). */
async function renameIfFree(redis: Redis, from: string, to: string): Promise<'moved' | 'exists' | 'gone'> {
  try {
    return (await redis.renamenx(from, to)) === 1 ? 'moved' : 'exists';
  } catch (error) {
    if (/no such key/i.test((error as Error).message)) return 'gone';
    throw error;
  }
}

/** Moves a key unless its v2 key exists (then a conflict). */
async function move(redis: Redis, from: string, to: string, counts: MigrationCounts): Promise<void> {
  const result = await renameIfFree(redis, from, to);
  if (result === 'moved') counts.moved++;
  if (result === 'exists') counts.conflicts++;
}

/** Moves a sorted set, merged into its v2 key when that exists (same members, same scores). */
async function moveSortedSet(redis: Redis, from: string, to: string, counts: MigrationCounts): Promise<void> {
  const result = await renameIfFree(redis, from, to);
  if (result === 'gone') return;
  if (result === 'exists') {
    await redis.zunionstore(to, 2, to, from, 'AGGREGATE', 'MAX');
    await redis.del(from);
  }
  counts.moved++;
}

/** Moves a list, the v1 items before those of its v2 key when that exists (they are older). */
async function moveList(redis: Redis, from: string, to: string, counts: MigrationCounts): Promise<void> {
  const result = await renameIfFree(redis, from, to);
  if (result === 'gone') return;
  if (result === 'exists') {
    const older = await redis.lrange(from, 0, -1);
    if (older.length > 0) await redis.lpush(to, ...older.reverse());
    await redis.del(from);
  }
  counts.moved++;
}

/** Spreads a v1 sorted set of ids over the shards' sets (`to(shard)`), then deletes it. */
async function splitSortedSet(
  redis: Redis,
  from: string,
  to: (shard: number) => string,
  counts: MigrationCounts,
): Promise<void> {
  const size = await redis.zcard(from);
  for (let start = 0; start < size; start += BATCH) {
    const page = await redis.zrange(from, start, start + BATCH - 1, 'WITHSCORES');
    const pipeline = redis.pipeline();
    for (let i = 0; i + 1 < page.length; i += 2) {
      const id = page[i] as string;
      pipeline.zadd(to(shardOf(id)), page[i + 1] as string, id);
    }
    await pipeline.exec();
  }
  if ((await redis.del(from)) === 1) counts.moved++;
}

/**
 * Challenges: `challenge:<c>` → `challenge:{s}:c`, `challenges:open:<a>` → `challenges:open:{s}:a`
 * (merged), `challenges:expiry` → `challenges:expiry:{s}` per shard. A moved challenge has no
 * `relayed` field: its accounts get its next outbox entry with before 0, which matches their
 * applied hashes (no c:<id> entry yet).
 */
export async function migrateChallengesV1(redis: Redis, prefix: string): Promise<MigrationCounts> {
  const keys = new Keys(prefix);
  const counts: MigrationCounts = { moved: 0, conflicts: 0 };
  for await (const [key, id] of v1Keys(redis, prefix, 'challenge')) {
    await move(redis, key, keys.challenge(id), counts);
  }
  for await (const [key, account] of v1Keys(redis, prefix, 'challenges:open')) {
    await moveSortedSet(redis, key, keys.openChallenges(account), counts);
  }
  const expiry = `${prefix}challenges:expiry`;
  if ((await redis.exists(expiry)) === 1) {
    await splitSortedSet(redis, expiry, (shard) => keys.challengeExpiry(shard), counts);
  }
  return counts;
}

/**
 * Seeks: `seeks:pool:<sha1>` → `seeks:pool:{s}:<sha1>`, `seek:<id>` → `seek:{s}:<id>` (s: the
 * shard of its pool's sha1, its `pool` field) with its pointer `seekat:{shardOf(id)}:<id>`.
 */
export async function migrateSeeksV1(redis: Redis, prefix: string): Promise<MigrationCounts> {
  const keys = new Keys(prefix);
  const counts: MigrationCounts = { moved: 0, conflicts: 0 };
  for await (const [key, pool] of v1Keys(redis, prefix, 'seeks:pool')) {
    await moveList(redis, key, keys.seekPool(pool), counts);
  }
  for await (const [key, id] of v1Keys(redis, prefix, 'seek')) {
    const [pool, expires] = await redis.hmget(key, 'pool', 'expires');
    if (!pool) continue; // not a seek as v1 wrote them
    const ttl = Math.max(0, Number(expires) - Date.now() || 0) + SEEK_POINTER_MARGIN_MS;
    await redis.set(keys.seekPoolOf(id), pool, 'PX', ttl);
    await move(redis, key, keys.seek(pool, id), counts);
  }
  return counts;
}

/**
 * Accounts and tokens: `account:<a>` → `account:{s}:a`, `tokens:<a>` → `tokens:{s}:a` (merged),
 * `token:<hash>` → `token:{s}:<hash>` (s: the shard of the doc's account) with its pointer
 * `tokenat:{shardOf(hash)}:<hash>` (written first), `tokenused:<hash>` → `tokenused:{s}:<hash>`
 * (found through the pointer; a last use whose token has no doc stays, in `conflicts`).
 */
export async function migrateAccountsV1(redis: Redis, prefix: string): Promise<MigrationCounts> {
  const keys = new Keys(prefix);
  const counts: MigrationCounts = { moved: 0, conflicts: 0 };
  for await (const [key, id] of v1Keys(redis, prefix, 'account')) {
    await move(redis, key, keys.account(id), counts);
  }
  for await (const [key, account] of v1Keys(redis, prefix, 'tokens')) {
    await moveSortedSet(redis, key, keys.tokens(account), counts);
  }
  for await (const [key, hash] of v1Keys(redis, prefix, 'token')) {
    const doc = await redis.get(key);
    if (doc === null) continue;
    const account = (JSON.parse(doc) as { account: string }).account;
    await redis.set(keys.tokenAccount(hash), account);
    await move(redis, key, keys.token(account, hash), counts);
  }
  for await (const [key, hash] of v1Keys(redis, prefix, 'tokenused')) {
    const account = await redis.get(keys.tokenAccount(hash));
    if (account === null) {
      counts.conflicts++;
      continue;
    }
    await move(redis, key, keys.tokenUsed(account, hash), counts);
  }
  return counts;
}

/** The three steps above, in order; their counts added up. */
export async function migrateAccountFamiliesV1(redis: Redis, prefix: string): Promise<MigrationCounts> {
  const total: MigrationCounts = { moved: 0, conflicts: 0 };
  for (const step of [migrateAccountsV1, migrateChallengesV1, migrateSeeksV1]) {
    const counts = await step(redis, prefix);
    total.moved += counts.moved;
    total.conflicts += counts.conflicts;
  }
  return total;
}
