// The Redis lobby index (src/store/redis/challenges/seeks.ts) is a second step beside the seek
// pools (another slot): an entry whose seek is gone (a node died between the steps, or a match came
// first) is never listed, and is dropped when a page meets it; a seek matched while it was being
// listed ends up unlisted, and its watchers hear it removed after it was added.
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { createRedisStorage } from '../../src/store/redis';
import { Keys } from '../../src/store/redis/keys';
import type { LobbyChange, Storage, StoredSeek } from '../../src/store/store';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';

const prefix = uniquePrefix('lobby');
let storage: Storage;
let redis: Redis;
beforeAll(async () => {
  storage = await createRedisStorage(REDIS_URL, prefix);
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  await storage.games.close();
  await storage.events.close();
  await redis.quit();
  await deletePrefix(prefix);
});

function seek(account: string, pool: string, at: number): StoredSeek {
  return {
    id: randomBytes(9).toString('base64url'),
    account,
    kind: 'kalah',
    options: { seeds: 4 },
    timeControl: { type: 'unlimited' },
    pool,
    lobby: 'app_lobbytest',
    rating: 1500,
    createdAt: new Date(at).toISOString(),
    expiresAt: new Date(at + 600_000).toISOString(),
  };
}

it('never lists an index entry whose seek is gone, and drops it when a page meets it', async () => {
  const keys = new Keys(prefix);
  const t = Date.now();
  const kept = seek('a', 'pool-a', t);
  await storage.seeks.matchOrAdd(kept, kept.createdAt);
  // An entry left behind: its seek does not exist (as if a node died after indexing it).
  const ghost = `${randomBytes(9).toString('base64url')}|${'0'.repeat(40)}`;
  await redis.zadd(keys.lobby('app_lobbytest'), t - 1, ghost);
  const page = await storage.seeks.listSeeks('app_lobbytest', { now: new Date(t).toISOString(), limit: 10 });
  expect(page).toEqual({ items: [kept] });
  expect(await redis.zscore(keys.lobby('app_lobbytest'), ghost)).toBeNull();
});

it('unlists a seek matched while it was being listed, after announcing it', async () => {
  const changes: LobbyChange[] = [];
  const stop = await storage.seeks.watchLobby('app_lobbytest', (change) => changes.push(change));
  try {
    const t = Date.now();
    // 20 pairs posted at once: each second seek may match its partner before the partner is indexed.
    const pairs = Array.from({ length: 20 }, (_, i) => [
      seek(`x${i}`, `race-${i}`, t),
      seek(`y${i}`, `race-${i}`, t),
    ]);
    await Promise.all(pairs.flat().map((s) => storage.seeks.matchOrAdd(s, s.createdAt)));
    const listed = await storage.seeks.listSeeks('app_lobbytest', {
      now: new Date(t).toISOString(),
      limit: 100,
    });
    const raced = new Set(pairs.flat().map((s) => s.id));
    expect(listed.items.filter((s) => raced.has(s.id))).toEqual([]);
    // Every seek announced as added is, in the end, announced as removed after it.
    for (let i = 0; i < 200; i++) {
      const open = new Set<string>();
      for (const change of changes) {
        if (change.type === 'added') open.add(change.seek.id);
        else open.delete(change.id);
      }
      if ([...open].every((id) => !raced.has(id))) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const open = new Set<string>();
    for (const change of changes) {
      if (change.type === 'added') open.add(change.seek.id);
      else open.delete(change.id);
    }
    expect([...open].filter((id) => raced.has(id))).toEqual([]);
    expect(changes.filter((c) => c.type === 'added')).toHaveLength(20);
  } finally {
    await stop();
  }
});
