// The AI pool cannot be monopolised (issue #28, item 1), on both stores, against real servers.
// - One address floods the pool with anonymous high-level AI games; another owner's level-1 reply
//   stays within 2x its idle time, measured in the same test: owners are served round robin and an
//   owner has at most AI_MAX_TURNS_PER_OWNER turns in the pool (the others wait in their games and
//   are all played afterwards, none lost).
// - An address holds a bounded number of ongoing anonymous AI games (409 TOO_MANY_AI_GAMES), makes
//   a bounded number a day (429 QUOTA_EXCEEDED, quota aiGames), by /64 for IPv6.
// - Analyses are capped per address as well as per account (running at once, and per minute).
// The pool uses the test worker that sleeps for the time a search is given (test/support/ai-workers
// /slow.ts): searches take exactly their budget and leave the 2 cores to the servers, so the
// figures are the queue's, not the machine's.
import { join } from 'node:path';
import { signUp } from '../support/accounts';
import { appHarness, type Running, call } from '../support/app';

const harness = appHarness();
afterAll(() => harness.stopAll());

const SLOW_WORKER = join(__dirname, '../support/ai-workers/slow.ts');
/** Flooding games (level 6: 600 ms a search with the slow worker). */
const FLOOD = 9;

/** Polls the game until its version reaches `version` (10 ms apart); resolves with it. */
async function until(run: Running, id: string, version: number, timeoutMs = 20_000): Promise<any> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await call(run, 'GET', `/games/${id}`);
    if (body.version >= version || body.status !== 'ongoing') return body;
    if (Date.now() > end) throw new Error(`game ${id} stayed at version ${body.version}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(['memory', 'redis'] as const)('a fair AI pool (%s)', (store) => {
  /**
   * The victim's level-1 reply idle and while one address floods `count` games of `level` (the AI
   * moving first) on a pool of `workers` threads: within 2x.
   */
  async function floodCase(workers: number, level: number, count: number): Promise<void> {
    const run = await harness.start(store, {
      app: { ai: { pool: { workers, turnsPerOwner: 2, filename: SLOW_WORKER } } },
    });
    await run.app.services.ai.ensureAccounts();
    const victim = await signUp(run.app, 'victim', 'human');
    const started = await call(
      run,
      'POST',
      '/challenges/ai',
      { kind: 'congo', level: 1, color: 'white' },
      victim.auth,
    );
    expect(started.status).toBe(201);
    let game = started.body;
    /** The time from the victim's move to the AI's answer (ms). */
    const reply = async (): Promise<number> => {
      const at = Date.now();
      const moved = await call(
        run,
        'POST',
        `/games/${game.id}/moves`,
        { move: game.legalMoves[0] },
        victim.auth,
      );
      expect(moved.status).toBe(200);
      game = await until(run, game.id, moved.body.version + 1);
      return Date.now() - at;
    };
    // Every thread started (a thread's start compiles the worker: seconds, not what is measured).
    const warm = { kind: 'congo' as const, options: {}, start: game.position, moves: [], timeMs: 200 };
    await Promise.all(
      Array.from({ length: workers + 1 }, (_, i) =>
        run.app.services.aiPool.analyze(`warm${i}`, { ...warm, seed: i, timeMs: i < workers ? 200 : 50 }),
      ),
    );
    const idles = [await reply(), await reply(), await reply()].sort((a, b) => a - b);
    const idle = idles[1] as number;

    // One address: FLOOD level-6 games where the AI moves first (each queues a 600 ms search).
    const flood = await Promise.all(
      Array.from({ length: count }, () =>
        call(run, 'POST', '/games/ai', { kind: 'congo', level, seat: '1' }),
      ),
    );
    expect(flood.map((f) => f.status)).toEqual(Array(count).fill(201));
    const flooded = await reply();
    // Every flooding game gets its AI move: turns that waited in their games are played too.
    const answered = await Promise.all(flood.map((f) => until(run, f.body.game.id, 1)));
    expect(answered.map((g) => g.ply)).toEqual(Array(count).fill(1));
    console.log(
      `[${store}] ${workers} thread(s): level-1 reply idle ${idle} ms, under a flood of ${count} level-${level} games ${flooded} ms`,
    );
    expect(flooded).toBeLessThanOrEqual(2 * idle);
  }

  it("keeps another owner's level-1 reply within 2x its idle time while one address floods", async () => {
    await floodCase(3, 6, FLOOD);
  }, 40_000);

  it('with one thread (the default on two cores), a short search never waits for a long one', async () => {
    // Level 7 searches take 1 s here; level 1's may take the express thread, which they never do.
    await floodCase(1, 7, 3);
  }, 40_000);

  describe('per-address limits', () => {
    let run: Running;
    beforeAll(async () => {
      run = await harness.start(store, {
        app: {
          trustProxy: 'loopback',
          quotas: {
            ongoingGamesPerAccount: 1000,
            tokensPerAccount: 1000,
            accountsPerIpPerDay: 1000,
            gamesPerIpPerDay: 1000,
            aiGamesPerIpPerDay: 3,
            ongoingAiGamesPerIp: 2,
          },
          ai: {
            pool: { workers: 3, perAccount: 2, filename: SLOW_WORKER },
            analysis: { maxTimeMs: 5000, perMinute: 3 },
          },
        },
      });
    });
    const aiGame = (ip: string) =>
      call(run, 'POST', '/games/ai', { kind: 'kalah', level: 1, seat: '0' }, { 'x-forwarded-for': ip });

    it('caps ongoing anonymous AI games per address (/64) and their number a day', async () => {
      const first = await aiGame('2001:db8:1:2::1');
      const second = await aiGame('2001:db8:1:2::2');
      expect([first.status, second.status]).toEqual([201, 201]);
      const third = await aiGame('2001:db8:1:2:ffff::3');
      expect([third.status, third.body.code, third.body.max]).toEqual([409, 'TOO_MANY_AI_GAMES', 2]);
      // Another address is not affected; an account is not either.
      expect((await aiGame('2001:db8:1:3::1')).status).toBe(201);
      // Finishing one makes room: the day's third.
      const auth = { authorization: `Bearer ${first.body.seatTokens[0].token}` };
      expect((await call(run, 'POST', `/games/${first.body.game.id}/resign`, {}, auth)).status).toBe(200);
      expect((await aiGame('2001:db8:1:2::4')).status).toBe(201);
      const auth2 = { authorization: `Bearer ${second.body.seatTokens[0].token}` };
      expect((await call(run, 'POST', `/games/${second.body.game.id}/resign`, {}, auth2)).status).toBe(200);
      // Room for one more ongoing, but the day's quota (3) is used up.
      const over = await aiGame('2001:db8:1:2::5');
      expect([over.status, over.body.code, over.body.quota, over.body.limit]).toEqual([
        429,
        'QUOTA_EXCEEDED',
        'aiGames',
        3,
      ]);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3600);
    });

    it('caps analyses per address, whatever the accounts', async () => {
      const accounts = await Promise.all([1, 2, 3, 4].map((i) => signUp(run.app, `analyst${i}`, 'human')));
      const from = (i: number, timeMs: number) =>
        call(
          run,
          'POST',
          '/analysis',
          { kind: 'kalah', timeMs },
          {
            ...accounts[i]!.auth,
            'x-forwarded-for': '198.51.100.7',
          },
        );
      // Two long analyses of two accounts hold the address's two places: a third account is refused.
      const running = [from(0, 800), from(1, 800)];
      await new Promise((r) => setTimeout(r, 300));
      const third = await from(2, 10);
      expect([third.status, third.body.code]).toEqual([429, 'TOO_MANY_ANALYSES']);
      expect((await Promise.all(running)).map((r) => r.status)).toEqual([200, 200]);
      // Three analyses counted a minute for the address (the refused one too): a fourth account is
      // over the address's per-minute window.
      const fourth = await from(3, 10);
      expect([fourth.status, fourth.body.code]).toEqual([429, 'RATE_LIMITED']);
    });
  });
});
