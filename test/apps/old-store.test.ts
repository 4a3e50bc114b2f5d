// Data stored by the version before apps keeps working (#30): a Redis keyspace written through the
// API of commit b4ed809 (test/fixtures/store-b4ed809.json, made by loading that checkout and
// writing two accounts, an ongoing rated game, an open challenge, a seat-token game and a finished
// rated game) is loaded under a fresh prefix, and this version serves it: its accounts belong to the
// open app and pool, their tokens work, their games go on, an island app sees none of it.
import Redis from 'ioredis';
import request from 'supertest';
import fixture from '../fixtures/store-b4ed809.json';
import { signUp } from '../support/accounts';
import { appHarness, type Running } from '../support/app';
import { appAccount, newApp } from '../support/apps';
import { REDIS_URL, uniquePrefix } from '../support/redis';
import { loadSnapshot, type Snapshot } from '../support/store-snapshot';

const harness = appHarness();
const prefix = uniquePrefix('old-store');
let running: Running;
const ann = { authorization: `Bearer ${fixture.ids.ann.token}` };
const bob = { authorization: `Bearer ${fixture.ids.bob.token}` };

beforeAll(async () => {
  const redis = new Redis(REDIS_URL);
  await loadSnapshot(redis, prefix, fixture as unknown as Snapshot);
  await redis.quit();
  running = await harness.start('redis', { prefix });
});
afterAll(() => harness.stopAll());

test('the old accounts sign in with their tokens and are open accounts, seen by anyone', async () => {
  const me = await request(running.url).get('/api/v1/account').set(ann).expect(200);
  expect(me.body).toMatchObject({ id: 'oldann', username: 'OldAnn' });
  const stored = await running.storage.accounts.getAccount('oldann');
  expect(stored?.app).toBeUndefined();
  expect(await running.app.services.pools.ofAccount('oldann')).toBe('open');
  expect((await request(running.url).get('/api/v1/accounts/oldbob').expect(200)).body.username).toBe(
    'oldbob',
  );
  const ratings = await request(running.url).get('/api/v1/accounts/oldann/ratings').expect(200);
  expect(JSON.stringify(ratings.body)).toContain('kalah');
});

test('the ongoing game is read by anyone and goes on; the finished one is listed', async () => {
  const game = (await request(running.url).get(`/api/v1/games/${fixture.ids.ongoing}`).expect(200)).body;
  expect(game).toMatchObject({ status: 'ongoing', ply: 2, rated: true });
  expect(game).not.toHaveProperty('visibility', 'private');
  const mover =
    game.seats.find((s: { seat: number }) => s.seat === game.toMove).account === 'oldann' ? ann : bob;
  await request(running.url)
    .post(`/api/v1/games/${game.id}/moves`)
    .set(mover)
    .send({ move: game.legalMoves[0] })
    .expect(200);
  const listed = await request(running.url).get('/api/v1/games?account=oldann&status=finished').expect(200);
  expect(listed.body.items.map((g: { id: string }) => g.id)).toContain(fixture.ids.finished);
  const all = await request(running.url).get('/api/v1/games?status=finished').expect(200);
  expect(all.body.items.map((g: { id: string }) => g.id)).toContain(fixture.ids.finished);
  expect((await request(running.url).get(`/api/v1/games/${fixture.ids.seat}`).expect(200)).body.kind).toBe(
    'congkak',
  );
});

test('the open challenge is accepted; an open account challenges an old one', async () => {
  const accepted = await request(running.url).post(`/api/v1/challenges/${fixture.ids.open}/accept`).set(ann);
  expect([accepted.status, accepted.body.status]).toEqual([200, 'accepted']);
  const newcomer = await signUp(running.app, 'newcomer', 'human');
  await request(running.url)
    .post('/api/v1/challenges')
    .set(newcomer.auth)
    .send({ to: 'oldbob', kind: 'kalah', starts: 'challenger' })
    .expect(201);
});

test('an island app sees none of it', async () => {
  const island = await newApp(running.app);
  const own = await appAccount(running.storage, island, 'island-1');
  const acting = await request(running.url).get('/api/v1/account').set(island.as('oldann'));
  expect([acting.status, acting.body.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
  const profile = await request(running.url).get('/api/v1/accounts/oldbob').set(island.as(own.id));
  expect([profile.status, profile.body.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
  const challenge = await request(running.url)
    .post('/api/v1/challenges')
    .set(island.as(own.id))
    .send({ to: 'oldbob', kind: 'kalah', starts: 'challenger' });
  expect([challenge.status, challenge.body.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
});
