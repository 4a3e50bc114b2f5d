// Revoking an API token ends every stream opened with it, on every node, within a second: the
// account feed as NDJSON and as SSE (a last `revoked` message) and graphql-ws connections (closed
// with 4401). Two app nodes share one Redis; the streams are on node A, the revocation on node B.
import { createClient, type Client } from 'graphql-ws';
import Redis from 'ioredis';
import request from 'supertest';
import WebSocket from 'ws';
import { createApp, type App } from '../../src/app';
import { createRedisStorage } from '../../src/store/redis';
import { Keys } from '../../src/store/redis/keys';
import { TOKEN_REVOKED_CLOSE_CODE } from '../../src/transport/graphql/websocket';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type StoreKind } from '../support/app';
import { openFeed, type FeedConnection } from '../support/feed-client';
import { uniquePrefix } from '../support/redis';
import { startRedisServer, type OwnRedis } from '../support/redis-server';

/** A graphql-ws connection with `token` in connection_init, subscribed to the account feed. */
async function feedOverWebSocket(url: string, token: string) {
  let closed: (code: number) => void = () => undefined;
  const closedWith = new Promise<number>((resolve) => (closed = resolve));
  let connected: () => void = () => undefined;
  const isConnected = new Promise<void>((resolve) => (connected = resolve));
  const client: Client = createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${token}` },
    on: {
      connected: () => connected(),
      closed: (event) => closed((event as { code: number }).code),
    },
  });
  const iterator = client.iterate({ query: 'subscription { events { seq type } }' });
  const first = iterator.next();
  first.catch(() => undefined);
  await isConnected;
  return { client, closedWith, first };
}

/** Resolves with the ms it took `promise` to settle, or rejects after `ms`. */
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

async function firstToken(url: string, account: TestAccount): Promise<{ id: string; scopes: string[] }> {
  const tokens = await request(url).get('/api/v1/account/tokens').set(account.auth).expect(200);
  return tokens.body.items[0];
}

describe.each<StoreKind>(['redis', 'memory'])('revoking a token (%s)', (store) => {
  const harness = appHarness();
  afterAll(() => harness.stopAll());

  it('ends its NDJSON, SSE and graphql-ws streams on every node within a second, and no others', async () => {
    const prefix = uniquePrefix('revoke');
    const a = await harness.start(store, prefix);
    // The memory store is one process: "another node" is the same one there.
    const b = store === 'redis' ? await harness.start(store, prefix) : a;
    const account = await signUp(a.app, 'revoked');
    const bystander = await signUp(a.app, 'bystander');
    const ndjson = await openFeed(a.url, account.token, { format: 'ndjson' });
    const sse = await openFeed(a.url, account.token, { format: 'sse' });
    const ws = await feedOverWebSocket(a.url, account.token);
    const other = await openFeed(a.url, bystander.token, { format: 'ndjson' });
    const { id, scopes } = await firstToken(b.url, account);
    expect(id).toEqual(expect.any(String));
    // A second root token, so that the first is not the account's last (LAST_ROOT_TOKEN).
    await request(b.url).post('/api/v1/account/tokens').set(account.auth).send({ scopes }).expect(201);

    await request(b.url).delete(`/api/v1/account/tokens/${id}`).set(account.auth).expect(200);
    const revokedAt = Date.now();
    await within(ndjson.ended, 1000, 'the NDJSON feed');
    await within(sse.ended, 1000, 'the SSE feed');
    expect(await within(ws.closedWith, 1000, 'the graphql-ws connection')).toBe(TOKEN_REVOKED_CLOSE_CODE);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    expect(await ndjson.next(100)).toMatchObject({ type: 'revoked' });
    expect(await sse.next(100)).toMatchObject({ type: 'revoked' });
    await expect(ws.first).rejects.toBeDefined();
    // The other account's stream goes on, and node A holds nothing more for the revoked token.
    expect(await Promise.race([other.ended.then(() => 'ended'), delay(200).then(() => 'open')])).toBe('open');
    expect(a.app.services.tokenStreams.size).toBe(1);
    // The token no longer opens anything.
    await expect(openFeed(a.url, account.token, { format: 'ndjson' })).rejects.toThrow(/401/);
    other.close();
    await ws.client.dispose();
  });
});

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a revocation whose notice a node missed (its subscriber connection was down)', () => {
  let redis: OwnRedis;
  let app: App;
  let url: string;
  beforeAll(async () => {
    redis = await startRedisServer();
    const storage = await createRedisStorage(redis.url, 'missed:');
    app = await createApp({ storage, sweepIntervalMs: 0, webhooks: { intervalMs: 0 } });
    url = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`;
  });
  afterAll(async () => {
    await app.stop();
    await redis.stop();
  });

  it('still ends the streams once the node is reconnected, by asking the store', async () => {
    const account = await signUp(app, 'missed');
    const feed: FeedConnection = await openFeed(url, account.token, { format: 'ndjson' });
    const admin = new Redis(redis.url);
    try {
      // The revocation is written without its notice (as if published while the node was away)…
      const keys = new Keys('missed:');
      const [hash] = await admin.zrange(keys.tokens(account.id), 0, -1);
      const key = keys.token(account.id, hash as string);
      const token = JSON.parse((await admin.get(key)) as string);
      await admin.set(key, JSON.stringify({ ...token, revokedAt: new Date().toISOString() }));
      await delay(200);
      expect(await Promise.race([feed.ended.then(() => 'ended'), delay(10).then(() => 'open')])).toBe('open');
      // …then the node's subscriber connection drops, and it checks its tokens once it is back.
      await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
      await within(feed.ended, 5000, 'the NDJSON feed');
      expect(await feed.next(100)).toMatchObject({ type: 'revoked' });
    } finally {
      admin.disconnect();
    }
  });
});
