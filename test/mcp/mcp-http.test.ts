// The MCP server at /mcp, driven by the official SDK's Client over Streamable HTTP: the tools it
// lists, a whole Kalah game played by two agents through the tools alone (challenge, accept, my
// games, read, move), an illegal move answered with the legal moves, retries that act once, and
// requests without a valid token refused before any tool runs.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, chooser, type Running, type StoreKind } from '../support/app';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { call, httpClient, must } from './mcp-support';

const harness = appHarness();
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await harness.stopAll();
});

const TOOLS = [
  'list_kinds',
  'get_rules',
  'list_challenges',
  'create_challenge',
  'accept_challenge',
  'decline_challenge',
  'cancel_challenge',
  'list_my_games',
  'get_game',
  'play_move',
  'resign',
  'offer_draw',
  'accept_draw',
  'decline_draw',
  'rematch',
  'send_chat',
  'read_chat',
  'offer_takeback',
  'accept_takeback',
  'decline_takeback',
  'get_ratings',
  'get_leaderboard',
  'list_tournaments',
  'get_tournament',
  'join_tournament',
  'leave_tournament',
  'play_ai',
  'analyze',
];

async function agent(run: Running, who: TestAccount): Promise<Client> {
  const client = await httpClient(run.url, who.token);
  clients.push(client);
  return client;
}

/** x challenges y to a small Kalah game through the tools; y accepts. Returns the game id. */
async function challengeAndAccept(x: Client, y: Client, yName: string): Promise<string> {
  const created = await must(x, 'create_challenge', {
    to: yName,
    kind: 'kalah',
    options: { houses: 4, seeds: 3 },
    starts: 'challenger',
  });
  const listed = await must(y, 'list_challenges');
  const received = listed.challenges.find((c: any) => c.id === created.challenge.id);
  expect(received).toMatchObject({ direction: 'received', kind: 'kalah', status: 'open' });
  const accepted = await must(y, 'accept_challenge', { challengeId: created.challenge.id });
  expect(accepted.challenge.status).toBe('accepted');
  expect(accepted.game).toMatchObject({ you: 'north', toMove: 'south', yourTurn: false });
  return accepted.challenge.gameId as string;
}

describe.each<StoreKind>(['memory', 'redis'])('MCP over Streamable HTTP (%s store)', (store) => {
  let run: Running;
  let alice: TestAccount;
  let bob: TestAccount;
  beforeAll(async () => {
    run = await harness.start(store);
    [alice, bob] = await Promise.all([signUp(run.app, 'mcp-alice'), signUp(run.app, 'mcp-bob')]);
  });

  test('lists every tool, each with an input schema and a description', async () => {
    const client = await agent(run, alice);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe('object');
    }
    const play = tools.find((t) => t.name === 'play_move');
    expect(play?.inputSchema.required).toEqual(expect.arrayContaining(['gameId', 'move']));
    expect(client.getInstructions()).toContain('play_move');
  });

  test('kinds and rules: the same kinds and rules page the server serves', async () => {
    const client = await agent(run, alice);
    const { kinds } = await must(client, 'list_kinds');
    expect(kinds.map((k: any) => k.kind)).toEqual(run.app.services.games.kinds());
    const rules = await must(client, 'get_rules', { kind: 'oware' });
    const served = await (await fetch(`${run.url}/rules/oware.md`)).text();
    expect(rules.rules).toBe(served);
    const unknown = await call(client, 'get_rules', { kind: 'chess' });
    expect(unknown.isError).toBe(true);
    expect(unknown.body.code).toBe('UNKNOWN_GAME_KIND');
  });

  test('rematch: one agent offers, the other accepts (or declines) with the same tool', async () => {
    const a = await agent(run, alice);
    const b = await agent(run, bob);
    const gameId = await challengeAndAccept(a, b, bob.username);
    const early = await call(a, 'rematch', { gameId });
    expect([early.isError, early.body.code, early.body.reason]).toEqual([
      true,
      'REMATCH_NOT_ALLOWED',
      'ongoing',
    ]);
    await must(a, 'resign', { gameId });
    expect(await must(a, 'rematch', { gameId })).toEqual({ status: 'offered', game: null });
    const accepted = await must(b, 'rematch', { gameId });
    expect(accepted.status).toBe('accepted');
    // Colours swapped: bob (north before) is south now and moves first.
    expect(accepted.game).toMatchObject({ you: 'south', toMove: 'south', yourTurn: true, status: 'ongoing' });
    const stored = await run.app.services.games.getGame(accepted.game.id);
    expect([stored.rematchOf, stored.seats.map((s) => s.account)]).toEqual([gameId, [bob.id, alice.id]]);
    const again = await must(a, 'rematch', { gameId });
    expect(again.game.id).toBe(accepted.game.id);
    await must(b, 'resign', { gameId: accepted.game.id }); // the later tests want no ongoing game

    const other = await challengeAndAccept(a, b, bob.username);
    await must(b, 'resign', { gameId: other });
    await must(a, 'rematch', { gameId: other });
    expect(await must(b, 'rematch', { gameId: other, decline: true })).toEqual({
      status: 'declined',
      game: null,
    });
    const refused = await call(a, 'rematch', { gameId: other });
    expect([refused.isError, refused.body.reason]).toEqual([true, 'declined']);
  });

  test('two agents play a whole Kalah game through the tools alone', async () => {
    const a = await agent(run, alice);
    const b = await agent(run, bob);
    const gameId = await challengeAndAccept(a, b, bob.username);
    const agents = [
      { client: a, choose: chooser(7) },
      { client: b, choose: chooser(11) },
    ];
    let plies = 0;
    for (let turn = 0; turn < 400; turn++) {
      // Whoever has the game at the top of its list with yourTurn plays.
      const lists = await Promise.all(agents.map((x) => must(x.client, 'list_my_games')));
      const mover = lists.findIndex((l) => l.games[0]?.id === gameId && l.games[0].yourTurn);
      if (mover === -1) break;
      const { client, choose } = agents[mover]!;
      const { game } = await must(client, 'get_game', { gameId });
      expect(game.yourTurn).toBe(true);
      const move = choose(game.legalMoves);
      const played = await must(client, 'play_move', { gameId, move, expectedVersion: game.version });
      expect(played.game.version).toBe(game.version + 1);
      expect(played.game.lastMoves.at(-1)).toBe(`${game.ply + 1}. ${game.you} ${move}`);
      plies++;
    }
    const { game } = await must(a, 'get_game', { gameId, allMoves: true });
    expect(game.status).toBe('finished');
    expect(game.moves).toHaveLength(plies);
    const stored = await run.app.services.games.getGame(gameId);
    expect(stored.status).toBe('finished');
    expect(stored.moves.map((m) => m.notation)).toEqual(game.moves.map((m: string) => m.split(' ')[2]));
    expect(game.result.winner).toBe(stored.result?.winnerName ?? null);
    const finished = await must(b, 'list_my_games', { filter: 'finished' });
    expect(finished.games.map((g: any) => g.id)).toContain(gameId);
  });

  test('an illegal move is a tool error listing the legal moves; nothing is played', async () => {
    const a = await agent(run, alice);
    const b = await agent(run, bob);
    const gameId = await challengeAndAccept(a, b, bob.username);
    const before = await run.app.services.games.getGame(gameId);
    const refused = await call(a, 'play_move', { gameId, move: '9' });
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject({ code: 'ILLEGAL_MOVE', yourTurn: true, version: before.version });
    expect(refused.body.legalMoves).toEqual(before.legalMoves);
    expect(refused.text).toContain('ILLEGAL_MOVE');
    // Not one's turn: the same, with yourTurn false.
    const early = await call(b, 'play_move', { gameId, move: before.legalMoves[0] });
    expect(early.body).toMatchObject({ code: 'NOT_YOUR_TURN', yourTurn: false });
    expect((await run.app.services.games.getGame(gameId)).version).toBe(before.version);
    // The agent retries with a move from the list, and it is played.
    const retried = await must(a, 'play_move', { gameId, move: refused.body.legalMoves[0] });
    expect(retried.game.ply).toBe(1);
  });

  test('a retried call acts once: by expectedVersion or by idempotency key', async () => {
    const a = await agent(run, alice);
    const b = await agent(run, bob);
    const gameId = await challengeAndAccept(a, b, bob.username);
    const start = await run.app.services.games.getGame(gameId);
    const args = { gameId, move: start.legalMoves[0], expectedVersion: start.version };
    const first = await must(a, 'play_move', args);
    const again = await must(a, 'play_move', args);
    expect(again).toEqual(first);
    const mid = await run.app.services.games.getGame(gameId);
    expect(mid.version).toBe(start.version + 1);
    const keyed = { gameId, move: mid.legalMoves[0], idempotencyKey: `k-${gameId}` };
    const mover = mid.toMove === 0 ? a : b;
    const once = await must(mover, 'play_move', keyed);
    expect(await must(mover, 'play_move', keyed)).toEqual(once);
    expect((await run.app.services.games.getGame(gameId)).version).toBe(start.version + 2);
  });

  test('draws and resignation through the tools', async () => {
    const a = await agent(run, alice);
    const b = await agent(run, bob);
    const drawn = await challengeAndAccept(a, b, bob.username);
    expect((await must(a, 'offer_draw', { gameId: drawn })).game.drawOfferedBy).toBe('south');
    const agreed = await must(b, 'accept_draw', { gameId: drawn });
    expect(agreed.game.result).toMatchObject({ winner: null, reason: 'agreement' });
    const resigned = await challengeAndAccept(a, b, bob.username);
    const over = await must(b, 'resign', { gameId: resigned });
    expect(over.game.result).toMatchObject({ winner: 'south', reason: 'resignation' });
    const late = await call(a, 'play_move', { gameId: resigned, move: '1' });
    expect(late.body).toMatchObject({ code: 'GAME_OVER', legalMoves: [] });
  });

  test('takebacks through the tools', async () => {
    const a = await agent(run, alice);
    const b = await agent(run, bob);
    const gameId = await challengeAndAccept(a, b, bob.username);
    const start = await run.app.services.games.getGame(gameId);
    const first = start.legalMoves.find((m) => m !== undefined) as string;
    const moved = await must(a, 'play_move', { gameId, move: first });
    const refused = await call(b, 'offer_takeback', { gameId });
    expect(refused.body).toMatchObject({ code: 'TAKEBACK_NOT_ALLOWED', reason: 'nothing' });
    const asked = await must(a, 'offer_takeback', { gameId });
    expect(asked.game).toMatchObject({
      takebackOfferedBy: 'south',
      settings: { takeback: true, chat: 'seats' },
    });
    expect((await must(b, 'decline_takeback', { gameId })).game.takebackOfferedBy).toBeNull();
    await must(a, 'offer_takeback', { gameId });
    const taken = await must(b, 'accept_takeback', { gameId });
    expect(taken.game).toMatchObject({ ply: 0, toMove: 'south', takebackOfferedBy: null, lastMoves: [] });
    expect(taken.game.version).toBe(moved.game.version + 4);
  });

  test('decline and cancel challenges', async () => {
    const a = await agent(run, alice);
    const b = await agent(run, bob);
    const one = await must(a, 'create_challenge', { to: bob.username, kind: 'oware' });
    const declined = await must(b, 'decline_challenge', { challengeId: one.challenge.id, reason: 'later' });
    expect(declined.challenge).toMatchObject({ status: 'declined', declineReason: 'later' });
    const two = await must(a, 'create_challenge', { to: bob.username, kind: 'congo' });
    expect((await must(a, 'cancel_challenge', { challengeId: two.challenge.id })).challenge.status).toBe(
      'canceled',
    );
    const open = await must(b, 'list_challenges');
    expect(open.challenges.map((c: any) => c.id)).not.toContain(two.challenge.id);
  });

  test('tournaments and ratings: list, join, read and leave a tournament; ratings and leaderboards', async () => {
    const t = await run.app.services.tournaments.create(
      { token: alice.token },
      {
        name: 'MCP cup',
        kind: 'kalah',
        options: { houses: 4, seeds: 3 },
        timeControl: { type: 'correspondence', daysPerMove: 3 },
        format: 'round-robin',
        maxPlayers: 4,
      },
    );
    const client = await agent(run, bob);
    const line = async (args: Record<string, unknown>) =>
      (await must(client, 'list_tournaments', args)).tournaments.find((x: any) => x.id === t.id);
    expect(await line({ status: 'open' })).toMatchObject({ name: 'MCP cup', kind: 'kalah', joined: false });
    expect(await line({ status: 'finished' })).toBeUndefined();
    expect(await line({ mine: true })).toBeUndefined();

    const joined = await must(client, 'join_tournament', { tournamentId: t.id });
    expect(joined.tournament).toMatchObject({ id: t.id, joined: true, players: t.players.length + 1 });
    expect(await line({ mine: true })).toMatchObject({ joined: true });
    const read = await must(client, 'get_tournament', { tournamentId: t.id });
    expect(read.tournament.players.map((p: any) => p.name)).toContain(bob.username);
    expect(read.standings).toMatchObject({ tournament: t.id, status: 'open' });
    const left = await must(client, 'leave_tournament', { tournamentId: t.id });
    expect(left.tournament).toMatchObject({ joined: false, players: t.players.length });
    const unknown = await call(client, 'get_tournament', { tournamentId: 'tnnone000000' });
    expect(unknown).toMatchObject({ isError: true, body: { code: 'TOURNAMENT_NOT_FOUND' } });

    expect(await must(client, 'get_ratings')).toEqual({ username: bob.username, perfs: [] });
    expect((await must(client, 'get_ratings', { username: alice.username })).username).toBe(alice.username);
    const board = await must(client, 'get_leaderboard', {
      kind: 'kalah',
      speed: 'realtime',
      category: 'bot',
    });
    expect(Array.isArray(board.items)).toBe(true);
    const wrong = await call(client, 'get_leaderboard', { kind: 'chess', speed: 'realtime' });
    expect(wrong).toMatchObject({ isError: true, body: { code: 'UNKNOWN_GAME_KIND' } });
  });
});

describe('MCP authentication', () => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start('memory');
  });

  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  };
  const post = (headers: Record<string, string>) =>
    fetch(`${run.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(initialize),
    });

  test('no token, an unknown token, a seat token, a revoked token: 401 before any MCP message', async () => {
    const who = await signUp(run.app, 'mcp-carol');
    const ok = await post({ authorization: `Bearer ${who.token}` });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).result.serverInfo.name).toBe('boardhost');
    for (const headers of <Array<Record<string, string>>>[
      {},
      { authorization: 'Bearer bhp_unknown' },
      { authorization: 'Bearer bhs_seat' },
      { authorization: 'Basic abc' },
    ]) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(((await res.json()) as any).code).toBe('UNAUTHENTICATED');
    }
    const spare = await run.app.services.accounts.createToken(
      { token: who.token },
      { label: 'spare', scopes: ['game:read'] },
    );
    expect((await post({ authorization: `Bearer ${spare.token}` })).status).toBe(200);
    await run.app.services.accounts.revokeToken({ token: who.token }, spare.id);
    expect((await post({ authorization: `Bearer ${spare.token}` })).status).toBe(401);
  });

  test("the SDK's client cannot connect without a token", async () => {
    await expect(httpClient(run.url)).rejects.toThrow(/401|nauthorized/);
  });

  test('GET and DELETE /mcp: 405 (stateless: no stream, no session)', async () => {
    const who = await signUp(run.app, 'mcp-dan');
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${run.url}/mcp`, {
        method,
        headers: { authorization: `Bearer ${who.token}` },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
});

// Issue #28 item 3: one POST carrying 100 JSON-RPC messages was counted once by the rate limit (20
// POSTs created 2,000 challenges). Batches were removed from MCP in 2025-06-18; /mcp refuses them,
// and every protocol version the SDK negotiates still works one message per POST.
describe('MCP batches', () => {
  let run: Running;
  let eve: TestAccount;
  let fay: TestAccount;
  beforeAll(async () => {
    run = await harness.start('memory');
    [eve, fay] = await Promise.all([signUp(run.app, 'mcp-eve'), signUp(run.app, 'mcp-fay')]);
  });

  const rpc = (token: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${run.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const createChallenge = (id: number, to = fay.username) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'create_challenge',
      arguments: { to, kind: 'kalah', options: { houses: 4, seeds: 3 } },
    },
  });

  test('a batch of 100 create_challenge calls is refused with 400 and a JSON-RPC error; nothing is created', async () => {
    const batch = Array.from({ length: 100 }, (_, i) => createChallenge(i + 1));
    const res = await rpc(eve.token, batch, { 'mcp-protocol-version': '2025-03-26' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(body.error.message).toMatch(/batch/i);
    // A batch of one is a batch too.
    expect((await rpc(eve.token, [createChallenge(1)])).status).toBe(400);
    expect((await run.app.services.challenges.listOpen({ token: fay.token })).items).toEqual([]);
    expect((await run.app.services.challenges.listOpen({ token: eve.token })).items).toEqual([]);
  });

  test.each([...SUPPORTED_PROTOCOL_VERSIONS])(
    'protocol %s: initialize and a tool call, one message per POST, still work',
    async (version) => {
      const init = await rpc(eve.token, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
      });
      expect(init.status).toBe(200);
      expect(((await init.json()) as any).result.protocolVersion).toBe(version);
      const listed = await rpc(
        eve.token,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_kinds', arguments: {} } },
        { 'mcp-protocol-version': version },
      );
      expect(listed.status).toBe(200);
      const result = ((await listed.json()) as any).result;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.kinds.map((k: any) => k.kind)).toContain('kalah');
    },
  );
});
