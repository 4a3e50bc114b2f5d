// App webhooks at volume (#30 delivery): 10 000 events across 500 accounts of one app reach the
// app's endpoint (a real local receiver), each naming its account, in order per account, none lost,
// though the endpoint answers 503 and then refuses connections for a while in the middle. Another
// app's endpoint gets only its own accounts' events; open accounts' events reach no app.
//
// Events are appended through the store's feed port (as every write path appends), on both stores;
// on Redis they cross shards to the app feed through the forwarder. The endpoints are stored through
// the webhook store as the service stores them (the app key routes are tested in app-delivery.test.ts).
// Time moves on an injected clock; `deliverWebhooks` drives the worker (forwarding first).
import { randomBytes } from 'node:crypto';
import { encryptSecret } from '../../src/service/server-key';
import { appFeedOwner, type Notice, type Storage } from '../../src/store/store';
import { appHarness, type Running } from '../support/app';
import { startReceiver, verifies, type Receiver } from '../support/webhook-receiver';

const harness = appHarness();
afterAll(() => harness.stopAll());

const ACCOUNTS = 500;
const PER_ACCOUNT = 20;
const SECOND = 1000;

const appId = () => `app_${randomBytes(8).toString('hex')}`;
const accountOf = (app: string) => `${app}.${randomBytes(8).toString('hex')}`;

/** Stores an endpoint of `owner` as the service does (secret encrypted); its id. */
async function endpoint(storage: Storage, owner: string, url: string, secret: string): Promise<string> {
  const id = randomBytes(9).toString('base64url');
  const state = await storage.webhooks.createWebhook(
    {
      id,
      account: owner,
      url,
      events: null,
      secret: encryptSecret(secret),
      createdBy: 'key_test',
      createdAt: new Date().toISOString(),
    },
    10,
  );
  expect(state).toBeDefined();
  return id;
}

/** Events number `from`…`to` (data {n, account}) for each of `accounts`, in one append. */
async function appendRound(
  storage: Storage,
  accounts: readonly string[],
  from: number,
  to: number,
  at: string,
) {
  const notices: Notice[] = [];
  for (let n = from; n <= to; n++) {
    for (const account of accounts) {
      notices.push({ to: [account], type: 'challenge.received', at, data: { n, account } });
    }
  }
  await storage.feed.append(notices);
}

describe.each(['memory', 'redis'] as const)('app webhooks at volume (%s)', (store) => {
  let clock = Date.parse('2032-02-01T10:00:00.000Z');
  const now = () => new Date(clock);
  let run: Running;
  let receiver: Receiver;
  /** App B's endpoint's own receiver. */
  let receiverB: Receiver;
  const appA = appId();
  const appB = appId();
  const accountsA = Array.from({ length: ACCOUNTS }, () => accountOf(appA));
  const accountsB = Array.from({ length: 5 }, () => accountOf(appB));
  const open = `open-${randomBytes(4).toString('hex')}`;
  const secretA = `whsec_${randomBytes(16).toString('hex')}`;
  const secretB = `whsec_${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    receiver = await startReceiver();
    receiverB = await startReceiver();
    run = await harness.start(store, { now });
    await endpoint(run.storage, appFeedOwner(appA), receiver.url('/a'), secretA);
    await endpoint(run.storage, appFeedOwner(appB), receiverB.url('/b'), secretB);
  });
  afterAll(async () => {
    await receiver.stop();
    await receiverB.stop();
  });

  it('delivers every event of every account, in order per account, through an outage', async () => {
    const at = () => new Date(clock).toISOString();
    const half = PER_ACCOUNT / 2;
    // Before the outage: the first half, delivered.
    await appendRound(run.storage, accountsA, 1, half / 2, at());
    await appendRound(run.storage, [...accountsB, open], 1, 2, at());
    await appendRound(run.storage, accountsA, half / 2 + 1, half, at());
    await run.app.deliverWebhooks();
    expect(receiver.accepted).toHaveLength(ACCOUNTS * half);

    // The receiver fails: first 503s, then refused connections; events keep coming meanwhile.
    receiver.answer = 503;
    await appendRound(run.storage, accountsA, half + 1, half + 5, at());
    await run.app.deliverWebhooks();
    const failed = receiver.requests.filter((r) => r.answered === 503);
    expect(failed.length).toBeGreaterThan(0);
    await receiver.stop();
    clock += 10 * SECOND;
    await appendRound(run.storage, accountsA, half + 6, PER_ACCOUNT, at());
    await appendRound(run.storage, [...accountsB, open], 3, 4, at());
    await run.app.deliverWebhooks();
    // Nothing got through while it was down.
    expect(receiver.accepted).toHaveLength(ACCOUNTS * half);

    // Back: the retry is due 20 s later; everything left comes, in order.
    await receiver.start();
    receiver.answer = 200;
    clock += 20 * SECOND;
    await run.app.deliverWebhooks();

    const toA = receiver.accepted;
    // At least once: deduplicated on the delivery id, exactly the events appended.
    const byDelivery = new Map(toA.map((r) => [r.headers['boardhost-delivery'] as string, r]));
    expect(byDelivery.size).toBe(ACCOUNTS * PER_ACCOUNT);
    const perAccount = new Map<string, number[]>();
    let lastSeq = 0;
    let misnamed = 0;
    let outOfOrder = 0;
    for (const r of byDelivery.values()) {
      if (r.payload.account !== r.payload.data.account) misnamed += 1;
      // The app feed's seq: one order for the endpoint.
      if (r.payload.seq <= lastSeq) outOfOrder += 1;
      lastSeq = r.payload.seq;
      const list = perAccount.get(r.payload.account) ?? [];
      list.push(r.payload.data.n as number);
      perAccount.set(r.payload.account, list);
    }
    expect({ misnamed, outOfOrder }).toEqual({ misnamed: 0, outOfOrder: 0 });
    expect([...perAccount.keys()].sort()).toEqual([...accountsA].sort());
    const expected = Array.from({ length: PER_ACCOUNT }, (_, i) => i + 1).join(',');
    expect([...perAccount.values()].filter((list) => list.join(',') !== expected)).toEqual([]);
    // Signed exactly as account webhooks (checked at the time of sending).
    for (const r of toA.slice(0, 200)) {
      expect(verifies(r, secretA, Number(r.headers['boardhost-timestamp']) * 1000)).toBe(true);
    }

    // App B's endpoint: B's accounts only, never A's, never the open account's.
    const toB = receiverB.accepted;
    expect(toB).toHaveLength(accountsB.length * 4);
    expect(new Set(toB.map((r) => r.payload.account))).toEqual(new Set(accountsB));
    expect(toB.every((r) => verifies(r, secretB, Number(r.headers['boardhost-timestamp']) * 1000))).toBe(
      true,
    );
    expect(receiver.requests.some((r) => !r.payload.account.startsWith(`${appA}.`))).toBe(false);
    expect(receiverB.requests.some((r) => r.payload.account === open)).toBe(false);

    // The open account's events stay in its own feed only; the app feeds hold their accounts' only.
    const feedA = await readAll(run.storage, appFeedOwner(appA));
    expect(feedA).toHaveLength(ACCOUNTS * PER_ACCOUNT);
    expect(feedA.every((e) => e.account?.startsWith(`${appA}.`))).toBe(true);
    const openFeed = await run.storage.feed.read(open, 0, 100);
    expect(openFeed.events).toHaveLength(4);
    expect(openFeed.events.every((e) => e.account === undefined)).toBe(true);
  }, 300_000);
});

async function readAll(storage: Storage, owner: string) {
  const events = [];
  let after = 0;
  for (;;) {
    const page = await storage.feed.read(owner, after, 500);
    events.push(...page.events);
    if (page.events.length < 500) return events;
    after = page.events[page.events.length - 1]!.seq;
  }
}
