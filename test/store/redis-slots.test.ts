// Challenges, seeks, accounts and tokens on a Redis in cluster mode: one redis-server of our own
// with cluster mode on and every slot assigned to it, so that it refuses (CROSSSLOT) any command or
// script whose declared keys span slots, as a Cluster's master does. After the scenario its keys
// are read back with the slot Redis itself computes (CLUSTER KEYSLOT): what one step writes shares
// one slot, and no key of these families is left without a shard tag.
import Redis from 'ioredis';
import { createRedisStorage } from '../../src/store/redis';
import { Keys, shardOf } from '../../src/store/redis/keys';
import type { Storage } from '../../src/store/store';
import { startRedisServer, type OwnRedis } from '../support/redis-server';
import {
  gameOf,
  notice,
  sampleAccount,
  sampleChallenge,
  sampleSeek,
  sampleToken,
  uid,
} from './store-contract';

const prefix = 'slots:';
const keys = new Keys(prefix);
let server: OwnRedis;
let admin: Redis;
let storage: Storage;

beforeAll(async () => {
  server = await startRedisServer(['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf']);
  admin = new Redis(server.url);
  await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
  for (;;) {
    const info = (await admin.call('CLUSTER', 'INFO')) as string;
    if (info.includes('cluster_state:ok')) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  storage = await createRedisStorage(server.url, prefix);
});

afterAll(async () => {
  await storage.games.close();
  await storage.events.close();
  admin.disconnect();
  await server.stop();
});

async function slotOf(key: string): Promise<number> {
  return Number(await admin.call('CLUSTER', 'KEYSLOT', key));
}

async function slotsOf(list: readonly string[]): Promise<Set<number>> {
  for (const key of list) expect(await admin.exists(key)).toBe(1);
  return new Set(await Promise.all(list.map(slotOf)));
}

it('refuses a script whose keys span slots (the check this server makes)', async () => {
  await expect(admin.eval('return 1', 2, `${prefix}a`, `${prefix}b`)).rejects.toThrow(/CROSSSLOT/);
});

it('keeps an account, its tokens and their last uses in one slot, each token found by hash', async () => {
  const ann = uid('ann');
  const scopes = ['game:read', 'game:play', 'challenge:write'] as const;
  const [t1, t2] = [
    sampleToken(ann, 1, { scopes: [...scopes] }),
    sampleToken(ann, 2, { scopes: [...scopes] }),
  ];
  expect(await storage.accounts.createAccount(sampleAccount(ann), t1)).toBe(true);
  await storage.accounts.addToken(t2);
  await storage.accounts.touchToken(t1.hash, '2026-01-02T00:00:00.000Z');
  await storage.accounts.touchToken(t2.hash, '2026-01-02T00:00:00.000Z');
  expect((await storage.accounts.listTokens(ann)).map((t) => t.lastUsedAt)).toEqual([
    '2026-01-02T00:00:00.000Z',
    '2026-01-02T00:00:00.000Z',
  ]);
  expect((await storage.accounts.revokeToken(ann, t1.id, '2026-01-03T00:00:00.000Z', scopes)).status).toBe(
    'revoked',
  );
  expect((await storage.accounts.revokeToken(ann, t2.id, '2026-01-03T00:00:00.000Z', scopes)).status).toBe(
    'last-root',
  );
  expect((await storage.accounts.tokenByHash(t1.hash))?.revokedAt).toBe('2026-01-03T00:00:00.000Z');
  const slots = await slotsOf([
    keys.account(ann),
    keys.tokens(ann),
    keys.token(ann, t1.hash),
    keys.token(ann, t2.hash),
    keys.tokenUsed(ann, t1.hash),
    keys.tokenUsed(ann, t2.hash),
  ]);
  expect(slots.size).toBe(1);
  expect([...slots]).toEqual([await slotOf(`{s${shardOf(ann)}}`)]);
  expect(await admin.get(keys.tokenAccount(t1.hash))).toBe(ann);
});

it('keeps a challenge, its expiry entry, the game it becomes and its shard’s outbox in one slot', async () => {
  const [x, y] = [uid('x'), uid('y')];
  const challenge = sampleChallenge(x, y);
  await storage.challenges.createChallenge(challenge, [notice([y], 'challenge.received')]);
  expect((await storage.challenges.listOpen(y)).map((c) => c.id)).toEqual([challenge.id]);
  const shard = shardOf(challenge.id);
  const own = [keys.challenge(challenge.id), keys.challengeExpiry(shard), keys.outbox(shard)];
  expect((await slotsOf(own)).size).toBe(1);
  const game = gameOf([x, y], { id: challenge.id });
  const accepted = { ...challenge, version: 1, status: 'accepted' as const, accepted: [y], gameId: game.id };
  expect(
    await storage.challenges.updateChallenge(accepted, 0, {
      notices: [notice([x, y], 'challenge.accepted'), notice([x, y], 'game.started')],
      game,
      limits: [{ account: y, max: 5 }],
    }),
  ).toBe('updated');
  expect((await storage.feed.read(y, 0, 10)).events.map((e) => e.type)).toEqual([
    'challenge.received',
    'challenge.accepted',
    'game.started',
  ]);
  expect((await storage.games.list({ account: x }, 10)).items).toEqual([game]);
  expect(await storage.challenges.listOpen(x)).toEqual([]);
  const step = [
    keys.challenge(challenge.id),
    keys.game(game.id),
    keys.outbox(shard),
    keys.shardListing(shard),
  ];
  expect((await slotsOf(step)).size).toBe(1);
  // Each account's side, in its own slot.
  for (const account of [x, y]) {
    const side = [
      keys.applied(account),
      keys.feed(account),
      keys.accountListing(account),
      keys.ongoing(account),
    ];
    expect((await slotsOf(side)).size).toBe(1);
  }
});

it('keeps a seek pool and its seeks in one slot, a seek found by id through its pointer', async () => {
  const pool = `${uid('pool')} kalah{seeds:4}`;
  const s1 = sampleSeek(uid('a'), pool);
  const s2 = sampleSeek(uid('b'), pool);
  expect(await storage.seeks.matchOrAdd(s1, s1.createdAt)).toBeUndefined();
  expect(await storage.seeks.matchOrAdd(s2, s2.createdAt)).toEqual(s1);
  const c = uid('c');
  const [s3, s4] = [sampleSeek(c, pool), sampleSeek(c, pool)];
  expect(await storage.seeks.matchOrAdd(s3, s3.createdAt)).toBeUndefined();
  expect(await storage.seeks.matchOrAdd(s4, s4.createdAt)).toBeUndefined();
  expect(await storage.seeks.removeSeek(s3.id)).toBe(true);
  expect(await storage.seeks.getSeek(s4.id)).toEqual(s4);
  const sha1 = (await admin.get(keys.seekPoolOf(s4.id))) as string;
  expect((await slotsOf([keys.seekPool(sha1), keys.seek(sha1, s4.id)])).size).toBe(1);
});

it('leaves no key of these families without a shard tag', async () => {
  const untagged = (await admin.keys(`${prefix}*`))
    .map((key) => key.slice(prefix.length))
    .filter((key) => !/^[a-z:]+:\{s\d+\}/.test(key));
  // Outside shards: the layout marker (a single key, read once at startup), and slots of their own
  // named by what they hold (a pool's lobby, like a leaderboard): `{lobby:<pool>}`.
  expect(untagged.filter((key) => !/^lobby:\{lobby:[^}]+\}$/.test(key))).toEqual(['layout']);
});
