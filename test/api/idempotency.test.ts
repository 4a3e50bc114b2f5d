// Idempotency-Key on every create (games, challenges, seeks, tokens, accounts), on both transports:
// a retry answers the first answer and creates nothing more; the same key with another body is
// refused; keys are scoped per account (per address for anonymous creates); racing retries make one.
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { signUp } from '../support/accounts';
import { appHarness, gql, type Running, type StoreKind } from '../support/app';
import { ok } from '../support/graphql';
import { expectProblem } from '../support/problem';

const harness = appHarness();
afterAll(() => harness.stopAll());

const key = () => `key-${randomBytes(6).toString('hex')}`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe.each<StoreKind>(['redis', 'memory'])('creates with Idempotency-Key on the %s store', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store, { app: { trustProxy: 'loopback' } });
  });

  it('replays a seat-token game, seat tokens included; another body is IDEMPOTENCY_KEY_REUSED', async () => {
    const k = key();
    const post = (body: object, ip = '198.51.100.7') =>
      request(run.url).post('/api/v1/games').set('Idempotency-Key', k).set('X-Forwarded-For', ip).send(body);
    const first = await post({ kind: 'kalah' }).expect(201);
    const again = await post({ kind: 'kalah' }).expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expectProblem(await post({ kind: 'oware' }), 422, 'IDEMPOTENCY_KEY_REUSED');
    // The seat tokens of the replay work (they are the game's).
    await request(run.url)
      .post(`/api/v1/games/${first.body.game.id}/moves`)
      .set(bearer(again.body.seatTokens[0].token))
      .send({ move: '3' })
      .expect(200);
    // Another address's same key is another key.
    const elsewhere = await post({ kind: 'kalah' }, '198.51.100.8').expect(201);
    expect(elsewhere.body.game.id).not.toBe(first.body.game.id);
    // Over GraphQL, from the same address: the same scope, so the same game.
    const viaGraphql = await gql(
      run.url,
      'mutation ($k: String) { createGame(input: { kind: "kalah" }, idempotencyKey: $k) { game { id } } }',
      { k },
      { 'x-forwarded-for': '198.51.100.7' },
    );
    expect(viaGraphql.body.errors).toBeUndefined();
    expect(viaGraphql.body.data?.createGame.game.id).toBe(first.body.game.id);
    const malformed = await request(run.url)
      .post('/api/v1/games')
      .set('Idempotency-Key', 'no spaces')
      .send({ kind: 'kalah' });
    expectProblem(malformed, 400, 'INVALID_INPUT');
  });

  it('makes one challenge of a retried create, per account, on both transports', async () => {
    const [alice, bob, carol] = await Promise.all([
      signUp(run.app, 'ali', 'human'),
      signUp(run.app, 'bob', 'human'),
      signUp(run.app, 'car', 'human'),
    ]);
    const k = key();
    const body = { to: bob.username, kind: 'kalah', starts: 'challenger' };
    const first = await request(run.url)
      .post('/api/v1/challenges')
      .set(alice.auth)
      .set('Idempotency-Key', k)
      .send(body)
      .expect(201);
    const again = await request(run.url)
      .post('/api/v1/challenges')
      .set(alice.auth)
      .set('Idempotency-Key', k)
      .send(body)
      .expect(201);
    expect(again.body).toEqual(first.body);
    const viaGraphql = await ok(
      run.url,
      alice.token,
      `mutation ($k: String) { createChallenge(input: { to: "${bob.username}", kind: "kalah", starts: "challenger" }, idempotencyKey: $k) { id } }`,
      { k },
    );
    expect(viaGraphql.createChallenge.id).toBe(first.body.id);
    const open = await request(run.url).get('/api/v1/challenges').set(bob.auth).expect(200);
    expect(open.body.items ?? open.body).toHaveLength(1);
    // Carol's same key is hers.
    const hers = await request(run.url)
      .post('/api/v1/challenges')
      .set(carol.auth)
      .set('Idempotency-Key', k)
      .send(body)
      .expect(201);
    expect(hers.body.id).not.toBe(first.body.id);
  });

  it('answers a retried seek as the first time and leaves no second seek', async () => {
    const [ann, ben] = await Promise.all([signUp(run.app, 'ann', 'human'), signUp(run.app, 'ben', 'human')]);
    const body = { kind: 'oware', options: { seeds: 5 } };
    const k = key();
    const waiting = await request(run.url)
      .post('/api/v1/seeks')
      .set(ann.auth)
      .set('Idempotency-Key', k)
      .send(body);
    expect(waiting.status).toBe(201);
    const retried = await request(run.url)
      .post('/api/v1/seeks')
      .set(ann.auth)
      .set('Idempotency-Key', k)
      .send(body);
    expect(retried.status).toBe(201);
    expect(retried.body).toEqual(waiting.body);
    // Ben's seek meets Ann's one seek; Ben's retry does not start a second game.
    const kb = key();
    const matched = await request(run.url)
      .post('/api/v1/seeks')
      .set(ben.auth)
      .set('Idempotency-Key', kb)
      .send(body);
    expect(matched.status).toBe(200);
    const again = await request(run.url)
      .post('/api/v1/seeks')
      .set(ben.auth)
      .set('Idempotency-Key', kb)
      .send(body);
    expect(again.status).toBe(200);
    expect(again.body.game.id).toBe(matched.body.game.id);
    const games = await request(run.url)
      .get('/api/v1/account/games?filter=ongoing')
      .set(ann.auth)
      .expect(200);
    expect(games.body.items.map((g: { id: string }) => g.id)).toEqual([matched.body.game.id]);
  });

  it('replays a token with its secret and lists it once; GraphQL shares the key', async () => {
    const owner = await signUp(run.app, 'tok', 'human');
    const k = key();
    const make = () =>
      request(run.url)
        .post('/api/v1/account/tokens')
        .set(owner.auth)
        .set('Idempotency-Key', k)
        .send({ label: 'ci', scopes: ['game:read'] });
    const first = await make().expect(201);
    expect((await make().expect(201)).body).toEqual(first.body);
    const viaGraphql = await ok(
      run.url,
      owner.token,
      'mutation ($k: String) { createToken(scopes: ["game:read"], label: "ci", idempotencyKey: $k) { id token } }',
      { k },
    );
    expect(viaGraphql.createToken).toEqual({ id: first.body.id, token: first.body.token });
    const listed = await request(run.url).get('/api/v1/account/tokens').set(owner.auth).expect(200);
    expect(listed.body.items).toHaveLength(2);
  });

  it('replays a webhook registration with its secret and registers one endpoint', async () => {
    const owner = await signUp(run.app, 'hook', 'human');
    const k = key();
    const make = () =>
      request(run.url)
        .post('/api/v1/account/webhooks')
        .set(owner.auth)
        .set('Idempotency-Key', k)
        .send({ url: 'http://127.0.0.1:9/hook' });
    const first = await make().expect(201);
    expect((await make().expect(201)).body).toEqual(first.body);
    const viaGraphql = await ok(
      run.url,
      owner.token,
      'mutation ($k: String) { createWebhook(input: { url: "http://127.0.0.1:9/hook" }, idempotencyKey: $k) { id secret } }',
      { k },
    );
    expect(viaGraphql.createWebhook).toEqual({ id: first.body.id, secret: first.body.secret });
    const listed = await request(run.url).get('/api/v1/account/webhooks').set(owner.auth).expect(200);
    expect(listed.body.items).toHaveLength(1);
  });

  // Issue #28 item 6: a narrower token of the same account replayed the root token's key and got the
  // secret it created. Answers holding secrets are now keyed per calling token, after authorization.
  it('keys creates that answer secrets per calling token: another token of the account gets no secret', async () => {
    const owner = await signUp(run.app, 'nosy', 'human');
    const reader = await request(run.url)
      .post('/api/v1/account/tokens')
      .set(owner.auth)
      .send({ label: 'reader', scopes: ['game:read'] })
      .expect(201);
    const asReader = bearer(reader.body.token);

    // A token the reader could mint itself: the replay is a fresh key for the reader (another token).
    const k = key();
    const mint = (auth: Record<string, string>, body: object, k2 = k) =>
      request(run.url).post('/api/v1/account/tokens').set(auth).set('Idempotency-Key', k2).send(body);
    const first = await mint(owner.auth, { label: 'ci', scopes: ['game:read'] }).expect(201);
    const replayed = await mint(asReader, { label: 'ci', scopes: ['game:read'] }).expect(201);
    expect(replayed.body.id).not.toBe(first.body.id);
    expect(replayed.body.token).not.toBe(first.body.token);
    // The reader's own retry, over GraphQL, answers the reader's answer (keys are shared by the transports).
    const mutation =
      'mutation ($k: String, $s: [String!]!) { createToken(scopes: $s, label: "ci", idempotencyKey: $k) { id token } }';
    const again = await ok(run.url, reader.body.token, mutation, { k, s: ['game:read'] });
    expect(again.createToken).toEqual({ id: replayed.body.id, token: replayed.body.token });
    // The owner's retry still answers the owner's.
    expect((await mint(owner.auth, { label: 'ci', scopes: ['game:read'] }).expect(201)).body).toEqual(
      first.body,
    );

    // A token with scopes the reader lacks: refused before the key is looked at, on both transports.
    const k2 = key();
    const wide = { label: 'ci', scopes: ['game:read', 'game:play'] };
    const full = await mint(owner.auth, wide, k2).expect(201);
    expectProblem(await mint(asReader, wide, k2), 403, 'MISSING_SCOPE');
    const viaGraphql = await gql(
      run.url,
      mutation,
      { k: k2, s: wide.scopes },
      { authorization: `Bearer ${reader.body.token}` },
    );
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('MISSING_SCOPE');
    expect(JSON.stringify(viaGraphql.body)).not.toContain(full.body.token);

    // A webhook's secret: the reader's replay registers its own endpoint, with another secret.
    const k3 = key();
    const hook = (auth: Record<string, string>) =>
      request(run.url)
        .post('/api/v1/account/webhooks')
        .set(auth)
        .set('Idempotency-Key', k3)
        .send({ url: 'http://127.0.0.1:9/hook' });
    const created = await hook(owner.auth).expect(201);
    const other = await hook(asReader).expect(201);
    expect(other.body.secret).not.toBe(created.body.secret);
    const viaGql = await ok(
      run.url,
      reader.body.token,
      'mutation ($k: String) { createWebhook(input: { url: "http://127.0.0.1:9/hook" }, idempotencyKey: $k) { id secret } }',
      { k: k3 },
    );
    expect(viaGql.createWebhook).toEqual({ id: other.body.id, secret: other.body.secret });
  });

  it('replays a sign-up instead of answering USERNAME_TAKEN', async () => {
    const k = key();
    const username = `idem-${randomBytes(3).toString('hex')}`;
    const first = await request(run.url)
      .post('/api/v1/accounts')
      .set('Idempotency-Key', k)
      .send({ username })
      .expect(201);
    const again = await request(run.url)
      .post('/api/v1/accounts')
      .set('Idempotency-Key', k)
      .send({ username })
      .expect(201);
    expect(again.body).toEqual(first.body);
    expectProblem(await request(run.url).post('/api/v1/accounts').send({ username }), 409, 'USERNAME_TAKEN');
  });
});

describe.each<StoreKind>(['redis', 'memory'])('moves with Idempotency-Key on the %s store', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });

  it('answers a retried move with its first answer after the game moved on, and plays nothing twice', async () => {
    const created = await request(run.url).post('/api/v1/games').send({ kind: 'kalah' }).expect(201);
    const id = created.body.game.id as string;
    const [south, north] = created.body.seatTokens.map((t: { token: string }) => t.token) as string[];
    const k = key();
    const move = (token: string, body: object, headers: Record<string, string> = {}) =>
      request(run.url).post(`/api/v1/games/${id}/moves`).set(bearer(token)).set(headers).send(body);
    const first = await move(south as string, { move: '1' }, { 'Idempotency-Key': k }).expect(200);
    expect(first.body.version).toBe(1);
    // The opponent answers: the game moved on, and it is no longer South's turn.
    await move(north as string, { move: '1' }).expect(200);
    // Retries of the applied move (its answer lost on the way): each gets the first answer, though
    // playing it now would be refused (NOT_YOUR_TURN; with If-Match "0", VERSION_CONFLICT).
    const again = await move(south as string, { move: '1' }, { 'Idempotency-Key': k }).expect(200);
    expect(again.body).toEqual(first.body);
    const pinned = await move(south as string, { move: '1' }, { 'Idempotency-Key': k, 'If-Match': '"0"' });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toEqual(first.body);
    // Over, it is still the first answer; the same key for another move is refused.
    await request(run.url)
      .post(`/api/v1/games/${id}/resign`)
      .set(bearer(north as string))
      .expect(200);
    expect((await move(south as string, { move: '1' }, { 'Idempotency-Key': k })).body).toEqual(first.body);
    expectProblem(
      await move(south as string, { move: '2' }, { 'Idempotency-Key': k }),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
    const game = (await request(run.url).get(`/api/v1/games/${id}`)).body;
    expect(game.moves.map((m: { seat: number }) => m.seat)).toEqual([0, 1]);
    expect(game.version).toBe(3);
  });
});

describe('racing retries on Redis', () => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start('redis');
  });

  it('makes one object of the same create fired 10 times at once (seek, challenge, game)', async () => {
    const [ann, ben] = await Promise.all([
      signUp(run.app, 'rann', 'human'),
      signUp(run.app, 'rben', 'human'),
    ]);
    const seekKey = key();
    const seeks = await Promise.all(
      Array.from({ length: 10 }, () =>
        request(run.url)
          .post('/api/v1/seeks')
          .set(ann.auth)
          .set('Idempotency-Key', seekKey)
          .send({ kind: 'congkak', options: { houses: 6 } }),
      ),
    );
    expect(new Set(seeks.map((s) => s.status))).toEqual(new Set([201]));
    expect(new Set(seeks.map((s) => s.body.id)).size).toBe(1);
    // Exactly one seek waits: Ben's first seek takes it, his second waits.
    const one = await request(run.url)
      .post('/api/v1/seeks')
      .set(ben.auth)
      .send({ kind: 'congkak', options: { houses: 6 } });
    expect(one.status).toBe(200);
    const two = await request(run.url)
      .post('/api/v1/seeks')
      .set(ben.auth)
      .send({ kind: 'congkak', options: { houses: 6 } });
    expect(two.status).toBe(201);

    const challengeKey = key();
    const challenges = await Promise.all(
      Array.from({ length: 10 }, () =>
        request(run.url)
          .post('/api/v1/challenges')
          .set(ann.auth)
          .set('Idempotency-Key', challengeKey)
          .send({ to: ben.username, kind: 'kalah' }),
      ),
    );
    expect(new Set(challenges.map((c) => c.status))).toEqual(new Set([201]));
    expect(new Set(challenges.map((c) => c.body.id)).size).toBe(1);
    const open = await request(run.url).get('/api/v1/challenges').set(ben.auth).expect(200);
    expect((open.body.items ?? open.body).filter((c: { kind: string }) => c.kind === 'kalah')).toHaveLength(
      1,
    );

    const gameKey = key();
    const games = await Promise.all(
      Array.from({ length: 10 }, () =>
        request(run.url).post('/api/v1/games').set('Idempotency-Key', gameKey).send({ kind: 'oware' }),
      ),
    );
    expect(new Set(games.map((g) => g.status))).toEqual(new Set([201]));
    expect(new Set(games.map((g) => g.body.game.id)).size).toBe(1);
  });
});
