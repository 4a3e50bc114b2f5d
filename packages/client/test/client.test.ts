// @boardhost/client against a real server: typed calls and errors, one Idempotency-Key per logical
// write kept across retries, 429 retried after Retry-After, If-Match on moves, and the feed iterator
// reconnecting across a server restart without losing or repeating an event.
import { createApp } from '../../../src/app';
import { DEFAULT_QUOTAS } from '../../../src/service/accounts/quotas';
import { createRedisStorage } from '../../../src/store/redis';
import { signUp } from '../../../test/support/accounts';
import { appHarness } from '../../../test/support/app';
import { REDIS_URL, uniquePrefix } from '../../../test/support/redis';
import { BoardhostError, createBoardhost, isBoardhostError, ok, type FeedItem } from '../src';

const harness = appHarness();
afterAll(() => harness.stopAll());

/** A fetch that records every request it passes on (method, path, Idempotency-Key, answer status). */
function recordingFetch(drop?: (request: Request, attempt: number) => boolean) {
  const seen: { method: string; path: string; key: string | null; status: number | 'dropped' }[] = [];
  const wrapped = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const response = await fetch(request.clone());
    const entry = {
      method: request.method,
      path: new URL(request.url).pathname,
      key: request.headers.get('idempotency-key'),
    };
    if (drop?.(request, seen.length)) {
      seen.push({ ...entry, status: 'dropped' });
      throw new TypeError('fetch failed'); // the answer is lost on the way back
    }
    seen.push({ ...entry, status: response.status });
    return response;
  };
  return { seen, fetch: wrapped as typeof fetch };
}

it('calls typed operations and throws typed errors by code', async () => {
  const { url } = await harness.start('redis');
  const { api } = createBoardhost({ baseUrl: url });
  const kinds = await ok(api.GET('/api/v1/kinds'));
  expect(kinds.items.map((k) => k.kind).sort()).toEqual(
    ['congkak', 'congo', 'kalah', 'oware', 'russian-draughts'].sort(),
  );
  const missing = await ok(api.GET('/api/v1/games/{id}', { params: { path: { id: 'nosuchgame00' } } })).catch(
    (error: unknown) => error,
  );
  expect(missing).toBeInstanceOf(BoardhostError);
  expect(isBoardhostError(missing, 'GAME_NOT_FOUND')).toBe(true);
  expect((missing as BoardhostError).status).toBe(404);
  expect((missing as BoardhostError).problem.type).toMatch(/^urn:boardhost:problem:/);
});

it('sends one Idempotency-Key per write and keeps it when retrying a lost answer', async () => {
  const { url, app } = await harness.start('redis');
  const ann = await signUp(app, 'ann');
  // The first answer to the create is lost: the SDK sends the same request again with the same key,
  // and the server answers with the challenge it made the first time (one challenge, not two).
  const recorder = recordingFetch((request, attempt) => request.method === 'POST' && attempt === 0);
  const { api } = createBoardhost({ baseUrl: url, token: ann.token, fetch: recorder.fetch });
  const bob = await signUp(app, 'bob');
  const challenge = await ok(api.POST('/api/v1/challenges', { body: { to: bob.username, kind: 'kalah' } }));
  expect(recorder.seen.map((s) => s.status)).toEqual(['dropped', 201]);
  const [first, second] = recorder.seen;
  expect(first!.key).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(second!.key).toBe(first!.key);
  const mine = await ok(api.GET('/api/v1/challenges'));
  expect(mine.items.filter((c) => c.destination === bob.username).map((c) => c.id)).toEqual([challenge.id]);

  // Another logical write gets another key.
  await ok(api.POST('/api/v1/challenges', { body: { to: bob.username, kind: 'oware' } }));
  expect(recorder.seen[2]!.key).not.toBe(first!.key);
});

it('waits as Retry-After says when rate limited, and then succeeds', async () => {
  const { url, app } = await harness.start('redis', {
    app: { rateLimits: { perToken: 3, perIp: 1_000_000, windowSeconds: 1 } },
  });
  const ann = await signUp(app, 'limited');
  const recorder = recordingFetch();
  const { api } = createBoardhost({ baseUrl: url, token: ann.token, fetch: recorder.fetch });
  const answers = await Promise.all(Array.from({ length: 6 }, () => ok(api.GET('/api/v1/account'))));
  expect(answers.map((a) => a.id)).toEqual(Array(6).fill(ann.id));
  expect(recorder.seen.filter((s) => s.status === 429).length).toBeGreaterThan(0);
  expect(recorder.seen.filter((s) => s.status === 200)).toHaveLength(6);
});

it('plays moves with If-Match: a stale version is refused, a repeat plays once', async () => {
  const { url, app } = await harness.start('redis');
  const [ann, bob] = [await signUp(app, 'ann'), await signUp(app, 'bob')];
  const annApi = createBoardhost({ baseUrl: url, token: ann.token });
  const bobApi = createBoardhost({ baseUrl: url, token: bob.token });
  const challenge = await ok(
    annApi.api.POST('/api/v1/challenges', {
      body: { to: bob.username, kind: 'kalah', starts: 'challenger' },
    }),
  );
  const accepted = await ok(
    bobApi.api.POST('/api/v1/challenges/{id}/accept', { params: { path: { id: challenge.id } } }),
  );
  const id = accepted.gameId!;
  const game = await ok(annApi.api.GET('/api/v1/games/{id}', { params: { path: { id } } }));
  const first = game.legalMoves[0]!;
  const after = await annApi.move(game, first);
  expect(after.version).toBe(game.version + 1);
  // The same decision again (e.g. seen twice): the server answers as the first time, nothing more.
  const again = await annApi.move(game, first);
  expect(again.version).toBe(after.version);
  expect((await ok(annApi.api.GET('/api/v1/games/{id}', { params: { path: { id } } }))).ply).toBe(after.ply);
  // Another move on the old version: refused, the game untouched.
  const other = game.legalMoves.find((m) => m !== first)!;
  const stale = await annApi.move(game, other).catch((e: unknown) => e);
  expect(isBoardhostError(stale, 'VERSION_CONFLICT', 'NOT_YOUR_TURN')).toBe(true);
  expect((await ok(annApi.api.GET('/api/v1/games/{id}', { params: { path: { id } } }))).version).toBe(
    after.version,
  );
});

it('the feed reconnects across a server restart and resumes after the last event, in order', async () => {
  const prefix = uniquePrefix('sdkfeed');
  const first = await harness.start('redis', { prefix });
  const port = Number(new URL(first.url).port);
  const [ann, bob] = [await signUp(first.app, 'ann'), await signUp(first.app, 'bob')];
  const client = createBoardhost({ baseUrl: first.url, token: bob.token });
  const annApi = createBoardhost({ baseUrl: first.url, token: ann.token }).api;
  const challenge = () =>
    ok(annApi.POST('/api/v1/challenges', { body: { to: bob.username, kind: 'kalah' } })).then((c) => c.id);

  const items: FeedItem[] = [];
  const reconnects: unknown[] = [];
  const feed = client.feed({ after: 0, reconnectDelayMs: 100, onReconnect: (r) => reconnects.push(r) });
  const next = async () => {
    const { value } = await feed.next();
    items.push(value as FeedItem);
    return value as FeedItem;
  };
  expect(await next()).toMatchObject({ type: 'ready', resync: false });
  const before = [await challenge(), await challenge()];
  for (const id of before)
    expect(await next()).toMatchObject({ type: 'challenge.received', data: { challenge: { id } } });

  // The server goes away; challenges are made while no server holds the feed open (straight in
  // the store, by a second app that is not listening); then a server comes back on the same port.
  const pending = next();
  await first.app.stop();
  const second = await createApp({
    storage: await createRedisStorage(REDIS_URL, prefix),
    sweepIntervalMs: 0,
    // Five challenges from ann to bob in all: above the default per-pair cap of open challenges.
    quotas: { ...DEFAULT_QUOTAS, challengesPerPair: 10 },
  });
  try {
    const during = [];
    for (let i = 0; i < 3; i++) {
      during.push(
        (await second.services.challenges.create({ token: ann.token }, { to: bob.username, kind: 'kalah' }))
          .id,
      );
    }
    await second.listen(port, '127.0.0.1');
    expect(await pending).toMatchObject({ type: 'ready', resync: false });
    for (const id of during)
      expect(await next()).toMatchObject({ type: 'challenge.received', data: { challenge: { id } } });
    expect(reconnects.length).toBeGreaterThan(0);
    const seqs = items.filter((i) => i.type !== 'ready').map((i) => (i as { seq: number }).seq);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i)); // no gap, no repeat
    await feed.return(undefined);
  } finally {
    await second.stop();
  }
});
