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
import { updateGame } from '../support/update-game';

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
  expect(await updateGame(storage.games, next, game.version, undefined, [moved(game, next)])).toEqual({
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

// The reverse: the GAME's shard rolled back (a replica behind promoted: REDIS_WAIT_REPLICAS=0) while
// its players' shards kept what the relay applied. The game goes on from an older version and its
// next moves reuse the lost versions. Simulated on one Redis by putting the game's keys back as
// they were and marking them written by another Redis (what the promoted replica holds).
async function noted(game: StoredGame, notation: string): Promise<StoredGame> {
  const next = advanced(game, notation);
  const to = game.seats.flatMap((s) => (s.account === null ? [] : [s.account]));
  const notice: Notice = {
    to,
    type: 'game.moved',
    at: new Date().toISOString(),
    data: { game: game.id, version: next.version, notation },
  };
  expect(await updateGame(storage.games, next, game.version, undefined, [notice])).toEqual({
    status: 'updated',
  });
  return next;
}

/** The game's keys as they are now, and a function that puts them back as a promoted replica would hold them. */
async function snapshot(games: RedisGameStore, id: string): Promise<() => Promise<void>> {
  const keys = [games.keys.game(id), games.keys.moves(id)];
  const dumps = await Promise.all(keys.map((key) => data.dumpBuffer(key)));
  return async () => {
    for (const [i, key] of keys.entries()) {
      const dump = dumps[i];
      if (dump) await data.restore(key, 0, dump, 'REPLACE');
      else await data.del(key);
    }
    // Written by the old master: the promoted replica is another Redis (run_id, replication id).
    await data.hset(games.keys.game(id), 'eo', 'the-old-master:lost');
  };
}

it("resyncs the players of a game whose master lost moves: each feed moves to a new epoch with the game's moves", async () => {
  const games = storage.games as RedisGameStore;
  const [a, b] = [uid('a'), uid('b')];
  let game = gameOf([a, b]);
  await storage.games.create(game);
  for (const n of ['m1', 'm2']) game = await noted(game, n);
  const rollback = await snapshot(games, game.id);
  const kept = game;
  for (const n of ['lost3', 'lost4']) game = await noted(game, n);
  await games.relay.sweep();
  const before = new Map([
    [a, await storage.feed.read(a, 0, 100)],
    [b, await storage.feed.read(b, 0, 100)],
  ]);
  expect(before.get(a)?.events.map((e) => e.data.notation)).toEqual(['m1', 'm2', 'lost3', 'lost4']);

  await rollback();
  game = kept;
  for (const n of ['new3', 'new4']) game = await noted(game, n);
  await games.relay.sweep();

  const stored = await storage.games.get(game.id);
  expect(stored?.moves.map((m) => m.notation)).toEqual(['m1', 'm2', 'new3', 'new4']);
  for (const account of [a, b]) {
    // The feed told its readers (a new epoch since what they had read), and the new epoch holds
    // the moves the game has: nothing of the lost moves, nothing missing.
    const seen = before.get(account);
    const after = await storage.feed.read(account, seen?.last ?? 0, 100);
    expect(after.epoch).not.toBe(seen?.epoch);
    const epoch = await storage.feed.read(account, 0, 100);
    const current = epoch.events.filter((e) => e.epoch === epoch.epoch).map((e) => e.data.notation);
    expect(current).toEqual(['new3', 'new4']);
    expect(await data.hget(games.keys.applied(account), `g:${game.id}`)).toBe(String(game.version + 1));
  }
  expect(await data.xlen(games.keys.outbox(shardOf(game.id)))).toBe(0);
  expect(
    reported.filter((r) => String((r.error as Error).message).includes(`g:${game.id}`)),
  ).not.toHaveLength(0);

  // A later move goes on in that epoch, without another change.
  const last = await storage.feed.read(a, 0, 100);
  game = await noted(game, 'new5');
  const next = await storage.feed.read(a, last.last, 100);
  expect(next.epoch).toBe(last.epoch);
  expect(next.events.map((e) => e.data.notation)).toEqual(['new5']);
});

it('changes nothing for the players when another Redis writes a game without losing a move (a restart)', async () => {
  const games = storage.games as RedisGameStore;
  const [a, b] = [uid('a'), uid('b')];
  let game = gameOf([a, b]);
  await storage.games.create(game);
  game = await noted(game, 'm1');
  const before = await storage.feed.read(a, 0, 100);
  await data.hset(games.keys.game(game.id), 'eo', 'the-redis-before-restart:same');
  game = await noted(game, 'm2');
  await games.relay.sweep();
  const after = await storage.feed.read(a, 0, 100);
  expect(after.epoch).toBe(before.epoch);
  expect(after.events.map((e) => e.data.notation)).toEqual(['m1', 'm2']);
  expect(reported.filter((r) => String((r.error as Error).message).includes(`g:${game.id}`))).toHaveLength(0);
});
