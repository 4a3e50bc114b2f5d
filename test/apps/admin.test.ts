// The operator API (/api/v1/admin) behind OPERATOR_KEY, and a server whose open sign-up is closed
// (OPEN_SIGNUP=false): apps make the accounts.
import request from 'supertest';
import { appHarness, gql, type Running } from '../support/app';
import { openFeed } from '../support/feed-client';

const OPERATOR_KEY = 'operator-key-for-tests-0123456789';
const operator = { authorization: `Bearer ${OPERATOR_KEY}` };

const harness = appHarness();
afterAll(() => harness.stopAll());

describe.each(['memory', 'redis'] as const)('the operator API on %s', (store) => {
  let running: Running;

  beforeAll(async () => {
    running = await harness.start(store, { app: { operatorKey: OPERATOR_KEY, openSignup: false } });
  });

  test('closed sign-up refuses POST /accounts and createAccount with SIGNUP_CLOSED', async () => {
    const rest = await request(running.url).post('/api/v1/accounts').send({ username: 'hopeful' });
    expect(rest.status).toBe(403);
    expect(rest.body.code).toBe('SIGNUP_CLOSED');
    expect(rest.body.detail).toMatch(/apps/);
    const graphql = await gql(
      running.url,
      'mutation { createAccount(username: "hopeful") { account { id } } }',
    );
    expect(graphql.body.errors?.[0]?.extensions?.code).toBe('SIGNUP_CLOSED');
  });

  test('refuses every caller but the operator key', async () => {
    const created = await request(running.url)
      .post('/api/v1/admin/apps')
      .set(operator)
      .send({ name: 'Keyholder' });
    const appKey = created.body.key.key as string;
    for (const headers of [
      {},
      { authorization: 'Bearer operator-key-for-tests-0123456788' },
      { authorization: `Bearer ${appKey}` },
    ]) {
      const answer = await request(running.url).get('/api/v1/admin/apps').set(headers);
      expect([answer.status, answer.body.code]).toEqual([403, 'OPERATOR_ONLY']);
      const write = await request(running.url).post('/api/v1/admin/apps').set(headers).send({ name: 'x' });
      expect(write.status).toBe(403);
    }
  });

  test('apps, keys and usage', async () => {
    const created = await request(running.url)
      .post('/api/v1/admin/apps')
      .set(operator)
      .send({ name: 'Acme', settings: { quotas: { accountsPerDay: 50 } } });
    expect(created.status).toBe(201);
    const { app, key } = created.body;
    expect(app).toMatchObject({
      name: 'Acme',
      disabledAt: null,
      settings: { quotas: { accountsPerDay: 50 } },
    });
    expect(key).toMatchObject({ app: app.id, revokedAt: null, key: expect.stringMatching(/^bha_/) });
    expect(key.scopes).toEqual(expect.arrayContaining(['app:accounts', 'app:sessions', 'game:play']));
    const asApp = { authorization: `Bearer ${key.key}` };
    // The first key works: the app makes accounts though open sign-up is closed.
    for (const id of ['one', 'two']) {
      expect((await request(running.url).put(`/api/v1/app/accounts/${id}`).set(asApp).send({})).status).toBe(
        201,
      );
    }
    const listed = await request(running.url).get('/api/v1/admin/apps').set(operator);
    expect(listed.body.items.map((x: { id: string }) => x.id)).toContain(app.id);
    expect((await request(running.url).get(`/api/v1/admin/apps/${app.id}`).set(operator)).body).toEqual(app);
    const missing = await request(running.url).get('/api/v1/admin/apps/app_0000000000000000').set(operator);
    expect([missing.status, missing.body.code]).toEqual([404, 'APP_NOT_FOUND']);

    const second = await request(running.url)
      .post(`/api/v1/admin/apps/${app.id}/keys`)
      .set(operator)
      .send({ label: 'reader', scopes: ['game:read'] });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ label: 'reader', scopes: ['game:read'] });
    const narrow = await request(running.url)
      .put('/api/v1/app/accounts/three')
      .set('authorization', `Bearer ${second.body.key}`)
      .send({});
    expect([narrow.status, narrow.body.code]).toEqual([403, 'MISSING_SCOPE']);
    const keys = await request(running.url).get(`/api/v1/admin/apps/${app.id}/keys`).set(operator);
    expect(keys.body.items.map((k: { id: string }) => k.id)).toEqual([key.id, second.body.id]);
    expect(keys.body.items[0]).not.toHaveProperty('key');
    const revoked = await request(running.url)
      .delete(`/api/v1/admin/apps/${app.id}/keys/${second.body.id}`)
      .set(operator);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    expect(
      (await request(running.url).get('/api/v1/app').set('authorization', `Bearer ${second.body.key}`))
        .status,
    ).toBe(401);

    const usage = await request(running.url).get(`/api/v1/admin/apps/${app.id}/usage`).set(operator);
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ app: app.id, accountsCreated: 2, gamesCreated: 0 });
    expect(usage.body.requests).toBeGreaterThanOrEqual(3);
    expect(usage.body.quotas.accountsPerDay).toBe(50);
    const metrics = await request(running.url).get('/metrics');
    expect(metrics.text).toContain(`boardhost_app_requests_total{app="${app.id}"}`);
    expect(metrics.text).toContain(`boardhost_app_accounts_created_total{app="${app.id}"} 2`);

    // A stream the key opened acting for an account ends when the app is disabled.
    const one = (await request(running.url).get('/api/v1/app/accounts/one').set(asApp)).body.id as string;
    const feed = await openFeed(running.url, key.key, {
      format: 'ndjson',
      headers: { 'boardhost-account': one },
    });
    const disabled = await request(running.url)
      .patch(`/api/v1/admin/apps/${app.id}`)
      .set(operator)
      .send({ name: 'Acme 2', disabled: true });
    expect(disabled.body).toMatchObject({ name: 'Acme 2', disabledAt: expect.any(String) });
    const at = Date.now();
    await Promise.race([
      feed.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the stream stayed open')), 1000)),
    ]);
    expect(Date.now() - at).toBeLessThan(1000);
    expect((await request(running.url).get('/api/v1/app').set(asApp)).status).toBe(401);
    const bad = await request(running.url)
      .patch(`/api/v1/admin/apps/${app.id}`)
      .set(operator)
      .send({ settings: { quotas: { requestsPerSecond: 0 } } });
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_INPUT']);
  });
});
