// Analysis over REST and GraphQL on both stores: a legal best move for every kind (from the start,
// from a position, from a game), typed errors for bad input, the per-caller cap (429) and the full
// queue (503) of the AI pool, and the analysis rate limit apart from the request limits.
import { join } from 'node:path';
import { getEngine } from '../../src/engines/kinds';
import { GAME_KINDS, type GameKind } from '../../src/engines/types';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, gql, type Running } from '../support/app';

const harness = appHarness();
afterAll(() => harness.stopAll());

async function post(run: Running, path: string, body: unknown, headers = {}) {
  const res = await fetch(`${run.url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** The legal moves of the start of `kind` with default options, from the engine itself. */
function startMoves(kind: GameKind): string[] {
  const engine = getEngine(kind)!;
  const options = engine.parseOptions({});
  if (!options.ok) throw new Error(options.error.message);
  const state = engine.setup(options.value, 0);
  return engine.moves(state).map((m) => engine.formatMove(state, m as never));
}

const ANALYSIS = `query ($input: AnalysisInput!) {
  analysis(input: $input) { kind position bestMove pv score solved { result plies } depth nodes timeMs }
}`;

describe.each(['memory', 'redis'] as const)('analysis (%s)', (store) => {
  let run: Running;
  let account: TestAccount;
  beforeAll(async () => {
    run = await harness.start(store);
    account = await signUp(run.app, 'analyst', 'human');
  });

  it.each(GAME_KINDS)('answers a legal best move of the %s start over REST and GraphQL', async (kind) => {
    const legal = startMoves(kind);
    const rest = await post(run, '/analysis', { kind, timeMs: 50 }, account.auth);
    expect(rest.status).toBe(200);
    expect(legal).toContain(rest.body.bestMove);
    expect(rest.body.pv[0]).toBe(rest.body.bestMove);
    expect(rest.body.depth).toBeGreaterThanOrEqual(1);
    const graph = await gql(run.url, ANALYSIS, { input: { kind, depth: 1 } });
    expect(graph.body.errors).toBeUndefined();
    expect(legal).toContain(graph.body.data!.analysis.bestMove);
    expect(graph.body.data!.analysis.kind).toBe(kind);
  });

  it('analyses a given position and the current position of a game', async () => {
    const created = await post(run, '/games', { kind: 'kalah' });
    const game = created.body.game;
    const auth = { authorization: `Bearer ${created.body.seatTokens[0].token}` };
    const moved = await post(run, `/games/${game.id}/moves`, { move: game.legalMoves[0] }, auth);
    expect(moved.status).toBe(200);
    const byGame = await post(run, '/analysis', { gameId: game.id, timeMs: 20 });
    expect(byGame.status).toBe(200);
    expect(byGame.body.position).toBe(moved.body.position);
    expect(moved.body.legalMoves).toContain(byGame.body.bestMove);
    const byPosition = await post(run, '/analysis', {
      kind: 'kalah',
      position: moved.body.position,
      depth: 2,
    });
    expect(byPosition.status).toBe(200);
    expect(moved.body.legalMoves).toContain(byPosition.body.bestMove);
  });

  it('refuses bad input with typed errors', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ kind: 'kalah', depth: 31 }, 400, 'INVALID_INPUT'],
      [{ kind: 'kalah', timeMs: 5001 }, 400, 'INVALID_INPUT'],
      [{ kind: 'kalah', timeMs: 0 }, 400, 'INVALID_INPUT'],
      [{ kind: 'kalah', position: 'not a position' }, 400, 'INVALID_POSITION'],
      [{ kind: 'chess' }, 400, 'UNKNOWN_GAME_KIND'],
      [{}, 400, 'INVALID_INPUT'],
      [{ gameId: 'AAAAAAAAAAAA' }, 404, 'GAME_NOT_FOUND'],
      [{ kind: 'kalah', options: { houses: 99 } }, 400, 'INVALID_INPUT'],
    ];
    for (const [body, status, code] of cases) {
      const res = await post(run, '/analysis', body);
      expect([res.status, res.body.code]).toEqual([status, code]);
    }
    const graph = await gql(run.url, ANALYSIS, { input: { kind: 'kalah', depth: 99 } });
    expect(graph.body.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
  });

  it('answers GAME_OVER for a finished game', async () => {
    const created = await post(run, '/games', { kind: 'kalah' });
    const auth = { authorization: `Bearer ${created.body.seatTokens[0].token}` };
    const resigned = await post(run, `/games/${created.body.game.id}/resign`, {}, auth);
    expect(resigned.status).toBe(200);
    const res = await post(run, '/analysis', { gameId: created.body.game.id });
    expect([res.status, res.body.code]).toEqual([409, 'GAME_OVER']);
  });
});

describe('a busy AI pool', () => {
  it('refuses a second analysis of one caller (429) and a full queue (503), with Retry-After', async () => {
    // Each account from its own address (the cap counts per address too).
    const run = await harness.start('redis', {
      app: {
        trustProxy: 'loopback',
        ai: {
          pool: {
            workers: 1,
            queueMax: 1,
            perAccount: 1,
            filename: join(__dirname, '../support/ai-workers/slow.ts'),
          },
        },
      },
    });
    const [a, b, c] = await Promise.all(
      ['busy-a', 'busy-b', 'busy-c'].map(async (l, i) => {
        const account = await signUp(run.app, l, 'human');
        return { auth: { ...account.auth, 'x-forwarded-for': `192.0.2.${i + 1}` } };
      }),
    );
    const pool = run.app.services.aiPool;
    // a's analysis holds the one thread for 3 s.
    const first = post(run, '/analysis', { kind: 'kalah', timeMs: 3000 }, a!.auth);
    await until(() => pool.inFlight === 1 && pool.queued === 0);
    const again = await post(run, '/analysis', { kind: 'kalah', timeMs: 10 }, a!.auth);
    expect([again.status, again.body.code]).toEqual([429, 'TOO_MANY_ANALYSES']);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    // b's waits in the queue (of 1); c's finds it full. (Long ones: a search of 100 ms or less may
    // take the pool's express thread instead of waiting.)
    const second = post(run, '/analysis', { kind: 'kalah', timeMs: 300 }, b!.auth);
    await until(() => pool.queued === 1);
    const full = await post(run, '/analysis', { kind: 'kalah', timeMs: 300 }, c!.auth);
    expect([full.status, full.body.code]).toEqual([503, 'AI_BUSY']);
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    // Answered: a may ask again.
    expect((await post(run, '/analysis', { kind: 'kalah', timeMs: 10 }, a!.auth)).status).toBe(200);
  });

  it('counts analyses against their own rate limit', async () => {
    const run = await harness.start('memory', {
      app: { ai: { analysis: { maxTimeMs: 1000, perMinute: 2 } } },
    });
    const account = await signUp(run.app, 'rated', 'human');
    for (let i = 0; i < 2; i++) {
      expect((await post(run, '/analysis', { kind: 'oware', depth: 1 }, account.auth)).status).toBe(200);
    }
    const refused = await post(run, '/analysis', { kind: 'oware', depth: 1 }, account.auth);
    expect([refused.status, refused.body.code, refused.body.policy]).toEqual([
      429,
      'RATE_LIMITED',
      'analysis',
    ]);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Moves and reads are not counted there.
    expect((await post(run, '/games', { kind: 'oware' })).status).toBe(201);
  });
});

/** Polls `check` (state of this process) every 10 ms until true, for at most 10 s. */
async function until(check: () => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
