// The built-in AI over MCP (docs/agents.md): an agent starts a game against the AI with play_ai,
// plays it to the end with get_game / play_move while the AI answers by itself, then analyses the
// final game and a start position with analyze; a bad level, an unknown kind and a retried start
// are answered as the REST routes answer them. Both stores.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, chooser, type Running, type StoreKind } from '../support/app';
import { referee } from '../support/referee';
import { call, httpClient, must } from './mcp-support';

const harness = appHarness();
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await harness.stopAll();
});

describe.each<StoreKind>(['memory', 'redis'])('MCP and the built-in AI (%s store)', (store) => {
  let run: Running;
  let ann: TestAccount;
  let agent: Client;
  beforeAll(async () => {
    run = await harness.start(store);
    await run.app.services.ai.ensureAccounts();
    ann = await signUp(run.app, 'mcp-ann', 'human');
    agent = await httpClient(run.url, ann.token);
    clients.push(agent);
  });

  test('play_ai starts a game against the AI, which the agent plays to the end; analyze reads positions', async () => {
    const started = await must(agent, 'play_ai', {
      kind: 'kalah',
      level: 2,
      color: 'north',
      options: { houses: 4, seeds: 3 },
    });
    const gameId = started.game.id as string;
    expect(started.game).toMatchObject({ kind: 'kalah', status: 'ongoing', you: 'north' });
    expect(started.game.seats).toEqual([
      { seat: 'south', account: 'ai-level-2' },
      { seat: 'north', account: ann.id },
    ]);
    const choose = chooser(5);
    let mine = 0;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { game } = await must(agent, 'get_game', { gameId });
      if (game.status === 'finished') break;
      if (Date.now() > deadline) throw new Error(`the game stayed at ply ${game.ply}`);
      if (!game.yourTurn) {
        // The AI's turn: it moves by itself within moments.
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const move = choose(game.legalMoves);
      const played = await must(agent, 'play_move', { gameId, move, expectedVersion: game.version });
      expect(played.game.version).toBe(game.version + 1);
      mine++;
    }
    const { game } = await must(agent, 'get_game', { gameId, allMoves: true });
    const stored = await run.app.services.games.getGame(gameId);
    expect(stored.status).toBe('finished');
    const moves = stored.moves.map((m) => m.notation);
    expect(game.moves.map((m: string) => m.split(' ')[2])).toEqual(moves);
    // Both sides moved, every move legal, and the game ended by the rules.
    expect(stored.moves.filter((m) => m.seat === 1)).toHaveLength(mine);
    expect(stored.moves.filter((m) => m.seat === 0).length).toBeGreaterThan(0);
    const { position, outcome } = referee('kalah', stored.options, moves);
    expect(position).toBe(stored.position);
    expect(outcome?.reason).toBe(stored.result?.reason);
    expect(game.result).toMatchObject({
      reason: stored.result?.reason,
      winner: stored.result?.winnerName ?? null,
    });
    const finished = await must(agent, 'list_my_games', { filter: 'finished' });
    expect(finished.games.find((g: any) => g.id === gameId)).toMatchObject({ opponent: 'ai-level-2' });

    // The start of a 6-house Kalah, by depth: a move of the start's legal ones, its pv starting with it.
    const start = await must(agent, 'analyze', { kind: 'kalah', depth: 4 });
    expect(start).toMatchObject({ kind: 'kalah', depth: 4 });
    expect(['1', '2', '3', '4', '5', '6']).toContain(start.bestMove);
    expect(start.pv[0]).toBe(start.bestMove);
    expect(typeof start.score).toBe('number');
    // The same as REST's POST /analysis answers (the search is seeded by the position: same answer).
    const rest = await run.app.services.analysis.analyze({ token: ann.token }, { kind: 'kalah', depth: 4 });
    expect({ ...start, timeMs: 0, nodes: 0 }).toEqual({ ...rest, timeMs: 0, nodes: 0 });

    // An ongoing game's position by gameId: the analysed position is the game's.
    const other = await must(agent, 'play_ai', { kind: 'oware', level: 1, color: 'south' });
    const byGame = await must(agent, 'analyze', { gameId: other.game.id, depth: 2 });
    expect(byGame).toMatchObject({ kind: 'oware', position: other.game.position });
    expect(other.game.legalMoves).toContain(byGame.bestMove);
    await must(agent, 'resign', { gameId: other.game.id });
  }, 90_000);

  test('refusals: a level outside 1–8, a kind not hosted, a bad analysis; a retried start makes one game', async () => {
    const before = (await run.app.services.games.listGames({ account: ann.username, limit: 100 })).items
      .length;
    const bad = await call(agent, 'play_ai', { kind: 'kalah', level: 9 });
    expect(bad).toMatchObject({ isError: true, body: { code: 'INVALID_INPUT', field: 'level' } });
    const chess = await call(agent, 'play_ai', { kind: 'chess', level: 1 });
    expect(chess).toMatchObject({ isError: true, body: { code: 'UNKNOWN_GAME_KIND' } });
    const noKind = await call(agent, 'analyze', { depth: 2 });
    expect(noKind.isError).toBe(true);
    const deep = await call(agent, 'analyze', { kind: 'kalah', depth: 99 });
    expect(deep).toMatchObject({ isError: true, body: { code: 'INVALID_INPUT' } });
    expect(
      (await run.app.services.games.listGames({ account: ann.username, limit: 100 })).items,
    ).toHaveLength(before);

    const args = { kind: 'congkak', level: 1, color: 'south', idempotencyKey: `mcp-ai-${store}` };
    const first = await must(agent, 'play_ai', args);
    const again = await must(agent, 'play_ai', args);
    expect(again.game.id).toBe(first.game.id);
    expect(
      (await run.app.services.games.listGames({ account: ann.username, limit: 100 })).items,
    ).toHaveLength(before + 1);
    await must(agent, 'resign', { gameId: first.game.id });
  });
});
