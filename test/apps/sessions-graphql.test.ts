// Apps' sessions over GraphQL: createSession, sessions, refreshSession (rotation and reuse),
// revokeSession and signOut, with the same refusals as REST.
import { gql, appHarness, type Running, type StoreKind } from '../support/app';
import { appAccount, newApp, type TestApp } from '../support/apps';

const ISSUED = `session { id account scopes generation active revokedAt } accessToken accessTokenExpiresAt
  refreshToken refreshTokenExpiresAt`;
const CREATE = `mutation($externalId: String!, $scopes: [String!], $label: String) {
  createSession(externalId: $externalId, scopes: $scopes, label: $label) { ${ISSUED} } }`;
const REFRESH = `mutation($t: String!) { refreshSession(refreshToken: $t) { ${ISSUED} } }`;
const ME = '{ me { id } }';

describe.each<StoreKind>(['memory', 'redis'])('sessions over GraphQL (%s)', (store) => {
  const harness = appHarness();
  let running: Running;
  let app: TestApp;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    running = await harness.start(store);
    app = await newApp(running.app);
  });
  afterAll(() => harness.stopAll());

  it('creates, lists, refreshes (rotating) and revokes a session', async () => {
    const ann = await appAccount(running.storage, app, 'ann');
    const created = await gql(running.url, CREATE, { externalId: 'ann', scopes: ['game:read'] }, app.auth);
    expect(created.body.errors).toBeUndefined();
    const first = created.body.data?.createSession;
    expect(first).toMatchObject({
      session: { account: ann.id, scopes: ['game:read'], generation: 0, active: true, revokedAt: null },
      accessToken: expect.stringMatching(/^bhp_/),
      refreshToken: expect.stringMatching(/^bhr_/),
    });
    expect((await gql(running.url, ME, {}, bearer(first.accessToken))).body.data?.me.id).toBe(ann.id);

    const listed = await gql(running.url, '{ sessions(externalId: "ann") { id active } }', {}, app.auth);
    expect(listed.body.data?.sessions).toEqual([{ id: first.session.id, active: true }]);

    const refreshed = await gql(running.url, REFRESH, { t: first.refreshToken });
    const second = refreshed.body.data?.refreshSession;
    expect(second.session).toMatchObject({ id: first.session.id, generation: 1 });
    expect(
      (await gql(running.url, ME, {}, bearer(first.accessToken))).body.errors?.[0]?.extensions?.code,
    ).toBe('UNAUTHENTICATED');

    const revoked = await gql(
      running.url,
      'mutation($id: ID!) { revokeSession(id: $id) { id active revokedAt } }',
      { id: first.session.id },
      app.auth,
    );
    expect(revoked.body.data?.revokeSession).toMatchObject({ id: first.session.id, active: false });
    const after = await gql(running.url, REFRESH, { t: second.refreshToken });
    expect(after.body.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_REFRESH_TOKEN',
      reason: 'revoked',
    });
  });

  it('revokes the session when a used refresh token comes back', async () => {
    await appAccount(running.storage, app, 'ben');
    const first = (await gql(running.url, CREATE, { externalId: 'ben' }, app.auth)).body.data?.createSession;
    const second = (await gql(running.url, REFRESH, { t: first.refreshToken })).body.data?.refreshSession;
    const replay = await gql(running.url, REFRESH, { t: first.refreshToken });
    expect(replay.body.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_REFRESH_TOKEN',
      reason: 'reused',
    });
    const me = await gql(running.url, ME, {}, bearer(second.accessToken));
    expect(me.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('signs a session token out, and refuses an app key that lacks a scope', async () => {
    await appAccount(running.storage, app, 'cat');
    const s = (await gql(running.url, CREATE, { externalId: 'cat' }, app.auth)).body.data?.createSession;
    const out = await gql(running.url, 'mutation { signOut { id active } }', {}, bearer(s.accessToken));
    expect(out.body.data?.signOut).toEqual({ id: s.session.id, active: false });
    const again = await gql(running.url, 'mutation { signOut { id } }', {}, app.auth);
    expect(again.body.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');

    const narrow = await running.app.services.apps.createKey(app.id, {
      scopes: ['app:sessions', 'game:read'],
    });
    const wider = await gql(
      running.url,
      CREATE,
      { externalId: 'cat', scopes: ['game:play'] },
      bearer(narrow.key),
    );
    expect(wider.body.errors?.[0]?.extensions?.code).toBe('MISSING_SCOPE');
    const missing = await gql(running.url, CREATE, { externalId: 'nobody' }, app.auth);
    expect(missing.body.errors?.[0]?.extensions?.code).toBe('ACCOUNT_NOT_FOUND');
  });
});
