import Redis from 'ioredis';
import { createRedisStorage, RedisGameStore } from '../../src/store/redis';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';
import { describeStoreContract, gameOf, uid } from './store-contract';

// Each open() gets its own key prefix, so that tests that need an empty keyspace can have one.
const prefixes: string[] = [];
afterAll(() => Promise.all(prefixes.map((p) => deletePrefix(p))));

describeStoreContract('redis', () => {
  const prefix = uniquePrefix('store');
  prefixes.push(prefix);
  return createRedisStorage(REDIS_URL, prefix);
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
