// What an idle node asks of Redis: its sweeps (clocks, challenges, webhooks, bulk pairings, the
// outbox relay, the tournament director) look at 256 shards each, every interval, on every node.
// They must look with plain reads and run a script only where something is due: a script costs
// Redis ~15 µs against ~0.5 µs for a read, and nothing is due on an idle node. A Redis server of
// the test's own, so that its command counts are this node's alone.
import Redis from 'ioredis';
import { createRedisStorage } from '../../src/store/redis';
import { appHarness } from '../support/app';
import { startRedisServer, type OwnRedis } from '../support/redis-server';

const harness = appHarness();
let redis: OwnRedis;
let admin: Redis;
beforeAll(async () => {
  redis = await startRedisServer();
  admin = new Redis(redis.url);
});
afterAll(async () => {
  await harness.stopAll();
  admin.disconnect();
  await redis.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls per command so far (INFO commandstats). */
async function commandCalls(): Promise<Map<string, number>> {
  const info = await admin.info('commandstats');
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(match[1]!, Number(match[2]));
  return calls;
}

it('runs no script while nothing is due, though every sweep looks every 100 ms', async () => {
  const storage = await createRedisStorage(redis.url, 'idle:');
  await harness.start('redis', {
    storage,
    app: { sweepIntervalMs: 100, tournamentSweepMs: 100, bulks: { sweepMs: 100 } },
    webhooks: { intervalMs: 100 },
  });
  await sleep(1000); // start-up (AI accounts and the like) writes with scripts: not counted
  const before = await commandCalls();
  await sleep(2000);
  const after = await commandCalls();
  const delta = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
  // The sweeps did look (the bulk and webhook sweeps read each shard's earliest due with ZRANGE):
  // about 20 sweeps of 256 shards each in 2 s.
  expect(delta('zrange')).toBeGreaterThanOrEqual(5 * 256);
  // ... and ran nothing.
  expect({ evalsha: delta('evalsha'), eval: delta('eval'), fcall: delta('fcall') }).toEqual({
    evalsha: 0,
    eval: 0,
    fcall: 0,
  });
});
