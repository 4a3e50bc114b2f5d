// createBoardhostApp against a real server: an app's backend makes accounts by its users' ids (PUT,
// safe to repeat), changes and lists them, mints and revokes sessions, and acts for an account.
import { appHarness, type Running, type StoreKind } from '../../../test/support/app';
import { newApp, type TestApp } from '../../../test/support/apps';
import { createBoardhost, createBoardhostApp, isBoardhostError, ok, type BoardhostApp } from '../src';

describe.each<StoreKind>(['memory', 'redis'])('createBoardhostApp (%s)', (store) => {
  const harness = appHarness();
  let running: Running;
  let testApp: TestApp;
  let app: BoardhostApp;

  beforeAll(async () => {
    running = await harness.start(store);
    testApp = await newApp(running.app);
    app = createBoardhostApp({ baseUrl: running.url, appKey: testApp.key });
  });
  afterAll(() => harness.stopAll());

  it('answers the calling app', async () => {
    const me = await app.app();
    expect(me.id).toBe(testApp.id);
    expect(me.settings.sessionSeconds).toBeGreaterThanOrEqual(60);
  });

  it('ensureAccount makes the account once: the same account again, unchanged by a later profile', async () => {
    const first = await app.ensureAccount('user-1', { displayName: 'Ann', metadata: { plan: 'pro' } });
    expect(first.created).toBe(true);
    expect(first.account).toMatchObject({
      app: testApp.id,
      externalId: 'user-1',
      displayName: 'Ann',
      metadata: { plan: 'pro' },
      status: 'active',
    });
    expect(first.account.id).toMatch(new RegExp(`^${testApp.id}\\.[0-9a-f]{16}$`));
    const again = await app.ensureAccount('user-1', { displayName: 'Someone else' });
    expect(again).toEqual({ created: false, account: first.account });
    // Concurrent calls for a new id: one account.
    const racing = await Promise.all([1, 2, 3].map(() => app.ensureAccount('user-2')));
    expect(new Set(racing.map((r) => r.account.id)).size).toBe(1);
    expect(racing.filter((r) => r.created)).toHaveLength(1);
    expect((await app.getAccount('user-1')).id).toBe(first.account.id);
  });

  it('updates, lists and refuses with typed errors', async () => {
    const { account } = await app.ensureAccount('user-3');
    const changed = await app.updateAccount('user-3', { username: 'carol-3', displayName: 'Carol' });
    expect(changed).toMatchObject({ id: account.id, username: 'carol-3', displayName: 'Carol' });
    const missing = await app.getAccount('nobody').catch((e: unknown) => e);
    expect(isBoardhostError(missing, 'ACCOUNT_NOT_FOUND')).toBe(true);
    const ids: string[] = [];
    let after: string | undefined;
    do {
      const page = await app.listAccounts({ limit: 2, ...(after ? { after } : {}) });
      ids.push(...page.items.map((a) => a.id));
      after = page.next ?? undefined;
    } while (after);
    expect(ids).toContain(account.id);
    expect(ids).toEqual([...ids].sort());
  });

  it('as(account) plays for the account: challenge, accept, a move', async () => {
    const ann = (await app.ensureAccount('ann')).account;
    const bob = (await app.ensureAccount('bob')).account;
    const asAnn = app.as(ann.id);
    const asBob = app.as(bob.id);
    expect((await ok(asAnn.api.GET('/api/v1/account'))).id).toBe(ann.id);
    const challenge = await ok(
      asAnn.api.POST('/api/v1/challenges', { body: { to: bob.id, kind: 'kalah', starts: 'challenger' } }),
    );
    const accepted = await ok(
      asBob.api.POST('/api/v1/challenges/{id}/accept', { params: { path: { id: challenge.id } } }),
    );
    const id = accepted.gameId!;
    const game = await ok(asAnn.api.GET('/api/v1/games/{id}', { params: { path: { id } } }));
    expect(game.seats[game.toMove!]?.account).toBe(ann.id);
    const head = await asAnn.move(game, game.legalMoves[0]!);
    expect(head.version).toBe(game.version + 1);
    // The bare key is no account: acting needs the header.
    const bare = await ok(
      createBoardhost({ baseUrl: running.url, token: testApp.key }).api.GET('/api/v1/account'),
    ).catch((e: unknown) => e);
    expect(isBoardhostError(bare, 'ACCOUNT_REQUIRED')).toBe(true);
  });

  it('mints sessions for an account and revokes them', async () => {
    const { account } = await app.ensureAccount('dave');
    const issued = await app.createSession('dave', { label: 'phone', scopes: ['game:read'] });
    expect(issued.session).toMatchObject({ account: account.id, label: 'phone', scopes: ['game:read'] });
    const client = createBoardhost({
      baseUrl: running.url,
      session: { accessToken: issued.accessToken, refreshToken: issued.refreshToken },
    });
    expect((await ok(client.api.GET('/api/v1/account'))).id).toBe(account.id);
    expect((await app.listSessions('dave')).map((s) => s.id)).toEqual([issued.session.id]);
    expect((await app.revokeSession(issued.session.id)).active).toBe(false);
    // A revoked session's token is refused as it is (no refresh: the session is over).
    const after = await ok(client.api.GET('/api/v1/account')).catch((e: unknown) => e);
    expect(isBoardhostError(after, 'UNAUTHENTICATED')).toBe(true);
  });
});
