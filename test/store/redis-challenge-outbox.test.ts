// A challenge's outbox entries reach the accounts through the relay's drain too (not only through
// the writer's own delivery), each account's in order: the entries carry each account's own
// `before`, so an account that joined an open challenge late is not held back forever. And a closed
// challenge's hash expires (a week), an open one's never.
import Redis from 'ioredis';
import { createRedisStorage, type RedisGameStore } from '../../src/store/redis';
import { CLOSED_CHALLENGE_TTL_SECONDS } from '../../src/store/redis/challenges/scripts';
import { Keys, shardOf } from '../../src/store/redis/keys';
import type { Storage } from '../../src/store/store';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';
import { gameOf, notice, sampleChallenge, uid } from './store-contract';

const prefix = uniquePrefix('chout');
let storage: Storage;
let admin: Redis;

beforeAll(async () => {
  storage = await createRedisStorage(REDIS_URL, prefix);
  admin = new Redis(REDIS_URL);
});

afterAll(async () => {
  await storage.games.close();
  await storage.events.close();
  admin.disconnect();
  await deletePrefix(prefix);
});

it('applies a challenge’s entries from the outbox to an account its writer could not reach, in order', async () => {
  const keys = new Keys(prefix);
  const relay = (storage.games as RedisGameStore).relay;
  const [x, a, b] = [uid('x'), uid('a'), uid('b')];
  const challenge = sampleChallenge(x, null);
  const shard = shardOf(challenge.id);
  await storage.challenges.createChallenge(challenge, []);
  // The account's shard refuses every write for now (its applied hash is of the wrong type): the
  // writer's own delivery and the drains it asks for fail for it, and the entries stay.
  await admin.set(keys.applied(a), 'not a hash');
  const first = { ...challenge, version: 1, accepted: [a] };
  expect(
    await storage.challenges.updateChallenge(first, 0, {
      notices: [notice([x, a], 'challenge.accepted', { by: a })],
    }),
  ).toBe('updated');
  const game = gameOf([a, b], { id: challenge.id });
  const started = { ...first, version: 2, status: 'accepted' as const, accepted: [a, b], gameId: game.id };
  expect(
    await storage.challenges.updateChallenge(started, 1, {
      notices: [
        notice([x, a, b], 'challenge.accepted', { by: b }),
        notice([a, b], 'game.started', { game: game.id }),
      ],
      game,
    }),
  ).toBe('updated');
  await relay.stop();
  expect((await storage.feed.read(a, 0, 10)).events).toEqual([]);
  const entries = (await admin.xrange(keys.outbox(shard), '-', '+')) as Array<[string, string[]]>;
  const befores = entries
    .map(([, fields]) => fields)
    .filter((fields) => fields[1]?.startsWith('c:'))
    .map((fields) => JSON.parse(fields[fields.indexOf('a') + 1] as string) as Record<string, number>);
  // Each account's own before: the version of the last entry that had a part for it.
  expect(befores.slice(-2)).toEqual([
    { [x]: 1, [a]: 0 },
    { [x]: 2, [a]: 2, [b]: 0 },
  ]);

  // The account's shard is back, and the lease of the drain that failed has run out.
  await admin.del(keys.applied(a), keys.outboxLease(shard));
  await relay.drain(shard);
  const feed = async (account: string) =>
    (await storage.feed.read(account, 0, 10)).events.map((e) => [e.seq, e.type, e.data]);
  expect(await feed(a)).toEqual([
    [1, 'challenge.accepted', { by: a }],
    [2, 'challenge.accepted', { by: b }],
    [3, 'game.started', { game: game.id }],
  ]);
  expect(await feed(x)).toEqual([
    [1, 'challenge.accepted', { by: a }],
    [2, 'challenge.accepted', { by: b }],
  ]);
  expect((await feed(b)).map(([seq]) => seq)).toEqual([1, 2]);
  expect((await storage.games.list({ account: a }, 10)).items).toEqual([game]);
  expect(await admin.xlen(keys.outbox(shard))).toBe(0);
});

it('gives a challenge a TTL once it is closed (accepted or declined), never while open; its game stays', async () => {
  const keys = new Keys(prefix);
  const [x, y] = [uid('x'), uid('y')];
  const week = CLOSED_CHALLENGE_TTL_SECONDS;
  expect(week).toBe(7 * 24 * 60 * 60);

  const accepted = sampleChallenge(x, y);
  await storage.challenges.createChallenge(accepted, []);
  expect(await admin.ttl(keys.challenge(accepted.id))).toBe(-1);
  const game = gameOf([x, y], { id: accepted.id });
  const next = { ...accepted, version: 1, status: 'accepted' as const, accepted: [y], gameId: game.id };
  expect(await storage.challenges.updateChallenge(next, 0, { notices: [], game })).toBe('updated');
  const ttl = await admin.ttl(keys.challenge(accepted.id));
  expect(ttl).toBeGreaterThan(week - 60);
  expect(ttl).toBeLessThanOrEqual(week);
  expect(await admin.ttl(keys.game(game.id))).toBe(-1);
  expect(await storage.challenges.getChallenge(accepted.id)).toEqual(next);

  const declined = sampleChallenge(x, y);
  await storage.challenges.createChallenge(declined, []);
  const open = { ...declined, version: 1, accepted: [x] };
  expect(await storage.challenges.updateChallenge(open, 0, { notices: [] })).toBe('updated');
  expect(await admin.ttl(keys.challenge(declined.id))).toBe(-1);
  const closed = { ...open, version: 2, status: 'declined' as const, closedBy: y };
  expect(await storage.challenges.updateChallenge(closed, 1, { notices: [] })).toBe('updated');
  expect(await admin.ttl(keys.challenge(declined.id))).toBeGreaterThan(week - 60);
});
