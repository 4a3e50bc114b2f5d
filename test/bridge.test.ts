// The bot bridge (boardhost-bot, docs/bridge.md) with the sample Python engines of
// examples/engines: two bridges play one whole game of each of the five kinds against each other, all
// at once, through a real server; every move is checked against the rules engine and every answer of
// the engines was legal. An engine that answers illegally or not at all is covered too.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { signUp } from './support/accounts';
import { appHarness } from './support/app';
import { referee } from './support/referee';

const harness = appHarness();
afterAll(() => harness.stopAll());

const KINDS = ['congo', 'russian-draughts', 'kalah', 'oware', 'congkak'];
const manifest = require.resolve('@boardhost/client/package.json');
const cli = join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin['boardhost-bot']);
const SAMPLES = `python3 ${join(__dirname, '..', 'examples', 'engines', 'any.py')}`;

/** A running bridge: its output so far, and its exit code. */
function bridge(url: string, token: string, ...args: string[]) {
  const child = spawn(process.execPath, [cli, '--server', url, ...args], {
    env: { ...process.env, BOARDHOST_TOKEN: token },
    timeout: 110_000,
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { out, exit };
}

/** Every game of `account`: finished, its moves legal by the rules engine, its result the rules'. */
async function checkedGames(app: Awaited<ReturnType<typeof harness.start>>['app'], account: string) {
  const games = await app.service.listGames({ account, limit: 50 });
  for (const head of games.items) {
    const game = await app.service.getGame(head.id);
    expect({ id: game.id, status: game.status }).toEqual({ id: game.id, status: 'finished' });
    expect(game.result).not.toBeNull();
    const moves = game.moves.map((m) => m.notation);
    const { position, outcome } = referee(game.kind, game.options, moves); // throws on an illegal move
    expect(position).toBe(game.position);
    // A game ends by the rules (then the referee agrees) or by a player's resignation (none here).
    expect(outcome).toBeDefined();
    expect(outcome!.reason).toBe(game.result!.reason);
  }
  return games.items;
}

it('two bridges with the sample engines play a whole game of each kind, all at once', async () => {
  const { url, app } = await harness.start('redis');
  const [alpha, beta] = [await signUp(app, 'alpha'), await signUp(app, 'beta')];
  const policy = ['--kinds', KINDS.join(','), '--time-controls', 'unlimited', '--max-games', '5'];
  const b = bridge(url, beta.token, '--engine', SAMPLES, ...policy, '--games', '5');
  const a = bridge(
    url,
    alpha.token,
    '--engine',
    SAMPLES,
    '--challenge',
    beta.username,
    '--challenge-kinds',
    KINDS.join(','),
    '--games',
    '5',
  );
  expect(await a.exit).toBe(0);
  expect(await b.exit).toBe(0);

  // Beta declared its policy through the bridge's flags.
  const account = await app.services.accounts.getAccount(beta.username);
  expect(account.bot).toEqual({ kinds: KINDS, timeControls: ['unlimited'], options: {}, maxGames: 5 });

  const games = await checkedGames(app, alpha.username);
  expect(games.map((g) => g.kind).sort()).toEqual([...KINDS].sort());
  for (const g of games) expect(g.seats.map((s) => s.account).sort()).toEqual([alpha.id, beta.id].sort());
  // Both bridges printed one result line per game; no engine answer had to be refused or replaced.
  const lines = games
    .map((g) => `${g.kind} ${g.id}: ${g.result?.winnerName ?? 'draw'} (${g.result?.reason})`)
    .sort();
  expect(a.out.stdout.trim().split('\n').sort()).toEqual(lines);
  expect(b.out.stdout.trim().split('\n').sort()).toEqual(lines);
  expect(a.out.stderr + b.out.stderr).not.toMatch(/illegal|first legal move|no bestmove/);
}, 120_000);

it('an engine that answers illegally, then not at all, is told, asked again, and replaced by the first legal move', async () => {
  const { url, app } = await harness.start('redis');
  const [alpha, beta] = [await signUp(app, 'alpha'), await signUp(app, 'beta')];
  // Illegal answers on odd requests, silence on even ones; the bridge must still finish the game.
  const dir = mkdtempSync(join(tmpdir(), 'boardhost-engine-'));
  const bad = join(dir, 'bad.py');
  writeFileSync(
    bad,
    [
      'import sys',
      'n = 0',
      'for line in sys.stdin:',
      '    w = line.split()',
      '    if w and w[0] == "boardhost": print("ready", flush=True)',
      '    if w and w[0] == "position": n += 1',
      '    if w and w[0] == "go" and n % 2 == 1: print("bestmove nonsense", flush=True)',
      '    if w and w[0] == "quit": break',
    ].join('\n'),
  );
  const b = bridge(url, beta.token, '--engine', `python3 ${bad}`, '--move-timeout', '300', '--games', '1');
  const a = bridge(
    url,
    alpha.token,
    '--engine',
    SAMPLES,
    '--challenge',
    beta.username,
    '--challenge-kinds',
    'kalah',
    '--games',
    '1',
  );
  expect(await a.exit).toBe(0);
  expect(await b.exit).toBe(0);
  const [game] = await checkedGames(app, alpha.username);
  expect(game).toBeDefined();
  expect(b.out.stderr).toMatch(/illegal answer "bestmove nonsense"/);
  expect(b.out.stderr).toMatch(/illegal answer twice; playing the first legal move/);
  expect(b.out.stderr).toMatch(/no bestmove within 300 ms; playing the first legal move/);
  expect(a.out.stderr).not.toMatch(/illegal|first legal move/);
}, 60_000);
