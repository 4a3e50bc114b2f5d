// The bot bridge against the built-in AI and against challenges that are declined
// (docs/bridge.md): `--challenge ai-level-N` plays the AI through POST /challenges/ai to the end of
// the game; a bad level is refused before the server is asked; a declined challenge (at once, by a
// bot's policy, or later, by a person) is logged with its reason and the bridge exits with status 3.
import { join } from 'node:path';
import type { App } from '../src/app';
import { GAME_KINDS } from '../src/engines/types';
import { signUp } from './support/accounts';
import { appHarness } from './support/app';
import { bridge, until } from './support/bridge-process';
import { referee } from './support/referee';

const harness = appHarness();
afterAll(() => harness.stopAll());

const SAMPLES = `python3 ${join(__dirname, '..', 'examples', 'engines', 'any.py')}`;

async function gamesOf(app: App, account: string) {
  return (await app.service.listGames({ account, limit: 50 })).items;
}

it('--challenge ai-level-1 plays the built-in AI to the end of a game of each kind, through POST /challenges/ai', async () => {
  const { url, app } = await harness.start('redis');
  const alpha = await signUp(app, 'alpha');
  const kinds = GAME_KINDS;
  const a = bridge(
    url,
    alpha.token,
    '--engine',
    SAMPLES,
    '--challenge',
    'ai-level-1',
    '--challenge-kinds',
    kinds.join(','),
    '--challenge-color',
    '0',
    '--games',
    String(kinds.length),
  );
  expect(await a.exit).toBe(0);

  const games = await gamesOf(app, alpha.username);
  expect(games.map((g) => g.kind).sort()).toEqual([...kinds].sort());
  for (const head of games) {
    const game = await app.service.getGame(head.id);
    // The bridge held seat 0 (--challenge-color 0), the AI account of level 1 the other.
    expect(game.seats.map((s) => s.account)).toEqual([alpha.id, 'ai-level-1']);
    expect(game.status).toBe('finished');
    // Every move of both sides is legal by the rules engine, and the game ended by the rules.
    const { position, outcome } = referee(
      game.kind,
      game.options,
      game.moves.map((m) => m.notation),
    );
    expect(position).toBe(game.position);
    expect(outcome?.reason).toBe(game.result!.reason);
    expect(game.moves.filter((m) => m.seat === 0).length).toBeGreaterThan(0);
  }
  const lines = games.map(
    (g) => `${g.kind} ${g.id}: ${g.result?.winnerName ?? 'draw'} (${g.result?.reason})`,
  );
  expect(a.out.stdout.trim().split('\n').sort()).toEqual(lines.sort());
  expect(a.out.stderr).not.toMatch(/illegal|first legal move|declined|leaving this game/);
}, 120_000);

it('--challenge ai-level-N with N outside 1–8 is refused with a clear message before asking the server', async () => {
  const { url, app } = await harness.start('memory');
  const alpha = await signUp(app, 'alpha');
  for (const bad of ['ai-level-9', 'ai-level-0', 'AI-Level-x', 'ai-level-1.5']) {
    const a = bridge(url, alpha.token, '--engine', SAMPLES, '--challenge', bad);
    expect(await a.exit).toBe(2);
    expect(a.out.stderr).toContain(`--challenge ${bad}: the built-in AI is ai-level-1 … ai-level-8`);
  }
  expect(await gamesOf(app, alpha.username)).toEqual([]);
}, 60_000);

it('a challenge a bot declines at once (its policy) is logged with its reason, and the bridge exits with 3', async () => {
  const { url, app } = await harness.start('memory');
  const [alpha, beta] = [await signUp(app, 'alpha'), await signUp(app, 'beta')];
  await app.services.accounts.setBotPolicy(
    { token: beta.token },
    { kinds: ['kalah'], timeControls: ['unlimited'], options: {}, maxGames: 4 },
  );
  const a = bridge(
    url,
    alpha.token,
    '--engine',
    SAMPLES,
    '--challenge',
    beta.username,
    '--challenge-kinds',
    'congo',
  );
  expect(await a.exit).toBe(3);
  expect(a.out.stderr).toMatch(
    new RegExp(
      `challenge \\S+ to ${beta.username} \\(congo\\) declined: kind \\(${beta.username} does not play this kind\\)`,
    ),
  );
  expect(a.out.stderr).toMatch(/stopping: 1 challenge was declined \(kind\) and nothing is left to play/);
  expect(a.out.stdout).toBe('');
}, 60_000);

it('a challenge declined later (by a person, through the feed) is logged, and the bridge exits with 3', async () => {
  const { url, app } = await harness.start('redis');
  const alpha = await signUp(app, 'alpha');
  const gamma = await signUp(app, 'gamma', 'human');
  const a = bridge(url, alpha.token, '--engine', SAMPLES, '--challenge', gamma.username, '--games', '1');
  let id: string | undefined;
  await until(async () => {
    id = (await app.services.challenges.listOpen({ token: gamma.token })).items[0]?.id;
    return id !== undefined;
  });
  // Nothing else is going on: the bridge says it waits for gamma's answer, and does not exit.
  await until(() =>
    a.out.stderr.includes(`challenge ${id} to ${gamma.username} (kalah): waiting for an answer`),
  );
  expect(a.out.stderr).not.toMatch(/declined/);
  await app.services.challenges.decline({ token: gamma.token }, id!, 'later');
  expect(await a.exit).toBe(3);
  expect(a.out.stderr).toContain(
    `challenge ${id} to ${gamma.username} (kalah) declined: later (${gamma.username} not now)`,
  );
  expect(a.out.stderr).toMatch(/stopping: 1 challenge was declined \(later\)/);
}, 60_000);
