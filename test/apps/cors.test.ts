// CORS per app: an origin in an app's settings.corsOrigins may call with that app's session tokens
// or key (and without a bearer, as refreshing a session does); preflights for an origin any app
// lists; each node re-reads the apps' origins at most every APP_ORIGINS_REFRESH_MS, and a request
// without an Origin header never asks the store. Real preflight and actual requests (supertest).
import request from 'supertest';
import { APP_ORIGINS_REFRESH_MS } from '../../src/service/apps/origins';
import { signUp } from '../support/accounts';
import { appHarness, type Running, type StoreKind } from '../support/app';
import { appAccount, newApp, type TestApp } from '../support/apps';

const A = 'https://a.example';
const B = 'https://b.example';
const CONFIGURED = 'https://config.example';

describe.each<StoreKind>(['memory', 'redis'])('CORS per app (%s)', (store) => {
  const harness = appHarness();
  let running: Running;
  let appA: TestApp;
  let appB: TestApp;
  let sessionA: string;
  let sessionB: string;
  let accountA: string;
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const api = () => request(running.url);
  const allowed = (res: request.Response) => res.headers['access-control-allow-origin'];

  beforeAll(async () => {
    running = await harness.start(store, { now, app: { corsOrigins: [CONFIGURED] } });
    appA = await newApp(running.app, { corsOrigins: [A] });
    appB = await newApp(running.app, { corsOrigins: [B] });
    accountA = (await appAccount(running.storage, appA, 'a-user')).id;
    await appAccount(running.storage, appB, 'b-user');
    const mint = async (app: TestApp, externalId: string) =>
      (await api().post(`/api/v1/app/accounts/${externalId}/sessions`).set(app.auth).send({}).expect(201))
        .body.accessToken as string;
    sessionA = await mint(appA, 'a-user');
    sessionB = await mint(appB, 'b-user');
  });
  afterAll(() => harness.stopAll());

  it('answers a preflight for an origin some app lists, and not for others', async () => {
    const preflight = (origin: string) =>
      api()
        .options('/api/v1/account')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'authorization');
    const ok = await preflight(A).expect(204);
    expect(allowed(ok)).toBe(A);
    expect(ok.headers['access-control-allow-headers']).toMatch(/Authorization/);
    expect(ok.headers['access-control-allow-methods']).toMatch(/DELETE/);
    expect(allowed(await preflight(B))).toBe(B);
    expect(allowed(await preflight('https://evil.example'))).toBeUndefined();
    // The configured origins (CORS_ORIGINS) as before.
    expect(allowed(await preflight(CONFIGURED))).toBe(CONFIGURED);
  });

  it('allows a request from an app’s origin with that app’s session token or key, not another’s', async () => {
    const me = (token: string, origin: string, extra: Record<string, string> = {}) =>
      api()
        .get('/api/v1/account')
        .set('Origin', origin)
        .set({ authorization: `Bearer ${token}`, ...extra });
    const res = await me(sessionA, A).expect(200);
    expect(allowed(res)).toBe(A);
    expect(res.headers.vary).toMatch(/Origin/);
    expect(res.headers['access-control-expose-headers']).toMatch(/ETag/);
    expect(allowed(await me(sessionA, B).expect(200))).toBeUndefined();
    expect(allowed(await me(sessionB, B).expect(200))).toBe(B);
    expect(allowed(await me(appA.key, A, { 'boardhost-account': accountA }).expect(200))).toBe(A);
    expect(allowed(await me(appB.key, A, { 'boardhost-account': accountA }).expect(404))).toBeUndefined();
    // An open account's token belongs to no app.
    const person = await signUp(running.app, 'cors-person', 'human');
    expect(allowed(await me(person.token, A).expect(200))).toBeUndefined();
    // An unknown token from a listed origin: refused, and no CORS.
    expect(allowed(await me('bhp_unknown00000000000000000', A).expect(401))).toBeUndefined();
  });

  it('allows a request without a bearer from an app’s origin (refreshing a session)', async () => {
    const res = await api()
      .post('/api/v1/sessions/refresh')
      .set('Origin', A)
      .send({ refreshToken: 'bhr_not-one' })
      .expect(401);
    expect(allowed(res)).toBe(A);
    expect(allowed(await api().get('/api/v1/kinds').set('Origin', 'https://evil.example'))).toBeUndefined();
  });

  it('reads no app from the store for a request without Origin, and the apps at most once per interval', async () => {
    const listApps = jest.spyOn(running.storage.apps, 'listApps');
    try {
      offset += APP_ORIGINS_REFRESH_MS + 1000;
      await api()
        .get('/api/v1/account')
        .set({ authorization: `Bearer ${sessionA}` })
        .expect(200);
      expect(listApps).not.toHaveBeenCalled();
      for (let i = 0; i < 3; i++) {
        await api()
          .get('/api/v1/account')
          .set('Origin', A)
          .set({ authorization: `Bearer ${sessionA}` });
      }
      expect(listApps).toHaveBeenCalledTimes(1);
    } finally {
      listApps.mockRestore();
    }
  });

  it('follows an operator’s change within the refresh interval (origins added, an app disabled)', async () => {
    const C = 'https://c.example';
    const preflight = (origin: string) =>
      api().options('/api/v1/account').set('Origin', origin).set('Access-Control-Request-Method', 'GET');
    expect(allowed(await preflight(A))).toBe(A);
    await running.app.services.apps.updateApp(appB.id, { settings: { corsOrigins: [B, C] } });
    await running.app.services.apps.updateApp(appA.id, { disabled: true });
    // This node's cache is still fresh: nothing changed yet…
    expect(allowed(await preflight(C))).toBeUndefined();
    expect(allowed(await preflight(A))).toBe(A);
    // …and once it is older than the interval, it is read again.
    offset += APP_ORIGINS_REFRESH_MS + 1000;
    expect(allowed(await preflight(C))).toBe(C);
    expect(allowed(await preflight(A))).toBeUndefined();
  });
});
