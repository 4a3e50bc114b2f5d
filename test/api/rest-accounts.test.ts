// Accounts over REST: sign-up, profiles, API tokens and their scopes, bot declarations.
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { GAME_KINDS } from '../../src/engines/types';
import * as A from '../../src/transport/rest/accounts.schemas';
import { appHarness, type Running, type StoreKind } from '../support/app';
import { expectProblem } from '../support/problem';

const harness = appHarness();
afterAll(() => harness.stopAll());

const unique = (label: string) => `${label}-${randomBytes(3).toString('hex')}`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe.each<StoreKind>(['redis', 'memory'])('accounts over REST on the %s store', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });

  async function signUp(kind: 'human' | 'bot', username = unique(kind)) {
    const res = await request(run.url).post('/api/v1/accounts').send({ username, kind }).expect(201);
    return { username, token: res.body.token.token as string, body: res.body };
  }

  it('signs up and shows the secret only once', async () => {
    const username = unique('Ada');
    const res = await request(run.url).post('/api/v1/accounts').send({ username, kind: 'human' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/api/v1/accounts/${username}`);
    expect(A.SignedUp.parse(res.body)).toEqual(res.body);
    expect(res.body.account).toMatchObject({
      id: username.toLowerCase(),
      username,
      kind: 'human',
      bot: null,
    });
    expect(res.body.token.token).toMatch(/^bhp_[A-Za-z0-9_-]{32}$/);
    expect(res.body.token.scopes).toEqual(['game:read', 'game:play', 'challenge:write']);
    expect(res.body.token.revokedAt).toBeNull();

    const profile = await request(run.url).get(`/api/v1/accounts/${username.toUpperCase()}`).expect(200);
    expect(profile.body).toEqual(res.body.account);
    expect(JSON.stringify(profile.body)).not.toContain('bhp_');
    const me = await request(run.url).get('/api/v1/account').set(bearer(res.body.token.token)).expect(200);
    expect(me.body).toEqual(res.body.account);
    const tokens = await request(run.url).get('/api/v1/account/tokens').set(bearer(res.body.token.token));
    expect(tokens.body.items).toHaveLength(1);
    expect(tokens.body.items[0]).not.toHaveProperty('token');
    expect(JSON.stringify(tokens.body)).not.toContain(res.body.token.token);
  });

  it('gives bots the bot:play scope instead of game:play', async () => {
    const { body } = await signUp('bot');
    expect(body.account.kind).toBe('bot');
    expect(body.token.scopes).toEqual(['game:read', 'bot:play', 'challenge:write']);
  });

  it('refuses a username taken in another case with 409 USERNAME_TAKEN', async () => {
    const { username } = await signUp('human', unique('Taken'));
    const res = await request(run.url)
      .post('/api/v1/accounts')
      .send({ username: username.toLowerCase(), kind: 'bot' });
    expectProblem(res, 409, 'USERNAME_TAKEN');
    const profile = await request(run.url).get(`/api/v1/accounts/${username}`).expect(200);
    expect(profile.body.kind).toBe('human');
  });

  it.each([
    ['one character', { username: 'a' }],
    ['a leading dash', { username: '-dash' }],
    ['a space', { username: 'has space' }],
    ['31 characters', { username: 'x'.repeat(31) }],
    ['an unknown kind', { username: 'fine-name', kind: 'robot' }],
    ['no username', { kind: 'human' }],
    ['an unknown field', { username: 'fine-name', admin: true }],
  ])('refuses a sign-up with %s with 400 INVALID_INPUT', async (_label, body) => {
    expectProblem(await request(run.url).post('/api/v1/accounts').send(body), 400, 'INVALID_INPUT');
  });

  it('answers unknown profiles with 404 ACCOUNT_NOT_FOUND', async () => {
    expectProblem(
      await request(run.url).get(`/api/v1/accounts/${unique('nobody')}`),
      404,
      'ACCOUNT_NOT_FOUND',
    );
  });

  it('needs an account API token for /account', async () => {
    expectProblem(await request(run.url).get('/api/v1/account'), 401, 'UNAUTHENTICATED');
    expectProblem(
      await request(run.url).get('/api/v1/account').set('Authorization', 'Basic dXNlcjpwYXNz'),
      401,
      'UNAUTHENTICATED',
    );
    expectProblem(
      await request(run.url).get('/api/v1/account').set(bearer('bhp_not-a-real-token')),
      401,
      'UNAUTHENTICATED',
    );
    const game = await request(run.url).post('/api/v1/games').send({ kind: 'kalah' }).expect(201);
    expectProblem(
      await request(run.url).get('/api/v1/account').set(bearer(game.body.seatTokens[0].token)),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('creates, lists and revokes tokens; a revoked token gets 401 at once', async () => {
    const { token, body } = await signUp('human');
    const created = await request(run.url)
      .post('/api/v1/account/tokens')
      .set(bearer(token))
      .send({ label: 'read only', scopes: ['game:read'] });
    expect(created.status).toBe(201);
    expect(A.IssuedToken.parse(created.body)).toEqual(created.body);
    expect(created.body).toMatchObject({ label: 'read only', scopes: ['game:read'], revokedAt: null });
    const readOnly = created.body.token as string;
    expect(readOnly).toMatch(/^bhp_/);

    const listed = await request(run.url).get('/api/v1/account/tokens').set(bearer(readOnly)).expect(200);
    expect(listed.body.items.map((t: { id: string }) => t.id)).toEqual([body.token.id, created.body.id]);

    // The read-only token reads, but cannot challenge.
    await request(run.url).get('/api/v1/account').set(bearer(readOnly)).expect(200);
    const challenge = await request(run.url)
      .post('/api/v1/challenges')
      .set(bearer(readOnly))
      .send({ kind: 'kalah' });
    expectProblem(challenge, 403, 'MISSING_SCOPE');
    expect(challenge.body).toMatchObject({ required: ['challenge:write'], granted: ['game:read'] });

    const revoked = await request(run.url)
      .delete(`/api/v1/account/tokens/${created.body.id}`)
      .set(bearer(token))
      .expect(200);
    expect(A.Token.parse(revoked.body)).toEqual(revoked.body);
    expect(revoked.body.id).toBe(created.body.id);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    expect(revoked.body).not.toHaveProperty('token');
    const refused = await request(run.url).get('/api/v1/account').set(bearer(readOnly));
    expectProblem(refused, 401, 'UNAUTHENTICATED');
    expect(refused.body.detail).toMatch(/revoked/);
    // The first token still works and lists the revoked one as revoked.
    const after = await request(run.url).get('/api/v1/account/tokens').set(bearer(token)).expect(200);
    expect(after.body.items[1]).toMatchObject({ id: created.body.id, revokedAt: revoked.body.revokedAt });
    expect(after.body.items[0].revokedAt).toBeNull();
  });

  it('refuses a token with a scope the calling token lacks (403 MISSING_SCOPE)', async () => {
    const { token } = await signUp('human');
    const readOnly = (
      await request(run.url)
        .post('/api/v1/account/tokens')
        .set(bearer(token))
        .send({ scopes: ['game:read'] })
        .expect(201)
    ).body.token;
    const widen = await request(run.url)
      .post('/api/v1/account/tokens')
      .set(bearer(readOnly))
      .send({ label: 'wider', scopes: ['game:read', 'challenge:write'] });
    expectProblem(widen, 403, 'MISSING_SCOPE');
    expect(widen.body.required).toEqual(['challenge:write']);
    // A human's token never had bot:play.
    const botScope = await request(run.url)
      .post('/api/v1/account/tokens')
      .set(bearer(token))
      .send({ scopes: ['bot:play'] });
    expectProblem(botScope, 403, 'MISSING_SCOPE');
    const listed = await request(run.url).get('/api/v1/account/tokens').set(bearer(token)).expect(200);
    expect(listed.body.items).toHaveLength(2);
  });

  it.each([
    ['no scopes', { scopes: [] }],
    ['an unknown scope', { scopes: ['admin'] }],
    ['a long label', { label: 'x'.repeat(101), scopes: ['game:read'] }],
  ])('refuses a token with %s with 400', async (_label, body) => {
    const { token } = await signUp('human');
    expectProblem(
      await request(run.url).post('/api/v1/account/tokens').set(bearer(token)).send(body),
      400,
      'INVALID_INPUT',
    );
  });

  it("answers revoking another account's token or an unknown one with 404", async () => {
    const a = await signUp('human');
    const b = await signUp('human');
    expectProblem(
      await request(run.url).delete(`/api/v1/account/tokens/${b.body.token.id}`).set(bearer(a.token)),
      404,
      'NOT_FOUND',
    );
    await request(run.url).get('/api/v1/account').set(bearer(b.token)).expect(200);
    expectProblem(
      await request(run.url).delete('/api/v1/account/tokens/bad*id').set(bearer(a.token)),
      400,
      'INVALID_INPUT',
    );
  });

  it('lets a bot declare what it accepts, shown on its profile', async () => {
    const { token, username } = await signUp('bot');
    const policy = {
      kinds: ['kalah', 'oware'],
      timeControls: ['unlimited'],
      options: { kalah: { seeds: [4, 6] } },
      maxGames: 3,
    };
    const res = await request(run.url).put('/api/v1/account/bot').set(bearer(token)).send(policy).expect(200);
    expect(A.Account.parse(res.body)).toEqual(res.body);
    expect(res.body.bot).toEqual(policy);
    const profile = await request(run.url).get(`/api/v1/accounts/${username}`).expect(200);
    expect(profile.body.bot).toEqual(policy);
    // Omitted fields take their defaults: every kind and time control, 10 games.
    const defaults = await request(run.url)
      .put('/api/v1/account/bot')
      .set(bearer(token))
      .send({})
      .expect(200);
    expect(defaults.body.bot).toEqual({
      kinds: [...GAME_KINDS],
      timeControls: ['unlimited', 'realtime', 'correspondence'],
      options: {},
      maxGames: 10,
    });
  });

  it.each([
    ['an unknown kind', { kinds: ['chess'] }, 400, 'UNKNOWN_GAME_KIND'],
    ['an unknown time control', { timeControls: ['blitz'] }, 400, 'INVALID_INPUT'],
    ['an impossible option value', { options: { kalah: { seeds: [99] } } }, 400, 'INVALID_INPUT'],
    ['maxGames 0', { maxGames: 0 }, 400, 'INVALID_INPUT'],
    ['an unknown field', { games: 3 }, 400, 'INVALID_INPUT'],
  ])('refuses a bot declaration with %s', async (_label, body, status, code) => {
    const { token, username } = await signUp('bot');
    expectProblem(
      await request(run.url).put('/api/v1/account/bot').set(bearer(token)).send(body),
      status,
      code,
    );
    expect((await request(run.url).get(`/api/v1/accounts/${username}`)).body.bot).toBeNull();
  });

  it('lets only bots declare a policy', async () => {
    const { token } = await signUp('human');
    // A human's token has no bot:play.
    expectProblem(
      await request(run.url).put('/api/v1/account/bot').set(bearer(token)).send({}),
      403,
      'MISSING_SCOPE',
    );
  });
});
