// The bot bridge (boardhost-bot, docs/bridge.md) with the sample Python engines of
// examples/engines: two bridges play one whole game of each of the five kinds against each other, all
// at once, through a real server; every move is checked against the rules engine and every answer of
// the engines was legal. An engine that answers illegally or not at all is covered too.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GAME_KINDS } from '../src/engines/types';
import { createApp, type App } from '../src/app';
import { createRedisStorage } from '../src/store/redis';
import { signUp } from './support/accounts';
import { appHarness } from './support/app';
import { bridge, until } from './support/bridge-process';
import { REDIS_URL, uniquePrefix } from './support/redis';
import { referee } from './support/referee';

const harness = appHarness();
afterAll(() => harness.stopAll());

const KINDS = GAME_KINDS;
const ENGINES = join(__dirname, '..', 'examples', 'engines');
const SAMPLES = `python3 ${join(ENGINES, 'any.py')}`;

/** Every game of `account`: finished, its moves legal by the rules engine, its result the rules'. */
async function checkedGames(app: App, account: string) {
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
  // Realtime games of 10 minutes each: the engines get `time` lines, and think well within them.
  const policy = ['--kinds', KINDS.join(','), '--time-controls', 'realtime', '--max-games', '5'];
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
    '--challenge-clock',
    '600+0',
    '--games',
    '5',
  );
  expect(await a.exit).toBe(0);
  expect(await b.exit).toBe(0);

  // Beta declared its policy through the bridge's flags.
  const account = await app.services.accounts.getAccount(beta.username);
  expect(account.bot).toEqual({ kinds: KINDS, timeControls: ['realtime'], options: {}, maxGames: 5 });

  const games = await checkedGames(app, alpha.username);
  expect(games.map((g) => g.kind).sort()).toEqual([...KINDS].sort());
  for (const g of games) {
    expect(g.seats.map((s) => s.account).sort()).toEqual([alpha.id, beta.id].sort());
    expect(g.timeControl).toMatchObject({ type: 'realtime', initialSeconds: 600 });
  }
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

it('bridges reconnect across a server restart in the middle of a game and finish it, losing no move', async () => {
  const prefix = uniquePrefix('bridge');
  const first = await harness.start('redis', { prefix });
  const port = Number(new URL(first.url).port);
  const [alpha, beta] = [await signUp(first.app, 'alpha'), await signUp(first.app, 'beta')];
  // The sample mancala engine, thinking 100 ms a move, so that the restart falls inside the game.
  const dir = mkdtempSync(join(tmpdir(), 'boardhost-engine-'));
  const slow = join(dir, 'slow.py');
  writeFileSync(
    slow,
    [
      'import sys, time',
      `sys.path.insert(0, ${JSON.stringify(ENGINES)})`,
      'import mancala, protocol',
      'protocol.run(lambda *a: (time.sleep(0.1), mancala.choose(*a))[1])',
    ].join('\n'),
  );
  const engine = `python3 ${slow}`;
  const b = bridge(first.url, beta.token, '--engine', engine, '--games', '1');
  const a = bridge(first.url, alpha.token, '--engine', engine, '--challenge', beta.username, '--games', '1');
  const ply = async () =>
    (await first.app.service.listGames({ account: alpha.username, limit: 1 })).items[0]?.ply ?? 0;
  await until(async () => (await ply()) >= 4);
  await first.app.stop();
  await until(() => /reconnecting/.test(a.out.stderr) && /reconnecting/.test(b.out.stderr));

  const second = await createApp({
    storage: await createRedisStorage(REDIS_URL, prefix),
    sweepIntervalMs: 0,
  });
  try {
    // The game is still on as the server comes back: the rest is played through the new one.
    const atRestart = (await second.service.listGames({ account: alpha.username, limit: 1 })).items[0]!;
    expect(atRestart.status).toBe('ongoing');
    await second.listen(port, '127.0.0.1');
    expect(await a.exit).toBe(0);
    expect(await b.exit).toBe(0);
    const [game] = await checkedGames(second, alpha.username);
    expect(game?.kind).toBe('kalah');
    expect(game!.ply).toBeGreaterThan(atRestart.ply);
    expect(a.out.stdout.trim()).toBe(b.out.stdout.trim());
    expect(a.out.stderr + b.out.stderr).not.toMatch(/illegal|first legal move|no bestmove|leaving this game/);
  } finally {
    await second.stop();
  }
}, 60_000);
