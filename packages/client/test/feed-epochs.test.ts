// The SDK's feed when the Redis behind it comes back older (a Redis of the test's own, restarted
// from an older dump): the events the client saw after the dump are gone, and the feed hands over
// `ready` with `resync: true` in the new epoch, then goes on with the new events.
import Redis from 'ioredis';
import { createApp, type App } from '../../../src/app';
import { createRedisStorage } from '../../../src/store/redis';
import { signUp } from '../../../test/support/accounts';
import { startRedisServer, type OwnRedis } from '../../../test/support/redis-server';
import { createBoardhost, ok, type FeedItem } from '../src';

let redis: OwnRedis;
let app: App;
let url: string;
beforeAll(async () => {
  redis = await startRedisServer();
  app = await createApp({ storage: await createRedisStorage(redis.url, 'sdkepochs:'), sweepIntervalMs: 0 });
  url = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`;
});
afterAll(async () => {
  await app.stop();
  await redis.stop();
});

it('resyncs in the new epoch when the store came back older, then goes on', async () => {
  const [ann, bob] = [await signUp(app, 'ann'), await signUp(app, 'bob')];
  const annApi = createBoardhost({ baseUrl: url, token: ann.token }).api;
  const challenge = () =>
    ok(annApi.POST('/api/v1/challenges', { body: { to: bob.username, kind: 'kalah' } })).then((c) => c.id);
  const feed = createBoardhost({ baseUrl: url, token: bob.token }).feed({ after: 0, reconnectDelayMs: 100 });
  const next = async () => (await feed.next()).value as FeedItem;

  const first = await next();
  expect(first).toMatchObject({ type: 'ready', resync: false });
  const kept = await challenge();
  expect(await next()).toMatchObject({
    type: 'challenge.received',
    seq: 1,
    data: { challenge: { id: kept } },
  });
  const admin = new Redis(redis.port, '127.0.0.1');
  await admin.save(); // the dump holds bob's feed up to seq 1
  admin.disconnect();
  const lost = await challenge();
  expect(await next()).toMatchObject({
    type: 'challenge.received',
    seq: 2,
    data: { challenge: { id: lost } },
  });

  const resync = next(); // the stream is open across the restart
  await redis.kill();
  await redis.restart();
  let made: string | undefined;
  for (let i = 0; i < 100 && !made; i++) {
    made = await challenge().catch(() => new Promise<undefined>((r) => setTimeout(() => r(undefined), 100)));
  }
  const ready = await resync;
  expect(ready).toMatchObject({ type: 'ready', resync: true });
  expect((ready as { epoch: string }).epoch).not.toBe((first as { epoch: string }).epoch);
  // The new challenge's event, in the new epoch, with the seq the lost event had.
  expect(await next()).toMatchObject({
    type: 'challenge.received',
    seq: 2,
    epoch: (ready as { epoch: string }).epoch,
    data: { challenge: { id: made } },
  });
  await feed.return(undefined);
});
