// One paging vocabulary on every paged list, REST and GraphQL: `after` (the previous page's `next`)
// and `limit` in, `next` out (null on the last page; the feed, which has no last page, answers the
// seq to poll from). Walking the pages gives exactly the whole list, in order.
import request from 'supertest';
import { appHarness, gql, type Running, type StoreKind } from '../support/app';
import { signUp, type TestAccount } from '../support/accounts';
import { expectProblem } from '../support/problem';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

/** Follows `next` from the first page until it is null; returns every page's items. */
async function walk<T>(page: (after: string | number | null) => Promise<{ items: T[]; next: any }>) {
  const items: T[] = [];
  let after: string | number | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const { items: some, next } = await page(after);
    items.push(...some);
    if (next === null) return items;
    after = next;
  }
  throw new Error('more than 100 pages');
}

describe.each<StoreKind>(['memory', 'redis'])('paging on the %s store', (store) => {
  const harness = appHarness();
  let run: Running;
  let receiver: Receiver;
  let ann: TestAccount;
  let bob: TestAccount;
  let hook: string;
  beforeAll(async () => {
    run = await harness.start(store);
    receiver = await startReceiver();
    [ann, bob] = [await signUp(run.app, 'ann', 'human'), await signUp(run.app, 'bob', 'human')];
    const created = await request(run.url)
      .post('/api/v1/account/webhooks')
      .set(bob.auth)
      .send({ url: receiver.url('/hook') })
      .expect(201);
    hook = created.body.id;
    // Five games of one kind for the lists, five challenges (and their feed events) for bob.
    for (let i = 0; i < 5; i++) {
      await request(run.url).post('/api/v1/games').send({ kind: 'congkak' }).expect(201);
      await request(run.url)
        .post('/api/v1/challenges')
        .set(ann.auth)
        .send({ to: bob.username, kind: 'kalah' })
        .expect(201);
    }
    while ((await run.app.deliverWebhooks()) > 0);
  });
  afterAll(async () => {
    await harness.stopAll();
    await receiver.stop();
  });

  it('walks GET /games and GraphQL games with after/limit/next', async () => {
    const all = (await request(run.url).get('/api/v1/games?kind=congkak&limit=100').expect(200)).body;
    expect(all.items).toHaveLength(5);
    expect(all.next).toBeNull();
    const rest = await walk(async (after) => {
      const query = `/api/v1/games?kind=congkak&limit=2${after === null ? '' : `&after=${after}`}`;
      return (await request(run.url).get(query).expect(200)).body;
    });
    const graphql = await walk(async (after) => {
      const res = await gql(
        run.url,
        'query ($after: String) { games(kind: "congkak", limit: 2, after: $after) { items { id } next } }',
        { after },
      );
      return res.body.data!.games;
    });
    const ids = all.items.map((g: { id: string }) => g.id);
    expect(rest.map((g: any) => g.id)).toEqual(ids);
    expect(graphql.map((g: any) => g.id)).toEqual(ids);
  });

  it('walks a webhook delivery log over REST and GraphQL, newest first', async () => {
    const path = `/api/v1/account/webhooks/${hook}/deliveries`;
    const all = (await request(run.url).get(`${path}?limit=100`).set(bob.auth).expect(200)).body;
    expect(all.items).toHaveLength(5);
    const rest = await walk(
      async (after) =>
        (
          await request(run.url)
            .get(`${path}?limit=2${after === null ? '' : `&after=${after}`}`)
            .set(bob.auth)
        ).body,
    );
    const graphql = await walk(async (after) => {
      const res = await gql(
        run.url,
        'query ($id: ID!, $after: Int) { webhookDeliveries(id: $id, limit: 2, after: $after) { items { n } next } }',
        { id: hook, after },
        bob.auth,
      );
      return res.body.data!.webhookDeliveries;
    });
    const ns = all.items.map((a: { n: number }) => a.n);
    expect(ns).toEqual([5, 4, 3, 2, 1]);
    expect(rest.map((a: any) => a.n)).toEqual(ns);
    expect(graphql.map((a: any) => a.n)).toEqual(ns);
  });

  it('walks the feed page by page: next is the seq to pass as after, and stays put at the end', async () => {
    const page = (after: number) =>
      request(run.url)
        .get(`/api/v1/account/events?after=${after}&limit=2`)
        .set(bob.auth)
        .set('Accept', 'application/json')
        .expect(200);
    const seqs: number[] = [];
    let after = 0;
    for (;;) {
      const { body } = await page(after);
      seqs.push(...body.events.map((e: { seq: number }) => e.seq));
      expect(body.last).toBe(5);
      if (body.events.length === 0) {
        expect(body.next).toBe(after);
        break;
      }
      expect(body.next).toBe(body.events.at(-1).seq);
      after = body.next;
    }
    expect(seqs).toEqual([1, 2, 3, 4, 5]);
    const res = await gql(
      run.url,
      '{ events(after: 3, limit: 1) { events { seq } next last } }',
      {},
      bob.auth,
    );
    expect(res.body.data!.events).toEqual({ events: [{ seq: 4 }], next: 4, last: 5 });
  });

  it('refuses the old names: cursor, before and first', async () => {
    expectProblem(await request(run.url).get('/api/v1/games?cursor=abc'), 400, 'INVALID_INPUT');
    expectProblem(
      await request(run.url).get('/api/v1/account/games?cursor=abc').set(ann.auth),
      400,
      'INVALID_INPUT',
    );
    expectProblem(
      await request(run.url).get(`/api/v1/account/webhooks/${hook}/deliveries?before=3`).set(bob.auth),
      400,
      'INVALID_INPUT',
    );
    const res = await gql(run.url, '{ games(first: 2) { items { id } } }');
    expect(res.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
