import Redis from 'ioredis';
import { createRedisStorage, RedisGameStore } from '../../src/store/redis';
import type { Storage, StoredGame } from '../../src/store/store';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';
import { advanced, describeStoreContract, gameOf, uid } from './store-contract';

// Each open() gets its own key prefix, so that tests that need an empty keyspace can have one.
const prefixes: string[] = [];
afterAll(() => Promise.all(prefixes.map((p) => deletePrefix(p))));

describeStoreContract('redis', () => {
  const prefix = uniquePrefix('store');
  prefixes.push(prefix);
  return createRedisStorage(REDIS_URL, prefix);
});

describe('redis listings written before the index per filter combination', () => {
  it('are indexed once at start, keeping the status of games changed since', async () => {
    const prefix = uniquePrefix('legacy');
    prefixes.push(prefix);
    const storage = await createRedisStorage(REDIS_URL, prefix);
    const redis = new Redis(REDIS_URL);
    try {
      const [x, y] = [uid('lx'), uid('ly')];
      const old = [
        gameOf([x, y], { kind: 'oware' }),
        gameOf([x, null]),
        gameOf([null, y], { kind: 'oware' }),
      ];
      // As the earlier layout wrote them: doc and version, and the four single-filter indexes.
      for (const [i, game] of old.entries()) {
        const doc = i === 1 ? { ...game, status: 'finished' as const } : game;
        await redis.hset(`${prefix}game:{${game.id}}`, 'doc', JSON.stringify(doc), 'version', doc.version);
        const seq = await redis.incr(`${prefix}games:seq`);
        for (const index of [
          'games:all',
          `games:kind:${doc.kind}`,
          `games:status:${doc.status}`,
          ...new Set(doc.seats.flatMap((s) => (s.account ? [`games:account:${s.account}`] : []))),
        ]) {
          await redis.zadd(`${prefix}${index}`, seq, game.id);
        }
      }
      await redis.del(`${prefix}games:listings`);
      const ids = async (filter: Parameters<Storage['games']['list']>[0]) =>
        (await storage.games.list(filter, 10)).items.map((g) => g.id);
      expect(await ids({ account: x, kind: 'oware', status: 'ongoing' })).toEqual([]);
      const [a, b, c] = old as [StoredGame, StoredGame, StoredGame];
      // A game written by the new code before the backfill reaches it keeps what it wrote.
      expect(await storage.games.update({ ...advanced(c), status: 'finished' }, 0)).toEqual({
        status: 'updated',
      });

      expect(await new RedisGameStore(redis, prefix).indexListings()).toBe(3);
      expect(await ids({ account: x, kind: 'oware', status: 'ongoing' })).toEqual([a.id]);
      expect(await ids({ account: x, kind: 'kalah', status: 'finished' })).toEqual([b.id]);
      expect(await ids({ account: x, kind: 'kalah' })).toEqual([b.id]);
      expect(await ids({ account: y, status: 'finished' })).toEqual([c.id]);
      expect(await ids({ account: y, status: 'ongoing' })).toEqual([a.id]);
      expect(await ids({ kind: 'oware', status: 'ongoing' })).toEqual([a.id]);
      // Done once: the marker makes later starts skip it.
      expect(await new RedisGameStore(redis, prefix).indexListings()).toBe(0);
    } finally {
      redis.disconnect();
      await storage.games.close();
      await storage.events.close();
    }
  });
});

describe('redis backfill of ongoing-game counts', () => {
  it('indexes games that were ongoing before the counts existed, and only those', async () => {
    const prefix = uniquePrefix('backfill');
    prefixes.push(prefix);
    const storage = await createRedisStorage(REDIS_URL, prefix);
    const redis = new Redis(REDIS_URL);
    try {
      const [a, b] = [uid('a'), uid('b')];
      const ongoing = gameOf([a, b]);
      const finished = { ...gameOf([a, null]), status: 'finished' as const, toMove: null };
      await storage.games.create(ongoing);
      await storage.games.create(finished);
      expect(await storage.games.countOngoing(a)).toBe(1);
      // As written by an older release: no ongoing sets.
      await redis.del(`${prefix}games:ongoing:${a}`, `${prefix}games:ongoing:${b}`);
      expect(await storage.games.countOngoing(a)).toBe(0);
      const games = new RedisGameStore(redis, prefix);
      expect(await games.backfillOngoing(1)).toBe(1);
      expect(await storage.games.countOngoing(a)).toBe(1);
      expect(await storage.games.countOngoing(b)).toBe(1);
      expect(await games.backfillOngoing()).toBe(1); // again: the same sets
      expect(await redis.smembers(`${prefix}games:ongoing:${a}`)).toEqual([ongoing.id]);
    } finally {
      redis.disconnect();
      await storage.games.close();
      await storage.events.close();
    }
  });
});
