// The v1 → v2 steps of challenges, seeks, accounts and tokens: keys written as the v1 code wrote
// them (one Redis, no shard tags; the layout of src/store/redis/lua.ts and the stores before v2)
// are moved by the steps and then read and written through the v2 stores; the steps run twice.
import Redis from 'ioredis';
import { createHash } from 'node:crypto';
import { createRedisStorage } from '../../src/store/redis';
import { Keys } from '../../src/store/redis/keys';
import {
  migrateAccountFamiliesV1,
  migrateAccountsV1,
  migrateChallengesV1,
  migrateSeeksV1,
} from '../../src/store/redis/migrate/accounts';
import type { Storage, StoredAccount, StoredChallenge, StoredSeek, StoredToken } from '../../src/store/store';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';
import {
  gameOf,
  notice,
  sampleAccount,
  sampleChallenge,
  sampleSeek,
  sampleToken,
  uid,
} from './store-contract';

const prefix = uniquePrefix('migacc');
let redis: Redis;
let storage: Storage | undefined;

beforeAll(() => {
  redis = new Redis(REDIS_URL);
});

afterAll(async () => {
  if (storage) {
    await storage.games.close();
    await storage.events.close();
  }
  redis.disconnect();
  await deletePrefix(prefix);
});

const ms = (iso: string) => Date.parse(iso);
const involved = (c: StoredChallenge) =>
  [c.challenger, c.destination, ...(c.players ?? [])].filter((a): a is string => a !== null);

/** v1: account SET, token SET + ZADD tokens:<a> (create_account / save_token), last use SET EX. */
async function writeV1Account(
  account: StoredAccount,
  tokens: readonly StoredToken[],
  used: Record<string, string>,
) {
  const id = account.id;
  await redis.set(`${prefix}account:${id}`, JSON.stringify(account));
  for (const token of tokens) {
    await redis.set(`${prefix}token:${token.hash}`, JSON.stringify(token));
    await redis.zadd(`${prefix}tokens:${id}`, ms(token.createdAt), token.hash);
    const at = used[token.hash];
    if (at) await redis.set(`${prefix}tokenused:${token.hash}`, at, 'EX', 3600);
  }
}

/** v1: HSET challenge:<c> doc version; index_challenge (challenges:open:<a>, challenges:expiry). */
async function writeV1Challenge(c: StoredChallenge) {
  await redis.hset(`${prefix}challenge:${c.id}`, 'doc', JSON.stringify(c), 'version', c.version);
  for (const account of involved(c)) {
    await redis.zadd(`${prefix}challenges:open:${account}`, ms(c.createdAt), c.id);
  }
  await redis.zadd(`${prefix}challenges:expiry`, ms(c.expiresAt), c.id);
}

/** v1: match_or_add queued a seek: HSET seek:<id> doc account expires pool, RPUSH seeks:pool:<sha1>. */
async function writeV1Seek(s: StoredSeek) {
  const pool = createHash('sha1').update(s.pool).digest('hex');
  await redis.hset(
    `${prefix}seek:${s.id}`,
    'doc',
    JSON.stringify(s),
    'account',
    s.account,
    'expires',
    ms(s.expiresAt),
    'pool',
    pool,
  );
  await redis.rpush(`${prefix}seeks:pool:${pool}`, s.id);
}

/** Keys of the migrated families still without a shard tag. */
async function untagged(): Promise<string[]> {
  const families =
    /^(account|tokens?|tokenused|challenge|challenges:open|challenges:expiry|seek|seeks:pool)(:|$)/;
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    for (const key of keys) {
      const rest = key.slice(prefix.length);
      if (families.test(rest) && !rest.includes('{s')) found.push(rest);
    }
  } while (cursor !== '0');
  return found;
}

it('moves v1 challenges, seeks, accounts and tokens to their shards, readable and writable there', async () => {
  const ann = uid('ann');
  const rootScopes = ['game:read', 'game:play', 'challenge:write'] as const;
  const t1 = sampleToken(ann, 1, { scopes: [...rootScopes] });
  const t2 = sampleToken(ann, 2, { scopes: [...rootScopes] });
  const t3 = sampleToken(ann, 3, { revokedAt: '2026-02-01T00:00:00.000Z' });
  const lastUse = '2026-03-01T00:00:00.000Z';
  const account = sampleAccount(ann);
  await writeV1Account(account, [t2, t1, t3], { [t1.hash]: lastUse });

  const [x, y] = [uid('x'), uid('y')];
  const direct = sampleChallenge(x, y, { expiresAt: '2001-01-01T00:00:00.000Z' });
  const open = sampleChallenge(x, null);
  await writeV1Challenge(direct);
  await writeV1Challenge(open);

  const pool = `${uid('pool')} kalah{seeds:4}`;
  const waiting = sampleSeek(uid('s'), pool);
  const other = sampleSeek(uid('t'), `${pool}|other`);
  await writeV1Seek(waiting);
  await writeV1Seek(other);

  expect((await untagged()).length).toBeGreaterThan(0);
  const first = await migrateAccountFamiliesV1(redis, prefix);
  expect(first.conflicts).toBe(0);
  // account, tokens index, 3 tokens, 1 last use; 2 challenges, the open indexes of x and y, the
  // expiry set; 2 seeks, 2 pools.
  expect(first.moved).toBe(6 + 5 + 4);
  expect(await untagged()).toEqual([]);
  // Safe to re-run, each step alone too: nothing left to move.
  expect(await migrateAccountFamiliesV1(redis, prefix)).toEqual({ moved: 0, conflicts: 0 });
  for (const step of [migrateAccountsV1, migrateChallengesV1, migrateSeeksV1]) {
    expect(await step(redis, prefix)).toEqual({ moved: 0, conflicts: 0 });
  }

  const store = await createRedisStorage(REDIS_URL, prefix);
  storage = store;
  // Accounts and tokens.
  expect(await store.accounts.getAccount(ann)).toEqual(account);
  expect(await store.accounts.tokenByHash(t1.hash)).toEqual({ ...t1, lastUsedAt: lastUse });
  expect((await store.accounts.listTokens(ann)).map((t) => t.id)).toEqual([t1.id, t2.id, t3.id]);
  const at = '2026-04-01T00:00:00.000Z';
  expect((await store.accounts.revokeToken(ann, t1.id, at, rootScopes)).status).toBe('revoked');
  expect((await store.accounts.revokeToken(ann, t2.id, at, rootScopes)).status).toBe('last-root');
  expect((await store.accounts.tokenByHash(t1.hash))?.revokedAt).toBe(at);

  // Challenges: read, listed, due, and accepted into a game whose notices reach the feeds.
  expect(await store.challenges.getChallenge(direct.id)).toEqual(direct);
  expect((await store.challenges.listOpen(x)).map((c) => c.id)).toEqual([open.id, direct.id]);
  expect((await store.challenges.listOpen(y)).map((c) => c.id)).toEqual([direct.id]);
  expect(await store.challenges.dueChallenges('2001-01-01T00:00:00.000Z', 10)).toEqual([direct.id]);
  const game = gameOf([x, y], { id: direct.id });
  const accepted = { ...direct, version: 1, status: 'accepted' as const, accepted: [y], gameId: game.id };
  expect(
    await store.challenges.updateChallenge(accepted, 0, {
      notices: [notice([x, y], 'challenge.accepted'), notice([x, y], 'game.started')],
      game,
    }),
  ).toBe('updated');
  expect((await store.feed.read(y, 0, 10)).events.map((e) => e.type)).toEqual([
    'challenge.accepted',
    'game.started',
  ]);
  expect((await store.challenges.listOpen(y)).map((c) => c.id)).toEqual([]);
  expect((await store.challenges.listOpen(x)).map((c) => c.id)).toEqual([open.id]);
  expect(await store.challenges.dueChallenges('2001-01-01T00:00:00.000Z', 10)).toEqual([]);
  expect((await store.games.list({ account: y }, 10)).items).toEqual([game]);

  // Seeks: found by id, matched from their pool, removable.
  expect(await store.seeks.getSeek(waiting.id)).toEqual(waiting);
  expect(await store.seeks.matchOrAdd(sampleSeek(uid('u'), pool), waiting.createdAt)).toEqual(waiting);
  expect(await store.seeks.getSeek(waiting.id)).toBeUndefined();
  expect(await store.seeks.removeSeek(other.id)).toBe(true);
  expect(await store.seeks.getSeek(other.id)).toBeUndefined();
});

it('goes on from where a step stopped: a token moved without its last use, an index half merged', async () => {
  const keys = new Keys(prefix);
  const bob = uid('bob');
  const token = sampleToken(bob, 1);
  // As a run that stopped after moving the token doc: pointer and doc at v2, the last use at v1.
  await redis.set(keys.tokenAccount(token.hash), bob);
  await redis.set(keys.token(bob, token.hash), JSON.stringify(token));
  await redis.zadd(keys.tokens(bob), ms(token.createdAt), token.hash);
  await redis.set(`${prefix}tokenused:${token.hash}`, '2026-05-01T00:00:00.000Z', 'EX', 3600);
  // An open index present in both layouts.
  const [c1, c2] = [sampleChallenge(bob, null), sampleChallenge(bob, null)];
  await writeV1Challenge(c1);
  await redis.hset(keys.challenge(c2.id), 'doc', JSON.stringify(c2), 'version', 0);
  await redis.zadd(keys.openChallenges(bob), ms(c2.createdAt) + 1, c2.id);

  expect(await migrateAccountsV1(redis, prefix)).toEqual({ moved: 1, conflicts: 0 });
  expect(await redis.ttl(keys.tokenUsed(bob, token.hash))).toBeGreaterThan(0);
  expect((await migrateChallengesV1(redis, prefix)).conflicts).toBe(0);
  expect(await untagged()).toEqual([]);

  const store = storage ?? (await createRedisStorage(REDIS_URL, prefix));
  storage = store;
  expect(await store.accounts.tokenByHash(token.hash)).toEqual({
    ...token,
    lastUsedAt: '2026-05-01T00:00:00.000Z',
  });
  expect((await store.challenges.listOpen(bob)).map((c) => c.id)).toEqual([c2.id, c1.id]);
});
