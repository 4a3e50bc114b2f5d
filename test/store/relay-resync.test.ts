// A lossy failover of a player's shard (REDIS_WAIT_REPLICAS=0, a replica behind) leaves the
// account's `applied` version of a game behind the game's: every later entry of the game skips a
// version for it. On one real Redis, the rollback is simulated by rewriting `applied` the way the
// promoted replica would hold it; the relay must still drain the shard (no entry stops its cursor),
// set the account's indexes as the game is, move the account's feed to a new epoch, and report it.
import type Redis from 'ioredis';
import request from 'supertest';
import { connectRedis, redisStorage, RedisGameStore } from '../../src/store/redis';
import { shardOf } from '../../src/store/redis/keys';
import type { Notice, Storage, StoredGame } from '../../src/store/store';
import { appHarness, type Running } from '../support/app';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';
import { advanced, gameOf, uid } from './store-contract';

const prefix = uniquePrefix('resync');
let storage: Storage;
let data: Redis;
const reported: Array<{ error: unknown; source: string }> = [];
const harness = appHarness();
let run: Running;

beforeAll(async () => {
  data = (await connectRedis(REDIS_URL)) as Redis;
  storage = redisStorage(data, await connectRedis(REDIS_URL), prefix);
  storage.onBackgroundError?.((error, source) => reported.push({ error, source }));
  // An app on the storage: it logs and counts the store's background errors in /metrics.
  run = await harness.start('redis', { storage });
});

afterAll(async () => {
  await harness.stopAll();
  await deletePrefix(prefix);
});

function moved(game: StoredGame, next: StoredGame): Notice {
  const to = game.seats.flatMap((s) => (s.account === null ? [] : [s.account]));
  return {
    to,
    type: 'game.moved',
    at: new Date().toISOString(),
    data: { game: game.id, version: next.version },
  };
}

async function move(game: StoredGame): Promise<StoredGame> {
  const next = advanced(game, String(game.ply + 1));
  expect(await storage.games.update(next, game.version, undefined, [moved(game, next)])).toEqual({
    status: 'updated',
  });
  return next;
}

it('drains a shard whose account lost applied versions: the account resynced, its feed in a new epoch, reported', async () => {
  const games = storage.games as RedisGameStore;
  const [a, b] = [uid('a'), uid('b')];
  let game = gameOf([a, b]);
  await storage.games.create(game);
  for (let i = 0; i < 3; i++) game = await move(game);
  await games.relay.sweep(); // the delivered entries are trimmed
  const before = { a: await storage.feed.read(a, 0, 100), b: await storage.feed.read(b, 0, 100) };
  expect(before.a.events).toHaveLength(3);

  // A's shard rolled back: it holds the game applied at version 1 (created) and nothing after.
  await data.hset(games.keys.applied(a), `g:${game.id}`, '1');
  for (let i = 0; i < 2; i++) game = await move(game);
  await games.relay.sweep();

  // Nothing is left in the game's shard's outbox: its cursor moved past every entry.
  const outbox = games.keys.outbox(shardOf(game.id));
  expect(await data.xlen(outbox)).toBe(0);
  expect(await data.get(games.keys.outboxCursor(shardOf(game.id)))).not.toBeNull();
  // A has applied the game as it is, and its feed moved to a new epoch holding the new moves.
  expect(await data.hget(games.keys.applied(a), `g:${game.id}`)).toBe(String(game.version + 1));
  const after = await storage.feed.read(a, before.a.last, 100);
  expect(after.epoch).not.toBe(before.a.epoch);
  expect(after.events.map((e) => e.data.version)).toEqual([4, 5]);
  // B (no rollback) got every move in its unchanged epoch.
  const bAfter = await storage.feed.read(b, 0, 100);
  expect(bAfter.epoch).toBe(before.b.epoch);
  expect(bAfter.events.map((e) => e.data.version)).toEqual([1, 2, 3, 4, 5]);
  // The resync was reported (logged and counted by the app), not swallowed.
  expect(reported.map((r) => r.source)).toContain('relay-resync');
  expect(String((reported.find((r) => r.source === 'relay-resync')?.error as Error).message)).toContain(
    `g:${game.id}`,
  );
  expect(await storage.games.countOngoing(a)).toBe(1);
  const metrics = await request(run.url).get('/metrics').expect(200);
  expect(metrics.text).toMatch(/boardhost_store_background_errors_total\{source="relay-resync"\} [1-9]/);
});
