// `npm run bench -- ai-load [seconds]`: move latency of the built server (dist/main.js, on Redis) with an
// idle AI pool and with a saturated one. Movers play seat-token Kalah games (both seats, one move
// at a time each) for `seconds` (default 10) per phase; in the second phase, analysis loops keep
// the pool's queue full (congo, timeMs 1000 each) while the movers play. The point of the pool is
// that analysis under load never slows moves: compare the two phases' p99.
//
// Env: REDIS_URL (default redis://127.0.0.1:6379), BENCH_MOVERS (8), BENCH_ANALYSTS (16),
// BENCH_AI_WORKERS (1: this machine's cores are shared), BENCH_SKIP_BUILD=1.
import { REDIS_URL } from '../test/support/redis';
import {
  benchPrefix,
  buildServer,
  call,
  serverEnv,
  startServer,
  stopChild,
  type CreatedGameJson,
  type GameJson,
} from './support';
import { deletePrefix } from '../test/support/redis';

interface Phase {
  readonly label: string;
  readonly moves: number[];
  analyses: number;
  refused: number;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** One mover: plays both seats of a Kalah game after another until `end`, timing each move. */
async function mover(base: string, end: number, into: number[]): Promise<void> {
  while (Date.now() < end) {
    const created = await call<CreatedGameJson>(base, 'POST', '/games', {
      body: { kind: 'kalah' },
      expect: 201,
    });
    const tokens: string[] = [];
    for (const s of created.seatTokens) tokens[s.seat] = s.token;
    let game: GameJson = created.game;
    let i = 0;
    while (game.status === 'ongoing' && game.toMove !== null && Date.now() < end) {
      const move = game.legalMoves[i++ % game.legalMoves.length] as string;
      const started = performance.now();
      game = await call<GameJson>(base, 'POST', `/games/${game.id}/moves`, {
        token: tokens[game.toMove],
        body: { move },
      });
      into.push(performance.now() - started);
    }
  }
}

/** One analyst: asks for analyses back to back until `end` (refusals of a full queue are counted). */
async function analyst(base: string, end: number, phase: Phase): Promise<void> {
  while (Date.now() < end) {
    const res = await fetch(`${base}/api/v1/analysis`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'congo', timeMs: 1000 }),
    });
    await res.text();
    if (res.status === 200) phase.analyses++;
    else phase.refused++;
  }
}

export async function runAiLoadBench(args: readonly string[]): Promise<void> {
  const seconds = Number(args[0] ?? 10);
  const movers = Number(process.env.BENCH_MOVERS ?? 8);
  const analysts = Number(process.env.BENCH_ANALYSTS ?? 16);
  const workers = process.env.BENCH_AI_WORKERS ?? '1';
  buildServer();
  const prefix = benchPrefix('ai');
  const server = await startServer('server', {
    ...serverEnv(REDIS_URL, prefix),
    AI_WORKERS: workers,
    AI_QUEUE_MAX: '1000',
    AI_MAX_PER_ACCOUNT: '1000',
    AI_ANALYSIS_PER_MINUTE: '100000',
  });
  const base = server.base;
  const phases: Phase[] = [];
  try {
    for (const label of ['idle AI pool', 'saturated AI pool']) {
      const phase: Phase = { label, moves: [], analyses: 0, refused: 0 };
      const end = Date.now() + seconds * 1000;
      const saturate = label.startsWith('saturated');
      await Promise.all([
        ...Array.from({ length: movers }, () => mover(base, end, phase.moves)),
        ...(saturate ? Array.from({ length: analysts }, () => analyst(base, end, phase)) : []),
      ]);
      phases.push(phase);
    }
  } finally {
    await stopChild(server);
    await deletePrefix(prefix);
  }
  console.log(`\nmoves of ${movers} movers, ${seconds} s per phase, AI_WORKERS=${workers}, Redis`);
  console.log('phase                 moves/s   p50 ms   p99 ms   max ms   analyses/s   refused');
  for (const p of phases) {
    const sorted = [...p.moves].sort((a, b) => a - b);
    console.log(
      [
        p.label.padEnd(20),
        (p.moves.length / seconds).toFixed(0).padStart(8),
        percentile(sorted, 50).toFixed(1).padStart(8),
        percentile(sorted, 99).toFixed(1).padStart(8),
        (sorted[sorted.length - 1] ?? NaN).toFixed(1).padStart(8),
        (p.analyses / seconds).toFixed(1).padStart(12),
        String(p.refused).padStart(9),
      ].join(' '),
    );
  }
}
