// An app's moderation of its accounts and the operator's (#30 part 7): suspend stops new games but
// not ongoing ones; ban closes the account's streams within a second and forfeits its games (reason
// banned); erase leaves no personal datum in the store while its opponents' games and ratings stay
// whole; export → erase → export answers 404.
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { hashToken, newPersonalToken } from '../../src/service/accounts/auth';
import type { RedisGameStore } from '../../src/store/redis/games/store';
import type { Storage } from '../../src/store/store';
import { appHarness, gql, type Running, type StoreKind } from '../support/app';
import { appAccount, newApp, type TestApp } from '../support/apps';
import { openFeed } from '../support/feed-client';
import { REDIS_URL, uniquePrefix } from '../support/redis';
import { clusterMasterPorts, deleteClusterPrefix, sharedClusterNodes } from '../support/redis-cluster';
import { createRedisStorage } from '../../src/store/redis';

const OPERATOR_KEY = `op-${randomBytes(16).toString('hex')}`;
const operator = { authorization: `Bearer ${OPERATOR_KEY}` };

type Account = { readonly id: string; readonly username: string };

/** A game between two app accounts: `a` challenges `b`, who accepts; `a` moves first. */
async function startGame(url: string, app: TestApp, a: Account, b: Account, rated = false) {
  const made = await request(url)
    .post('/api/v1/challenges')
    .set(app.as(a.id))
    .send({ to: b.id, kind: 'kalah', starts: 'challenger', ...(rated ? { rated: true } : {}) })
    .expect(201);
  const accepted = await request(url)
    .post(`/api/v1/challenges/${made.body.id}/accept`)
    .set(app.as(b.id))
    .expect(200);
  return (await request(url).get(`/api/v1/games/${accepted.body.gameId}`).expect(200)).body;
}

async function move(url: string, app: TestApp, account: Account, game: { id: string }) {
  const current = (await request(url).get(`/api/v1/games/${game.id}`).expect(200)).body;
  return request(url)
    .post(`/api/v1/games/${game.id}/moves`)
    .set(app.as(account.id))
    .send({ move: current.legalMoves[0] });
}

/** A personal token of the account, made through the store (what a session's access token is). */
async function tokenOf(storage: Storage, account: string): Promise<string> {
  const { token, hash } = newPersonalToken();
  await storage.accounts.addToken({
    id: randomBytes(6).toString('hex'),
    account,
    hash,
    scopes: ['game:read', 'game:play', 'challenge:write'],
    label: 'test',
    createdAt: new Date().toISOString(),
    revokedAt: null,
  });
  expect(hashToken(token)).toBe(hash);
  return token;
}

/** Where the lifecycle runs: the embedded store, one Redis, or the Redis Cluster the test setup started. */
export type LifecycleStore = StoreKind | 'cluster';

/** The lifecycle tests on one store (test/apps/lifecycle.test.ts; test/cluster/apps-lifecycle.test.ts). */
export function describeLifecycle(kind: LifecycleStore): void {
  describe(`account lifecycle (${kind})`, () => lifecycle(kind));
}

function lifecycle(kind: LifecycleStore): void {
  const store: StoreKind = kind === 'memory' ? 'memory' : 'redis';
  const harness = appHarness();
  const prefix = uniquePrefix('lifecycle');
  let running: Running;
  let app: TestApp;
  afterAll(async () => {
    await harness.stopAll();
    if (kind === 'cluster') await deleteClusterPrefix(sharedClusterNodes(), prefix);
  });
  /** A server node; nodes started on Redis or the Cluster share one keyspace. */
  const startNode = async () =>
    harness.start(store, {
      prefix,
      app: { operatorKey: OPERATOR_KEY },
      ...(kind === 'cluster'
        ? { storage: await createRedisStorage({ clusterNodes: sharedClusterNodes() }, prefix) }
        : {}),
    });

  beforeAll(async () => {
    running = await startNode();
    app = await newApp(running.app);
  });

  it('suspend stops new games, challenges and seeks, by or with the account; a move in an ongoing game works', async () => {
    const { url, storage } = running;
    const alice = await appAccount(storage, app, `alice-${randomBytes(3).toString('hex')}`);
    const bob = await appAccount(storage, app, `bob-${randomBytes(3).toString('hex')}`);
    const externalId = (await storage.accounts.getAccount(alice.id))?.externalId as string;
    const game = await startGame(url, app, alice, bob);

    const suspended = await request(url)
      .post(`/api/v1/app/accounts/${externalId}/suspend`)
      .set(app.auth)
      .send({ reason: 'spam in chat' })
      .expect(200);
    expect(suspended.body).toMatchObject({ id: alice.id, status: 'suspended', statusReason: 'spam in chat' });

    const restricted = { code: 'ACCOUNT_RESTRICTED', accountStatus: 'suspended', reason: 'spam in chat' };
    const mine = await request(url)
      .post('/api/v1/challenges')
      .set(app.as(alice.id))
      .send({ to: bob.id, kind: 'kalah' });
    expect([mine.status, mine.body]).toEqual([403, expect.objectContaining(restricted)]);
    const theirs = await request(url)
      .post('/api/v1/challenges')
      .set(app.as(bob.id))
      .send({ to: alice.id, kind: 'kalah' });
    expect([theirs.status, theirs.body]).toEqual([403, expect.objectContaining(restricted)]);
    const seek = await request(url).post('/api/v1/seeks').set(app.as(alice.id)).send({ kind: 'kalah' });
    expect([seek.status, seek.body.code]).toEqual([403, 'ACCOUNT_RESTRICTED']);
    const ai = await request(url)
      .post('/api/v1/challenges/ai')
      .set(app.as(alice.id))
      .send({ kind: 'kalah', level: 1 });
    expect([ai.status, ai.body.code]).toEqual([403, 'ACCOUNT_RESTRICTED']);

    // The ongoing game goes on: alice (first to move) plays.
    expect((await move(url, app, alice, game)).status).toBe(200);

    await request(url).post(`/api/v1/app/accounts/${externalId}/unsuspend`).set(app.auth).expect(200);
    await request(url)
      .post('/api/v1/challenges')
      .set(app.as(alice.id))
      .send({ to: bob.id, kind: 'kalah' })
      .expect(201);
  });

  it('only a key with app:moderate, and only for the app’s own accounts; the admin routes only for the operator', async () => {
    const { url, storage } = running;
    const other = await newApp(running.app);
    const own = await appAccount(storage, app, `own-${randomBytes(3).toString('hex')}`);
    const externalId = (await storage.accounts.getAccount(own.id))?.externalId as string;
    const { key } = await running.app.services.apps.createKey(app.id, { scopes: ['app:accounts'] });
    const weak = await request(url)
      .post(`/api/v1/app/accounts/${externalId}/ban`)
      .set({ authorization: `Bearer ${key}` });
    expect([weak.status, weak.body.code]).toEqual([403, 'MISSING_SCOPE']);
    const foreign = await request(url).post(`/api/v1/app/accounts/${externalId}/ban`).set(other.auth);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
    for (const auth of [app.auth, {}]) {
      const denied = await request(url).post(`/api/v1/admin/accounts/${own.id}/ban`).set(auth);
      expect([denied.status, denied.body.code]).toEqual([403, 'OPERATOR_ONLY']);
    }
    expect((await storage.accounts.getAccount(own.id))?.status).toBeUndefined();
  });

  it('ban ends the streams the app key opened acting for the account, on every node; the key’s others go on', async () => {
    const { url, storage } = running;
    // On Redis the streams live on a second node of the same store.
    const other = store === 'redis' ? await startNode() : running;
    const dana = await appAccount(storage, app, `dana-${randomBytes(3).toString('hex')}`);
    const erin = await appAccount(storage, app, `erin-${randomBytes(3).toString('hex')}`);
    const acting = (account: string) => ({
      format: 'ndjson' as const,
      headers: { 'boardhost-account': account },
    });
    const danaFeed = await openFeed(other.url, app.key, acting(dana.id));
    const erinFeed = await openFeed(other.url, app.key, acting(erin.id));
    await request(url).post(`/api/v1/admin/accounts/${dana.id}/ban`).set(operator).send({}).expect(200);
    const at = Date.now();
    await Promise.race([
      danaFeed.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the stream stayed open')), 1000)),
    ]);
    expect(Date.now() - at).toBeLessThan(1000);
    const still = await Promise.race([
      erinFeed.ended.then(() => 'ended'),
      new Promise((resolve) => setTimeout(() => resolve('open'), 500)),
    ]);
    expect(still).toBe('open');
    erinFeed.close();
  });

  it('ban closes the account’s stream within a second, forfeits its games (reason banned, rated: a loss) and refuses it until unbanned', async () => {
    const { url, storage } = running;
    const alice = await appAccount(storage, app, `alice-${randomBytes(3).toString('hex')}`);
    const bob = await appAccount(storage, app, `bob-${randomBytes(3).toString('hex')}`);
    const externalId = (await storage.accounts.getAccount(alice.id))?.externalId as string;
    const game = await startGame(url, app, alice, bob, true);
    expect((await move(url, app, alice, game)).status).toBe(200);
    const token = await tokenOf(storage, alice.id);
    const feed = await openFeed(url, token, { format: 'sse' });

    const banned = await request(url)
      .post(`/api/v1/admin/accounts/${alice.id}/ban`)
      .set(operator)
      .send({ reason: 'cheating' })
      .expect(200);
    const at = Date.now();
    expect(banned.body).toMatchObject({ status: 'banned', statusReason: 'cheating' });
    await Promise.race([
      feed.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the stream stayed open')), 1000)),
    ]);
    expect(Date.now() - at).toBeLessThan(1000);

    const ended = (await request(url).get(`/api/v1/games/${game.id}`).expect(200)).body;
    const bobSeat = ended.seats.find((s: { account: string }) => s.account === bob.id).seat;
    expect(ended.status).toBe('finished');
    expect(ended.result).toMatchObject({ winner: bobSeat, reason: 'banned' });
    const [ratingA, ratingB] = await Promise.all([
      storage.ratings.get(alice.id),
      storage.ratings.get(bob.id),
    ]);
    const perf = Object.keys(ratingB)[0] as string;
    expect(ratingB[perf]?.games).toBe(1);
    expect(ratingB[perf]?.rating).toBeGreaterThan(ratingA[perf]?.rating as number);

    const revoked = await request(url)
      .get('/api/v1/account')
      .set({ authorization: `Bearer ${token}` });
    expect(revoked.status).toBe(401);
    const acting = await request(url).get('/api/v1/account').set(app.as(alice.id));
    expect([acting.status, acting.body.code, acting.body.reason]).toEqual([
      403,
      'ACCOUNT_RESTRICTED',
      'cheating',
    ]);
    const suspend = await request(url).post(`/api/v1/app/accounts/${externalId}/suspend`).set(app.auth);
    expect([suspend.status, suspend.body.code]).toEqual([403, 'ACCOUNT_RESTRICTED']);

    const unbanned = await gql(
      url,
      'mutation($e: String!) { unbanAccount(externalId: $e) { status statusReason } }',
      { e: externalId },
      app.auth,
    );
    expect(unbanned.body.data?.unbanAccount).toEqual({ status: 'active', statusReason: null });
    await request(url).get('/api/v1/account').set(app.as(alice.id)).expect(200);
    // Its tokens stay revoked.
    expect(
      (
        await request(url)
          .get('/api/v1/account')
          .set({ authorization: `Bearer ${token}` })
      ).status,
    ).toBe(401);
  });

  it('export → erase → export: no personal datum left, the opponent’s game and rating whole, the name held', async () => {
    const { url, storage } = running;
    const tag = randomBytes(4).toString('hex');
    const personal = {
      username: `Carol${tag}`,
      displayName: `Carol Display ${tag}`,
      externalId: `ext-carol-${tag}`,
      metadata: { plan: `gold-${tag}`, email: `carol-${tag}@example.test` },
    };
    const created = await storage.accounts.getOrCreateAppAccount({
      id: `${app.id}.${randomBytes(8).toString('hex')}`,
      kind: 'human',
      bot: null,
      createdAt: new Date().toISOString(),
      app: app.id,
      ...personal,
    });
    if (created.status === 'username-taken') throw new Error('taken');
    const carol: Account = created.account;
    const dave = await appAccount(storage, app, `dave-${tag}`);
    await tokenOf(storage, carol.id);
    await request(url)
      .post('/api/v1/account/webhooks')
      .set(app.as(carol.id))
      .send({ url: 'http://127.0.0.1:9/hook' })
      .expect(201);
    // A finished rated game (carol resigns) and an ongoing casual one.
    const finished = await startGame(url, app, carol, dave, true);
    expect((await move(url, app, carol, finished)).status).toBe(200);
    await request(url).post(`/api/v1/games/${finished.id}/resign`).set(app.as(carol.id)).expect(200);
    const ongoing = await startGame(url, app, dave, carol);
    // Blocks both ways (after the games: blocked accounts cannot challenge each other).
    await storage.blocks.block(carol.id, dave.id, new Date().toISOString(), 100);
    await storage.blocks.block(dave.id, carol.id, new Date().toISOString(), 100);
    const before = (await request(url).get(`/api/v1/games/${finished.id}`).expect(200)).body;
    const daveBefore = await storage.ratings.get(dave.id);

    const exported = (
      await request(url).get(`/api/v1/app/accounts/${personal.externalId}/export`).set(app.auth).expect(200)
    ).body;
    expect(exported.account).toMatchObject({ id: carol.id, ...personal });
    expect(exported.tokens).toHaveLength(1);
    expect(JSON.stringify(exported.tokens)).not.toContain('hash');
    expect(exported.webhooks).toHaveLength(1);
    expect(JSON.stringify(exported.webhooks)).not.toContain('secret');
    expect(exported.blocks).toEqual([expect.objectContaining({ account: dave.id })]);
    expect(exported.games.map((g: { id: string }) => g.id).sort()).toEqual([finished.id, ongoing.id].sort());
    expect(Object.keys(exported.ratings)).toHaveLength(1);
    expect(exported.feed.length).toBeGreaterThan(0);

    await request(url).delete(`/api/v1/admin/accounts/${carol.id}`).set(operator).expect(204);

    const again = await request(url).get(`/api/v1/app/accounts/${personal.externalId}/export`).set(app.auth);
    expect([again.status, again.body.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
    const byOperator = await request(url).get(`/api/v1/admin/accounts/${carol.id}/export`).set(operator);
    expect([byOperator.status, byOperator.body.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
    const actAs = await request(url).get('/api/v1/account').set(app.as(carol.id));
    expect([actAs.status, actAs.body.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
    const overGraphql = await gql(
      url,
      'query($e: String!) { exportAccount(externalId: $e) }',
      {
        e: personal.externalId,
      },
      app.auth,
    );
    expect(overGraphql.body.errors?.[0]?.extensions?.code).toBe('ACCOUNT_NOT_FOUND');

    // The finished game is as it was (a game stores no username); the ongoing one was forfeited.
    const after = (await request(url).get(`/api/v1/games/${finished.id}`).expect(200)).body;
    expect(after).toEqual(before);
    expect(after.seats.map((s: { account: string }) => s.account)).toContain(carol.id);
    const forfeited = (await request(url).get(`/api/v1/games/${ongoing.id}`).expect(200)).body;
    expect(forfeited.result.reason).toBe('banned');
    expect(await storage.ratings.get(dave.id)).toEqual(daveBefore);
    expect((await storage.accounts.tombstoneOf(carol.id))?.name).toMatch(/^deleted-\d+$/);

    // Every key of the test's prefix, every value: no trace of the erased account's personal data.
    if (store === 'redis') {
      // What every node does each second: trim the outbox entries already relayed (the resigned
      // game's rating results name the players until then).
      await (storage.games as RedisGameStore).relay.sweep();
      const urls = kind === 'cluster' ? await clusterUrls() : [REDIS_URL];
      const found = await redisValuesContaining(urls, prefix, [
        personal.username,
        personal.displayName,
        personal.externalId,
        ...Object.values(personal.metadata),
      ]);
      expect(found).toEqual([]);
      // The scan sees the keyspace (every master of a Cluster): the app's own keys are found.
      expect((await redisValuesContaining(urls, prefix, [app.id])).length).toBeGreaterThan(0);
    }
    // The username is held in its app (any case), not in another app.
    const retake = (app_: string, username: string) =>
      storage.accounts.getOrCreateAppAccount({
        id: `${app_}.${randomBytes(8).toString('hex')}`,
        username,
        kind: 'human',
        bot: null,
        createdAt: new Date().toISOString(),
        app: app_,
        externalId: `new-${randomBytes(3).toString('hex')}`,
      });
    expect((await retake(app.id, personal.username.toUpperCase())).status).toBe('username-taken');
    // (After the scan: this stores the name again, in another app.)
    const elsewhere = await newApp(running.app);
    expect((await retake(elsewhere.id, personal.username)).status).toBe('created');
  });

  it('over GraphQL: suspend, unsuspend, ban, erase, with the app key alone', async () => {
    const { url, storage } = running;
    const erin = await appAccount(storage, app, `erin-${randomBytes(3).toString('hex')}`);
    const e = (await storage.accounts.getAccount(erin.id))?.externalId as string;
    const run = async (field: string, extra = '', selection = '{ status statusReason }') => {
      const answer = await gql(
        url,
        `mutation($e: String!) { ${field}(externalId: $e${extra}) ${selection} }`,
        { e },
        app.auth,
      );
      return answer.body.data?.[field] ?? answer.body.errors?.[0]?.extensions?.code;
    };
    expect(await run('suspendAccount', ', reason: "spam"')).toEqual({
      status: 'suspended',
      statusReason: 'spam',
    });
    expect(await run('unsuspendAccount')).toEqual({ status: 'active', statusReason: null });
    expect(await run('banAccount')).toEqual({ status: 'banned', statusReason: null });
    expect(await run('eraseAccount', '', '')).toBe(true);
    expect(await run('banAccount')).toBe('ACCOUNT_NOT_FOUND');
    // Acting as an account (Boardhost-Account), the key is not the app itself.
    const fay = await appAccount(storage, app, `fay-${randomBytes(3).toString('hex')}`);
    const acting = await gql(
      url,
      'mutation { unbanAccount(externalId: "x") { status } }',
      {},
      app.as(fay.id),
    );
    expect(acting.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('refuses to erase an open account (its id is its username)', async () => {
    const signup = await request(running.url)
      .post('/api/v1/accounts')
      .send({ username: `open${randomBytes(3).toString('hex')}` })
      .expect(201);
    const erase = await request(running.url)
      .delete(`/api/v1/admin/accounts/${signup.body.account.id}`)
      .set(operator);
    expect([erase.status, erase.body.code, erase.body.reason]).toEqual([403, 'FORBIDDEN', 'open-account']);
  });
}

/** Every key of the prefix whose value (any type) contains one of `texts`, with the text found. */
async function redisValuesContaining(
  urls: readonly string[],
  prefix: string,
  texts: readonly string[],
): Promise<string[]> {
  const hits: string[] = [];
  for (const url of urls) hits.push(...(await valuesContaining(url, prefix, texts)));
  return hits;
}

/** The Cluster's masters, each scanned on its own (SCAN walks one node's keys). */
async function clusterUrls(): Promise<string[]> {
  return (await clusterMasterPorts(sharedClusterNodes())).map((port) => `redis://127.0.0.1:${port}`);
}

async function valuesContaining(url: string, prefix: string, texts: readonly string[]): Promise<string[]> {
  const redis = new Redis(url);
  const hits: string[] = [];
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        let values: string[] = [key];
        if (type === 'string') values.push((await redis.get(key)) ?? '');
        else if (type === 'hash') values.push(...Object.entries(await redis.hgetall(key)).flat());
        else if (type === 'zset') values.push(...(await redis.zrange(key, 0, -1)));
        else if (type === 'list') values.push(...(await redis.lrange(key, 0, -1)));
        else if (type === 'set') values.push(...(await redis.smembers(key)));
        else if (type === 'stream') {
          values.push(...(await redis.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields]));
        }
        values = values.map((v) => v.toLowerCase());
        for (const text of texts) {
          if (values.some((v) => v.includes(text.toLowerCase()))) hits.push(`${key} (${type}): ${text}`);
        }
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return hits;
}
