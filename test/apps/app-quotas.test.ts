// Per-app quotas: accounts and games per day, requests per second (the "app" rate-limit policy),
// each app's own whatever address its requests come from; app accounts skip the sign-up quota.
import request from 'supertest';
import { appHarness, type Running } from '../support/app';
import { newApp, type TestApp } from '../support/apps';

const harness = appHarness();
afterAll(() => harness.stopAll());

describe.each(['memory', 'redis'] as const)('app quotas on %s', (store) => {
  let running: Running;
  const put = (app: TestApp, externalId: string) =>
    request(running.url).put(`/api/v1/app/accounts/${externalId}`).set(app.auth).send({});

  beforeAll(async () => {
    // One address for everything: the sign-up quota allows one open account per day from it.
    running = await harness.start(store, {
      app: {
        quotas: {
          ongoingGamesPerAccount: 1000,
          tokensPerAccount: 1000,
          accountsPerIpPerDay: 1,
          gamesPerIpPerDay: 1000,
        },
      },
    });
  });

  test('accountsPerDay counts each app apart, and app accounts skip the address quota', async () => {
    const a = await newApp(running.app, { quotas: { accountsPerDay: 2 } });
    const b = await newApp(running.app, { quotas: { accountsPerDay: 3 } });
    expect((await put(a, 'a1')).status).toBe(201);
    expect((await put(a, 'a2')).status).toBe(201);
    // An existing account is no creation.
    expect((await put(a, 'a1')).status).toBe(200);
    const over = await put(a, 'a3');
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'QUOTA_EXCEEDED', app: a.id, limit: 2 });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    for (const id of ['b1', 'b2', 'b3']) expect((await put(b, id)).status).toBe(201);
    expect((await put(b, 'b4')).status).toBe(429);
    // The address made five accounts through apps; open sign-up still has its one.
    const signUp = () =>
      request(running.url)
        .post('/api/v1/accounts')
        .send({ username: `q${Math.random().toString(36).slice(2, 10)}` });
    expect((await signUp()).status).toBe(201);
    const refused = await signUp();
    expect(refused.status).toBe(429);
    expect(refused.body.quota).toBe('accounts');
  });

  test('gamesPerDay counts the games of each app’s accounts', async () => {
    const a = await newApp(running.app, { quotas: { gamesPerDay: 1 } });
    const b = await newApp(running.app, { quotas: { gamesPerDay: 5 } });
    const accountOf = async (app: TestApp, externalId: string) =>
      (await put(app, externalId)).body.id as string;
    const [alice, bob] = [await accountOf(a, 'alice'), await accountOf(b, 'bob')];
    const play = (app: TestApp, id: string) =>
      request(running.url)
        .post('/api/v1/challenges/ai')
        .set(app.as(id))
        .send({ kind: 'kalah', level: 1, color: '0' });
    expect((await play(a, alice)).status).toBe(201);
    const over = await play(a, alice);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'QUOTA_EXCEEDED', quota: 'appGames', app: a.id });
    expect((await play(b, bob)).status).toBe(201);
    expect((await play(b, bob)).status).toBe(201);
    const usage = await running.app.services.appUsage.usage(b.id);
    expect(usage.gamesCreated).toBe(2);
  });

  test('requestsPerSecond limits each app’s keys and sessions together (the "app" policy)', async () => {
    const a = await newApp(running.app, { quotas: { requestsPerSecond: 3 } });
    const b = await newApp(running.app, { quotas: { requestsPerSecond: 100 } });
    const second = await running.app.services.apps.createKey(a.id);
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        request(running.url)
          .get('/api/v1/app')
          .set('authorization', `Bearer ${i % 2 === 0 ? a.key : second.key}`),
      ),
    );
    const limited = burst.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(4);
    expect(limited[0]?.body).toMatchObject({ code: 'RATE_LIMITED', policy: 'app', app: a.id });
    expect(Number(limited[0]?.headers['retry-after'])).toBeGreaterThan(0);
    expect(burst.find((r) => r.status === 200)?.headers['ratelimit-policy']).toContain('"app";q=3;w=1');
    // Another app from the same address is not held back.
    const other = await Promise.all(
      Array.from({ length: 10 }, () => request(running.url).get('/api/v1/app').set(b.auth)),
    );
    expect(other.every((r) => r.status === 200)).toBe(true);
  });
});
