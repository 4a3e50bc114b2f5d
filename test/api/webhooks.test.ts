// Webhooks end to end: two accounts play a game made by a challenge while a real receiver (express on
// 127.0.0.1) takes the deliveries. Every event of the feed arrives once, in order, signed; a
// receiver that fails or is down gets what it missed, in order, once it is back; retries back off
// until 24 h after the event; the SSRF guard refuses private targets at registration and delivery.
// Time moves on an injected clock (no fake timers); `deliverWebhooks` drives the worker.
import request from 'supertest';
import { retryDelayMs, RETRY_WINDOW_MS, WebhookWorker } from '../../src/service/delivery/webhook-worker';
import { verifyWebhookSignature } from '../../src/service/delivery/webhook-signature';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, gql, type Running, type StoreKind } from '../support/app';
import { expectProblem } from '../support/problem';
import { uniquePrefix } from '../support/redis';
import { startReceiver, verifies, type Receiver } from '../support/webhook-receiver';

const harness = appHarness();
afterAll(() => harness.stopAll());

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Two bots, x and y; `start` makes a Kalah game by x's direct challenge (x moves first). */
function duel(run: Running, x: TestAccount, y: TestAccount) {
  const { challenges, games, writer } = run.app.services;
  let gameId = '';
  const mover = async () => {
    const game = await games.getGame(gameId);
    return { game, who: game.toMove === 0 ? x : y };
  };
  return {
    start: async () => {
      const challenge = await challenges.create(
        { token: x.token },
        { to: y.username, kind: 'kalah', starts: 'challenger' },
      );
      gameId = (await challenges.accept({ token: y.token }, challenge.id)).gameId as string;
    },
    /** The side to move plays its first legal move. */
    move: async () => {
      const { game, who } = await mover();
      await games.submitMove(gameId, game.legalMoves[0] as string, { credential: { token: who.token } });
    },
    /** The side to move resigns. */
    resign: async () => {
      const { who } = await mover();
      await writer.apply(gameId, { type: 'resign' }, { credential: { token: who.token } });
    },
  };
}

async function register(run: Running, who: TestAccount, body: Record<string, unknown>) {
  const res = await request(run.url).post('/api/v1/account/webhooks').set(who.auth).send(body);
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string; cursor: number; url: string };
}

const feedOf = async (run: Running, who: TestAccount) =>
  run.app.services.feed.read({ token: who.token }, 0, 500);

const log = async (run: Running, who: TestAccount, id: string) =>
  (
    await request(run.url)
      .get(`/api/v1/account/webhooks/${id}/deliveries?limit=100`)
      .set(who.auth)
      .expect(200)
  ).body as { items: Array<Record<string, any>>; next: number | null };

describe.each<StoreKind>(['redis', 'memory'])('webhooks on the %s store', (store) => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.stop());
  beforeEach(() => {
    receiver.requests.length = 0;
    receiver.accepted.length = 0;
    receiver.answer = 200;
    receiver.delayMs = 0;
  });

  it('delivers every event of the feed once, in order, each signed with the endpoint’s secret', async () => {
    // The real worker loop, on a short interval.
    const run = await harness.start(store, { webhooks: { allowPrivate: true, intervalMs: 20 } });
    const [x, y] = [await signUp(run.app, 'x'), await signUp(run.app, 'y')];
    const hook = await register(run, x, { url: receiver.url('/boardhost?src=test') });
    expect(hook).toMatchObject({ cursor: 0, url: receiver.url('/boardhost?src=test') });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    const game = duel(run, x, y);
    await game.start();
    for (let i = 0; i < 6; i++) await game.move();
    await game.resign();
    const feed = await feedOf(run, x);
    expect(feed.events.map((e) => e.type)).toEqual([
      'challenge.accepted',
      'game.started',
      ...Array(6).fill('game.moved'),
      'game.finished',
    ]);
    const got = await receiver.waitForAccepted(feed.events.length);
    await new Promise((r) => setTimeout(r, 150));
    expect(receiver.requests).toHaveLength(feed.events.length);
    expect(got.map((r) => r.payload)).toEqual(feed.events.map((e) => ({ account: x.id, ...e })));
    for (const r of got) {
      expect(verifies(r, hook.secret)).toBe(true);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['boardhost-event']).toBe(r.payload.type);
      expect(r.headers['boardhost-delivery']).toMatch(UUID);
      expect(Math.abs(Number(r.headers['boardhost-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    }
    expect(new Set(got.map((r) => r.headers['boardhost-delivery'])).size).toBe(got.length);
    const view = await request(run.url).get(`/api/v1/account/webhooks/${hook.id}`).set(x.auth).expect(200);
    expect(view.body).toMatchObject({ id: hook.id, cursor: feed.last, pending: null, events: null });
    expect(view.body.secret).toBeUndefined();
    const attempts = (await log(run, x, hook.id)).items;
    expect(attempts.map((a) => [a.seq, a.attempt, a.outcome, a.statusCode])).toEqual(
      feed.events.map((e) => [e.seq, 1, 'delivered', 200]).reverse(),
    );
  });

  it('holds later events while one is retried, and sends what a stopped receiver missed in order once it is back', async () => {
    let clock = Date.parse('2031-03-01T12:00:00.000Z');
    const run = await harness.start(store, { now: () => new Date(clock) });
    const [x, y] = [await signUp(run.app, 'x'), await signUp(run.app, 'y')];
    const hook = await register(run, x, { url: receiver.url(), secret: 'client-secret-0123456789' });
    expect(hook.secret).toBe('client-secret-0123456789');
    const game = duel(run, x, y);
    await game.start();
    expect(await run.app.deliverWebhooks()).toBe(2);

    receiver.answer = 503;
    await game.move();
    await game.move();
    expect(await run.app.deliverWebhooks()).toBe(1);
    expect(await run.app.deliverWebhooks()).toBe(0);
    const pending = (await request(run.url).get(`/api/v1/account/webhooks/${hook.id}`).set(x.auth)).body;
    expect(pending).toMatchObject({
      cursor: 2,
      pending: { seq: 3, attempts: 1, nextAttemptAt: new Date(clock + 10 * SECOND).toISOString() },
    });

    await receiver.stop();
    await game.move();
    clock += 10 * SECOND;
    expect(await run.app.deliverWebhooks()).toBe(1);
    clock += 19 * SECOND;
    expect(await run.app.deliverWebhooks()).toBe(0);
    clock += 1 * SECOND;
    expect(await run.app.deliverWebhooks()).toBe(1);

    await receiver.start();
    receiver.answer = 200;
    clock += 40 * SECOND;
    expect(await run.app.deliverWebhooks()).toBe(3);
    expect(await run.app.deliverWebhooks()).toBe(0);
    expect(receiver.accepted.map((r) => r.payload.seq)).toEqual([1, 2, 3, 4, 5]);
    for (const r of receiver.requests) expect(verifies(r, hook.secret, clock)).toBe(true);
    // The 503 and the success of seq 3 are one delivery: one id.
    const third = receiver.requests.filter((r) => r.payload.seq === 3);
    expect(third.map((r) => r.answered)).toEqual([503, 200]);
    expect(new Set(third.map((r) => r.headers['boardhost-delivery'])).size).toBe(1);

    const attempts = (await log(run, x, hook.id)).items.reverse();
    expect(attempts.map((a) => [a.seq, a.attempt, a.outcome, a.statusCode])).toEqual([
      [1, 1, 'delivered', 200],
      [2, 1, 'delivered', 200],
      [3, 1, 'retrying', 503],
      [3, 2, 'retrying', null],
      [3, 3, 'retrying', null],
      [3, 4, 'delivered', 200],
      [4, 1, 'delivered', 200],
      [5, 1, 'delivered', 200],
    ]);
    expect(attempts[2]).toMatchObject({ error: 'HTTP 503', redelivery: false });
    expect(attempts[3]?.error).toMatch(/ECONNREFUSED/);
    const gaps = attempts.slice(2, 5).map((a) => Date.parse(a.nextAttemptAt) - Date.parse(a.at));
    expect(gaps).toEqual([10, 20, 40].map((s) => s * SECOND));
    expect(new Set(attempts.slice(2, 6).map((a) => a.deliveryId)).size).toBe(1);

    // Redelivery: the same delivery again, now, outside the stream.
    const fourth = attempts[6]!;
    const again = await request(run.url)
      .post(`/api/v1/account/webhooks/${hook.id}/deliveries/${fourth.deliveryId}/redeliver`)
      .set(x.auth)
      .expect(200);
    expect(again.body).toMatchObject({
      n: 9,
      deliveryId: fourth.deliveryId,
      seq: 4,
      attempt: 2,
      outcome: 'delivered',
      statusCode: 200,
      redelivery: true,
    });
    const resent = receiver.accepted.at(-1)!;
    expect(resent.payload).toEqual(receiver.accepted[3]!.payload);
    expect(resent.headers['boardhost-delivery']).toBe(fourth.deliveryId);
    expect(verifies(resent, hook.secret, clock)).toBe(true);
    expect((await log(run, x, hook.id)).items[0]).toEqual(again.body);
    const view = (await request(run.url).get(`/api/v1/account/webhooks/${hook.id}`).set(x.auth)).body;
    expect(view).toMatchObject({ cursor: 5, pending: null });
    expect(await run.app.deliverWebhooks()).toBe(0);
  });

  it('retries an event until 24 h after it happened, then gives it up and goes on', async () => {
    const t0 = Date.parse('2031-04-01T00:00:00.000Z');
    let clock = t0;
    const run = await harness.start(store, { now: () => new Date(clock) });
    const [x, y] = [await signUp(run.app, 'x'), await signUp(run.app, 'y')];
    const hook = await register(run, x, { url: receiver.url(), events: ['game.started', 'game.moved'] });
    receiver.answer = 500;
    const game = duel(run, x, y);
    await game.start(); // challenge.accepted (filtered out), game.started at t0
    for (let i = 0; i < 40; i++) {
      expect(await run.app.deliverWebhooks()).toBe(1);
      const view = (await request(run.url).get(`/api/v1/account/webhooks/${hook.id}`).set(x.auth)).body;
      if (!view.pending) break;
      clock = Date.parse(view.pending.nextAttemptAt);
    }
    expect(clock).toBe(t0 + RETRY_WINDOW_MS);
    const attempts = (await log(run, x, hook.id)).items.reverse();
    const expected: number[] = [];
    for (let t = 0, n = 1; t < RETRY_WINDOW_MS; n++) {
      expected.push(t);
      t = Math.min(t + retryDelayMs(n), RETRY_WINDOW_MS);
      if (t === RETRY_WINDOW_MS) expected.push(t);
    }
    expect(attempts.map((a) => Date.parse(a.at) - t0)).toEqual(expected);
    expect(attempts.every((a) => a.seq === 2 && a.statusCode === 500)).toBe(true);
    expect(attempts.at(-1)).toMatchObject({
      outcome: 'failed',
      nextAttemptAt: null,
      attempt: expected.length,
    });
    expect(attempts.slice(0, -1).every((a) => a.outcome === 'retrying')).toBe(true);
    const view = (await request(run.url).get(`/api/v1/account/webhooks/${hook.id}`).set(x.auth)).body;
    expect(view).toMatchObject({ cursor: 2, pending: null });

    // The endpoint goes on: the next event is delivered once the receiver answers.
    receiver.answer = 204;
    await game.move();
    expect(await run.app.deliverWebhooks()).toBe(1);
    expect(receiver.accepted.map((r) => [r.payload.seq, r.payload.type])).toEqual([[3, 'game.moved']]);
  });

  it('logs a skipped entry for events trimmed before they could be sent, then goes on', async () => {
    const t0 = Date.parse('2031-06-01T00:00:00.000Z');
    let clock = t0;
    const run = await harness.start(store, { now: () => new Date(clock) });
    const [x, y] = [await signUp(run.app, 'x'), await signUp(run.app, 'y')];
    const hook = await register(run, x, { url: receiver.url() });
    const game = duel(run, x, y);
    await game.start(); // x's seqs 1 and 2, at t0
    // No node delivers for longer than the feed keeps events (21 days).
    clock += 20 * DAY;
    await game.move(); // seq 3: seqs 1 and 2 are 20 days old, still kept
    const kept = async () => (await run.storage.feed.read(x.id, 0, 10)).events.map((e) => e.seq);
    expect(await kept()).toEqual([1, 2, 3]);
    clock += 2 * DAY;
    await game.move(); // seq 4 at 22 days: 1 and 2 are trimmed, 3 (2 days old) stays
    expect(await kept()).toEqual([3, 4]);
    expect(await run.app.deliverWebhooks()).toBe(2);
    expect(receiver.accepted.map((r) => r.payload.seq)).toEqual([3, 4]);
    const attempts = (await log(run, x, hook.id)).items.reverse();
    expect(attempts.map((a) => [a.outcome, a.seq, a.lastSeq, a.reason, a.type])).toEqual([
      ['skipped', 1, 2, 'trimmed', null],
      ['delivered', 3, null, null, 'game.moved'],
      ['delivered', 4, null, null, 'game.moved'],
    ]);
    expect(attempts[0]).toMatchObject({ attempt: 0, statusCode: null, redelivery: false });
    expect(attempts[0]!.error).toMatch(/Events 1–2 were trimmed from the feed/);
    // A skipped entry is no delivery: there is nothing to send again.
    const again = await request(run.url)
      .post(`/api/v1/account/webhooks/${hook.id}/deliveries/${attempts[0]!.deliveryId}/redeliver`)
      .set(x.auth);
    expectProblem(again, 410, 'EVENTS_EXPIRED');
    expect(receiver.requests).toHaveLength(2);
  });

  it('sends an endpoint’s backlog back to back on one kept-alive connection, in order', async () => {
    const run = await harness.start(store);
    const [x, y] = [await signUp(run.app, 'x'), await signUp(run.app, 'y')];
    await register(run, x, { url: receiver.url() });
    const game = duel(run, x, y);
    await game.start();
    for (let i = 0; i < 8; i++) await game.move();
    const feed = await feedOf(run, x);
    receiver.connections = 0;
    // One run delivers the whole backlog: no waiting for the next look.
    expect(await run.app.deliverWebhooks()).toBe(feed.last);
    expect(receiver.accepted.map((r) => r.payload.seq)).toEqual(feed.events.map((e) => e.seq));
    expect(receiver.connections).toBe(1);
    // The connection stays open for the next events.
    await game.resign();
    const later = await feedOf(run, x);
    expect(later.last).toBeGreaterThan(feed.last);
    expect(await run.app.deliverWebhooks()).toBe(later.last - feed.last);
    expect(receiver.connections).toBe(1);
    expect(receiver.accepted.map((r) => r.payload)).toEqual(
      later.events.map((e) => ({ account: x.id, ...e })),
    );
  });

  it('serves many endpoints at once, never two requests to one endpoint, each in order', async () => {
    const run = await harness.start(store, {
      webhooks: { allowPrivate: true, intervalMs: 0, concurrency: 4 },
    });
    const players = await Promise.all(Array.from({ length: 8 }, (_, i) => signUp(run.app, `p${i}`)));
    for (const p of players) await register(run, p, { url: receiver.url(`/${p.id}`) });
    for (let i = 0; i < players.length; i += 2) {
      const game = duel(run, players[i]!, players[i + 1]!);
      await game.start();
      for (let m = 0; m < 4; m++) await game.move();
    }
    receiver.delayMs = 20;
    receiver.maxInFlightPerPath = 0;
    receiver.maxInFlight = 0;
    const feeds = await Promise.all(players.map((p) => feedOf(run, p)));
    expect(await run.app.deliverWebhooks()).toBe(feeds.reduce((n, f) => n + f.last, 0));
    players.forEach((p, i) => {
      const got = receiver.accepted.filter((r) => r.payload.account === p.id).map((r) => r.payload.seq);
      expect(got).toEqual(feeds[i]!.events.map((e) => e.seq));
    });
    expect(receiver.maxInFlightPerPath).toBe(1);
    // Endpoints were served side by side, up to the concurrency.
    expect(receiver.maxInFlight).toBeGreaterThan(1);
    expect(receiver.maxInFlight).toBeLessThanOrEqual(4);
  });

  it('delivers only the event types an endpoint asks for', async () => {
    const run = await harness.start(store);
    const [x, y] = [await signUp(run.app, 'x'), await signUp(run.app, 'y')];
    const hook = await register(run, y, {
      url: receiver.url(),
      events: ['game.finished', 'challenge.received'],
    });
    const game = duel(run, x, y);
    await game.start();
    await game.move();
    await game.resign();
    expect(await run.app.deliverWebhooks()).toBe(2);
    const feed = await feedOf(run, y);
    expect(receiver.accepted.map((r) => r.payload)).toEqual(
      feed.events
        .filter((e) => e.type === 'game.finished' || e.type === 'challenge.received')
        .map((e) => ({ account: y.id, ...e })),
    );
    const view = (await request(run.url).get(`/api/v1/account/webhooks/${hook.id}`).set(y.auth)).body;
    expect(view).toMatchObject({ cursor: feed.last, events: ['game.finished', 'challenge.received'] });
  });

  it('gives up waiting for a receiver that does not answer in time', async () => {
    const run = await harness.start(store, {
      webhooks: { allowPrivate: true, intervalMs: 0, timeoutMs: 200 },
    });
    const [x, y] = [await signUp(run.app, 'x'), await signUp(run.app, 'y')];
    const hook = await register(run, x, { url: receiver.url() });
    receiver.answer = 'hang';
    await duel(run, x, y).start();
    expect(await run.app.deliverWebhooks()).toBe(1);
    const [attempt] = (await log(run, x, hook.id)).items;
    expect(attempt).toMatchObject({
      seq: 1,
      outcome: 'retrying',
      statusCode: null,
      error: 'no answer within 200 ms',
    });
    expect(attempt?.durationMs).toBeGreaterThanOrEqual(190);
  });

  it('refuses private and loopback targets at registration unless allowed', async () => {
    const run = await harness.start(store, { webhooks: { allowPrivate: false, intervalMs: 0 } });
    const x = await signUp(run.app, 'x');
    // The answer says the target is not allowed, never what the host resolved to (issue #28).
    const refused = async (url: string, _range: string) => {
      const res = await request(run.url).post('/api/v1/account/webhooks').set(x.auth).send({ url });
      expectProblem(res, 400, 'UNSAFE_WEBHOOK_URL');
      expect(res.body.range).toBeUndefined();
      expect(res.body.address).toBeUndefined();
      return res;
    };
    await refused(receiver.url(), 'loopback');
    const byName = await refused(`http://localhost:8080/hook`, 'loopback');
    expect(byName.body).toMatchObject({
      host: 'localhost',
      detail: 'The webhook URL is not allowed: webhooks go to public addresses only',
    });
    expect(JSON.stringify(byName.body)).not.toMatch(/127\.0\.0\.1|::1|loopback/);
    // Ports other than 80, 443, 8080 and 8443 are refused by default.
    const port = await refused(`http://localhost:${receiver.port}/hook`, 'port');
    expect(port.body).toMatchObject({ host: 'localhost', port: receiver.port });
    await refused('http://[::1]:8080/', 'loopback');
    await refused('http://[::ffff:127.0.0.1]/', 'loopback');
    await refused('http://0x7f000001/', 'loopback');
    await refused('http://10.1.2.3/hook', 'private');
    await refused('https://192.168.0.10/hook', 'private');
    await refused('http://169.254.169.254/latest/meta-data', 'link-local');
    await refused('http://100.64.0.1/', 'carrier-grade NAT');
    await refused('http://0.0.0.0:4000/', 'this network');
    await refused('http://[fd12::1]/', 'unique-local');
    for (const url of [
      'ftp://example.com/',
      'http://user:pw@example.com/',
      'http://example.com/#x',
      'not a url',
    ]) {
      const res = await request(run.url).post('/api/v1/account/webhooks').set(x.auth).send({ url });
      expectProblem(res, 400, 'INVALID_INPUT');
    }
    expect(receiver.requests).toEqual([]);
    expect((await request(run.url).get('/api/v1/account/webhooks').set(x.auth)).body).toEqual({ items: [] });
  });

  it('refuses at delivery a host that resolves to loopback when private targets are not allowed', async () => {
    let clock = Date.parse('2031-05-01T00:00:00.000Z');
    const now = () => new Date(clock);
    // Registered where private targets are allowed; delivered by a worker that does not allow them
    // (as after a configuration change, or DNS that answers differently later).
    const run = await harness.start(store, { now });
    const [x, y] = [await signUp(run.app, 'x'), await signUp(run.app, 'y')];
    const byName = await register(run, x, { url: `http://localhost:${receiver.port}/hook` });
    const literal = await register(run, y, { url: receiver.url() });
    await duel(run, x, y).start();
    const strict = new WebhookWorker(run.storage, now, { allowPrivate: false, ports: [[1, 65535]] });
    expect(await strict.deliverDue()).toBe(2);
    expect(receiver.requests).toEqual([]);
    const [named] = (await log(run, x, byName.id)).items;
    expect(named).toMatchObject({ outcome: 'retrying', statusCode: null });
    expect(named?.error).toBe('The webhook URL is not allowed: webhooks go to public addresses only');
    const [direct] = (await log(run, y, literal.id)).items;
    expect(direct?.error).toBe(
      'refused: The webhook URL is not allowed: webhooks go to public addresses only',
    );
    // Allowed again, the retries go through.
    clock += 10 * SECOND;
    const [fx, fy] = [await feedOf(run, x), await feedOf(run, y)];
    expect(await run.app.deliverWebhooks()).toBe(fx.last + fy.last);
    const to = (account: string) => receiver.accepted.filter((r) => r.payload.account === account);
    expect(to(x.id).map((r) => r.payload.seq)).toEqual(fx.events.map((e) => e.seq));
    expect(to(y.id).map((r) => r.payload.seq)).toEqual(fy.events.map((e) => e.seq));
  });

  it('keeps endpoints to their account, needs game:read, and limits endpoints per account', async () => {
    const run = await harness.start(store);
    const [x, y] = [await signUp(run.app, 'x'), await signUp(run.app, 'y')];
    const hook = await register(run, x, { url: receiver.url() });
    const path = `/api/v1/account/webhooks/${hook.id}`;
    expectProblem(await request(run.url).get(path).set(y.auth), 404, 'WEBHOOK_NOT_FOUND');
    expectProblem(await request(run.url).delete(path).set(y.auth), 404, 'WEBHOOK_NOT_FOUND');
    expectProblem(await request(run.url).get(`${path}/deliveries`).set(y.auth), 404, 'WEBHOOK_NOT_FOUND');
    expectProblem(await request(run.url).get(path), 401, 'UNAUTHENTICATED');
    expectProblem(
      await request(run.url).get('/api/v1/account/webhooks/short').set(x.auth),
      400,
      'INVALID_INPUT',
    );
    const writeOnly = (
      await request(run.url)
        .post('/api/v1/account/tokens')
        .set(x.auth)
        .send({ scopes: ['challenge:write'] })
    ).body.token as string;
    const scoped = await request(run.url)
      .post('/api/v1/account/webhooks')
      .set('Authorization', `Bearer ${writeOnly}`)
      .send({ url: receiver.url() });
    expectProblem(scoped, 403, 'MISSING_SCOPE');
    expect(scoped.body.required).toEqual(['game:read']);
    const unknown = `${path}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`;
    expectProblem(await request(run.url).post(unknown).set(x.auth), 404, 'DELIVERY_NOT_FOUND');
    for (const body of [
      { url: receiver.url(), secret: 'too short' },
      { url: receiver.url(), events: ['nope'] },
    ]) {
      expectProblem(
        await request(run.url).post('/api/v1/account/webhooks').set(x.auth).send(body),
        400,
        'INVALID_INPUT',
      );
    }
    for (let i = 1; i < 10; i++) await register(run, x, { url: receiver.url(`/${i}`) });
    const full = await request(run.url)
      .post('/api/v1/account/webhooks')
      .set(x.auth)
      .send({ url: receiver.url() });
    expectProblem(full, 409, 'TOO_MANY_WEBHOOKS');
    expect(full.body.max).toBe(10);
    const list = (await request(run.url).get('/api/v1/account/webhooks').set(x.auth).expect(200)).body.items;
    expect(list).toHaveLength(10);
    expect(list[0]).toMatchObject({ id: hook.id, url: receiver.url() });
    expect(list.every((w: Record<string, unknown>) => w.secret === undefined)).toBe(true);
    expect((await request(run.url).get('/api/v1/account/webhooks').set(y.auth)).body).toEqual({ items: [] });
    // Deleted: gone, and sent nothing more.
    await request(run.url).delete(path).set(x.auth).expect(204);
    expectProblem(await request(run.url).get(path).set(x.auth), 404, 'WEBHOOK_NOT_FOUND');
    for (const w of list.slice(1))
      await request(run.url).delete(`/api/v1/account/webhooks/${w.id}`).set(x.auth).expect(204);
    await duel(run, x, y).start();
    expect(await run.app.deliverWebhooks()).toBe(0);
    expect(receiver.requests).toEqual([]);
  });

  it('offers the same over GraphQL', async () => {
    const run = await harness.start(store);
    const [x, y] = [await signUp(run.app, 'x'), await signUp(run.app, 'y')];
    const created = await gql(
      run.url,
      `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { id url events secret cursor } }`,
      { input: { url: receiver.url(), events: ['game.started'] } },
      x.auth,
    );
    const hook = created.body.data?.createWebhook;
    expect(hook).toMatchObject({ url: receiver.url(), events: ['game.started'], cursor: 0 });
    await duel(run, x, y).start();
    expect(await run.app.deliverWebhooks()).toBe(1);
    expect(verifies(receiver.accepted[0]!, hook.secret)).toBe(true);
    const listed = await gql(
      run.url,
      `query ($id: ID!) { webhooks { id cursor pending { seq } }
         webhookDeliveries(id: $id, limit: 10) { items { deliveryId seq type outcome statusCode } next } }`,
      { id: hook.id },
      x.auth,
    );
    expect(listed.body.data?.webhooks).toEqual([{ id: hook.id, cursor: 2, pending: null }]);
    const [delivery] = listed.body.data!.webhookDeliveries.items;
    expect(delivery).toMatchObject({ seq: 2, type: 'game.started', outcome: 'delivered', statusCode: 200 });
    const again = await gql(
      run.url,
      `mutation ($id: ID!, $d: ID!) { redeliverWebhook(id: $id, deliveryId: $d) { deliveryId attempt redelivery } }`,
      { id: hook.id, d: delivery.deliveryId },
      x.auth,
    );
    expect(again.body.data?.redeliverWebhook).toEqual({
      deliveryId: delivery.deliveryId,
      attempt: 2,
      redelivery: true,
    });
    expect(receiver.accepted).toHaveLength(2);
    const foreign = await gql(
      run.url,
      `mutation ($id: ID!) { deleteWebhook(id: $id) { id } }`,
      { id: hook.id },
      y.auth,
    );
    expect(foreign.body.errors?.[0]?.extensions?.code).toBe('WEBHOOK_NOT_FOUND');
    const deleted = await gql(
      run.url,
      `mutation ($id: ID!) { deleteWebhook(id: $id) { id } }`,
      { id: hook.id },
      x.auth,
    );
    expect(deleted.body.data?.deleteWebhook).toEqual({ id: hook.id });
    const unsafe = await gql(
      run.url,
      `mutation { createWebhook(input: { url: "ftp://example.com/" }) { id } }`,
      {},
      x.auth,
    );
    expect(unsafe.body.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
  });
});

describe('webhook signatures', () => {
  const secret = 'whsec_0123456789abcdefghij';
  const body =
    '{"account":"ann","epoch":"e1","seq":1,"type":"game.started","at":"2031-01-01T00:00:00.000Z","data":{}}';
  const timestamp = 1_900_000_000;
  const now = timestamp * 1000;
  let signature = '';
  beforeAll(async () => {
    // Signed by the server's own code path: a real delivery to a real receiver.
    const receiver = await startReceiver();
    // send() needs no storage.
    const worker = new WebhookWorker({} as never, () => new Date(now), { allowPrivate: true });
    const event = {
      seq: 1,
      epoch: 'e1',
      type: 'game.started' as const,
      at: '2031-01-01T00:00:00.000Z',
      data: {},
    };
    const hook = {
      id: 'x',
      account: 'ann',
      url: receiver.url(),
      events: null,
      secret,
      createdBy: 't',
      createdAt: '',
    };
    await worker.send(hook, event, '00000000-0000-4000-8000-000000000000', new Date(now));
    const [received] = receiver.requests;
    await receiver.stop();
    expect(received?.body).toBe(body);
    expect(received?.headers['boardhost-timestamp']).toBe(String(timestamp));
    signature = received?.headers['boardhost-signature'] as string;
  });
  const check = (overrides: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
    verifyWebhookSignature({ secret, body, timestamp: String(timestamp), signature, now, ...overrides });

  it('accepts the signature as sent, and as bytes', () => {
    expect(signature).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(check({})).toBe(true);
    expect(check({ body: Buffer.from(body) })).toBe(true);
    expect(check({ signature: `v1=${'0'.repeat(64)}, ${signature}` })).toBe(true);
  });

  it('refuses a tampered body, signature, timestamp or secret', () => {
    expect(check({ body: body.replace('"seq":1', '"seq":2') })).toBe(false);
    expect(check({ body: `${body} ` })).toBe(false);
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
    expect(check({ signature: flipped })).toBe(false);
    expect(check({ signature: signature.replace('v1=', 'v0=') })).toBe(false);
    expect(check({ signature: signature.toUpperCase() })).toBe(false);
    expect(check({ timestamp: String(timestamp + 1) })).toBe(false);
    expect(check({ secret: `${secret}x` })).toBe(false);
    expect(check({ signature: undefined })).toBe(false);
    expect(check({ timestamp: undefined })).toBe(false);
    expect(check({ timestamp: '1.9e9' })).toBe(false);
  });

  it('refuses timestamps more than 5 minutes away', () => {
    expect(check({ now: now + 300 * SECOND })).toBe(true);
    expect(check({ now: now + 301 * SECOND })).toBe(false);
    expect(check({ now: now - 301 * SECOND })).toBe(false);
    expect(check({ now: now + 3600 * SECOND, toleranceSeconds: 3600 })).toBe(true);
  });
});

describe('webhooks across nodes (Redis)', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.stop());

  it('two nodes delivering at once send each event once, in order', async () => {
    const prefix = uniquePrefix('webhooks');
    const a = await harness.start('redis', { prefix });
    const b = await harness.start('redis', { prefix });
    const [x, y] = [await signUp(a.app, 'x'), await signUp(a.app, 'y')];
    await register(a, x, { url: receiver.url('/x') });
    await register(b, y, { url: receiver.url('/y') });
    const game = duel(a, x, y);
    await game.start();
    for (let i = 0; i < 10; i++) await game.move();
    const rounds = await Promise.all([a, b].map((run) => run.app.deliverWebhooks()));
    const [fx, fy] = [await feedOf(a, x), await feedOf(a, y)];
    expect(rounds.reduce((sum, n) => sum + n, 0)).toBe(fx.last + fy.last);
    const seqsTo = (account: string) =>
      receiver.accepted.filter((r) => r.payload.account === account).map((r) => r.payload.seq);
    expect(seqsTo(x.id)).toEqual(fx.events.map((e) => e.seq));
    expect(seqsTo(y.id)).toEqual(fy.events.map((e) => e.seq));
    expect(receiver.requests).toHaveLength(fx.last + fy.last);
  });

  it('a node that stops mid-attempt leaves the event to the others at once', async () => {
    const prefix = uniquePrefix('webhooks');
    const a = await harness.start('redis', {
      prefix,
      webhooks: { allowPrivate: true, intervalMs: 0, timeoutMs: 20_000 },
    });
    const b = await harness.start('redis', { prefix });
    const [x, y] = [await signUp(a.app, 'x'), await signUp(a.app, 'y')];
    const hook = await register(a, x, { url: receiver.url() });
    receiver.requests.length = 0;
    receiver.accepted.length = 0;
    receiver.answer = 'hang';
    await duel(a, x, y).start();
    const running = a.app.deliverWebhooks();
    for (let i = 0; i < 200 && receiver.requests.length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    const started = Date.now();
    await a.app.stop();
    expect(await running).toBe(0);
    expect(Date.now() - started).toBeLessThan(2000);
    receiver.answer = 200;
    expect(await b.app.deliverWebhooks()).toBe(2);
    expect(receiver.accepted.map((r) => r.payload.seq)).toEqual([1, 2]);
    // The abandoned attempt and the other node's are one delivery: one Boardhost-Delivery id.
    const [abandoned, redelivered] = receiver.requests.filter((r) => r.payload.seq === 1);
    expect(abandoned?.answered).toBe('nothing');
    expect(redelivered?.headers['boardhost-delivery']).toMatch(UUID);
    expect(redelivered?.headers['boardhost-delivery']).toBe(abandoned?.headers['boardhost-delivery']);
    // The abandoned attempt was not logged; the delivery kept no state from it.
    const attempts = (await log(b, x, hook.id)).items;
    expect(attempts.map((t) => [t.seq, t.attempt, t.outcome])).toEqual([
      [2, 1, 'delivered'],
      [1, 1, 'delivered'],
    ]);
  });
});
