// `npx boardhost-mcp`: the stdio server of packages/mcp, spawned by the official SDK's
// StdioClientTransport, forwards to a running server's /mcp. One agent plays over stdio, the other
// over Streamable HTTP, a whole Kalah game; the stdio server lists the same tools as /mcp, passes
// tool errors through unchanged, and a bad token is refused.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, chooser, type Running } from '../support/app';
import { call, httpClient, MCP_BIN, must, stdioClient } from './mcp-support';

const harness = appHarness();
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await harness.stopAll();
});

let run: Running;
let alice: TestAccount;
let bob: TestAccount;
beforeAll(async () => {
  run = await harness.start('memory');
  [alice, bob] = await Promise.all([signUp(run.app, 'stdio-alice'), signUp(run.app, 'stdio-bob')]);
});

test('the workspace declares the bin that npx boardhost-mcp runs', () => {
  const root = join(__dirname, '..', '..');
  const pkg = JSON.parse(readFileSync(join(root, 'packages', 'mcp', 'package.json'), 'utf8'));
  expect(join(root, 'packages', 'mcp', pkg.bin['boardhost-mcp'])).toBe(MCP_BIN);
  const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  expect(rootPkg.workspaces).toContain('packages/*');
  expect(pkg.dependencies['@modelcontextprotocol/sdk']).toBe(
    rootPkg.dependencies['@modelcontextprotocol/sdk'],
  );
});

test('lists the same tools as /mcp', async () => {
  const stdio = await stdioClient(run.url, alice.token);
  clients.push(stdio);
  const http = await httpClient(run.url, alice.token);
  clients.push(http);
  const [viaStdio, viaHttp] = await Promise.all([stdio.listTools(), http.listTools()]);
  expect(viaStdio.tools).toEqual(viaHttp.tools);
  expect(viaStdio.tools.length).toBeGreaterThan(10);
  expect(stdio.getInstructions()).toBe(http.getInstructions());
});

test('a whole game: one agent over stdio, the other over HTTP', async () => {
  const a = await stdioClient(run.url, alice.token);
  clients.push(a);
  const b = await httpClient(run.url, bob.token);
  clients.push(b);
  const created = await must(a, 'create_challenge', {
    to: bob.username,
    kind: 'kalah',
    options: { houses: 3, seeds: 2 },
    starts: 'challenger',
  });
  const accepted = await must(b, 'accept_challenge', { challengeId: created.challenge.id });
  const gameId = accepted.challenge.gameId as string;
  const illegal = await call(a, 'play_move', { gameId, move: '7' });
  expect(illegal.isError).toBe(true);
  expect(illegal.body.code).toBe('ILLEGAL_MOVE');
  expect(illegal.body.legalMoves).toEqual((await run.app.services.games.getGame(gameId)).legalMoves);
  const choose = chooser(3);
  let plies = 0;
  for (let turn = 0; turn < 200; turn++) {
    const { game } = await must(a, 'get_game', { gameId });
    if (game.status === 'finished') break;
    const mover = game.toMove === 'south' ? a : b;
    await must(mover, 'play_move', { gameId, move: choose(game.legalMoves), expectedVersion: game.version });
    plies++;
  }
  const stored = await run.app.services.games.getGame(gameId);
  expect(stored.status).toBe('finished');
  expect(stored.moves).toHaveLength(plies);
  expect(stored.moves.some((m) => m.seat === 0) && stored.moves.some((m) => m.seat === 1)).toBe(true);
});

/** Runs the bin to its end (asynchronously: the server it calls runs in this process). */
function runBin(
  env: Record<string, string>,
  input = '',
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MCP_BIN], { env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

test('piped messages: every request is answered before stdin’s end stops it', async () => {
  const lines = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_my_games', arguments: {} } },
  ];
  const env = { PATH: process.env.PATH ?? '', BOARDHOST_URL: run.url, BOARDHOST_TOKEN: alice.token };
  const out = await runBin(env, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  expect(out.status).toBe(0);
  const answers = out.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
  expect(answers[1].result.tools.map((t: any) => t.name)).toContain('play_move');
  expect(answers[2].result.structuredContent.games).toEqual(expect.any(Array));
});

test('without BOARDHOST_TOKEN it exits with a message; with a bad token it cannot start', async () => {
  const env = { PATH: process.env.PATH ?? '', BOARDHOST_URL: run.url };
  const none = await runBin(env);
  expect(none.status).toBe(2);
  expect(none.stderr).toContain('BOARDHOST_TOKEN');
  const bad = await runBin({ ...env, BOARDHOST_TOKEN: 'bhp_nope' });
  expect(bad.status).not.toBe(0);
  expect(bad.stderr).toMatch(/401|nauthorized/);
});
