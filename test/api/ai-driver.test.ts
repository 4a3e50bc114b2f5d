// The turn driver behind the AI: it respects the clock, and on two server nodes sharing one Redis
// the AI's turns are played exactly once — by the other node when one does not drive, and by the
// other node's sweep when the node that claimed a turn hangs (as a node that died would).
import { join } from 'node:path';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, chooser, type Running } from '../support/app';
import { uniquePrefix } from '../support/redis';

const harness = appHarness();
afterAll(() => harness.stopAll());

const SLOW = join(__dirname, '../support/ai-workers/slow.ts');
const STUCK = join(__dirname, '../support/ai-workers/stuck.ts');

async function call(run: Running, method: string, path: string, body?: unknown, headers = {}) {
  const res = await fetch(`${run.url}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Reads the game until `check` holds (the AI thinks in another thread or on another node). */
async function waitFor(run: Running, id: string, check: (game: any) => boolean, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await call(run, 'GET', `/games/${id}`);
    if (check(body)) return body;
    if (Date.now() > end) throw new Error(`game ${id} at version ${body.version}: condition not reached`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Plays the human's seat on `run` until the game is over (or `untilVersion`); returns the game. */
async function playOut(run: Running, id: string, seat: number, human: TestAccount, untilVersion = Infinity) {
  const pick = chooser(id.charCodeAt(1));
  for (;;) {
    const game = await waitFor(
      run,
      id,
      (g) => g.status === 'finished' || g.toMove === seat || g.version >= untilVersion,
    );
    if (game.status === 'finished' || game.version >= untilVersion) return game;
    const res = await call(
      run,
      'POST',
      `/games/${id}/moves`,
      { move: pick(game.legalMoves) },
      {
        ...human.auth,
        'if-match': `"${game.version}"`,
      },
    );
    expect(res.status).toBe(200);
  }
}

/** Each ply once, seats alternating (every game here is one where each side moves once per turn). */
function expectEachPlyOnce(moves: Array<{ ply: number; seat: number }>) {
  expect(moves.map((m) => m.ply)).toEqual(moves.map((_, i) => i + 1));
}

describe('the AI and the clock', () => {
  it('never loses on time: each move takes at most a fraction of what is left', async () => {
    // The slow worker takes the whole time it is given: a driver that ignored the clock would spend
    // the level's budget on every move and run out.
    const run = await harness.start('memory', { app: { ai: { pool: { workers: 1, filename: SLOW } } } });
    const human = await signUp(run.app, 'clocked', 'human');
    const created = await call(
      run,
      'POST',
      '/challenges/ai',
      { kind: 'kalah', level: 8, color: 'north', timeControl: { type: 'realtime', initialSeconds: 10 } },
      human.auth,
    );
    expect(created.status).toBe(201);
    const last = await playOut(run, created.body.id, 1, human);
    expect(last.status).toBe('finished');
    // The AI (seat 0) never runs out. The human's seat is this test's polling loop: on a loaded
    // machine it is the one that could, and then the AI wins on time, which is no failure of the AI.
    if (last.result.reason === 'timeout') expect(last.result.winner).toBe(0);
    expect(last.clock.remainingMs[0]).toBeGreaterThan(0);
    expectEachPlyOnce(last.moves);
  });
});

describe('two nodes on one Redis', () => {
  let human: TestAccount;

  it('a node that does not drive: the other node plays every AI turn, once', async () => {
    const prefix = uniquePrefix('ai-two');
    const quiet = await harness.start('redis', { prefix, app: { ai: { driver: false } } });
    const driving = await harness.start('redis', { prefix });
    human = await signUp(quiet.app, 'two-nodes', 'human');
    const created = await call(
      quiet,
      'POST',
      '/challenges/ai',
      { kind: 'kalah', level: 1, color: 'north' },
      human.auth,
    );
    expect(created.status).toBe(201);
    const last = await playOut(quiet, created.body.id, 1, human);
    expect(last.status).toBe('finished');
    expectEachPlyOnce(last.moves);
    expect(last.moves[0].seat).toBe(0);
    expect(driving.app.services.turns.accounts()).toContain('ai-level-1');
    expect(quiet.app.services.turns.accounts()).toEqual([]);
  });

  it('a node that claimed the turn and hangs: the other node’s sweep plays it once the claim runs out', async () => {
    const prefix = uniquePrefix('ai-dead');
    const ai = { leaseMs: 1000, sweepMs: 200 };
    const hung = await harness.start('redis', {
      prefix,
      app: { ai: { ...ai, pool: { workers: 1, filename: STUCK } } },
    });
    const player = await signUp(hung.app, 'hung-node', 'human');
    const created = await call(
      hung,
      'POST',
      '/challenges/ai',
      { kind: 'kalah', level: 1, color: 'north' },
      player.auth,
    );
    expect(created.status).toBe(201);
    const id = created.body.id;
    // The hung node heard of the turn and is thinking forever.
    const pool = hung.app.services.aiPool;
    const end = Date.now() + 10_000;
    while (pool.inFlight === 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pool.inFlight).toBe(1);
    // A second node, started after the turn began: only its sweep can find it.
    const rescuer = await harness.start('redis', { prefix, app: { ai } });
    const afterFirst = await waitFor(rescuer, id, (g) => g.version >= 1);
    // Played once. A Kalah sowing that ends in the mover's store moves again (one in six of level
    // 1's first moves), so by this read the AI may have played its extra move as well: version 2.
    expectEachPlyOnce(afterFirst.moves);
    expect(afterFirst.moves.length).toBeGreaterThanOrEqual(1);
    expect(afterFirst.moves[0].seat).toBe(0);
    // Play on: every later AI turn too is played once (whichever node claims it first).
    const later = await playOut(rescuer, id, 1, player, 5);
    const settled = await waitFor(
      rescuer,
      id,
      (g) => g.version >= later.version && (g.status === 'finished' || g.toMove === 1),
    );
    expectEachPlyOnce(settled.moves);
  });
});
