// The app account API: get-or-create by external id (REST and GraphQL), reads, renames, listing,
// public profiles, graphql-ws acting, and the operator API being off without OPERATOR_KEY.
import request from 'supertest';
import { appHarness, gql, wsClient, type Running } from '../support/app';
import { newApp, type TestApp } from '../support/apps';

const harness = appHarness();
afterAll(() => harness.stopAll());

describe.each(['memory', 'redis'] as const)('app accounts on %s', (store) => {
  let running: Running;
  let a: TestApp;
  let b: TestApp;
  const put = (app: TestApp, externalId: string, body: object = {}) =>
    request(running.url)
      .put(`/api/v1/app/accounts/${encodeURIComponent(externalId)}`)
      .set(app.auth)
      .send(body);

  beforeAll(async () => {
    running = await harness.start(store);
    a = await newApp(running.app);
    b = await newApp(running.app);
  });

  test('20 concurrent get-or-create calls for one external id make one account', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => put(a, 'racer', { displayName: 'Racer' })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([...Array<number>(19).fill(200), 201]);
    const ids = new Set(answers.map((r) => r.body.id as string));
    expect(ids.size).toBe(1);
    const [id] = [...ids] as [string];
    expect(id).toMatch(new RegExp(`^${a.id}\\.[0-9a-f]{16}$`));
    const page = await request(running.url).get('/api/v1/app/accounts?limit=100').set(a.auth);
    expect(page.status).toBe(200);
    expect(page.body.items.filter((x: { externalId: string }) => x.externalId === 'racer')).toHaveLength(1);
    const usage = await running.app.services.appUsage.usage(a.id);
    expect(usage.accountsCreated).toBe(1);
  });

  test('PUT of an existing account answers 200 with it unchanged', async () => {
    const made = await put(a, 'same', { username: 'same-one', metadata: { tier: 'gold' } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      app: a.id,
      externalId: 'same',
      username: 'same-one',
      displayName: null,
      metadata: { tier: 'gold' },
      kind: 'human',
      status: 'active',
      statusReason: null,
    });
    const again = await put(a, 'same', { username: 'other-name', displayName: 'X' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(made.body);
    const generated = await put(a, 'no-name');
    expect(generated.status).toBe(201);
    expect(generated.body.username).toMatch(/^player-[0-9a-f]{8}$/);
  });

  test('PATCH renames: the id stays, and so does a game played before', async () => {
    const made = await put(a, 'renamer', { username: 'before-name' });
    const id = made.body.id as string;
    const game = await request(running.url)
      .post('/api/v1/challenges/ai')
      .set(a.as(id))
      .send({ kind: 'kalah', level: 1, color: '0' });
    expect(game.status).toBe(201);
    const renamed = await request(running.url)
      .patch('/api/v1/app/accounts/renamer')
      .set(a.auth)
      .send({ username: 'after-name', displayName: 'After', metadata: { a: '1' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      id,
      username: 'after-name',
      displayName: 'After',
      metadata: { a: '1' },
    });
    // Its game list, read in its app's pool (from another pool it is a missing account's: empty).
    const games = await request(running.url).get(`/api/v1/games?account=${id}`).set(a.auth);
    expect(games.status).toBe(200);
    expect(games.body.items.map((g: { id: string }) => g.id)).toContain(game.body.id);
    const read = await request(running.url).get('/api/v1/app/accounts/renamer').set(a.auth);
    expect(read.body).toEqual(renamed.body);
    // The public profile: the id works as the handle; displayName shown, externalId and metadata not.
    // (Read in the app's pool: another pool, anonymous callers' included, is told it does not exist.)
    const profile = await request(running.url).get(`/api/v1/accounts/${id}`).set(a.auth);
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ id, username: 'after-name', displayName: 'After' });
    expect(profile.body).not.toHaveProperty('externalId');
    expect(profile.body).not.toHaveProperty('metadata');
    const cleared = await request(running.url)
      .patch('/api/v1/app/accounts/renamer')
      .set(a.auth)
      .send({ displayName: null, metadata: null });
    expect(cleared.body).toMatchObject({ id, username: 'after-name', displayName: null, metadata: {} });
  });

  test('usernames are unique per app, ignoring case; two apps may hold the same', async () => {
    expect((await put(a, 'u1', { username: 'Shared' })).status).toBe(201);
    const clash = await put(a, 'u2', { username: 'shared' });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('USERNAME_TAKEN');
    expect((await put(b, 'u1', { username: 'shared' })).status).toBe(201);
    const rename = await request(running.url)
      .patch('/api/v1/app/accounts/u1')
      .set(b.auth)
      .send({ username: 'SHARED' });
    expect(rename.status).toBe(200);
    await put(b, 'u3', { username: 'third' });
    const taken = await request(running.url)
      .patch('/api/v1/app/accounts/u3')
      .set(b.auth)
      .send({ username: 'Shared' });
    expect(taken.status).toBe(409);
  });

  test('refuses bad input, other apps’ accounts and callers that are not the app', async () => {
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    const cases: Array<[object, string]> = [
      [{ metadata: many }, 'INVALID_INPUT'],
      [{ metadata: { 'bad key': 'v' } }, 'INVALID_INPUT'],
      [{ metadata: { k: 'x'.repeat(257) } }, 'INVALID_INPUT'],
      [{ displayName: 'evil\u202Ename' }, 'INVALID_CHARACTER'],
      [{ displayName: 'x'.repeat(51) }, 'INVALID_INPUT'],
      [{ username: 'admin' }, 'USERNAME_RESERVED'],
      [{ username: 'no spaces' }, 'INVALID_INPUT'],
      [{ kind: 'robot' }, 'INVALID_INPUT'],
    ];
    for (const [body, code] of cases) {
      const answer = await put(a, 'bad', body);
      expect([answer.status, answer.body.code]).toEqual([code === 'USERNAME_RESERVED' ? 409 : 400, code]);
    }
    expect((await put(a, 'x'.repeat(129))).body.code).toBe('INVALID_INPUT');
    expect((await put(a, 'tab\there')).body.code).toBe('INVALID_CHARACTER');
    await put(a, 'mine');
    expect((await request(running.url).get('/api/v1/app/accounts/mine').set(b.auth)).status).toBe(404);
    const account = (await put(a, 'mine')).body.id as string;
    const acting = await request(running.url).get('/api/v1/app/accounts/mine').set(a.as(account));
    expect(acting.status).toBe(401);
    expect((await request(running.url).get('/api/v1/app')).status).toBe(401);
    const app = await request(running.url).get('/api/v1/app').set(a.auth);
    expect(app.body).toMatchObject({ id: a.id, settings: { sharedPool: false } });
  });

  test('GraphQL: ensureAppAccount, appAccount, appAccounts and app', async () => {
    const headers = a.auth;
    const ensure = `mutation($e: String!, $i: AppAccountInput) {
      ensureAppAccount(externalId: $e, input: $i) { created account { id username displayName metadata kind } } }`;
    const first = await gql(
      running.url,
      ensure,
      { e: 'gql-1', i: { username: 'gql-one', metadata: { x: 'y' } } },
      headers,
    );
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data?.ensureAppAccount).toMatchObject({
      created: true,
      account: { username: 'gql-one', displayName: null, metadata: { x: 'y' }, kind: 'human' },
    });
    const second = await gql(running.url, ensure, { e: 'gql-1' }, headers);
    expect(second.body.data?.ensureAppAccount.created).toBe(false);
    const update = await gql(
      running.url,
      `mutation { updateAppAccount(externalId: "gql-1", input: { displayName: "G" }) { username displayName } }`,
      {},
      headers,
    );
    expect(update.body.data?.updateAppAccount).toEqual({ username: 'gql-one', displayName: 'G' });
    const read = await gql(
      running.url,
      `{ app { id } appAccount(externalId: "gql-1") { displayName } appAccounts(limit: 1) { items { id } next } }`,
      {},
      headers,
    );
    expect(read.body.data?.app.id).toBe(a.id);
    expect(read.body.data?.appAccount.displayName).toBe('G');
    expect(read.body.data?.appAccounts.items).toHaveLength(1);
    expect(read.body.data?.appAccounts.next).toEqual(expect.any(String));
    const profile = await gql(
      running.url,
      `query($u: String!) { account(username: $u) { displayName } }`,
      { u: first.body.data?.ensureAppAccount.account.id },
      headers,
    );
    expect(profile.body.data?.account.displayName).toBe('G');
  });

  test('graphql-ws: boardhostAccount names the account an app key acts for', async () => {
    const id = (await put(a, 'ws-user')).body.id as string;
    const client = wsClient(running.url, { authorization: `Bearer ${a.key}`, boardhostAccount: id });
    try {
      const result = await new Promise<unknown>((resolve, reject) => {
        client.subscribe(
          { query: '{ me { id } }' },
          { next: resolve, error: reject, complete: () => undefined },
        );
      });
      expect(result).toEqual({ data: { me: { id } } });
    } finally {
      await client.dispose();
    }
  });

  test('the operator API is off without OPERATOR_KEY', async () => {
    const answer = await request(running.url)
      .get('/api/v1/admin/apps')
      .set('authorization', 'Bearer anything-at-all-here-24');
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('OPERATOR_ONLY');
  });
});
