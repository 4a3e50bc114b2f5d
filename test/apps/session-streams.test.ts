// Streams opened through an app end on every node within a second when what opened them is revoked:
// a session token's when its session is revoked (REST), refreshed (the old access token) or its key
// revoked; an app key's acting for an account when the key is revoked. Two app nodes share one
// store (on memory, "the other node" is the same one).
import { createClient, type Client } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { TOKEN_REVOKED_CLOSE_CODE } from '../../src/transport/graphql/websocket';
import { appHarness, type Running, type StoreKind } from '../support/app';
import { appAccount, newApp, type TestApp } from '../support/apps';
import { openFeed } from '../support/feed-client';
import { uniquePrefix } from '../support/redis';

/** Resolves with `promise`, or rejects after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const stillOpen = async (ended: Promise<unknown>) =>
  Promise.race([ended.then(() => 'ended'), delay(200).then(() => 'open')]);

/** A graphql-ws connection authenticated with `token`, subscribed to the account feed. */
async function feedOverWebSocket(url: string, token: string, boardhostAccount?: string) {
  let closed: (code: number) => void = () => undefined;
  const closedWith = new Promise<number>((resolve) => (closed = resolve));
  let connected: () => void = () => undefined;
  const isConnected = new Promise<void>((resolve) => (connected = resolve));
  const client: Client = createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${token}`, ...(boardhostAccount ? { boardhostAccount } : {}) },
    on: { connected: () => connected(), closed: (event) => closed((event as { code: number }).code) },
  });
  const iterator = client.iterate({ query: 'subscription { events { seq type } }' });
  iterator.next().catch(() => undefined);
  await isConnected;
  return { client, closedWith };
}

describe.each<StoreKind>(['memory', 'redis'])('streams opened through an app (%s)', (store) => {
  const harness = appHarness();
  let a: Running;
  let b: Running;
  let app: TestApp;
  /** The services' clock (both nodes): one test mints in the past, so that a token expires soon. */
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const mint = async (node: Running, externalId: string, auth = app.auth) =>
    (
      await request(node.url)
        .post(`/api/v1/app/accounts/${externalId}/sessions`)
        .set(auth)
        .send({})
        .expect(201)
    ).body;

  beforeAll(async () => {
    const prefix = uniquePrefix('sessions');
    a = await harness.start(store, { prefix, now });
    b = store === 'redis' ? await harness.start(store, { prefix, now }) : a;
    app = await newApp(a.app);
  });
  afterAll(() => harness.stopAll());

  it('ends a session’s SSE and graphql-ws streams on every node within a second of its revocation', async () => {
    await appAccount(a.storage, app, 'ses-1');
    await appAccount(a.storage, app, 'ses-2');
    const s = await mint(b, 'ses-1');
    const bystander = await mint(b, 'ses-2');
    const sse = await openFeed(a.url, s.accessToken, { format: 'sse' });
    const ws = await feedOverWebSocket(a.url, s.accessToken);
    const other = await openFeed(a.url, bystander.accessToken, { format: 'ndjson' });
    const held = a.app.services.tokenStreams.size;

    const revokedAt = Date.now();
    await request(b.url).delete(`/api/v1/app/sessions/${s.session.id}`).set(app.auth).expect(200);
    await within(sse.ended, 1000, 'the SSE feed');
    expect(await within(ws.closedWith, 1000, 'the graphql-ws connection')).toBe(TOKEN_REVOKED_CLOSE_CODE);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    expect(await sse.next(100)).toMatchObject({ type: 'revoked' });
    expect(await stillOpen(other.ended)).toBe('open');
    expect(a.app.services.tokenStreams.size).toBe(held - 2);
    other.close();
    await ws.client.dispose();
  });

  it('ends the old access token’s stream when the session is refreshed', async () => {
    await appAccount(a.storage, app, 'ses-3');
    const s = await mint(b, 'ses-3');
    const feed = await openFeed(a.url, s.accessToken, { format: 'ndjson' });
    const next = await request(b.url)
      .post('/api/v1/sessions/refresh')
      .send({ refreshToken: s.refreshToken })
      .expect(200);
    await within(feed.ended, 1000, 'the old token’s feed');
    // The new access token opens the feed again.
    const again = await openFeed(a.url, next.body.accessToken, { format: 'ndjson' });
    again.close();
  });

  it('ends the streams of a key’s sessions, and of the key acting for an account, when the key is revoked', async () => {
    const keyed = await newApp(a.app);
    const acct = await appAccount(a.storage, keyed, 'key-1');
    const second = await a.app.services.apps.createKey(keyed.id);
    const auth = { authorization: `Bearer ${second.key}` };
    const s = await mint(b, 'key-1', auth);
    const survivor = await mint(b, 'key-1', keyed.auth);
    const session = await openFeed(a.url, s.accessToken, { format: 'sse' });
    const acting = await openFeed(a.url, second.key, {
      format: 'ndjson',
      headers: { 'boardhost-account': acct.id },
    });
    const ws = await feedOverWebSocket(a.url, s.accessToken);
    const actingWs = await feedOverWebSocket(a.url, second.key, acct.id);
    const other = await openFeed(a.url, survivor.accessToken, { format: 'ndjson' });

    const revokedAt = Date.now();
    await b.app.services.apps.revokeKey(keyed.id, second.id);
    await within(session.ended, 1000, 'the session’s SSE feed');
    await within(acting.ended, 1000, 'the key’s NDJSON feed');
    expect(await within(ws.closedWith, 1000, 'the session’s graphql-ws connection')).toBe(
      TOKEN_REVOKED_CLOSE_CODE,
    );
    expect(await within(actingWs.closedWith, 1000, 'the key’s graphql-ws connection')).toBe(
      TOKEN_REVOKED_CLOSE_CODE,
    );
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    expect(await session.next(100)).toMatchObject({ type: 'revoked' });
    expect(await acting.next(100)).toMatchObject({ type: 'revoked' });
    // The session minted by the app's other key goes on.
    expect(await stillOpen(other.ended)).toBe('open');
    other.close();
    await ws.client.dispose();
    await actingWs.client.dispose();
  });

  it('ends a session stream when the app’s only key is revoked, and the token opens no more', async () => {
    const keyed = await newApp(a.app);
    await appAccount(a.storage, keyed, 'key-2');
    const s = await mint(b, 'key-2', keyed.auth);
    const feed = await openFeed(a.url, s.accessToken, { format: 'ndjson' });
    const keys = await a.app.services.apps.listKeys(keyed.id);
    await a.app.services.apps.revokeKey(keyed.id, keys[0]!.id);
    await within(feed.ended, 1000, 'the feed');
    await expect(openFeed(a.url, s.accessToken, { format: 'ndjson' })).rejects.toThrow(/401/);
  });

  it('ends a session token’s stream when the token expires', async () => {
    const short = await newApp(a.app, { sessionSeconds: 60 });
    await appAccount(a.storage, short, 'exp-1');
    // Minted 59.5 s ago (by the services' clock), its access token has half a second left.
    offset = -59_500;
    const s = await mint(b, 'exp-1', short.auth);
    offset = 0;
    const feed = await openFeed(a.url, s.accessToken, { format: 'sse' });
    await within(feed.ended, 1500, 'the feed of the expiring token');
    expect(await feed.next(100)).toMatchObject({ type: 'expired' });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(s.accessTokenExpiresAt));
  });
});
