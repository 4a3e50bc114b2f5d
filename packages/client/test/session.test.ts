// A session client against a real server whose clock the test moves forward: the access token
// expires (sessionSeconds 60), the client refreshes the pair once for all its concurrent requests,
// sends the refused requests again, hands the new pair to onRefresh; the feed reconnects with the new
// token; a refused refresh (the refresh token expired) throws INVALID_REFRESH_TOKEN.
import { appHarness, type Running, type StoreKind } from '../../../test/support/app';
import { newApp } from '../../../test/support/apps';
import {
  createBoardhost,
  createBoardhostApp,
  isBoardhostError,
  ok,
  type BoardhostApp,
  type FeedItem,
  type IssuedSession,
} from '../src';

/** A fetch that records each request's method, path and answer status. */
function recordingFetch() {
  const seen: { method: string; path: string; status: number }[] = [];
  const wrapped = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    seen.push({ method: request.method, path: new URL(request.url).pathname, status: response.status });
    return response;
  };
  return { seen, fetch: wrapped as typeof fetch };
}

const REFRESH = '/api/v1/sessions/refresh';

describe.each<StoreKind>(['memory', 'redis'])('session client (%s)', (store) => {
  const harness = appHarness();
  let running: Running;
  let app: BoardhostApp;
  /** The services' clock: tests move it forward. */
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  let users = 0;

  beforeAll(async () => {
    running = await harness.start(store, { now });
    const testApp = await newApp(running.app, { sessionSeconds: 60, refreshSeconds: 3600 });
    app = createBoardhostApp({ baseUrl: running.url, appKey: testApp.key });
  });
  afterAll(() => harness.stopAll());

  /** A new user's account and a session client for it (without accessTokenExpiresAt unless asked). */
  async function signedIn(options: { expiresAt?: boolean } = {}) {
    const externalId = `user-${++users}`;
    const { account } = await app.ensureAccount(externalId);
    const issued = await app.createSession(externalId);
    const recorder = recordingFetch();
    const refreshed: IssuedSession[] = [];
    const client = createBoardhost({
      baseUrl: running.url,
      fetch: recorder.fetch,
      session: {
        accessToken: issued.accessToken,
        refreshToken: issued.refreshToken,
        ...(options.expiresAt ? { accessTokenExpiresAt: issued.accessTokenExpiresAt } : {}),
        onRefresh: (tokens) => void refreshed.push(tokens),
      },
    });
    return { account, issued, client, seen: recorder.seen, refreshed };
  }

  it('survives its access token’s expiry: one refresh, the request sent again, onRefresh called', async () => {
    const { account, issued, client, seen, refreshed } = await signedIn();
    expect((await ok(client.api.GET('/api/v1/account'))).id).toBe(account.id);
    offset += 61_000; // the access token (60 s) is over; the refresh token (1 h) is not
    expect((await ok(client.api.GET('/api/v1/account'))).id).toBe(account.id);
    expect(seen.map((s) => `${s.method} ${s.path} ${s.status}`)).toEqual([
      'GET /api/v1/account 200',
      'GET /api/v1/account 401',
      `POST ${REFRESH} 200`,
      'GET /api/v1/account 200',
    ]);
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]!.session.id).toBe(issued.session.id);
    expect(refreshed[0]!.session.generation).toBe(1);
    expect(client.session!.tokens()).toMatchObject({
      accessToken: refreshed[0]!.accessToken,
      refreshToken: refreshed[0]!.refreshToken,
    });
    expect(refreshed[0]!.accessToken).not.toBe(issued.accessToken);
  });

  it('refreshes once for many concurrent requests that meet the expired token', async () => {
    const { account, client, seen, refreshed } = await signedIn();
    offset += 61_000;
    // Each refresh token works once (a second use revokes the session): without single flight,
    // all but one of these would fail.
    const answers = await Promise.all(Array.from({ length: 8 }, () => ok(client.api.GET('/api/v1/account'))));
    expect(answers.map((a) => a.id)).toEqual(Array(8).fill(account.id));
    expect(seen.filter((s) => s.path === REFRESH)).toEqual([{ method: 'POST', path: REFRESH, status: 200 }]);
    expect(refreshed).toHaveLength(1);
    // And the pair goes on working after further expiries.
    offset += 61_000;
    expect((await ok(client.api.GET('/api/v1/account'))).id).toBe(account.id);
    expect(refreshed.map((r) => r.session.generation)).toEqual([1, 2]);
  });

  it('refreshes ahead of accessTokenExpiresAt when it is due, without meeting a 401', async () => {
    const { account, issued, client, seen } = await signedIn({ expiresAt: true });
    // Not due (a minute left by the server's clock, more by the client's): sent as it is.
    expect((await ok(client.api.GET('/api/v1/account'))).id).toBe(account.id);
    expect(seen.map((s) => s.status)).toEqual([200]);
    // Due: a margin wider than what the token has left (by the client's clock, which the test does
    // not move) refreshes before sending; the server never answers 401.
    const recorder = recordingFetch();
    const refreshed: IssuedSession[] = [];
    const early = createBoardhost({
      baseUrl: running.url,
      fetch: recorder.fetch,
      session: {
        ...client.session!.tokens(),
        refreshMarginMs: Date.parse(issued.accessTokenExpiresAt) - Date.now() + 1000,
        onRefresh: (tokens) => void refreshed.push(tokens),
      },
    });
    expect((await ok(early.api.GET('/api/v1/account'))).id).toBe(account.id);
    expect(recorder.seen.map((s) => `${s.method} ${s.path} ${s.status}`)).toEqual([
      `POST ${REFRESH} 200`,
      'GET /api/v1/account 200',
    ]);
    expect(refreshed.map((r) => r.session.generation)).toEqual([1]);
  });

  it('throws INVALID_REFRESH_TOKEN when the refresh is refused, and does not present it again', async () => {
    const { client, seen } = await signedIn();
    offset += 3_601_000; // the refresh token (1 h) is over too
    const refused = await ok(client.api.GET('/api/v1/account')).catch((e: unknown) => e);
    expect(isBoardhostError(refused, 'INVALID_REFRESH_TOKEN')).toBe(true);
    expect((refused as { problem: { reason?: string } }).problem.reason).toBe('expired');
    const again = await ok(client.api.GET('/api/v1/account')).catch((e: unknown) => e);
    expect(isBoardhostError(again, 'INVALID_REFRESH_TOKEN')).toBe(true);
    expect(seen.filter((s) => s.path === REFRESH)).toHaveLength(1);
    const feed = client.feed();
    await expect(feed.next()).rejects.toMatchObject({ code: 'INVALID_REFRESH_TOKEN' });
  });

  it('the feed reconnects with the new token when a refresh ends the old one, and at its expiry', async () => {
    const { account, client, refreshed } = await signedIn();
    const { account: other } = await app.ensureAccount(`user-${++users}`);
    const challenger = app.as(other.id);
    const challenge = () =>
      ok(challenger.api.POST('/api/v1/challenges', { body: { to: account.id, kind: 'kalah' } })).then(
        (c) => c.id,
      );
    const feed = client.feed({ reconnectDelayMs: 50 });
    const next = async () => (await feed.next()).value as FeedItem;
    expect(await next()).toMatchObject({ type: 'ready' });
    const first = await challenge();
    expect(await next()).toMatchObject({ type: 'challenge.received', data: { challenge: { id: first } } });

    // A refresh (here asked for; as well by any request of the client) revokes the stream's token:
    // the stream ends with `revoked`, and the feed opens again with the new one, resuming.
    await client.session!.refresh();
    const second = await challenge();
    expect(await next()).toMatchObject({ type: 'ready', resync: false });
    expect(await next()).toMatchObject({ type: 'challenge.received', data: { challenge: { id: second } } });

    // The access token ends under the stream (`expired`): minted a little under 60 s ago by the
    // services' clock, it has about a second left.
    offset -= 59_000;
    await client.session!.refresh();
    offset += 59_000;
    // First the reconnect after this refresh revoked the stream's token, then the one at its expiry.
    expect(await next()).toMatchObject({ type: 'ready', resync: false });
    const started = Date.now();
    expect(await next()).toMatchObject({ type: 'ready', resync: false });
    expect(Date.now() - started).toBeGreaterThan(300);
    const third = await challenge();
    expect(await next()).toMatchObject({ type: 'challenge.received', data: { challenge: { id: third } } });
    expect(refreshed.map((r) => r.session.generation)).toEqual([1, 2, 3]);
    await feed.return(undefined);
  });
});
