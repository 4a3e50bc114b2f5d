// The README's bot tour, run for real: two copies of examples/bot.mjs sign up, one challenges the
// other, and both play from their event feeds alone until the game is over.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { appHarness } from './support/app';

const run = promisify(execFile);
const harness = appHarness();
afterAll(() => harness.stopAll());

it('two example bots play a whole game against each other from their feeds', async () => {
  const { url, app } = await harness.start('redis');
  const bot = (...args: string[]) =>
    run(process.execPath, ['examples/bot.mjs', ...args], { timeout: 30_000 });
  const [alpha, beta] = ['alpha', 'beta'].map((n) => `${n}-${randomBytes(3).toString('hex')}`) as [
    string,
    string,
  ];
  const alphaToken = (await bot('signup', url, alpha)).stdout.trim();
  const betaToken = (await bot('signup', url, beta)).stdout.trim();
  expect(alphaToken).toMatch(/^bhp_/);

  // Started together: whichever bot's feed opens last still finds the challenge or its turn, since a
  // bot answers pending challenges and ongoing games when it starts.
  const [a, b] = await Promise.all([
    bot('play', url, alphaToken, '--challenge', beta, '--kind', 'kalah', '--games', '1'),
    bot('play', url, betaToken, '--games', '1'),
  ]);

  const games = await app.service.listGames({ account: alpha, limit: 10 });
  expect(games.items).toHaveLength(1);
  const game = games.items[0]!;
  expect(game.status).toBe('finished');
  expect(game.seats.map((s) => s.account).sort()).toEqual([alpha, beta].sort());
  // Each bot printed the same result line for the one game.
  const line = `kalah ${game.id}: ${game.result?.winnerName ?? 'draw'} (${game.result?.reason})`;
  expect(a.stdout.trim()).toBe(line);
  expect(b.stdout.trim()).toBe(line);
}, 40_000);
