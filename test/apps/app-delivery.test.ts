// An app's delivery over its key (#30): /app/webhooks (REST and GraphQL) mirroring /account/webhooks,
// at most 10 per app, each event naming its account, the delivery log and redelivery; the app feed
// /app/events (JSON page, NDJSON stream resumable by seq; GraphQL appEvents); isolation between
// apps and from open accounts; both stores.
import request from 'supertest';
import { randomBytes } from 'node:crypto';
import type { Notice } from '../../src/store/store';
import { appHarness, type Running } from '../support/app';
import { appAccount, newApp, type TestApp } from '../support/apps';
import { openFeed } from '../support/feed-client';
import { gqlAs } from '../support/graphql';
import { startReceiver, verifies, type Receiver } from '../support/webhook-receiver';

const harness = appHarness();
afterAll(() => harness.stopAll());

describe.each(['memory', 'redis'] as const)('app delivery (%s)', (store) => {
  let run: Running;
  let receiver: Receiver;
  let a: TestApp;
  let b: TestApp;
  let alice: string;
  let bob: string;
  let carol: string;
  const open = `open-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    receiver = await startReceiver();
    run = await harness.start(store);
    a = await newApp(run.app);
    b = await newApp(run.app);
    alice = (await appAccount(run.storage, a, 'alice')).id;
    bob = (await appAccount(run.storage, a, 'bob')).id;
    carol = (await appAccount(run.storage, b, 'carol')).id;
  });
  afterAll(() => receiver.stop());

  /** One event for each account, numbered `n` (through the feed port, as every write appends). */
  const emit = (accounts: readonly string[], n: number) =>
    run.storage.feed.append(
      accounts.map((account): Notice => ({
        to: [account],
        type: 'challenge.received',
        at: new Date().toISOString(),
        data: { n },
      })),
    );

  it('registers, lists and removes endpoints with the app key, at most 10 per app', async () => {
    const created = await request(run.url)
      .post('/api/v1/app/webhooks')
      .set(a.auth)
      .send({ url: receiver.url('/limit') });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`/api/v1/app/webhooks/${created.body.id}`);
    expect(created.body.secret).toMatch(/^whsec_/);
    const ids = [created.body.id as string];
    for (let i = 1; i < 10; i++) {
      const more = await request(run.url)
        .post('/api/v1/app/webhooks')
        .set(a.auth)
        .send({ url: receiver.url(`/limit${i}`) });
      expect(more.status).toBe(201);
      ids.push(more.body.id);
    }
    const tooMany = await request(run.url)
      .post('/api/v1/app/webhooks')
      .set(a.auth)
      .send({ url: receiver.url('/eleven') });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.code).toBe('TOO_MANY_WEBHOOKS');
    // Another app's limit is its own, and it does not see these.
    expect((await request(run.url).get('/api/v1/app/webhooks').set(b.auth)).body.items).toEqual([]);
    expect((await request(run.url).get(`/api/v1/app/webhooks/${ids[0]}`).set(b.auth)).status).toBe(404);
    const list = await request(run.url).get('/api/v1/app/webhooks').set(a.auth);
    expect(list.body.items.map((w: { id: string }) => w.id).sort()).toEqual([...ids].sort());
    // The app's, not its accounts': a key acting for an account, or an account's own token, may not.
    const acting = await request(run.url).get('/api/v1/app/webhooks').set(a.as(alice));
    expect(acting.status).toBe(401);
    for (const id of ids) {
      expect((await request(run.url).delete(`/api/v1/app/webhooks/${id}`).set(a.auth)).status).toBe(204);
    }
    expect((await request(run.url).get('/api/v1/app/webhooks').set(a.auth)).body.items).toEqual([]);
  });

  it('needs the scope app:webhooks', async () => {
    const { key } = await run.app.services.apps.createKey(a.id, { scopes: ['app:accounts'] });
    const refused = await request(run.url)
      .get('/api/v1/app/webhooks')
      .set({ authorization: `Bearer ${key}` });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('MISSING_SCOPE');
    const feed = await request(run.url)
      .get('/api/v1/app/events')
      .set({
        authorization: `Bearer ${key}`,
        accept: 'application/json',
      });
    expect(feed.status).toBe(403);
  });

  it("delivers every account's events to the app's endpoint, naming the account, with log and redelivery", async () => {
    const hook = await request(run.url)
      .post('/api/v1/app/webhooks')
      .set(a.auth)
      .send({ url: receiver.url('/deliveries') });
    expect(hook.status).toBe(201);
    const otherApp = await request(run.url)
      .post('/api/v1/app/webhooks')
      .set(b.auth)
      .send({ url: receiver.url('/other-app') });
    const before = receiver.accepted.length;
    await emit([alice, bob, carol, open], 1);
    await emit([alice, bob, carol, open], 2);
    await run.app.deliverWebhooks();
    const got = receiver.accepted.slice(before);
    const mine = got.filter((r) => r.headers['boardhost-delivery'] && r.body.includes(`"account":"${a.id}.`));
    // In order per account (accounts interleave as they reach the app feed: on Redis, per forwarding pass).
    expect(mine.filter((r) => r.payload.account === alice).map((r) => r.payload.data.n)).toEqual([1, 2]);
    expect(mine.filter((r) => r.payload.account === bob).map((r) => r.payload.data.n)).toEqual([1, 2]);
    expect(mine.map((r) => r.payload.seq)).toEqual([...mine.map((r) => r.payload.seq)].sort((x, y) => x - y));
    expect(mine).toHaveLength(4);
    expect(mine.every((r) => verifies(r, hook.body.secret))).toBe(true);
    // B's endpoint: carol's only; the open account's events reach no app.
    const theirs = got.filter((r) => verifies(r, otherApp.body.secret));
    expect(theirs.map((r) => r.payload.account)).toEqual([carol, carol]);
    expect(got).toHaveLength(6);

    const log = await request(run.url).get(`/api/v1/app/webhooks/${hook.body.id}/deliveries`).set(a.auth);
    expect(log.status).toBe(200);
    expect(log.body.items).toHaveLength(4);
    expect(log.body.items.every((i: { outcome: string }) => i.outcome === 'delivered')).toBe(true);
    // The oldest attempt (newest first): an event of alice or bob, resent with its delivery id.
    const oldest = log.body.items[3] as { deliveryId: string; seq: number };
    const deliveryId = oldest.deliveryId;
    const original = mine.find((r) => r.headers['boardhost-delivery'] === deliveryId)!;
    const again = await request(run.url)
      .post(`/api/v1/app/webhooks/${hook.body.id}/deliveries/${deliveryId}/redeliver`)
      .set(a.auth);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ deliveryId, outcome: 'delivered', redelivery: true });
    const resent = receiver.accepted[receiver.accepted.length - 1]!;
    expect(resent.headers['boardhost-delivery']).toBe(deliveryId);
    expect(resent.body).toBe(original.body);
    // Another app cannot read or replay it.
    expect(
      (await request(run.url).get(`/api/v1/app/webhooks/${hook.body.id}/deliveries`).set(b.auth)).status,
    ).toBe(404);
    await request(run.url).delete(`/api/v1/app/webhooks/${hook.body.id}`).set(a.auth);
    await request(run.url).delete(`/api/v1/app/webhooks/${otherApp.body.id}`).set(b.auth);
  });

  it('serves the app feed: a page, and a stream resumable by seq', async () => {
    await emit([alice, carol, open], 10);
    await run.storage.feed.forwardApps();
    const page = await request(run.url)
      .get('/api/v1/app/events?after=0&limit=500')
      .set({ ...a.auth, accept: 'application/json' });
    expect(page.status).toBe(200);
    const events = page.body.events as Array<{ seq: number; account: string; data: { n: number } }>;
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.account === alice || e.account === bob)).toBe(true);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const last = page.body.last as number;
    expect(events.at(-1)).toMatchObject({ account: alice, data: { n: 10 } });

    // Resume after the one before last: the last comes again, then live ones.
    const feed = await openFeed(run.url, a.key, {
      format: 'ndjson',
      after: last - 1,
      path: '/api/v1/app/events',
    });
    try {
      expect(feed.last).toBe(last - 1);
      expect((await feed.next()).data).toMatchObject({ seq: last, account: alice });
      await emit([carol, bob], 11);
      await run.storage.feed.forwardApps();
      const live = await feed.next();
      expect(live.data).toMatchObject({ seq: last + 1, account: bob, data: { n: 11 } });
    } finally {
      feed.close();
    }
    // B's feed: carol's events only.
    const theirs = await request(run.url)
      .get('/api/v1/app/events?after=0&limit=500')
      .set({ ...b.auth, accept: 'application/json' });
    expect(theirs.body.events.every((e: { account: string }) => e.account === carol)).toBe(true);
    expect(theirs.body.events.length).toBeGreaterThan(0);
  });

  it('offers the same over GraphQL', async () => {
    const created = await gqlAs(
      run.url,
      a.key,
      'mutation($url: String!) { createAppWebhook(input: { url: $url }) { id secret } }',
      { url: receiver.url('/graphql') },
    );
    expect(created.errors).toBeUndefined();
    const id = created.data?.createAppWebhook.id as string;
    const listed = await gqlAs(run.url, a.key, '{ appWebhooks { id url } }');
    expect(listed.data?.appWebhooks).toEqual([{ id, url: receiver.url('/graphql') }]);
    const other = await gqlAs(run.url, b.key, `{ appWebhook(id: "${id}") { id } }`);
    expect(other.errors?.[0]?.extensions?.code).toBe('WEBHOOK_NOT_FOUND');
    const page = await gqlAs(
      run.url,
      a.key,
      '{ appEvents(after: 0, limit: 2) { events { seq account type data } next last } }',
    );
    expect(page.errors).toBeUndefined();
    expect(page.data?.appEvents.events).toHaveLength(2);
    expect(page.data?.appEvents.events[0]).toMatchObject({ seq: 1, type: 'challenge.received' });
    expect([alice, bob]).toContain(page.data?.appEvents.events[0].account);
    const removed = await gqlAs(run.url, a.key, `mutation { deleteAppWebhook(id: "${id}") { id } }`);
    expect(removed.data?.deleteAppWebhook.id).toBe(id);
  });
});
