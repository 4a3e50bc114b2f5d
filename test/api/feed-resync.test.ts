// A feed follow whose live connection to Redis drops gets what was appended meanwhile from the
// stored feed once the connection is back, even when no later event comes to show the gap.
import Redis from 'ioredis';
import { createApp, type App } from '../../src/app';
import { createRedisStorage } from '../../src/store/redis';
import type { FeedEvent, Storage } from '../../src/store/store';
import { signUp } from '../support/accounts';
import { startRedisServer, type OwnRedis } from '../support/redis-server';

let redis: OwnRedis;
let storage: Storage;
let app: App;
beforeAll(async () => {
  redis = await startRedisServer();
  storage = await createRedisStorage(redis.url, 'resync:');
  app = await createApp({ storage, sweepIntervalMs: 0, webhooks: { intervalMs: 0 } });
});
afterAll(async () => {
  await app.stop();
  await redis.stop();
});

it('reads the events appended while its subscriber was cut off, without waiting for a later one', async () => {
  const ann = await signUp(app, 'ann');
  const received: FeedEvent[] = [];
  const follow = await app.services.feed.follow(
    { token: ann.token },
    0,
    (event) => received.push(event),
    (error) => {
      throw error;
    },
  );
  const admin = new Redis(redis.url);
  try {
    // Cut every pub/sub connection (this node's subscriber) and append at once, before ioredis is
    // back (it waits 200 ms before its first reconnection): the live message reaches nobody.
    await admin.client('KILL', 'TYPE', 'pubsub');
    await storage.feed.append([
      { to: [ann.id], type: 'game.updated', at: new Date().toISOString(), data: { n: 1 } },
    ]);
    const deadline = Date.now() + 5000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(received.map((e) => [e.seq, e.data])).toEqual([[1, { n: 1 }]]);
  } finally {
    admin.disconnect();
    await follow.stop();
  }
});
