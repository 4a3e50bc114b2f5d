// Push-mode bots end to end: a local move server (express on 127.0.0.1, allowed the way the webhook
// tests allow private targets) is registered as an account's move endpoint; on each of its turns the
// server POSTs the turn, signed like a webhook, and plays the move the answer names. Whole games
// against a player on REST, bad answers retried within a turn, a turn given up after its attempts,
// and two nodes on one Redis that play each version once.
import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { verifyWebhookSignature } from '../../src/service/delivery/webhook-signature';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, chooser, gql, type Running, type StoreKind } from '../support/app';
import { expectProblem } from '../support/problem';
import { uniquePrefix } from '../support/redis';

const harness = appHarness();
const servers: Server[] = [];
afterAll(async () => {
  await harness.stopAll();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

interface Turn {
  readonly verified: boolean;
  readonly headers: Record<string, unknown>;
  readonly body: {
    type: string;
    attempt: number;
    attempts: number;
    account: string;
    seat: string;
    legalMoves: string[];
    timeLeftMs: number | null;
    answerWithinMs: number;
    game: { id: string; version: number; moves: string[]; toMoveName: string; position: string };
  };
  /** What the move server answered: status and body. */
  answer?: { status: number; body: unknown };
}

/** A move server: `decide` answers each turn (default: a deterministic legal move). */
async function moveServer(secret: () => string) {
  const turns: Turn[] = [];
  const choose = chooser(5);
  const server = {
    turns,
    decide: (turn: Turn['body']): { status: number; body: unknown } => ({
      status: 200,
      body: { move: choose(turn.legalMoves) },
    }),
    url: '',
  };
  const app = express();
  app.post('/move', express.raw({ type: () => true }), (req, res) => {
    const raw = (req.body as Buffer).toString('utf8');
    const turn: Turn = {
      verified: verifyWebhookSignature({
        secret: secret(),
        body: raw,
        timestamp: req.headers['boardhost-timestamp'] as string,
        signature: req.headers['boardhost-signature'] as string,
      }),
      headers: req.headers,
      body: JSON.parse(raw),
    };
    turn.answer = server.decide(turn.body);
    turns.push(turn);
    res.status(turn.answer.status).json(turn.answer.body);
  });
  const http = createServer(app);
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/move`;
  return server;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** bob challenges the push bot to a small Kalah game (bob first); the bot accepts over REST. */
async function startGame(run: Running, bot: TestAccount, bob: TestAccount): Promise<string> {
  const challenge = await request(run.url)
    .post('/api/v1/challenges')
    .set(bob.auth)
    .send({ to: bot.username, kind: 'kalah', options: { houses: 4, seeds: 3 }, starts: 'challenger' });
  expect(challenge.status).toBe(201);
  const accepted = await request(run.url)
    .post(`/api/v1/challenges/${challenge.body.id}/accept`)
    .set(bot.auth);
  expect(accepted.status).toBe(200);
  return accepted.body.gameId as string;
}

/** bob plays (REST) whenever it is his turn; the bot's turns are played by the server. */
async function playOut(run: Running, gameId: string, bob: TestAccount) {
  const choose = chooser(9);
  for (let i = 0; i < 300; i++) {
    const game = await until('bob’s turn or the end', async () => {
      const g = (await request(run.url).get(`/api/v1/games/${gameId}`)).body;
      return g.status === 'finished' || g.toMove === 0 ? g : undefined;
    });
    if (game.status === 'finished') return game;
    const moved = await request(run.url)
      .post(`/api/v1/games/${gameId}/moves`)
      .set(bob.auth)
      .set('If-Match', `"${game.version}"`)
      .send({ move: choose(game.legalMoves) });
    expect(moved.status).toBe(200);
  }
  throw new Error('the game did not end');
}

async function register(run: Running, bot: TestAccount, url: string) {
  const res = await request(run.url).put('/api/v1/account/push-endpoint').set(bot.auth).send({ url });
  expect(res.status).toBe(200);
  return res.body as { url: string; secret: string; createdAt: string };
}

describe.each<StoreKind>(['memory', 'redis'])('push-mode bots (%s store)', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store, { app: { push: { retryDelayMs: 10, timeoutMs: 2000 } } });
  });

  test('register, show, replace and delete the endpoint; refusals are typed', async () => {
    const bot = await signUp(run.app, 'pusher');
    const auth = bot.auth;
    expectProblem(await request(run.url).get('/api/v1/account/push-endpoint').set(auth), 404, 'NOT_FOUND');
    const made = await register(run, bot, 'http://127.0.0.1:9/move');
    expect(made).toMatchObject({ url: 'http://127.0.0.1:9/move', secret: expect.stringMatching(/^pbsec_/) });
    const shown = await request(run.url).get('/api/v1/account/push-endpoint').set(auth);
    expect(shown.body).toEqual({ url: made.url, createdAt: made.createdAt });
    const replaced = await request(run.url)
      .put('/api/v1/account/push-endpoint')
      .set(auth)
      .send({ url: 'http://127.0.0.1:10/v2', secret: 'a-secret-of-20-chars' });
    expect(replaced.body.secret).toBe('a-secret-of-20-chars');
    expectProblem(
      await request(run.url).put('/api/v1/account/push-endpoint').set(auth).send({ url: 'ftp://x' }),
      400,
      'INVALID_INPUT',
    );
    expectProblem(
      await request(run.url).put('/api/v1/account/push-endpoint').send({ url: 'http://127.0.0.1:9/' }),
      401,
      'UNAUTHENTICATED',
    );
    const reader = await run.app.services.accounts.createToken(
      { token: bot.token },
      { scopes: ['game:read'] },
    );
    expectProblem(
      await request(run.url)
        .put('/api/v1/account/push-endpoint')
        .set('authorization', `Bearer ${reader.token}`)
        .send({ url: 'http://127.0.0.1:9/' }),
      403,
      'MISSING_SCOPE',
    );
    expect((await request(run.url).delete('/api/v1/account/push-endpoint').set(auth)).status).toBe(204);
    expectProblem(await request(run.url).delete('/api/v1/account/push-endpoint').set(auth), 404, 'NOT_FOUND');
  });

  test('GraphQL: setPushEndpoint, pushEndpoint, deletePushEndpoint; errors in extensions.code', async () => {
    const bot = await signUp(run.app, 'gqlpush');
    const q = (query: string, variables: Record<string, unknown> = {}) =>
      gql(run.url, query, variables, bot.auth);
    expect((await q('{ pushEndpoint { url } }')).body.data?.pushEndpoint).toBeNull();
    const set = await q(
      'mutation($url: String!) { setPushEndpoint(input: { url: $url }) { url secret createdAt } }',
      { url: 'http://127.0.0.1:9/gql' },
    );
    expect(set.body.data?.setPushEndpoint).toMatchObject({
      url: 'http://127.0.0.1:9/gql',
      secret: expect.any(String),
    });
    expect((await q('{ pushEndpoint { url createdAt } }')).body.data?.pushEndpoint).toEqual({
      url: 'http://127.0.0.1:9/gql',
      createdAt: set.body.data?.setPushEndpoint.createdAt,
    });
    const rest = await request(run.url).get('/api/v1/account/push-endpoint').set(bot.auth);
    expect(rest.body.url).toBe('http://127.0.0.1:9/gql');
    const bad = await q('mutation { setPushEndpoint(input: { url: "nope" }) { url } }');
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
    expect((await q('mutation { deletePushEndpoint }')).body.data?.deletePushEndpoint).toBe(true);
    const again = await q('mutation { deletePushEndpoint }');
    expect(again.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  test('a whole game: every bot turn is POSTed, signed, and the answer’s move is played', async () => {
    const [bot, bob] = await Promise.all([signUp(run.app, 'pushbot'), signUp(run.app, 'pushbob')]);
    let secret = '';
    const mover = await moveServer(() => secret);
    secret = (await register(run, bot, mover.url)).secret;
    const gameId = await startGame(run, bot, bob);
    const game = await playOut(run, gameId, bob);
    const botMoves = game.moves.filter((m: { seat: number }) => m.seat === 1);
    expect(botMoves.length).toBeGreaterThan(3);
    // One request per bot move, each signed, naming the turn; the move played is the one answered.
    expect(mover.turns).toHaveLength(botMoves.length);
    for (const [i, turn] of mover.turns.entries()) {
      expect(turn.verified).toBe(true);
      expect(turn.headers['boardhost-event']).toBe('turn');
      expect(turn.body).toMatchObject({
        type: 'turn',
        attempt: 1,
        account: bot.id,
        seat: 'north',
        timeLeftMs: null,
      });
      const played = botMoves[i];
      expect(played.ply).toBe(turn.body.game.moves.length + 1);
      expect(played.notation).toBe((turn.answer?.body as { move: string }).move);
      expect(turn.body.legalMoves).toContain(played.notation);
    }
  });

  test('bad answers are retried within the turn; after the last attempt the turn is given up', async () => {
    const [bot, bob] = await Promise.all([signUp(run.app, 'flaky'), signUp(run.app, 'flakybob')]);
    const mover = await moveServer(() => '');
    await register(run, bot, mover.url);
    // Per turn: first an illegal move, then a 500, then a good move.
    const legal = chooser(3);
    mover.decide = (turn) =>
      turn.attempt === 1
        ? { status: 200, body: { move: '99' } }
        : turn.attempt === 2
          ? { status: 500, body: { error: 'oops' } }
          : { status: 200, body: { move: legal(turn.legalMoves) } };
    const gameId = await startGame(run, bot, bob);
    const first = (await request(run.url).get(`/api/v1/games/${gameId}`)).body;
    await request(run.url)
      .post(`/api/v1/games/${gameId}/moves`)
      .set(bob.auth)
      .send({ move: first.legalMoves[0] });
    const after = await until('the bot’s move', async () => {
      const g = (await request(run.url).get(`/api/v1/games/${gameId}`)).body;
      return g.toMove === 0 || g.status === 'finished' ? g : undefined;
    });
    const versions = [...new Set(mover.turns.map((t) => t.body.game.version))];
    for (const version of versions) {
      expect(mover.turns.filter((t) => t.body.game.version === version).map((t) => t.body.attempt)).toEqual([
        1, 2, 3,
      ]);
    }
    expect(after.moves.filter((m: { seat: number }) => m.seat === 1).length).toBe(versions.length);

    // Now every answer fails: three attempts, then nothing more for that version, even on a sweep.
    mover.decide = () => ({ status: 503, body: {} });
    const seen = mover.turns.length;
    if (after.status === 'finished') return;
    await request(run.url)
      .post(`/api/v1/games/${gameId}/moves`)
      .set(bob.auth)
      .send({ move: after.legalMoves[0] });
    await until('three attempts', async () => (mover.turns.length >= seen + 3 ? true : undefined));
    await new Promise((r) => setTimeout(r, 200));
    await run.app.services.turns.sweep();
    expect(mover.turns.length).toBe(seen + 3);
    const stuck = (await request(run.url).get(`/api/v1/games/${gameId}`)).body;
    expect(stuck).toMatchObject({ status: 'ongoing', toMove: 1 });
  });
});

test('two nodes on one Redis: the endpoint registered on one, each bot turn played once', async () => {
  const prefix = uniquePrefix('push2');
  const options = { prefix, app: { push: { retryDelayMs: 10 } } };
  const [a, b] = [await harness.start('redis', options), await harness.start('redis', options)];
  const [bot, bob] = await Promise.all([signUp(a.app, 'twonode'), signUp(a.app, 'twobob')]);
  let secret = '';
  const mover = await moveServer(() => secret);
  secret = (await register(a, bot, mover.url)).secret;
  // Node b learns of it at its next refresh (every sweep interval; here called directly).
  await b.app.services.push.refresh();
  expect(b.app.services.turns.accounts()).toContain(bot.id);
  const gameId = await startGame(b, bot, bob);
  const game = await playOut(b, gameId, bob);
  const botMoves = game.moves.filter((m: { seat: number }) => m.seat === 1);
  // Both nodes follow the bot's feed; each version was asked for and played once.
  const versions = mover.turns.map((t) => t.body.game.version);
  expect(new Set(versions).size).toBe(versions.length);
  expect(versions).toHaveLength(botMoves.length);
  // Removing it on node a: node b stops driving the account at its next refresh.
  expect((await request(a.url).delete('/api/v1/account/push-endpoint').set(bot.auth)).status).toBe(204);
  await b.app.services.push.refresh();
  expect(b.app.services.turns.accounts()).not.toContain(bot.id);
});
