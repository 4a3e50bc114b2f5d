// Apps' sessions over REST: minting (scopes within the key's and the account's kind, the cap),
// refresh with rotation and reuse detection, revoke, sign-out, expiry (on a clock the test moves),
// and revoking the key that minted them.
import request from 'supertest';
import { MAX_SESSIONS_PER_ACCOUNT } from '../../src/service/apps/sessions';
import { signUp } from '../support/accounts';
import { appHarness, type Running, type StoreKind } from '../support/app';
import { appAccount, newApp, type TestApp } from '../support/apps';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each<StoreKind>(['memory', 'redis'])('sessions (%s)', (store) => {
  const harness = appHarness();
  let running: Running;
  let app: TestApp;
  /** The clock of the services: tests move it forward (never back). */
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const api = () => request(running.url);
  const mint = (externalId: string, body: object = {}, auth = app.auth) =>
    api().post(`/api/v1/app/accounts/${externalId}/sessions`).set(auth).send(body);
  const refresh = (refreshToken: string) => api().post('/api/v1/sessions/refresh').send({ refreshToken });
  const me = (token: string) => api().get('/api/v1/account').set(bearer(token));

  beforeAll(async () => {
    running = await harness.start(store, { now });
    app = await newApp(running.app, { sessionSeconds: 600, refreshSeconds: 7200 });
  });
  afterAll(() => harness.stopAll());

  it('mints a session whose access token is the account, with every scope that fits by default', async () => {
    const alice = await appAccount(running.storage, app, 'alice');
    const res = await mint('alice', { label: 'phone' }).expect(201);
    expect(res.body).toMatchObject({
      session: {
        id: expect.stringMatching(/^ses_[0-9a-f]{16}$/),
        app: app.id,
        account: alice.id,
        label: 'phone',
        generation: 0,
        revokedAt: null,
        active: true,
        scopes: ['game:read', 'game:play', 'challenge:write', 'challenge:bulk'],
      },
      accessToken: expect.stringMatching(/^bhp_/),
      refreshToken: expect.stringMatching(/^bhr_/),
    });
    const started = now().getTime();
    expect(Date.parse(res.body.accessTokenExpiresAt) - started).toBeGreaterThan(590_000);
    expect(Date.parse(res.body.accessTokenExpiresAt) - started).toBeLessThanOrEqual(600_000);
    expect(res.body.refreshTokenExpiresAt).toBe(res.body.session.expiresAt);
    expect((await me(res.body.accessToken).expect(200)).body.id).toBe(alice.id);
    // The app lists it; the secrets are never shown again.
    const list = await api().get('/api/v1/app/accounts/alice/sessions').set(app.auth).expect(200);
    expect(list.body.items.map((s: { id: string }) => s.id)).toEqual([res.body.session.id]);
    expect(JSON.stringify(list.body)).not.toContain(res.body.refreshToken);
  });

  it('keeps a session’s scopes within its key’s and its account’s kind', async () => {
    await appAccount(running.storage, app, 'bot-1', 'bot');
    const bot = await mint('bot-1').expect(201);
    expect(bot.body.session.scopes).toEqual(['game:read', 'challenge:write', 'bot:play', 'challenge:bulk']);
    expect((await mint('bot-1', { scopes: ['game:play'] }).expect(400)).body.code).toBe('INVALID_INPUT');
    await appAccount(running.storage, app, 'carol');
    expect((await mint('carol', { scopes: ['bot:play'] }).expect(400)).body.code).toBe('INVALID_INPUT');
    expect((await mint('carol', { scopes: ['root'] }).expect(400)).body.code).toBe('INVALID_INPUT');

    const narrow = await running.app.services.apps.createKey(app.id, {
      scopes: ['app:sessions', 'game:read'],
    });
    const narrowAuth = bearer(narrow.key);
    const wider = await mint('carol', { scopes: ['game:read', 'game:play'] }, narrowAuth).expect(403);
    expect(wider.body).toMatchObject({ code: 'MISSING_SCOPE', required: ['game:read', 'game:play'] });
    const session = await mint('carol', {}, narrowAuth).expect(201);
    expect(session.body.session.scopes).toEqual(['game:read']);
    // The session's token cannot widen itself either: it makes no API tokens at all.
    const widen = await api()
      .post('/api/v1/account/tokens')
      .set(bearer(session.body.accessToken))
      .send({ scopes: ['game:read'] })
      .expect(403);
    expect(widen.body.code).toBe('FORBIDDEN');
    // Refreshing keeps the scopes.
    const next = await refresh(session.body.refreshToken).expect(200);
    expect(next.body.session.scopes).toEqual(['game:read']);

    const noSessions = await running.app.services.apps.createKey(app.id, {
      scopes: ['app:accounts', 'game:read'],
    });
    expect((await mint('carol', {}, bearer(noSessions.key)).expect(403)).body.code).toBe('MISSING_SCOPE');
  });

  it('answers 404 for an external id the app does not have, and for another app’s account', async () => {
    const other = await newApp(running.app);
    await appAccount(running.storage, other, 'dave');
    expect((await mint('dave').expect(404)).body.code).toBe('ACCOUNT_NOT_FOUND');
    expect((await mint('nobody').expect(404)).body.code).toBe('ACCOUNT_NOT_FOUND');
    // A session token or an anonymous caller is not the app.
    expect((await mint('dave', {}, {} as never).expect(401)).body.code).toBe('UNAUTHENTICATED');
  });

  it('rotates on refresh: the old access token and refresh token stop working', async () => {
    await appAccount(running.storage, app, 'erin');
    const first = (await mint('erin').expect(201)).body;
    const second = (await refresh(first.refreshToken).expect(200)).body;
    expect(second.session).toMatchObject({ id: first.session.id, generation: 1, active: true });
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect((await me(first.accessToken).expect(401)).body.code).toBe('UNAUTHENTICATED');
    await me(second.accessToken).expect(200);
    const third = (await refresh(second.refreshToken).expect(200)).body;
    expect(third.session.generation).toBe(2);
    await me(third.accessToken).expect(200);
  });

  it('revokes the whole session when a used refresh token comes back', async () => {
    await appAccount(running.storage, app, 'frank');
    const first = (await mint('frank').expect(201)).body;
    const second = (await refresh(first.refreshToken).expect(200)).body;
    const replay = await refresh(first.refreshToken).expect(401);
    expect(replay.body).toMatchObject({ code: 'INVALID_REFRESH_TOKEN', reason: 'reused' });
    // The thief and the owner are both signed out.
    await me(second.accessToken).expect(401);
    expect((await refresh(second.refreshToken).expect(401)).body.reason).toBe('revoked');
    const list = await api().get('/api/v1/app/accounts/frank/sessions').set(app.auth).expect(200);
    expect(list.body.items[0]).toMatchObject({ active: false, revokedAt: expect.any(String) });
  });

  it('lets one of two racing refreshes with one token win, and then revokes the session', async () => {
    await appAccount(running.storage, app, 'gina');
    const first = (await mint('gina').expect(201)).body;
    const answers = await Promise.all([refresh(first.refreshToken), refresh(first.refreshToken)]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 401]);
    const loser = answers.find((a) => a.status === 401);
    const winner = answers.find((a) => a.status === 200);
    expect(loser?.body).toMatchObject({ code: 'INVALID_REFRESH_TOKEN', reason: 'reused' });
    await me(winner?.body.accessToken).expect(401);
  });

  it('answers unknown for a refresh token it never issued', async () => {
    const res = await refresh('bhr_nothing-like-it').expect(401);
    expect(res.body).toMatchObject({ code: 'INVALID_REFRESH_TOKEN', reason: 'unknown' });
    expect((await refresh('not-a-token').expect(401)).body.reason).toBe('unknown');
  });

  it('revokes a session by id (REST), idempotently; another app cannot', async () => {
    await appAccount(running.storage, app, 'hank');
    const s = (await mint('hank').expect(201)).body;
    const other = await newApp(running.app);
    const foreign = await api().delete(`/api/v1/app/sessions/${s.session.id}`).set(other.auth).expect(404);
    expect(foreign.body.code).toBe('SESSION_NOT_FOUND');
    await me(s.accessToken).expect(200);
    const revoked = await api().delete(`/api/v1/app/sessions/${s.session.id}`).set(app.auth).expect(200);
    expect(revoked.body).toMatchObject({ id: s.session.id, active: false, revokedAt: expect.any(String) });
    const again = await api().delete(`/api/v1/app/sessions/${s.session.id}`).set(app.auth).expect(200);
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
    await me(s.accessToken).expect(401);
    expect((await refresh(s.refreshToken).expect(401)).body.reason).toBe('revoked');
  });

  it('signs a session token out; other credentials cannot', async () => {
    await appAccount(running.storage, app, 'iris');
    const s = (await mint('iris').expect(201)).body;
    const out = await api().delete('/api/v1/session').set(bearer(s.accessToken)).expect(200);
    expect(out.body).toMatchObject({ id: s.session.id, active: false });
    await me(s.accessToken).expect(401);
    expect((await refresh(s.refreshToken).expect(401)).body.reason).toBe('revoked');
    const person = await signUp(running.app, 'plain', 'human');
    expect((await api().delete('/api/v1/session').set(person.auth).expect(400)).body.code).toBe(
      'INVALID_INPUT',
    );
    expect((await api().delete('/api/v1/session').set(app.auth).expect(400)).body.code).toBe('INVALID_INPUT');
  });

  it('expires the access token after sessionSeconds and the refresh token after refreshSeconds', async () => {
    await appAccount(running.storage, app, 'jack');
    const s = (await mint('jack').expect(201)).body;
    offset += 601_000;
    expect((await me(s.accessToken).expect(401)).body.code).toBe('TOKEN_EXPIRED');
    // Refreshed within refreshSeconds: a new pair, and the refresh token lives refreshSeconds from now.
    const next = (await refresh(s.refreshToken).expect(200)).body;
    await me(next.accessToken).expect(200);
    expect(Date.parse(next.refreshTokenExpiresAt)).toBeGreaterThan(Date.parse(s.refreshTokenExpiresAt));
    offset += 7_201_000;
    expect((await refresh(next.refreshToken).expect(401)).body.reason).toBe('expired');
    await me(next.accessToken).expect(401);
  });

  it('never lets the access token outlive the refresh token', async () => {
    const short = await newApp(running.app, { sessionSeconds: 86_400, refreshSeconds: 3600 });
    await appAccount(running.storage, short, 'kate');
    const s = (await mint('kate', {}, short.auth).expect(201)).body;
    expect(s.accessTokenExpiresAt).toBe(s.refreshTokenExpiresAt);
    expect(Date.parse(s.refreshTokenExpiresAt) - now().getTime()).toBeLessThanOrEqual(3600_000);
  });

  it(`refuses a session past ${MAX_SESSIONS_PER_ACCOUNT} active ones of one account (nothing revoked)`, async () => {
    await appAccount(running.storage, app, 'liam');
    const made = [];
    for (let i = 0; i < MAX_SESSIONS_PER_ACCOUNT; i++) made.push((await mint('liam').expect(201)).body);
    const refused = await mint('liam').expect(409);
    expect(refused.body).toMatchObject({
      code: 'APP_LIMIT_REACHED',
      what: 'sessions',
      max: MAX_SESSIONS_PER_ACCOUNT,
    });
    await me(made[0].accessToken).expect(200);
    await api().delete(`/api/v1/app/sessions/${made[0].session.id}`).set(app.auth).expect(200);
    await mint('liam').expect(201);
  });

  it('ends every session a key minted when the key is revoked', async () => {
    const keyed = await newApp(running.app);
    await appAccount(running.storage, keyed, 'mona');
    const second = await running.app.services.apps.createKey(keyed.id);
    const s = (await mint('mona', {}, bearer(second.key)).expect(201)).body;
    const other = (await mint('mona', {}, keyed.auth).expect(201)).body;
    await running.app.services.apps.revokeKey(keyed.id, second.id);
    await me(s.accessToken).expect(401);
    expect((await refresh(s.refreshToken).expect(401)).body).toMatchObject({
      code: 'INVALID_REFRESH_TOKEN',
      reason: 'revoked',
    });
    // The other key's session goes on; the app's listing shows which ones are over.
    await me(other.accessToken).expect(200);
    const list = await api().get('/api/v1/app/accounts/mona/sessions').set(keyed.auth).expect(200);
    expect(list.body.items.map((x: { id: string; active: boolean }) => [x.id, x.active])).toEqual([
      [s.session.id, false],
      [other.session.id, true],
    ]);
  });

  it('refuses to mint or refresh for a banned account', async () => {
    const nora = await appAccount(running.storage, app, 'nora');
    const s = (await mint('nora').expect(201)).body;
    const stored = await running.storage.accounts.getAccount(nora.id);
    await running.storage.accounts.updateAppAccount({ ...stored!, status: 'banned' });
    expect((await mint('nora').expect(403)).body.code).toBe('ACCOUNT_RESTRICTED');
    expect((await refresh(s.refreshToken).expect(403)).body.code).toBe('ACCOUNT_RESTRICTED');
  });
});
