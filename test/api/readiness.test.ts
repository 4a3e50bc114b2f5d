// Liveness vs readiness on a real Redis that the test pauses (CLIENT PAUSE): a one-second blip
// keeps /readyz ready (within READY_GRACE_SECONDS); a longer outage makes it 503; /livez never moves.
import request from 'supertest';
import { createRedisStorage } from '../../src/store/redis';
import { appHarness } from '../support/app';
import { startRedisServer, type OwnRedis } from '../support/redis-server';

const harness = appHarness();
let redis: OwnRedis;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await harness.stopAll();
  await redis.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('stays ready through a one-second Redis pause, while /livez answers at once', async () => {
  const storage = await createRedisStorage(redis.url, 'ready1:');
  const { url } = await harness.start('redis', { storage, app: { readyGraceMs: 5000 } });
  expect((await request(url).get('/readyz')).body).toEqual({ status: 'ready', store: 'redis' });

  // A pause as long as the ping's timeout: whether the answer comes just in time or not, ready.
  await redis.pause(1000);
  const [live, ready] = await Promise.all([request(url).get('/livez'), request(url).get('/readyz')]);
  expect(live.status).toBe(200);
  expect(ready.status).toBe(200);
  expect(['ready', 'degraded']).toContain(ready.body.status);

  // A longer blip: the ping times out, the store counts as failing, and the node stays routable.
  await sleep(200);
  await redis.pause(1500);
  const started = Date.now();
  const blip = await request(url).get('/readyz');
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  expect(blip.status).toBe(200);
  expect(blip.body.status).toBe('degraded');
  expect((await request(url).get('/livez')).status).toBe(200);

  await sleep(700);
  expect((await request(url).get('/readyz')).body).toEqual({ status: 'ready', store: 'redis' });
});

it('turns not ready (503) once the store has failed for longer than the grace window', async () => {
  const storage = await createRedisStorage(redis.url, 'ready2:');
  const { url } = await harness.start('redis', { storage, app: { readyGraceMs: 1500 } });
  expect((await request(url).get('/readyz')).status).toBe(200);
  await redis.pause(5000);
  expect((await request(url).get('/readyz')).status).toBe(200); // failing for 1 s: within grace
  // The next ping may fail at once (a connection whose last command timed out fails fast until
  // Redis answers again): wait out the grace window itself, not one ping's timeout.
  await sleep(2000);
  const down = await request(url).get('/readyz'); // failing for 2 s+: out
  expect(down.status).toBe(503);
  expect(down.headers['retry-after']).toBe('2');
  expect(down.body.status).toBe('unavailable');
  expect((await request(url).get('/livez')).status).toBe(200);
  expect((await request(url).get('/healthz')).status).toBe(200);
  // Back once Redis answers again.
  let status = 0;
  for (let i = 0; i < 40 && status !== 200; i++) {
    await sleep(250);
    status = (await request(url).get('/readyz')).status;
  }
  expect(status).toBe(200);
});
