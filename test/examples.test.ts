// The bot tour of docs/bots.md, run for real: copies of examples/bot.mjs sign up, challenge each other and
// play from their event feeds alone until the game is over, through the races a bot meets.
import Redis from 'ioredis';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { createApp } from '../src/app';
import { createRedisStorage } from '../src/store/redis';
import { appHarness, type Running } from './support/app';
import { REDIS_URL, uniquePrefix } from './support/redis';
import { Keys } from '../src/store/redis/keys';

const run = promisify(execFile);
const harness = appHarness();
afterAll(() => harness.stopAll());

const bot = (...args: string[]) => run(process.execPath, ['examples/bot.mjs', ...args], { timeout: 30_000 });

/** A running bot: its output so far, and its exit. */
function startBot(...args: string[]) {
  const child = spawn(process.execPath, ['examples/bot.mjs', ...args], { timeout: 30_000 });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { out, exit };
}

/** Resolves once `check` holds (polling every 50 ms), fails after 15 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in 15 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Two bot accounts signed up through the bot itself. */
async function twoBots(url: string) {
  const [alpha, beta] = ['alpha', 'beta'].map((n) => `${n}-${randomBytes(3).toString('hex')}`) as [
    string,
    string,
  ];
  const alphaToken = (await bot('signup', url, alpha)).stdout.trim();
  const betaToken = (await bot('signup', url, beta)).stdout.trim();
  expect(alphaToken).toMatch(/^bhp_/);
  return { alpha, beta, alphaToken, betaToken };
}

/** The one game of `alpha`, finished between the two, and the line each bot prints for it. */
async function finishedGame(app: Running['app'], alpha: string, beta: string) {
  const games = await app.service.listGames({ account: alpha, limit: 10 });
  expect(games.items).toHaveLength(1);
  const game = games.items[0]!;
  expect(game.status).toBe('finished');
  expect(game.seats.map((s) => s.account).sort()).toEqual([alpha, beta].sort());
  return `kalah ${game.id}: ${game.result?.winnerName ?? 'draw'} (${game.result?.reason})`;
}

it('two example bots play a whole game against each other from their feeds', async () => {
  const { url, app } = await harness.start('redis');
  const { alpha, beta, alphaToken, betaToken } = await twoBots(url);

  // Started together: whichever bot's feed opens last still finds the challenge or its turn, since a
  // bot answers pending challenges and ongoing games when it starts.
  const [a, b] = await Promise.all([
    bot('play', url, alphaToken, '--challenge', beta, '--kind', 'kalah', '--games', '1'),
    bot('play', url, betaToken, '--games', '1'),
  ]);

  // Each bot printed the same result line for the one game, and nothing went wrong on the way.
  const line = await finishedGame(app, alpha, beta);
  expect(a.stdout.trim()).toBe(line);
  expect(b.stdout.trim()).toBe(line);
  expect([a.stderr, b.stderr]).toEqual(['', '']);
}, 40_000);

it('plays once when its start-up scan and its feed show the same game version', async () => {
  const { url, app } = await harness.start('memory');
  const { alpha, beta, alphaToken, betaToken } = await twoBots(url);
  // A challenge waits for beta, who will move first. Starting, beta accepts it and plays from its
  // scan of ongoing games; then its feed brings `game.started` for the same version 0. A bot that
  // picked a second random move there under the same Idempotency-Key died of IDEMPOTENCY_KEY_REUSED;
  // with the SDK, the second move (its key names the move) meets If-Match and VERSION_CONFLICT, and
  // the bot reads the game again: one move, no error.
  await app.services.challenges.create(
    { token: alphaToken },
    { to: beta, kind: 'kalah', starts: 'destination' },
  );
  const [b, a] = await Promise.all([
    bot('play', url, betaToken, '--games', '1'),
    bot('play', url, alphaToken, '--games', '1'),
  ]);
  const line = await finishedGame(app, alpha, beta);
  expect([a.stdout.trim(), b.stdout.trim()]).toEqual([line, line]);
  expect([a.stderr, b.stderr]).toEqual(['', '']);
}, 40_000);

it('a waiting bot reconnects across a server restart and then plays', async () => {
  const prefix = uniquePrefix('bots');
  const first = await harness.start('redis', { prefix });
  const port = Number(new URL(first.url).port);
  const { alpha, beta, alphaToken, betaToken } = await twoBots(first.url);
  const waiting = startBot('play', first.url, betaToken, '--games', '1');
  // Beta follows its feed; then the server goes away and beta keeps trying.
  const redis = new Redis(REDIS_URL);
  const listeners = async () =>
    ((await redis.pubsub('NUMSUB', new Keys(prefix).feedChannel(beta))) as [string, number])[1];
  await until(async () => (await listeners()) > 0).finally(() => redis.quit());
  await first.app.stop();
  await until(async () => /reconnecting/.test(waiting.out.stderr));

  // A new server on the same address and store: beta finds it and answers the challenge.
  const second = await createApp({
    storage: await createRedisStorage(REDIS_URL, prefix),
    sweepIntervalMs: 0,
  });
  try {
    await second.listen(port, '127.0.0.1');
    const a = await bot(
      'play',
      first.url,
      alphaToken,
      '--challenge',
      beta,
      '--kind',
      'kalah',
      '--games',
      '1',
    );
    expect(await waiting.exit).toBe(0);
    const line = await finishedGame(second, alpha, beta);
    expect(a.stdout.trim()).toBe(line);
    expect(waiting.out.stdout.trim()).toBe(line);
  } finally {
    await second.stop();
  }
}, 40_000);

/** `n` example bots signed up, a tournament of them (`settings`) played to its end, then its view and the points each scored in its games. */
async function exampleTournament(n: number, settings: Record<string, unknown>) {
  // The director runs as on a server (every 200 ms here): it pairs the rounds after the first.
  const { url, app, storage } = await harness.start('redis', { app: { tournamentSweepMs: 200 } });
  const names = Array.from({ length: n }, (_, i) => `t${i}-${randomBytes(3).toString('hex')}`);
  const tokens = await Promise.all(names.map(async (name) => (await bot('signup', url, name)).stdout.trim()));
  const created = await fetch(`${url}/api/v1/tournaments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens[0]}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Example bots',
      kind: 'kalah',
      options: { seeds: 2, houses: 4 },
      timeControl: { type: 'realtime', initialSeconds: 600, incrementSeconds: 0 },
      maxPlayers: n,
      ...settings,
    }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };

  // The last to join starts it; each bot plays what its feed brings and leaves when it is over.
  const runs = await Promise.all(
    tokens.map((token) =>
      run(process.execPath, ['examples/bot.mjs', 'play', url, token, '--tournament', id], {
        timeout: 60_000,
      }),
    ),
  );
  for (const r of runs) {
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n').at(-1)).toBe(`tournament ${id} (Example bots): finished`);
  }
  const t = await app.services.tournaments.get(id);
  expect(t.status).toBe('finished');
  // Each played pairing's game is over; a player's points are counted here from the games' outcomes.
  const points = new Map<string, number>();
  for (const p of t.pairings) {
    if (p.second === null) continue;
    const game = await storage.games.get(p.games[0] as string);
    expect(game?.status).toBe('finished');
    const winner = game?.outcome?.winner;
    const seatPoints = winner === undefined || winner === null ? [0.5, 0.5] : winner === 0 ? [1, 0] : [0, 1];
    game?.seats.forEach((s, i) => points.set(s.account!, (points.get(s.account!) ?? 0) + seatPoints[i]!));
  }
  return { t, points, standings: await app.services.tournaments.standings(id) };
}

it('four example bots join a round robin and play it to the end from their feeds; the standings add up their games', async () => {
  const { t, points, standings } = await exampleTournament(4, { format: 'round-robin' });
  expect(t.pairings).toHaveLength(6);
  expect(standings.rows.map((r) => [r.account, r.score]).sort()).toEqual([...points.entries()].sort());
  expect(standings.rows.reduce((sum, r) => sum + r.score, 0)).toBe(6);
}, 90_000);

it('seven example bots play a 3-round Swiss: a bye each round to a different bot (1 point), no pairing twice', async () => {
  const { t, points, standings } = await exampleTournament(7, { format: 'swiss', rounds: 3 });
  const byes = t.pairings.filter((p) => p.second === null).map((p) => p.first);
  expect(byes).toHaveLength(3);
  expect(new Set(byes).size).toBe(3);
  const met = t.pairings.filter((p) => p.second !== null).map((p) => [p.first, p.second].sort().join());
  expect(met).toHaveLength(9);
  expect(new Set(met).size).toBe(9);
  for (const bye of byes) points.set(bye, (points.get(bye) ?? 0) + 1);
  expect(standings.rows.map((r) => [r.account, r.score]).sort()).toEqual([...points.entries()].sort());
  expect(standings.rows.reduce((sum, r) => sum + r.score, 0)).toBe(9 + 3);
}, 120_000);
