// GET /api/v1/account/events: content negotiation, the `ready` start, resuming after a disconnect
// (NDJSON ?after=, SSE Last-Event-ID) with every missed event once and in order, refusals before
// the stream starts, EVENTS_EXPIRED on an injected clock, and shutdown ending open streams.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import request from 'supertest';
import * as A from '../../src/transport/rest/accounts.schemas';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type Running, type StoreKind } from '../support/app';
import { openFeed, type FeedConnection, type FeedMessage } from '../support/feed-client';
import { expectProblem } from '../support/problem';

const harness = appHarness();
afterAll(() => harness.stopAll());

const DAY = 24 * 60 * 60 * 1000;

/** The status, headers and first bytes of a GET (then hangs up), for streams and odd Accept headers. */
function peek(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        // Enough once the `ready` line or event is complete (or a whole problem document came).
        if (/\n\n|^\{.*\}\n/s.test(text)) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
          req.destroy();
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A Kalah game between two new bots started by a direct challenge; `x` moves first. */
async function kalahGame(run: Running) {
  const x = await signUp(run.app, 'x', 'bot');
  const y = await signUp(run.app, 'y', 'bot');
  const challenge = await request(run.url)
    .post('/api/v1/challenges')
    .set(x.auth)
    .send({ to: y.username, kind: 'kalah', starts: 'challenger' })
    .expect(201);
  const accepted = await request(run.url)
    .post(`/api/v1/challenges/${challenge.body.id}/accept`)
    .set(y.auth)
    .expect(200);
  const seats: Record<number, TestAccount> = { 0: x, 1: y };
  const id: string = accepted.body.gameId;
  /** The side to move plays its first legal move; returns the notation. */
  const move = async (): Promise<string> => {
    const game = (await request(run.url).get(`/api/v1/games/${id}`).expect(200)).body;
    const mover = seats[game.toMove] as TestAccount;
    const res = await request(run.url)
      .post(`/api/v1/games/${id}/moves`)
      .set(mover.auth)
      .set('If-Match', `"${game.version}"`)
      .send({ move: game.legalMoves[0] })
      .expect(200);
    return res.body.moves.at(-1).notation;
  };
  return { x, y, id, move };
}

/** Takes `count` messages, checking each against the event schema (and SSE id/event fields). */
async function take(feed: FeedConnection, count: number): Promise<FeedMessage[]> {
  const messages: FeedMessage[] = [];
  for (let i = 0; i < count; i++) {
    const message = await feed.next();
    expect(A.FeedEvent.parse(message.data)).toEqual(message.data);
    expect(message.type).toBe(message.data.type);
    if (message.id !== undefined) expect(message.id).toBe(`${message.data.epoch}:${message.data.seq}`);
    messages.push(message);
  }
  return messages;
}

const seqs = (messages: FeedMessage[]) => messages.map((m) => m.data.seq);

describe.each<StoreKind>(['redis', 'memory'])('the account event feed on the %s store', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });
  const eventsUrl = () => `${run.url}/api/v1/account/events`;

  it('negotiates NDJSON (the default), Server-Sent Events or a JSON page', async () => {
    const { x } = await kalahGame(run);
    // x heard challenge.accepted and game.started: seqs 1 and 2.
    const auth = { authorization: x.auth.authorization };
    for (const accept of [undefined, '*/*', 'application/x-ndjson', 'image/png']) {
      const res = await peek(eventsUrl(), accept === undefined ? auth : { ...auth, accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      expect(res.headers.vary).toMatch(/Accept/);
      expect(res.text).toMatch(/^\{"type":"ready","last":2,"epoch":"[A-Za-z0-9_-]+"\}\n/);
    }
    const sse = await peek(eventsUrl(), { ...auth, accept: 'text/event-stream' });
    expect(sse.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(sse.headers['cache-control']).toBe('no-cache, no-transform');
    expect(sse.text).toMatch(/^retry: 2000\n\n/);
    const sseReady = await openFeed(run.url, x.token, { format: 'sse' });
    expect(sseReady.last).toBe(2);
    expect(sseReady.retry).toBe(2000);
    sseReady.close();

    const page = await request(run.url)
      .get('/api/v1/account/events')
      .set(auth)
      .set('Accept', 'application/json');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^application\/json/);
    expect(A.FeedPage.parse(page.body)).toEqual(page.body);
    expect(page.body.last).toBe(2);
    expect(page.body.events.map((e: { type: string }) => e.type)).toEqual([
      'challenge.accepted',
      'game.started',
    ]);
    const second = await request(run.url)
      .get('/api/v1/account/events?after=1&limit=1')
      .set(auth)
      .set('Accept', 'application/json')
      .expect(200);
    expect(second.body).toEqual({ events: [page.body.events[1]], next: 2, last: 2, epoch: page.body.epoch });
    const empty = await request(run.url)
      .get('/api/v1/account/events?after=2')
      .set(auth)
      .set('Accept', 'application/json')
      .expect(200);
    expect(empty.body).toEqual({ events: [], next: 2, last: 2, epoch: page.body.epoch });
  });

  it('starts a stream without `after` from now, announcing the newest seq', async () => {
    const game = await kalahGame(run);
    const feed = await openFeed(run.url, game.x.token, { format: 'ndjson' });
    expect(feed.last).toBe(2);
    const played = await game.move();
    const [moved] = await take(feed, 1);
    expect(moved!.data).toMatchObject({ seq: 3, type: 'game.moved', data: { move: played, seat: 0 } });
    // The game's head (no moves: an event costs the same however long the game is) and the move.
    const { data } = moved!.data;
    const { moves, ...head } = (await request(run.url).get(`/api/v1/games/${data.game.id}`).expect(200)).body;
    expect(data.game).toEqual(head);
    expect(data.played).toEqual(moves[0]);
    expect(data.played).toMatchObject({ ply: 1, notation: played, seat: 0, details: { legal: true } });
    expect(feed.buffered).toBe(0);
    feed.close();
  });

  it('resumes NDJSON after the last seq seen: each missed event once, in order, then live ones', async () => {
    const game = await kalahGame(run);
    const first = await openFeed(run.url, game.x.token, { format: 'ndjson', after: 0 });
    expect(first.last).toBe(0);
    const seen = await take(first, 2);
    expect(seen.map((m) => m.type)).toEqual(['challenge.accepted', 'game.started']);
    const live = await game.move();
    const [third] = await take(first, 1);
    expect(third!.data.data.move).toBe(live);
    first.close();
    await first.ended;

    // Three moves while x is away.
    const missed = [await game.move(), await game.move(), await game.move()];
    const again = await openFeed(run.url, game.x.token, { format: 'ndjson', after: 3 });
    expect(again.last).toBe(3);
    const caughtUp = await take(again, 3);
    expect(seqs(caughtUp)).toEqual([4, 5, 6]);
    expect(caughtUp.map((m) => m.data.data.move)).toEqual(missed);
    expect(caughtUp.map((m) => m.data.data.game.ply)).toEqual([2, 3, 4]);
    const later = [await game.move(), await game.move()];
    const liveOnes = await take(again, 2);
    expect(seqs(liveOnes)).toEqual([7, 8]);
    expect(liveOnes.map((m) => m.data.data.move)).toEqual(later);
    expect(again.buffered).toBe(0);
    again.close();
  });

  it('resumes SSE from Last-Event-ID (which wins over ?after=)', async () => {
    const game = await kalahGame(run);
    const first = await openFeed(run.url, game.y.token, { format: 'sse', after: 0 });
    const seen = await take(first, 3);
    expect(seen.map((m) => m.type)).toEqual(['challenge.received', 'challenge.accepted', 'game.started']);
    first.close();
    const missed = [await game.move(), await game.move(), await game.move()];
    // A browser reconnects to the same URL (with ?after=0) and sends the last id it saw.
    const again = await openFeed(run.url, game.y.token, {
      format: 'sse',
      after: 0,
      lastEventId: seen[2]!.id,
    });
    expect(seen[2]!.id).toMatch(/^[A-Za-z0-9_-]+:3$/);
    expect(again.last).toBe(3);
    const caughtUp = await take(again, 3);
    expect(seqs(caughtUp)).toEqual([4, 5, 6]);
    expect(caughtUp.map((m) => m.data.data.move)).toEqual(missed);
    const live = await game.move();
    const [next] = await take(again, 1);
    expect(next!.data).toMatchObject({ seq: 7, type: 'game.moved', data: { move: live } });
    expect(again.buffered).toBe(0);
    again.close();
  });

  it('refuses before streaming: after beyond the newest event, malformed cursors, credentials, scopes', async () => {
    const { x } = await kalahGame(run);
    const get = (query: string, accept: string, extra: Record<string, string> = {}) =>
      request(run.url).get(`/api/v1/account/events${query}`).set(x.auth).set('Accept', accept).set(extra);
    for (const accept of ['application/x-ndjson', 'text/event-stream', 'application/json']) {
      const beyond = await get('?after=3', accept);
      expectProblem(beyond, 400, 'INVALID_INPUT');
      expect(beyond.body).toMatchObject({ field: 'after', last: 2 });
      expectProblem(await get('?after=-1', accept), 400, 'INVALID_INPUT');
      expectProblem(await get('?after=two', accept), 400, 'INVALID_INPUT');
      expectProblem(await get('?after=1&epoch=not%20an%20epoch', accept), 400, 'INVALID_INPUT');
    }
    const header = await get('', 'text/event-stream', { 'Last-Event-ID': '9' });
    expectProblem(header, 400, 'INVALID_INPUT');
    expect(header.body.last).toBe(2);
    expectProblem(await get('', 'text/event-stream', { 'Last-Event-ID': 'abc' }), 400, 'INVALID_INPUT');
    expectProblem(await get('?limit=501', 'application/json'), 400, 'INVALID_INPUT');
    expectProblem(
      await request(run.url).get('/api/v1/account/events').set('Accept', 'text/event-stream'),
      401,
      'UNAUTHENTICATED',
    );
    const writeOnly = (
      await request(run.url)
        .post('/api/v1/account/tokens')
        .set(x.auth)
        .send({ scopes: ['challenge:write'] })
        .expect(201)
    ).body.token;
    const scoped = await request(run.url)
      .get('/api/v1/account/events')
      .set('Authorization', `Bearer ${writeOnly}`)
      .set('Accept', 'application/x-ndjson');
    expectProblem(scoped, 403, 'MISSING_SCOPE');
    expect(scoped.body.required).toEqual(['game:read']);
  });
});

describe.each<StoreKind>(['redis', 'memory'])('feed retention on the %s store', (store) => {
  it('answers 410 EVENTS_EXPIRED when the events after `after` were trimmed', async () => {
    let clock = Date.now();
    const run = await harness.start(store, { now: () => new Date(clock) });
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'human');
    const challenge = () =>
      request(run.url)
        .post('/api/v1/challenges')
        .set(ann.auth)
        .send({ to: bob.username, kind: 'kalah' })
        .expect(201);
    await challenge(); // bob's seq 1
    clock += 20 * DAY;
    await challenge(); // bob's seq 2; seq 1 is 20 days old and kept
    expect(
      (
        await request(run.url)
          .get('/api/v1/account/events?after=0')
          .set(bob.auth)
          .set('Accept', 'application/json')
          .expect(200)
      ).body.events.map((e: { seq: number }) => e.seq),
    ).toEqual([1, 2]);
    clock += 2 * DAY;
    await challenge(); // bob's seq 3; seq 1 is now older than the 21 days kept
    const get = (query: string, accept: string) =>
      request(run.url).get(`/api/v1/account/events${query}`).set(bob.auth).set('Accept', accept);
    for (const accept of ['application/json', 'application/x-ndjson', 'text/event-stream']) {
      const expired = await get('?after=0', accept);
      expectProblem(expired, 410, 'EVENTS_EXPIRED');
      expect(expired.body).toMatchObject({ first: 2, last: 3 });
    }
    const kept = await get('?after=1', 'application/json').expect(200);
    expect(kept.body.events.map((e: { seq: number }) => e.seq)).toEqual([2, 3]);
    const resumed = await openFeed(run.url, bob.token, { format: 'sse', lastEventId: 1 });
    const [event] = await take(resumed, 1);
    expect(event!.data.seq).toBe(2);
    resumed.close();
  });
});

describe.each<StoreKind>(['redis', 'memory'])('shutdown on the %s store', (store) => {
  it('ends open feed streams with a last message saying why', async () => {
    const run = await harness.start(store);
    const ann = await signUp(run.app, 'ann', 'human');
    const sse = await openFeed(run.url, ann.token, { format: 'sse' });
    const ndjson = await openFeed(run.url, ann.token, { format: 'ndjson' });
    await run.app.stop();
    await Promise.all([sse.ended, ndjson.ended]);
    expect((await sse.next()).type).toBe('shutdown');
    expect((await ndjson.next()).type).toBe('shutdown');
    await expect(sse.next(100)).rejects.toThrow(/ended/);
  });
});
