// Slow webhook receivers do not starve other accounts (issue #28, item 8). Several accounts'
// endpoints answer slowly (a real receiver that sleeps before answering) while another account's
// fast endpoint still gets its events within a small multiple of the time it takes when the node is
// idle (measured first, in the same test). The real worker loop runs, with a short timeout so that
// the test takes seconds: per-account shares of the slots, round-robin by account, and the demotion
// of endpoints that keep using the timeout.
import request from 'supertest';
import type { Notice } from '../../src/store/store';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type Running, type StoreKind } from '../support/app';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

/** Each test's app is stopped at its end, so that its slow backlog does not reach the next test. */
let harness = appHarness();
afterEach(async () => {
  await harness.stopAll();
  harness = appHarness();
});

const TIMEOUT_MS = 1000;
/** The slow receivers answer after this: more than half the timeout (a slow attempt), within it. */
const SLOW_MS = 600;

async function register(run: Running, who: TestAccount, url: string): Promise<void> {
  const res = await request(run.url).post('/api/v1/account/webhooks').set(who.auth).send({ url });
  expect(res.status).toBe(201);
}

function notice(to: string, i: number): Notice {
  return { to: [to], type: 'game.updated', at: new Date().toISOString(), data: { i } };
}

/** Milliseconds from appending an event to the fast account's feed until its receiver has it. */
async function latency(run: Running, fast: Receiver, account: string): Promise<number> {
  const before = fast.accepted.length;
  const started = performance.now();
  await run.storage.feed.append([notice(account, before)]);
  await fast.waitForAccepted(before + 1, 20_000);
  return performance.now() - started;
}

async function baseline(run: Running, fast: Receiver, account: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) times.push(await latency(run, fast, account));
  return times.sort((a, b) => a - b)[2] as number;
}

describe.each<StoreKind>(['redis', 'memory'])('webhook slots on the %s store', (store) => {
  let slow: Receiver;
  let fast: Receiver;
  beforeAll(async () => {
    [slow, fast] = await Promise.all([startReceiver(), startReceiver()]);
    slow.delayMs = SLOW_MS;
  });
  afterAll(() => Promise.all([slow.stop(), fast.stop()]));

  /** `accounts` accounts with `endpoints` slow endpoints each, and `events` events in each feed. */
  async function flood(run: Running, accounts: number, endpoints: number, events: number) {
    const flooders = await Promise.all(
      Array.from({ length: accounts }, (_, i) => signUp(run.app, `slow${i}`)),
    );
    for (const [a, who] of flooders.entries()) {
      for (let e = 0; e < endpoints; e++) await register(run, who, slow.url(`/a${a}/e${e}`));
    }
    for (let i = 0; i < events; i++) await run.storage.feed.append(flooders.map((who) => notice(who.id, i)));
  }

  it("an account's share of the slots leaves room for others: a fast endpoint stays fast", async () => {
    // 3 accounts × 4 slow endpoints could hold all 8 slots; at 2 per account they hold 6.
    const run = await harness.start(store, {
      webhooks: { allowPrivate: true, intervalMs: 20, timeoutMs: TIMEOUT_MS, concurrency: 8, perAccount: 2 },
    });
    const victim = await signUp(run.app, 'victim');
    await register(run, victim, fast.url('/victim'));
    const idle = await baseline(run, fast, victim.id);
    slow.maxInFlight = 0;
    await flood(run, 3, 4, 5);
    await new Promise((r) => setTimeout(r, 200));
    const busy = [];
    for (let i = 0; i < 3; i++) busy.push(await latency(run, fast, victim.id));
    process.stdout.write(
      `[${store}] per-account share: idle ${idle.toFixed(0)} ms, under slow load ${busy.map((t) => t.toFixed(0)).join(', ')} ms\n`,
    );
    for (const t of busy) expect(t).toBeLessThan(Math.max(5 * idle, 1500));
    expect(slow.maxInFlight).toBeLessThanOrEqual(6);
  }, 30_000);

  it('endpoints that keep using the timeout are demoted to a few slots: a fast endpoint stays fast', async () => {
    // 5 accounts × 2 slow endpoints hold all 8 slots at first, at 2 per account; demoted after
    // one slow attempt, they share 2 slots (a quarter), one per account.
    const run = await harness.start(store, {
      webhooks: {
        allowPrivate: true,
        intervalMs: 20,
        timeoutMs: TIMEOUT_MS,
        concurrency: 8,
        perAccount: 2,
        demoteAfter: 1,
      },
    });
    const victim = await signUp(run.app, 'victim');
    await register(run, victim, fast.url('/victim'));
    const idle = await baseline(run, fast, victim.id);
    await flood(run, 5, 2, 6);
    // Every slow endpoint made its first (slow) attempt by then.
    await new Promise((r) => setTimeout(r, 2 * SLOW_MS + 600));
    slow.maxInFlight = 0;
    const busy = [];
    for (let i = 0; i < 3; i++) busy.push(await latency(run, fast, victim.id));
    await new Promise((r) => setTimeout(r, SLOW_MS));
    process.stdout.write(
      `[${store}] demotion: idle ${idle.toFixed(0)} ms, under slow load ${busy.map((t) => t.toFixed(0)).join(', ')} ms, slow in flight at most ${slow.maxInFlight}\n`,
    );
    for (const t of busy) expect(t).toBeLessThan(Math.max(5 * idle, 1500));
    expect(slow.maxInFlight).toBeLessThanOrEqual(2);
  }, 30_000);
});
