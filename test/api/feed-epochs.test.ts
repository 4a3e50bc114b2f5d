// Feed epochs on a Redis of the test's own that comes back older: events are written, the data is
// saved (SAVE: dump.rdb), more events are written, the server is killed and restarted from the
// older dump. Seqs after the dump are then reused for new events: clients resuming with the epoch
// they saw get FEED_EPOCH_CHANGED (and those whose events survived go on), a stream open across it
// ends with `epoch_changed`, and webhook endpoints log the epoch change and go on with the new
// events (new delivery ids). A restart that lost nothing changes the epoch but needs no re-sync.
import Redis from 'ioredis';
import request from 'supertest';
import { createApp, type App } from '../../src/app';
import { createRedisStorage } from '../../src/store/redis';
import { signUp, type TestAccount } from '../support/accounts';
import { openFeed } from '../support/feed-client';
import { expectProblem } from '../support/problem';
import { startRedisServer, type OwnRedis } from '../support/redis-server';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

let redis: OwnRedis;
let receiver: Receiver;
let app: App;
let url: string;
beforeAll(async () => {
  redis = await startRedisServer();
  receiver = await startReceiver();
  const storage = await createRedisStorage(redis.url, 'epochs:');
  app = await createApp({ storage, sweepIntervalMs: 0, webhooks: { allowPrivate: true, intervalMs: 0 } });
  url = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`;
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
  await redis.stop();
});

/** Kills Redis (no save) and starts it again from the dump last saved; waits until the app writes again. */
async function comeBackOlder(): Promise<void> {
  await redis.kill();
  await redis.restart();
  for (let i = 0; i < 100; i++) {
    // 'ready', not 'degraded' (a store failing within the readiness grace window).
    if ((await request(url).get('/readyz')).body.status === 'ready') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the app did not reconnect to Redis');
}

/** SAVE: dump.rdb now holds the data as it is. */
async function save(): Promise<void> {
  const admin = new Redis(redis.port, '127.0.0.1');
  await admin.save();
  admin.disconnect();
}

/** Two bots and a Kalah game between them (x moves first). */
async function duel(): Promise<{ x: TestAccount; y: TestAccount; move: () => Promise<void> }> {
  const [x, y] = [await signUp(app, 'x'), await signUp(app, 'y')];
  const challenge = await app.services.challenges.create(
    { token: x.token },
    { to: y.username, kind: 'kalah', starts: 'challenger' },
  );
  const gameId = (await app.services.challenges.accept({ token: y.token }, challenge.id)).gameId as string;
  const move = async () => {
    const game = await app.services.games.getGame(gameId);
    const who = game.toMove === 0 ? x : y;
    await app.services.games.submitMove(gameId, game.legalMoves[0] as string, {
      credential: { token: who.token },
    });
  };
  return { x, y, move };
}

const page = (who: TestAccount, query: string) =>
  request(url).get(`/api/v1/account/events${query}`).set(who.auth).set('Accept', 'application/json');

it('detects a Redis that came back older: clients get FEED_EPOCH_CHANGED, endpoints log the epoch change and go on', async () => {
  const { x, move } = await duel(); // x: 1 challenge.accepted, 2 game.started
  const hook = (
    await request(url).post('/api/v1/account/webhooks').set(x.auth).send({ url: receiver.url() }).expect(201)
  ).body as { id: string; epoch: string };
  await move(); // 3
  await move(); // 4
  expect(await app.deliverWebhooks()).toBe(2);
  await save(); // the dump holds x's feed up to seq 4
  await move(); // 5
  await move(); // 6
  expect(await app.deliverWebhooks()).toBe(2);
  const before = (await page(x, '?after=0').expect(200)).body;
  const e1: string = before.epoch;
  expect(e1).toBe(hook.epoch);
  expect(before.events.map((e: { seq: number; epoch: string }) => [e.seq, e.epoch])).toEqual(
    [1, 2, 3, 4, 5, 6].map((seq) => [seq, e1]),
  );
  const lost = before.events.slice(4);
  // A client following live with everything seen, across the restart.
  const live = await openFeed(url, x.token, { format: 'ndjson', after: 6, epoch: e1 });
  expect(live.epoch).toBe(e1);

  await comeBackOlder();
  await move(); // the game is back at 2 moves: this move is a new seq 5
  const after = (await page(x, '?after=0').expect(200)).body;
  const e2: string = after.epoch;
  expect(e2).not.toBe(e1);
  expect(after.last).toBe(5);
  expect(after.events.map((e: { seq: number; epoch: string }) => [e.seq, e.epoch])).toEqual([
    [1, e1],
    [2, e1],
    [3, e1],
    [4, e1],
    [5, e2],
  ]);
  expect(after.events[4].data).not.toEqual(lost[0].data);

  // The live stream ends with what to do: as soon as its connection is back (it reads the stored
  // feed then, the feed's newest seq being 4) or at the move's event (5), whichever it meets first.
  const ended = await live.next();
  expect(ended).toEqual({
    type: 'epoch_changed',
    data: {
      epoch: e2,
      after: 4,
      last: expect.any(Number),
      message: expect.stringMatching(/came back older/),
    },
  });
  expect([4, 5]).toContain((ended as { data: { last: number } }).data.last);
  await live.ended;

  // Resuming with the epoch: refused when the client saw lost events, in every form.
  for (const accept of ['application/json', 'application/x-ndjson', 'text/event-stream']) {
    const res = await request(url)
      .get(`/api/v1/account/events?after=5&epoch=${e1}`)
      .set(x.auth)
      .set('Accept', accept);
    expectProblem(res, 409, 'FEED_EPOCH_CHANGED');
    expect(res.body).toMatchObject({ epoch: e2, after: 4, last: 5 });
    expect(res.body.detail ?? res.body.message ?? res.body.title).toMatch(
      /GET \/api\/v1\/account\/games.*epoch=.*after=4/,
    );
  }
  const sse = await request(url)
    .get('/api/v1/account/events')
    .set(x.auth)
    .set('Accept', 'text/event-stream')
    .set('Last-Event-ID', `${e1}:6`);
  expectProblem(sse, 409, 'FEED_EPOCH_CHANGED');
  // A client whose events all survived goes on, seeing the survivors and then the new ones.
  const behind = (await page(x, `?after=3&epoch=${e1}`).expect(200)).body;
  expect(behind.events.map((e: { seq: number }) => e.seq)).toEqual([4, 5]);
  expect(behind.epoch).toBe(e2);
  // Resuming as told.
  const resumed = await openFeed(url, x.token, { format: 'sse', after: 4, epoch: e2 });
  const [next] = [await resumed.next()];
  expect(next?.id).toBe(`${e2}:5`);
  resumed.close();
  // GraphQL says the same.
  const gql = await request(url)
    .post('/graphql')
    .set(x.auth)
    .send({ query: `{ events(after: 6, epoch: "${e1}") { last } }` });
  expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'FEED_EPOCH_CHANGED', epoch: e2, after: 4 });

  // The endpoint had been sent seqs 5 and 6 of epoch 1. Its state came back older with the feed
  // (cursor 4), so it logs the epoch change and sends the new 5, with a new delivery id.
  expect(await app.deliverWebhooks()).toBe(1);
  const sent = receiver.accepted.map((r) => [r.payload.seq, r.payload.epoch]);
  expect(sent).toEqual([
    [3, e1],
    [4, e1],
    [5, e1],
    [6, e1],
    [5, e2],
  ]);
  const ids = receiver.accepted.map((r) => r.headers['boardhost-delivery'] as string);
  expect(new Set(ids).size).toBe(ids.length);
  const log = (
    await request(url).get(`/api/v1/account/webhooks/${hook.id}/deliveries`).set(x.auth).expect(200)
  ).body.items.reverse();
  expect(log.map((a: Record<string, unknown>) => [a.outcome, a.seq, a.lastSeq, a.reason, a.epoch])).toEqual([
    ['delivered', 3, null, null, e1],
    ['delivered', 4, null, null, e1],
    ['skipped', 5, null, 'epoch', e1],
    ['delivered', 5, null, null, e2],
  ]);
  expect(log[2].error).toMatch(/came back older.*Seqs from 5 on name new events/);
  // The lost delivery went with the log; a kept one can still be sent again.
  const redeliver = (id: string) =>
    request(url).post(`/api/v1/account/webhooks/${hook.id}/deliveries/${id}/redeliver`).set(x.auth);
  expectProblem(await redeliver(ids[2]!), 404, 'DELIVERY_NOT_FOUND');
  expect((await redeliver(ids[1]!).expect(200)).body).toMatchObject({
    seq: 4,
    epoch: e1,
    outcome: 'delivered',
  });
  expect(receiver.accepted.at(-1)?.payload).toMatchObject({ seq: 4, epoch: e1 });
  const view = (await request(url).get(`/api/v1/account/webhooks/${hook.id}`).set(x.auth)).body;
  expect(view).toMatchObject({ cursor: 5, epoch: e2, pending: null });
});

it('begins a new epoch at a restart that lost nothing; clients and endpoints go on without a re-sync', async () => {
  const { x, move } = await duel();
  const hook = (
    await request(url)
      .post('/api/v1/account/webhooks')
      .set(x.auth)
      .send({ url: receiver.url('/b') })
      .expect(201)
  ).body as { id: string };
  await move();
  expect(await app.deliverWebhooks()).toBe(1);
  const before = (await page(x, '?after=0').expect(200)).body;
  const live = await openFeed(url, x.token, { format: 'ndjson', after: before.last, epoch: before.epoch });
  await save();
  await comeBackOlder(); // nothing written since the dump
  const again = (await page(x, `?after=${before.last}&epoch=${before.epoch}`).expect(200)).body;
  expect(again.epoch).not.toBe(before.epoch);
  expect(again.events).toEqual([]);
  await move();
  // The stream open across the restart goes on into the new epoch.
  const next = await live.next();
  expect(next.data).toMatchObject({ seq: before.last + 1, epoch: again.epoch });
  live.close();
  expect(await app.deliverWebhooks()).toBe(1);
  const log = (
    await request(url).get(`/api/v1/account/webhooks/${hook.id}/deliveries`).set(x.auth).expect(200)
  ).body.items;
  // Nothing lost, nothing sent twice; the log says the epoch changed.
  expect(log.map((a: Record<string, unknown>) => [a.outcome, a.seq, a.reason])).toEqual([
    ['delivered', 4, null],
    ['skipped', 4, 'epoch'],
    ['delivered', 3, null],
  ]);
  expect(receiver.accepted.filter((r) => r.payload.account === x.id).map((r) => r.payload.seq)).toEqual([
    3, 4,
  ]);
});
