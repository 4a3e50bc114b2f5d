// The OpenAPI document and the server may never disagree. On both stores, a scenario calls every
// operation of openapi/openapi.json, and every answer (status, Content-Type, body, documented
// headers; SSE and NDJSON item by item; the webhook requests Boardhost sends) is validated against
// the document with ajv. The test fails when an operation of the document was not exercised, so a
// new route must come with its step in the scenario. Generic probes then send every operation
// the malformed requests any client may send (no or a forged token, unknown ids, a body that is not
// JSON, too large or unparsable), and apps whose rate limit is spent or whose Redis is down answer
// every operation: those answers must be documented too.
import Redis from 'ioredis';
import { createServer } from 'node:net';
import request from 'supertest';
import { createApp, type App } from '../../src/app';
import { GAME_KINDS } from '../../src/engines/types';
import { createMemoryStorage, MemoryEventBus } from '../../src/store/memory';
import { createRedisStorage, redisClientOptions, redisStorage } from '../../src/store/redis';
import type { Storage } from '../../src/store/store';
import { appHarness, type Running, type StoreKind } from '../support/app';
import { appDeliveryScenario } from '../support/app-delivery-scenario';
import { appsScenario, CONFORMANCE_OPERATOR_KEY } from '../support/apps-scenario';
import {
  checkedClient,
  type CheckedClient,
  OPENAPI,
  OpenApiChecker,
  operations,
} from '../support/openapi-check';
import { appAccount, newApp } from '../support/apps';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

/** Operations that cannot succeed today, and why (each still has to be exercised). */
const NEVER_SUCCEEDS: Record<string, string> = {};

/** Path parameter values that are well-formed but name nothing. */
const DUMMY: Record<string, string> = {
  id: 'AAAAAAAAAAAA',
  username: 'nobody-here',
  tokenId: 'nope',
  deliveryId: '00000000-0000-4000-8000-000000000000',
  sessionId: 'ses_0000000000000000',
  externalId: 'nobody-here',
};

/** Path parameter values no route accepts. */
const MALFORMED = Object.fromEntries(Object.keys(DUMMY).map((name) => [name, '!!']));

const fill = (path: string, values: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? 'x'));

/** Every operation of the document, exercised once or more through `api`. */
async function scenario(
  run: Running,
  api: CheckedClient,
  receiver: Receiver,
  startImpatient: () => Promise<Running>,
): Promise<void> {
  const { call, stream, expectStatus: ok } = api;
  const suffix = Math.random().toString(36).slice(2, 8);

  // Operations outside /api/v1.
  await ok(200, 'get', '/livez');
  await ok(200, 'get', '/healthz');
  await ok(200, 'get', '/readyz');
  await ok(200, 'get', '/metrics');

  // Seat-token games.
  const created = await call('post', '/api/v1/games', { body: { kind: 'kalah' } });
  expect(created.status).toBe(201);
  expect(created.headers.get('location')).toBe(`/api/v1/games/${(created.body as any).game.id}`);
  const kalah = (created.body as any).game.id as string;
  const [south, north] = (created.body as any).seatTokens.map((t: { token: string }) => t.token) as string[];
  const read = await call('get', `/api/v1/games/${kalah}`);
  expect(read.headers.get('etag')).toBe('"0"');
  // Not with fetch: it adds Cache-Control: no-cache to a conditional request, which asks for a 200.
  const unchanged = await request(run.url).get(`/api/v1/games/${kalah}`).set('If-None-Match', '"0"');
  expect(unchanged.status).toBe(304);
  const unchangedHeaders = new Headers(unchanged.headers as Record<string, string>);
  api.checker.check('get', `/api/v1/games/${kalah}`, {
    status: 304,
    headers: unchangedHeaders,
    body: undefined,
  });
  await ok(200, 'get', `/api/v1/games/${kalah}/legal-moves`);
  expect(
    (await ok(200, 'post', `/api/v1/games/${kalah}/validate`, { body: { move: '1' } })).details,
  ).toMatchObject({
    legal: true,
    house: 1,
  });
  const moved = await call('post', `/api/v1/games/${kalah}/moves`, { token: south, body: { move: '1' } });
  expect(moved.status).toBe(200);
  expect(moved.headers.get('etag')).toBe('"1"');
  await ok(409, 'post', `/api/v1/games/${kalah}/moves`, { token: south, body: { move: '2' } });
  await ok(422, 'post', `/api/v1/games/${kalah}/moves`, { token: north, body: { move: '9' } });
  await ok(409, 'post', `/api/v1/games/${kalah}/moves`, {
    token: north,
    body: { move: '2' },
    headers: { 'if-match': '"0"' },
  });
  // Prefer: return=minimal: the head and the move (the answer's other documented shape).
  const slim = await call('post', `/api/v1/games/${kalah}/moves`, {
    token: north,
    body: { move: (moved.body as any).legalMoves[0] },
    headers: { prefer: 'return=minimal' },
  });
  expect([slim.status, slim.headers.get('preference-applied')]).toEqual([200, 'return=minimal']);
  expect((slim.body as any).move.ply).toBe(2);
  expect(slim.headers.get('etag')).toBe(`"${(slim.body as any).game.version}"`);
  const offered = await call('post', `/api/v1/games/${kalah}/draw/offer`, {
    token: north,
    headers: { prefer: 'return=minimal' },
  });
  expect([offered.status, (offered.body as any).move]).toEqual([200, null]);
  await ok(200, 'post', `/api/v1/games/${kalah}/draw/decline`, { token: south });
  await ok(409, 'post', `/api/v1/games/${kalah}/draw/accept`, { token: south });
  await ok(200, 'post', `/api/v1/games/${kalah}/draw/offer`, { token: north });
  await ok(409, 'post', `/api/v1/games/${kalah}/draw/claim`, { token: south });
  expect((await ok(200, 'post', `/api/v1/games/${kalah}/draw/accept`, { token: south })).status).toBe(
    'finished',
  );
  // The chat (also after the end), and a chat message in the game stream, item by item.
  // (A finished game's stream: the game, `end`, then the chat.)
  const chatStream = await stream(`/api/v1/games/${kalah}/stream`, 'application/x-ndjson', north);
  expect([(await chatStream.next()).type, (await chatStream.next()).type]).toEqual(['game', 'end']);
  const said = await ok(201, 'post', `/api/v1/games/${kalah}/chat`, {
    token: south,
    body: { text: 'good game' },
  });
  expect(await chatStream.next()).toEqual({ type: 'chat', message: said });
  chatStream.close();
  const sseChat = await stream(`/api/v1/games/${kalah}/stream`, 'text/event-stream', south);
  expect([(await sseChat.next()).event, (await sseChat.next()).event]).toEqual(['game', 'end']);
  await ok(201, 'post', `/api/v1/games/${kalah}/chat`, { token: north, body: { text: 'thanks' } });
  expect((await sseChat.next()).data.text).toBe('thanks');
  sseChat.close();
  expect((await ok(200, 'get', `/api/v1/games/${kalah}/chat?limit=1`, { token: north })).items).toHaveLength(
    1,
  );
  await ok(403, 'get', `/api/v1/games/${kalah}/chat`);
  await ok(400, 'post', `/api/v1/games/${kalah}/chat`, { token: south, body: { text: ' ' } });
  expect((await ok(200, 'put', `/api/v1/games/${kalah}/chat/mute`, { token: north })).muted).toBe(true);
  expect((await ok(200, 'delete', `/api/v1/games/${kalah}/chat/mute`, { token: north })).muted).toBe(false);
  expect(
    await ok(200, 'get', `/api/v1/games/${kalah}/export`, { headers: { accept: 'text/plain' } }),
  ).toEqual(expect.any(String));
  const exported = await call('get', `/api/v1/games/${kalah}/export`, {
    headers: { accept: 'application/json' },
  });
  expect(exported.headers.get('etag')).toBe(`"${(exported.body as any).version}"`);
  await ok(400, 'get', `/api/v1/games/${kalah}/export`, {
    headers: { accept: 'application/x-draughts-pdn' },
  });
  await ok(404, 'get', `/api/v1/games/${DUMMY.id}`);
  expect((await ok(200, 'get', '/api/v1/kinds')).items).toHaveLength(GAME_KINDS.length);
  const start = await ok(200, 'post', '/api/v1/kinds/congkak/start', { body: { options: { houses: 5 } } });
  expect(start.board.houses).toEqual([
    [5, 5, 5, 5, 5],
    [5, 5, 5, 5, 5],
  ]);
  expect((await ok(200, 'post', '/api/v1/kinds/kalah/start', { body: { first: 'north' } })).toMove).toBe(1);
  await ok(400, 'post', '/api/v1/kinds/kalah/start', { body: { options: { seeds: 99 } } });
  await ok(400, 'post', '/api/v1/kinds/chess/start', { body: {} });
  // Rules verification: a seeded set, answers scored (one given, wrong), refusals.
  const posed = await ok(200, 'get', '/api/v1/kinds/kalah/verification?seed=conformance&count=3');
  expect(posed.items).toHaveLength(3);
  const scored = await ok(200, 'post', '/api/v1/kinds/kalah/verification', {
    body: { seed: 'conformance', count: 3, answers: [posed.items[0].position] },
  });
  expect(scored.wrong).toEqual([0, 1, 2]);
  await ok(400, 'get', '/api/v1/kinds/kalah/verification?seed=conformance&count=1000');
  await ok(400, 'post', '/api/v1/kinds/chess/verification', { body: { seed: 'x', answers: [] } });

  // Abandoned games, on a node whose abandon period is 1 ms: the waiting player claims.
  const impatient = checkedClient((await startImpatient()).url, api.checker);
  for (const claim of ['victory', 'draw']) {
    const body = await impatient.expectStatus(201, 'post', '/api/v1/games', { body: { kind: 'kalah' } });
    const [mover] = body.seatTokens.map((t: { token: string }) => t.token);
    await impatient.expectStatus(200, 'post', `/api/v1/games/${body.game.id}/moves`, {
      token: mover,
      body: { move: '1' },
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const claimed = await impatient.expectStatus(
      200,
      'post',
      `/api/v1/games/${body.game.id}/${claim}/claim`,
      {
        token: mover,
      },
    );
    expect(claimed.result.reason).toBe('abandoned');
  }

  const newGame = async (kind: string) => {
    const body = await ok(201, 'post', '/api/v1/games', { body: { kind } });
    return { id: body.game.id as string, tokens: body.seatTokens.map((t: { token: string }) => t.token) };
  };
  const firstMove = async (game: { id: string; tokens: string[] }) => {
    const { moves } = await ok(200, 'get', `/api/v1/games/${game.id}/legal-moves`);
    return ok(200, 'post', `/api/v1/games/${game.id}/moves`, {
      token: game.tokens[0],
      body: { move: moves[0] },
    });
  };
  // A move of each game family: Move.details has one shape per family.
  const draughts = await newGame('russian-draughts');
  expect((await firstMove(draughts)).moves[0].details).toMatchObject({ path: expect.any(Array) });
  await ok(200, 'get', `/api/v1/games/${draughts.id}/export`, {
    headers: { accept: 'application/x-draughts-pdn' },
  });
  const congo = await newGame('congo');
  expect((await firstMove(congo)).moves[0].details).toMatchObject({ drowned: expect.any(Array) });
  const resigned = await newGame('oware');
  await ok(200, 'post', `/api/v1/games/${resigned.id}/resign`, { token: resigned.tokens[0] });
  const aborted = await newGame('congkak');
  await ok(200, 'post', `/api/v1/games/${aborted.id}/abort`, { token: aborted.tokens[1] });
  // A rematch (docs/rematch.md): offered, declined, offered by the other seat and accepted.
  await ok(201, 'post', `/api/v1/games/${resigned.id}/rematch`, { token: resigned.tokens[0] });
  await ok(200, 'post', `/api/v1/games/${resigned.id}/rematch/decline`, { token: resigned.tokens[1] });
  await ok(201, 'post', `/api/v1/games/${resigned.id}/rematch`, { token: resigned.tokens[1] });
  const rematch = await ok(201, 'post', `/api/v1/games/${resigned.id}/rematch/accept`, {
    token: resigned.tokens[0],
  });
  expect([rematch.status, rematch.game.rematchOf, rematch.seatToken.seat]).toEqual([
    'accepted',
    resigned.id,
    1,
  ]);
  // Takebacks: offered, declined, refused without an offer, offered again and accepted.
  const takenBack = await newGame('oware');
  await firstMove(takenBack);
  const asked = await ok(200, 'post', `/api/v1/games/${takenBack.id}/takeback/offer`, {
    token: takenBack.tokens[0],
  });
  expect(asked.takebackOffer).toEqual({ seat: 0, plies: 1 });
  await ok(200, 'post', `/api/v1/games/${takenBack.id}/takeback/decline`, { token: takenBack.tokens[1] });
  await ok(409, 'post', `/api/v1/games/${takenBack.id}/takeback/accept`, { token: takenBack.tokens[1] });
  await ok(200, 'post', `/api/v1/games/${takenBack.id}/takeback/offer`, { token: takenBack.tokens[0] });
  const back = await ok(200, 'post', `/api/v1/games/${takenBack.id}/takeback/accept`, {
    token: takenBack.tokens[1],
  });
  expect(back).toMatchObject({ ply: 0, moves: [] });

  const page = await ok(200, 'get', '/api/v1/games?limit=2');
  expect(page.next).toEqual(expect.any(String));
  await ok(200, 'get', `/api/v1/games?limit=2&after=${page.next}`);
  await ok(400, 'get', '/api/v1/games?limit=0');

  // The game stream: SSE and NDJSON, a finished game (then `end`) and a live one.
  for (const accept of ['text/event-stream', 'application/x-ndjson']) {
    const over = await stream(`/api/v1/games/${resigned.id}/stream`, accept);
    await over.next();
    expect(await over.next()).toMatchObject(
      accept === 'text/event-stream' ? { event: 'end' } : { type: 'end' },
    );
    over.close();
  }
  const live = await newGame('kalah');
  const watching = await stream(`/api/v1/games/${live.id}/stream`, 'application/x-ndjson');
  await watching.next();
  const whole = await stream(`/api/v1/games/${live.id}/stream?full=1`, 'text/event-stream');
  await whole.next();
  await firstMove(live);
  // Later versions: the head and the move (whole documents with ?full=1).
  expect(await watching.next()).toMatchObject({ type: 'update', game: { version: 1 }, move: { ply: 1 } });
  expect(await whole.next()).toMatchObject({ event: 'game', id: '1', data: { moves: [{ ply: 1 }] } });
  watching.close();
  whole.close();
  const resumed = await stream(`/api/v1/games/${live.id}/stream`, 'text/event-stream', undefined, {
    'last-event-id': '0',
  });
  expect(await resumed.next()).toMatchObject({ event: 'game', id: '1' });
  const { toMove } = await ok(200, 'get', `/api/v1/games/${live.id}`);
  const { moves: legal } = await ok(200, 'get', `/api/v1/games/${live.id}/legal-moves`);
  await ok(200, 'post', `/api/v1/games/${live.id}/moves`, {
    token: live.tokens[toMove],
    body: { move: legal[0] },
  });
  expect(await resumed.next()).toMatchObject({ event: 'update', id: '2', data: { move: { ply: 2 } } });
  resumed.close();

  // A game's moves, a page at a time (GET beside POST /games/{id}/moves).
  const firstPage = await ok(200, 'get', `/api/v1/games/${live.id}/moves?limit=1`);
  expect(firstPage).toMatchObject({ items: [{ ply: 1 }], next: 1 });
  expect(await ok(200, 'get', `/api/v1/games/${live.id}/moves?after=${firstPage.next}`)).toMatchObject({
    items: [{ ply: 2 }],
    next: null,
  });
  await ok(400, 'get', `/api/v1/games/${live.id}/moves?limit=0`);
  await ok(404, 'get', `/api/v1/games/${DUMMY.id}/moves`);

  // TV: the featured kalah game (the live one, the most recently active), whole, then its updates.
  expect(await ok(200, 'get', '/api/v1/tv/kalah')).toMatchObject({ kind: 'kalah', game: { id: live.id } });
  await ok(400, 'get', '/api/v1/tv/chess');
  const tvSse = await stream('/api/v1/tv/kalah/stream', 'text/event-stream');
  expect(await tvSse.next()).toMatchObject({ event: 'featured', data: { id: live.id, version: 2 } });
  const tvNdjson = await stream('/api/v1/tv/kalah/stream', 'application/x-ndjson');
  expect(await tvNdjson.next()).toMatchObject({ type: 'featured', game: { id: live.id, version: 2 } });
  const onTv = await ok(200, 'get', `/api/v1/games/${live.id}`);
  await ok(200, 'post', `/api/v1/games/${live.id}/moves`, {
    token: live.tokens[onTv.toMove],
    body: { move: onTv.legalMoves[0] },
  });
  expect(await tvSse.next()).toMatchObject({ event: 'update', data: { move: { ply: 3 } } });
  expect(await tvNdjson.next()).toMatchObject({ type: 'update', game: { version: 3 }, move: { ply: 3 } });
  tvSse.close();
  tvNdjson.close();

  // Accounts and tokens.
  const ann = await call('post', '/api/v1/accounts', { body: { username: `ann-${suffix}` } });
  expect(ann.status).toBe(201);
  expect(ann.headers.get('location')).toBe(`/api/v1/accounts/ann-${suffix}`);
  const annToken = (ann.body as any).token.token as string;
  const bobBody = await ok(201, 'post', '/api/v1/accounts', {
    body: { username: `bob-${suffix}`, kind: 'bot' },
  });
  const bobToken = bobBody.token.token as string;
  const bob = bobBody.account.id as string;
  await ok(409, 'post', '/api/v1/accounts', { body: { username: `ANN-${suffix}` } });
  await ok(200, 'get', `/api/v1/accounts/bob-${suffix}`);
  await ok(404, 'get', `/api/v1/accounts/${DUMMY.username}`);
  await ok(200, 'get', '/api/v1/account', { token: annToken });
  await ok(200, 'put', '/api/v1/account/bot', {
    token: bobToken,
    body: { kinds: ['kalah', 'oware'], maxGames: 20 },
  });
  await ok(403, 'put', '/api/v1/account/bot', { token: annToken, body: {} });
  await ok(200, 'get', '/api/v1/account/tokens', { token: annToken });
  const readOnly = await ok(201, 'post', '/api/v1/account/tokens', {
    token: annToken,
    body: { label: 'reader', scopes: ['game:read'] },
  });
  await ok(403, 'post', '/api/v1/challenges', { token: readOnly.token, body: { to: bob, kind: 'kalah' } });
  await ok(200, 'delete', `/api/v1/account/tokens/${readOnly.id}`, { token: annToken });
  await ok(401, 'get', '/api/v1/account', { token: readOnly.token });

  // Challenges and seeks.
  const challenge = await call('post', '/api/v1/challenges', {
    token: annToken,
    body: { to: bob, kind: 'kalah', starts: 'challenger' },
  });
  expect(challenge.status).toBe(201);
  const challengeId = (challenge.body as any).id as string;
  expect(challenge.headers.get('location')).toBe(`/api/v1/challenges/${challengeId}`);
  await ok(200, 'get', '/api/v1/challenges', { token: bobToken });
  await ok(200, 'get', `/api/v1/challenges/${challengeId}`);
  const accepted = await ok(200, 'post', `/api/v1/challenges/${challengeId}/accept`, { token: bobToken });
  const accountGame = accepted.gameId as string;
  await ok(409, 'post', `/api/v1/challenges/${challengeId}/cancel`, { token: annToken });
  const toDecline = await ok(201, 'post', '/api/v1/challenges', {
    token: annToken,
    body: { to: bob, kind: 'oware' },
  });
  await ok(200, 'post', `/api/v1/challenges/${toDecline.id}/decline`, {
    token: bobToken,
    body: { reason: 'later' },
  });
  const toCancel = await ok(201, 'post', '/api/v1/challenges', {
    token: annToken,
    body: { to: bob, kind: 'oware' },
  });
  await ok(200, 'post', `/api/v1/challenges/${toCancel.id}/cancel`, { token: annToken });
  const waiting = await ok(201, 'post', '/api/v1/seeks', { token: annToken, body: { kind: 'oware' } });
  expect(waiting).toMatchObject({ status: 'waiting', game: null });
  const matched = await ok(200, 'post', '/api/v1/seeks', { token: bobToken, body: { kind: 'oware' } });
  expect(matched).toMatchObject({ status: 'matched', game: { kind: 'oware' } });
  const withdrawn = await ok(201, 'post', '/api/v1/seeks', { token: annToken, body: { kind: 'kalah' } });
  await ok(204, 'delete', `/api/v1/seeks/${withdrawn.id}`, { token: annToken });
  await ok(404, 'delete', `/api/v1/seeks/${withdrawn.id}`, { token: annToken });
  // The lobby: a page, the live list (a seek added, then taken), accept.
  const lobbySse = await stream('/api/v1/seeks/stream?kind=kalah', 'text/event-stream');
  const lobbyNdjson = await stream('/api/v1/seeks/stream?kind=kalah', 'application/x-ndjson');
  expect(await lobbySse.next()).toMatchObject({ event: 'ready', data: { listed: 0, more: false } });
  expect(await lobbyNdjson.next()).toMatchObject({ type: 'ready', listed: 0, more: false });
  const listed = await ok(201, 'post', '/api/v1/seeks', {
    token: annToken,
    body: { kind: 'kalah', ratingRange: { min: 1000, max: 2500 } },
  });
  const lobbyPage = await ok(200, 'get', '/api/v1/seeks?kind=kalah&limit=1');
  expect(lobbyPage.items).toEqual([expect.objectContaining({ id: listed.id, username: `ann-${suffix}` })]);
  await ok(400, 'get', '/api/v1/seeks?limit=0');
  expect(await lobbySse.next()).toMatchObject({ event: 'seek.added', data: { id: listed.id } });
  expect(await lobbyNdjson.next()).toMatchObject({ type: 'seek.added', seek: { id: listed.id } });
  await ok(403, 'post', `/api/v1/seeks/${listed.id}/accept`, { token: annToken });
  const takenSeek = await ok(200, 'post', `/api/v1/seeks/${listed.id}/accept`, { token: bobToken });
  expect(takenSeek).toMatchObject({ id: listed.id, status: 'matched', game: { kind: 'kalah' } });
  await ok(404, 'post', `/api/v1/seeks/${listed.id}/accept`, { token: bobToken });
  expect(await lobbySse.next()).toMatchObject({
    event: 'seek.removed',
    data: { id: listed.id, reason: 'matched' },
  });
  expect(await lobbyNdjson.next()).toMatchObject({ type: 'seek.removed', id: listed.id, reason: 'matched' });
  lobbySse.close();
  lobbyNdjson.close();

  // Blocks: ann blocks bob, whose challenge to ann is refused until ann unblocks bob.
  const bobsOpen = await ok(201, 'post', '/api/v1/challenges', {
    token: bobToken,
    body: { to: `ann-${suffix}`, kind: 'oware' },
  });
  await ok(204, 'put', `/api/v1/account/blocks/${bob}`, { token: annToken });
  expect((await ok(200, 'get', `/api/v1/challenges/${bobsOpen.id}`)).status).toBe('declined');
  await ok(403, 'post', '/api/v1/challenges', {
    token: bobToken,
    body: { to: `ann-${suffix}`, kind: 'oware' },
  });
  await ok(400, 'put', `/api/v1/account/blocks/ann-${suffix}`, { token: annToken });
  await ok(404, 'put', `/api/v1/account/blocks/${DUMMY.username}`, { token: annToken });
  expect((await ok(200, 'get', '/api/v1/account/blocks?limit=1', { token: annToken })).items).toHaveLength(1);
  await ok(204, 'delete', `/api/v1/account/blocks/${bob}`, { token: annToken });

  // Tournaments (3 places: two entries do not start it).
  const tournament = await call('post', '/api/v1/tournaments', {
    token: annToken,
    body: {
      name: 'Conformance cup',
      kind: 'kalah',
      timeControl: { type: 'realtime', initialSeconds: 60 },
      format: 'swiss',
      rounds: 2,
      maxPlayers: 3,
    },
  });
  expect(tournament.status).toBe(201);
  const tournamentId = (tournament.body as any).id as string;
  expect(tournament.headers.get('location')).toBe(`/api/v1/tournaments/${tournamentId}`);
  await ok(400, 'post', '/api/v1/tournaments', {
    token: annToken,
    body: { name: 'No clock', kind: 'kalah', format: 'swiss' },
  });
  await ok(200, 'post', `/api/v1/tournaments/${tournamentId}/join`, { token: annToken });
  await ok(200, 'post', `/api/v1/tournaments/${tournamentId}/join`, { token: bobToken });
  expect(
    (await ok(200, 'post', `/api/v1/tournaments/${tournamentId}/leave`, { token: bobToken })).players,
  ).toHaveLength(1);
  await ok(409, 'post', `/api/v1/tournaments/${tournamentId}/leave`, { token: bobToken });
  expect((await ok(200, 'get', `/api/v1/tournaments/${tournamentId}`)).status).toBe('open');
  await ok(200, 'get', '/api/v1/tournaments?status=open&limit=5');
  await ok(400, 'get', '/api/v1/tournaments?status=nope');
  expect((await ok(200, 'get', '/api/v1/account/tournaments', { token: annToken })).items[0].id).toBe(
    tournamentId,
  );
  await ok(200, 'get', `/api/v1/tournaments/${tournamentId}/standings`);
  await ok(200, 'get', `/api/v1/tournaments/${tournamentId}/standings?format=text`);
  await ok(200, 'get', `/api/v1/tournaments/${tournamentId}/standings.txt`);
  await ok(200, 'get', `/api/v1/tournaments/${tournamentId}/export`);

  // The account's games, played with API tokens.
  const { moves } = await ok(200, 'get', `/api/v1/games/${accountGame}/legal-moves`);
  await ok(200, 'post', `/api/v1/games/${accountGame}/moves`, { token: annToken, body: { move: moves[0] } });
  await ok(403, 'post', `/api/v1/games/${kalah}/resign`, { token: annToken });
  const mine = await ok(200, 'get', '/api/v1/account/games?limit=1', { token: annToken });
  expect(mine.next).toEqual(expect.any(String));
  await ok(200, 'get', `/api/v1/account/games?filter=all&limit=1&after=${mine.next}`, { token: annToken });
  await ok(200, 'get', '/api/v1/account/games?filter=my-turn', { token: bobToken });
  expect((await ok(200, 'get', '/api/v1/account/games/export', { token: annToken })).length).toBe(3);

  // Bulk pairings: ann organizes, ann and bob consent with their tokens.
  const organizer = await ok(201, 'post', '/api/v1/account/tokens', {
    token: annToken,
    body: { label: 'bulk', scopes: ['challenge:bulk'] },
  });
  const bulk = await ok(201, 'post', '/api/v1/bulk-pairings', {
    token: organizer.token,
    body: { pairs: [[annToken, bobToken]], kind: 'kalah', rated: true },
  });
  expect(bulk).toMatchObject({
    state: 'created',
    games: [{ players: [expect.any(String), expect.any(String)] }],
  });
  await ok(422, 'post', '/api/v1/bulk-pairings', {
    token: organizer.token,
    body: { pairs: [[annToken, annToken]], kind: 'kalah' },
  });
  const scheduled = await ok(201, 'post', '/api/v1/bulk-pairings', {
    token: organizer.token,
    body: {
      pairs: [[annToken, bobToken]],
      kind: 'oware',
      startAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  expect(scheduled.state).toBe('scheduled');
  await ok(200, 'get', '/api/v1/bulk-pairings', { token: annToken });
  await ok(200, 'get', `/api/v1/bulk-pairings/${bulk.id}`, { token: annToken });
  await ok(200, 'delete', `/api/v1/bulk-pairings/${scheduled.id}`, { token: organizer.token });
  await ok(409, 'delete', `/api/v1/bulk-pairings/${bulk.id}`, { token: organizer.token });

  await ok(200, 'get', '/api/v1/account/vacation', { token: annToken });
  await ok(200, 'post', '/api/v1/account/vacation', { token: annToken, body: { days: 1 } });
  await ok(409, 'post', '/api/v1/account/vacation', { token: annToken, body: { days: 1 } });
  await ok(200, 'delete', '/api/v1/account/vacation', { token: annToken });

  // The games of chosen accounts: the rated game below starts and ends (one message each, though
  // both players are named); bad lists are refused before anything streams.
  const watched = `/api/v1/streams/games?accounts=ann-${suffix},bob-${suffix}`;
  const gamesSse = await stream(watched, 'text/event-stream');
  const gamesNdjson = await stream(watched, 'application/x-ndjson');
  await ok(400, 'get', '/api/v1/streams/games?accounts=,');
  await ok(404, 'get', `/api/v1/streams/games?accounts=${DUMMY.username}`);

  // Ratings: a rated game counts once its ending is written; histories and leaderboards.
  const rated = await ok(201, 'post', '/api/v1/challenges', {
    token: annToken,
    body: { to: bob, kind: 'kalah', starts: 'challenger', rated: true },
  });
  expect(rated.rated).toBe(true);
  const ratedGame = (await ok(200, 'post', `/api/v1/challenges/${rated.id}/accept`, { token: bobToken }))
    .gameId as string;
  expect((await ok(200, 'get', `/api/v1/games/${ratedGame}`)).seats).toMatchObject([
    { rating: 1500, provisional: true },
    { rating: 2000, provisional: true },
  ]);
  await ok(200, 'post', `/api/v1/games/${ratedGame}/resign`, { token: annToken });
  expect(await gamesSse.next()).toMatchObject({ event: 'game.started', data: { id: ratedGame } });
  expect(await gamesSse.next()).toMatchObject({ event: 'game.finished', data: { id: ratedGame } });
  expect(await gamesNdjson.next()).toMatchObject({ type: 'game.started', game: { id: ratedGame } });
  expect(await gamesNdjson.next()).toMatchObject({ type: 'game.finished', game: { id: ratedGame } });
  gamesSse.close();
  gamesNdjson.close();
  const annRatings = await ok(200, 'get', `/api/v1/accounts/ann-${suffix}/ratings`);
  expect(annRatings.perfs).toMatchObject([{ kind: 'kalah', speed: 'correspondence', games: 1 }]);
  expect(annRatings.perfs[0].rating).toBeLessThan(1500);
  const annHistory = await ok(
    200,
    'get',
    `/api/v1/accounts/ann-${suffix}/ratings/kalah/correspondence/history`,
  );
  expect(annHistory).toMatchObject({ items: [{ game: ratedGame }], next: null });
  await ok(404, 'get', `/api/v1/accounts/${DUMMY.username}/ratings`);
  await ok(400, 'get', `/api/v1/accounts/ann-${suffix}/ratings/chess/realtime/history`);
  const board = await ok(200, 'get', '/api/v1/leaderboards/kalah/correspondence?category=bot&limit=5');
  expect(board.items.map((e: { username: string }) => e.username)).not.toContain(`bob-${suffix}`);
  await ok(400, 'get', '/api/v1/leaderboards/kalah/blitz');
  await ok(422, 'post', '/api/v1/challenges', {
    token: annToken,
    body: { to: bob, kind: 'kalah', rated: true, position: '4,4,4,4,4,4/0/4,4,4,4,4,4/0 S' },
  });

  // The event feed: a JSON page, and both stream forms from the start.
  const feed = await ok(200, 'get', '/api/v1/account/events?after=0&limit=2', {
    token: annToken,
    headers: { accept: 'application/json' },
  });
  expect(feed.next).toBe(2);
  await ok(200, 'get', `/api/v1/account/events?after=${feed.next}`, {
    token: annToken,
    headers: { accept: 'application/json' },
  });
  await ok(400, 'get', `/api/v1/account/events?after=${feed.last + 1}`, {
    token: annToken,
    headers: { accept: 'application/json' },
  });
  for (const accept of ['text/event-stream', 'application/x-ndjson']) {
    const events = await stream('/api/v1/account/events?after=0', accept, annToken);
    for (let seq = 0; seq <= feed.last; seq++) await events.next();
    events.close();
  }

  // Webhooks: register, let the app deliver, read the log a page at a time, redeliver, remove.
  const hook = await call('post', '/api/v1/account/webhooks', {
    token: bobToken,
    body: { url: receiver.url('/boardhost') },
  });
  expect(hook.status).toBe(201);
  const hookId = (hook.body as any).id as string;
  expect(hook.headers.get('location')).toBe(`/api/v1/account/webhooks/${hookId}`);
  await ok(200, 'get', '/api/v1/account/webhooks', { token: bobToken });
  // Two events for bob: a challenge, and its acceptance's game start.
  const another = await ok(201, 'post', '/api/v1/challenges', {
    token: annToken,
    body: { to: bob, kind: 'kalah' },
  });
  await ok(200, 'post', `/api/v1/challenges/${another.id}/accept`, { token: bobToken });
  while ((await run.app.deliverWebhooks()) > 0);
  expect(receiver.accepted.length).toBeGreaterThanOrEqual(2);
  for (const received of receiver.requests) {
    api.checker.checkWebhook('feedEvent', received.headers, JSON.parse(received.body));
  }
  await ok(200, 'get', `/api/v1/account/webhooks/${hookId}`, { token: bobToken });
  const log = await ok(200, 'get', `/api/v1/account/webhooks/${hookId}/deliveries?limit=1`, {
    token: bobToken,
  });
  expect(log.next).toEqual(expect.any(Number));
  const older = await ok(
    200,
    'get',
    `/api/v1/account/webhooks/${hookId}/deliveries?limit=1&after=${log.next}`,
    {
      token: bobToken,
    },
  );
  expect(older.items[0].n).toBeLessThan(log.items[0].n);
  await ok(
    200,
    'post',
    `/api/v1/account/webhooks/${hookId}/deliveries/${log.items[0].deliveryId}/redeliver`,
    {
      token: bobToken,
    },
  );
  await ok(404, 'post', `/api/v1/account/webhooks/${hookId}/deliveries/${DUMMY.deliveryId}/redeliver`, {
    token: bobToken,
  });
  await ok(204, 'delete', `/api/v1/account/webhooks/${hookId}`, { token: bobToken });
  await ok(404, 'get', `/api/v1/account/webhooks/${hookId}`, { token: bobToken });

  // The computer: a game against the AI (account and seat token), and analysis.
  const vsAi = await call('post', '/api/v1/challenges/ai', {
    token: bobToken,
    body: { kind: 'oware', level: 1, color: 'south' },
  });
  expect(vsAi.status).toBe(201);
  expect(vsAi.headers.get('location')).toBe(`/api/v1/games/${(vsAi.body as any).id}`);
  await ok(400, 'post', '/api/v1/challenges/ai', { token: bobToken, body: { kind: 'oware', level: 9 } });
  const aiGame = await call('post', '/api/v1/games/ai', { body: { kind: 'congkak', level: 2 } });
  expect(aiGame.status).toBe(201);
  expect((aiGame.body as any).seatTokens).toHaveLength(1);
  const analysis = await ok(200, 'post', '/api/v1/analysis', { body: { kind: 'kalah', depth: 2 } });
  expect(analysis.pv[0]).toBe(analysis.bestMove);
  const aiGameId = (vsAi.body as any).id as string;
  await ok(200, 'post', '/api/v1/analysis', { token: bobToken, body: { gameId: aiGameId, timeMs: 50 } });
  await ok(409, 'post', '/api/v1/analysis', { body: { gameId: kalah } });
  await ok(400, 'post', '/api/v1/analysis', { body: { kind: 'kalah', timeMs: 999_999 } });
  await ok(404, 'post', '/api/v1/analysis', { body: { gameId: DUMMY.id } });
  // Push-mode bots: the move endpoint (test/api/push-bots.test.ts plays whole games through one).
  await ok(404, 'get', '/api/v1/account/push-endpoint', { token: bobToken });
  const pushed = await ok(200, 'put', '/api/v1/account/push-endpoint', {
    token: bobToken,
    body: { url: 'http://127.0.0.1:9/move' },
  });
  expect(pushed.secret).toEqual(expect.any(String));
  expect((await ok(200, 'get', '/api/v1/account/push-endpoint', { token: bobToken })).url).toBe(pushed.url);
  await ok(400, 'put', '/api/v1/account/push-endpoint', { token: bobToken, body: { url: 'nope' } });
  await ok(204, 'delete', '/api/v1/account/push-endpoint', { token: bobToken });
  await ok(404, 'delete', '/api/v1/account/push-endpoint', { token: bobToken });

  // Lifecycle (test/apps/lifecycle.test.ts): the app's moderation of its accounts and the operator's.
  const moderating = await newApp(run.app);
  for (const [base, token] of [
    [`/api/v1/app/accounts/mod-${suffix}`, moderating.key],
    [
      `/api/v1/admin/accounts/${(await appAccount(run.storage, moderating, `op-${suffix}`)).id}`,
      CONFORMANCE_OPERATOR_KEY,
    ],
  ] as const) {
    if (base.includes('/app/')) await appAccount(run.storage, moderating, `mod-${suffix}`);
    await ok(200, 'post', `${base}/suspend`, { token, body: { reason: 'spam' } });
    await ok(200, 'post', `${base}/unsuspend`, { token });
    await ok(200, 'post', `${base}/ban`, { token, body: {} });
    await ok(400, 'post', `${base}/ban`, { token, body: { reason: '' } });
    await ok(200, 'post', `${base}/unban`, { token });
    expect((await ok(200, 'get', `${base}/export`, { token })).account.status).toBe('active');
    await ok(204, 'delete', base, { token });
    await ok(404, 'get', `${base}/export`, { token });
  }
  await ok(403, 'delete', `/api/v1/admin/accounts/${bob}`, { token: CONFORMANCE_OPERATOR_KEY });

  // A private game's spectators, invited by its app's key.
  const app = await newApp(run.app);
  const [p1, p2, watcher] = await Promise.all(
    ['p1', 'p2', 'watcher'].map((externalId) => appAccount(run.storage, app, externalId)),
  );
  const privateChallenge = await run.app.services.challenges.create(
    { token: app.key, account: p1!.id },
    { to: p2!.id, kind: 'kalah', visibility: 'private' },
  );
  await run.app.services.challenges.accept({ token: app.key, account: p2!.id }, privateChallenge.id);
  const spectatorPath = `/api/v1/app/games/${privateChallenge.id}/spectators/${watcher!.id}`;
  await ok(200, 'put', spectatorPath, { token: app.key });
  await ok(200, 'delete', spectatorPath, { token: app.key });
  await ok(404, 'put', `/api/v1/app/games/AAAAAAAAAAAA/spectators/${watcher!.id}`, { token: app.key });
  await appsScenario(api);
  await appDeliveryScenario(api, run, receiver);

  // Apps' sessions: minted with an app key, refreshed (rotation, then a reused token), signed out, revoked.
  const testApp = await newApp(run.app);
  await appAccount(run.storage, testApp, `user-${suffix}`);
  const sessions = `/api/v1/app/accounts/user-${suffix}/sessions`;
  const minted = await ok(201, 'post', sessions, { token: testApp.key, body: { label: 'phone' } });
  await ok(404, 'post', '/api/v1/app/accounts/nobody/sessions', { token: testApp.key });
  await ok(200, 'get', sessions, { token: testApp.key });
  const rotated = await ok(200, 'post', '/api/v1/sessions/refresh', {
    body: { refreshToken: minted.refreshToken },
  });
  await ok(401, 'post', '/api/v1/sessions/refresh', { body: { refreshToken: minted.refreshToken } });
  await ok(401, 'delete', '/api/v1/session', { token: rotated.accessToken });
  const other = await ok(201, 'post', sessions, { token: testApp.key });
  await ok(200, 'delete', '/api/v1/session', { token: other.accessToken });
  await ok(400, 'delete', '/api/v1/session', { token: bobToken });
  const third = await ok(201, 'post', sessions, { token: testApp.key });
  await ok(200, 'delete', `/api/v1/app/sessions/${third.session.id}`, { token: testApp.key });
  await ok(404, 'delete', '/api/v1/app/sessions/ses_0000000000000000', { token: testApp.key });
}

/**
 * Operations that would open a stream that never ends when called without parameters: probed with a
 * query they refuse (the stream itself is exercised by the scenario).
 */
const PROBE_QUERY: Record<string, string> = { streamSeeks: '?timeControl=never' };

/** Sends every operation the requests any client may get wrong; every answer is checked. */
async function probeEveryOperation(api: CheckedClient): Promise<void> {
  for (const op of operations()) {
    const path = fill(op.path, DUMMY) + (PROBE_QUERY[op.operationId] ?? '');
    const anonymous = await api.call(op.method, path);
    const forged = await api.call(op.method, path, { token: 'bhp_forged0000000000000000' });
    if (op.spec.security?.length > 0 && op.path.startsWith('/api/v1')) {
      // Whatever else is wrong, a protected operation refuses an unknown token or none.
      const refused = (status: number) => status >= 400 && status < 500;
      expect([op.operationId, refused(anonymous.status), refused(forged.status)]).toEqual([
        op.operationId,
        true,
        true,
      ]);
    }
    if (op.spec.requestBody?.content?.['application/json']) {
      const text = await api.call(op.method, path, { raw: '{"kind":"kalah"}', contentType: 'text/plain' });
      const large = await api.call(op.method, path, {
        raw: JSON.stringify({ pad: 'x'.repeat(70_000) }),
        contentType: 'application/json',
      });
      const broken = await api.call(op.method, path, { raw: '{"kind":', contentType: 'application/json' });
      expect([op.operationId, text.status, large.status, broken.status]).toEqual([
        op.operationId,
        415,
        413,
        400,
      ]);
    }
    if (op.path.includes('{')) await api.call(op.method, fill(op.path, MALFORMED));
  }
}

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function listen(app: App): Promise<string> {
  return `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`;
}

describe('the OpenAPI document', () => {
  it('names every operation once, and documents 429/503 everywhere and 401 where a token is needed', () => {
    const ops = operations();
    const ids = ops.map((op) => op.operationId);
    expect(ids.filter((id) => !/^[a-z][A-Za-z]+$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of ops.filter((o) => o.path.startsWith('/api/v1'))) {
      const statuses = Object.keys(op.spec.responses);
      expect([op.operationId, statuses]).toEqual([op.operationId, expect.arrayContaining(['429', '503'])]);
      // The operator key is refused with 403 OPERATOR_ONLY (there is no account to authenticate).
      const operator = op.spec.security.some((s: Record<string, unknown>) => 'operatorKey' in s);
      if (op.spec.security.length > 0) {
        const refusal = operator ? '403' : '401';
        expect([op.operationId, statuses]).toEqual([op.operationId, expect.arrayContaining([refusal])]);
      }
    }
    expect(OPENAPI.webhooks.feedEvent.post.operationId).toBe('receiveFeedEvent');
  });
});

describe.each<StoreKind>(['memory', 'redis'])(
  'the %s server answers as its OpenAPI document says',
  (store) => {
    const harness = appHarness();
    let run: Running;
    let receiver: Receiver;
    beforeAll(async () => {
      run = await harness.start(store, { app: { operatorKey: CONFORMANCE_OPERATOR_KEY } });
      receiver = await startReceiver();
    });
    afterAll(async () => {
      await harness.stopAll();
      await receiver.stop();
    });

    it('in a scenario that exercises every operation of the document', async () => {
      const api = checkedClient(run.url, new OpenApiChecker());
      await scenario(run, api, receiver, () => harness.start(store, { abandonClaimMs: 1 }));
      const seen = api.checker.seen;
      const ids = [...operations().map((op) => op.operationId), 'receiveFeedEvent'];
      expect(ids.filter((id) => !seen.has(id))).toEqual([]);
      const succeeded = (id: string) => [...(seen.get(id) ?? [])].some((status) => status < 400);
      expect(ids.filter((id) => !succeeded(id) && !NEVER_SUCCEEDS[id])).toEqual([]);
      // Error answers were validated too, not only successes.
      const statuses = new Set([...seen.values()].flatMap((s) => [...s]));
      expect([...statuses].sort()).toEqual(
        expect.arrayContaining([200, 201, 204, 304, 400, 401, 403, 404, 409, 422]),
      );
    }, 60_000);

    it('to malformed, unauthenticated and unknown requests of every operation', async () => {
      await probeEveryOperation(checkedClient(run.url, new OpenApiChecker()));
    }, 60_000);

    it('with a shutdown item on every open stream when the server stops', async () => {
      const other = await harness.start(store);
      const api = checkedClient(other.url, new OpenApiChecker());
      const game = await api.expectStatus(201, 'post', '/api/v1/games', { body: { kind: 'kalah' } });
      const account = await api.expectStatus(201, 'post', '/api/v1/accounts', {
        body: { username: `shut-${Math.random().toString(36).slice(2, 8)}` },
      });
      const streams = [];
      for (const accept of ['text/event-stream', 'application/x-ndjson']) {
        streams.push(await api.stream(`/api/v1/games/${game.game.id}/stream`, accept));
        streams.push(await api.stream('/api/v1/account/events', accept, account.token.token));
        await streams.at(-2)?.next();
        await streams.at(-1)?.next();
      }
      await other.app.stop();
      for (const s of streams) {
        const item = await s.next();
        expect(item.event ?? item.type).toBe('shutdown');
      }
    });

    it('with 429 and its headers on every operation once the rate limit is spent', async () => {
      const prefix = uniquePrefix('openapi-429');
      const storage: Storage =
        store === 'redis' ? await createRedisStorage(REDIS_URL, prefix) : createMemoryStorage();
      const app = await createApp({
        storage,
        rateLimits: { perToken: 1, perIp: 1, windowSeconds: 60 },
        sweepIntervalMs: 0,
        webhooks: { intervalMs: 0 },
      });
      try {
        const api = checkedClient(await listen(app), new OpenApiChecker());
        await api.call('get', '/api/v1/games');
        for (const op of operations()) {
          const answer = await api.call(op.method, fill(op.path, DUMMY));
          if (op.path.startsWith('/api/v1'))
            expect([op.operationId, answer.status]).toEqual([op.operationId, 429]);
        }
      } finally {
        await app.stop();
        await deletePrefix(prefix);
      }
    });

    if (store === 'redis') {
      it('with 503 and Retry-After on every operation while Redis cannot be reached', async () => {
        const port = await freePort();
        const dead = () => {
          const redis = new Redis(`redis://127.0.0.1:${port}`, {
            ...redisClientOptions(),
            lazyConnect: true,
          });
          redis.on('error', () => undefined);
          return redis;
        };
        const [deadClient, subscriber] = [dead(), dead()];
        const app = await createApp({
          storage: { ...redisStorage(deadClient, subscriber, 'x:'), events: new MemoryEventBus() },
          sweepIntervalMs: 0,
          webhooks: { intervalMs: 0 },
        });
        try {
          const api = checkedClient(await listen(app), new OpenApiChecker());
          for (const op of operations()) {
            const body = op.spec.requestBody ? { body: {} } : {};
            const answer = await api.call(op.method, fill(op.path, DUMMY), body);
            if (op.path.startsWith('/api/v1'))
              expect([op.operationId, answer.status]).toEqual([op.operationId, 503]);
          }
          await api.expectStatus(503, 'get', '/readyz');
        } finally {
          await app.stop();
          deadClient.disconnect();
          subscriber.disconnect();
        }
      });
    }
  },
);
