// `npm run bench -- api`: the built server (dist/main.js) on Redis under autocannon, against two
// ceilings (bench/ceiling-server.ts, its own process): a bare express 5 route and a bare Apollo Server
// mutation, each doing one EVALSHA per request. REST submitMove asks for the minimal answer (Prefer:
// return=minimal: the head and the move); `rest-full` (opt-in) the whole game. Every measured request of the server plays a real
// legal Kalah move: each autocannon connection owns a game, reads the answer to pick the next legal
// move and the token of the seat to move, and takes a fresh pre-created game when its game ends
// (bench/api-load.ts). The report gives REST submitMove / express ceiling and GraphQL submitMove /
// Apollo ceiling for req/s and p99, each ratio taken within one run (the workloads of one connection
// count run back to back), beside issue #14's targets; a missed target does not fail the bench.
//
// Env: BENCH_SECONDS (5 per run), BENCH_RUNS (3), BENCH_WARMUP (1 s per workload),
// BENCH_CONNECTIONS (10,100), BENCH_WORKLOADS (rest,graphql,ceiling,ceiling-app,apollo; also
// rest-full; ceiling-app: the express ceiling behind the app's middlewares, a ratio shown beside the
// targets), BENCH_SKIP_BUILD=1,
// REDIS_URL (redis://127.0.0.1:6379), BENCH_CPU_PROF=<dir> (run the server under --cpu-prof).
// BENCH_CLUSTER=1 (a cluster of the bench's own) or REDIS_CLUSTER_NODES: the cluster bench instead
// (api-cluster.ts: moves/s of BENCH_NODES nodes on the cluster against one node on one Redis).
import { deletePrefix, REDIS_URL } from '../test/support/redis';
import { runClusterBench } from './api-cluster';
import {
  DEFAULT_WORKLOADS,
  GamePool,
  isCeiling,
  runOnce,
  WORKLOADS,
  type RunResult,
  type Workload,
} from './api-load';
import {
  benchPrefix,
  buildServer,
  envList,
  median,
  serverEnv,
  startChild,
  startServer,
  stopChild,
  table,
  type Child,
} from './support';

const LABELS: Record<Workload, string> = {
  rest: 'REST submitMove (Prefer: return=minimal)',
  'rest-full': 'REST submitMove (whole game)',
  graphql: 'GraphQL submitMove',
  ceiling: 'express ceiling (express+EVALSHA)',
  'ceiling-app': "express ceiling behind the app's middlewares",
  apollo: 'Apollo ceiling (Apollo+express5+EVALSHA)',
};

/** Issue #14's targets, as ratios of a workload to its ceiling within one run. */
interface Target {
  readonly label: string;
  readonly workload: Workload;
  readonly ceiling: Workload;
  readonly metric: 'rps' | 'p99';
  /** rps: at least this share of the ceiling's; p99: at most this multiple of it; none: shown only. */
  readonly bound?: number;
}

const TARGETS: readonly Target[] = [
  { label: 'REST / express ceiling', workload: 'rest', ceiling: 'ceiling', metric: 'rps', bound: 0.6 },
  { label: 'REST / express ceiling', workload: 'rest', ceiling: 'ceiling', metric: 'p99', bound: 1.5 },
  {
    label: "REST / express ceiling behind the app's middlewares",
    workload: 'rest',
    ceiling: 'ceiling-app',
    metric: 'rps',
  },
  {
    label: "REST / express ceiling behind the app's middlewares",
    workload: 'rest',
    ceiling: 'ceiling-app',
    metric: 'p99',
  },
  { label: 'REST whole game / express ceiling', workload: 'rest-full', ceiling: 'ceiling', metric: 'rps' },
  { label: 'REST whole game / express ceiling', workload: 'rest-full', ceiling: 'ceiling', metric: 'p99' },
  { label: 'GraphQL / Apollo ceiling', workload: 'graphql', ceiling: 'apollo', metric: 'rps', bound: 0.6 },
  { label: 'GraphQL / Apollo ceiling', workload: 'graphql', ceiling: 'apollo', metric: 'p99' },
];

function reportWorkloads(results: RunResult[], workloads: Workload[], connectionCounts: number[]): void {
  const rows: string[][] = [
    [
      'workload',
      'conns',
      'req/s (median)',
      'runs',
      'spread',
      'p50 ms',
      'p99 ms',
      'failures',
      'in-band creates',
    ],
  ];
  for (const workload of workloads) {
    for (const connections of connectionCounts) {
      const runs = results.filter((r) => r.workload === workload && r.connections === connections);
      if (runs.length === 0) continue;
      const rps = runs.map((r) => r.rps);
      const m = median(rps);
      const spread = m > 0 ? ((Math.max(...rps) - Math.min(...rps)) / m) * 100 : 0;
      rows.push([
        LABELS[workload],
        String(connections),
        m.toFixed(0),
        rps.map((v) => v.toFixed(0)).join(' / '),
        `±${(spread / 2).toFixed(1)}%`,
        median(runs.map((r) => r.p50)).toFixed(1),
        median(runs.map((r) => r.p99)).toFixed(1),
        String(runs.reduce((n, r) => n + r.failures, 0)),
        String(runs.reduce((n, r) => n + r.inbandCreates, 0)),
      ]);
    }
  }
  console.log(`\n${table(rows)}\n`);
  console.log(
    'p50/p99: median over runs (autocannon counts whole ms). spread: (max − min) / median / 2. ' +
      'failures: non-2xx, GraphQL errors, socket errors and timeouts.',
  );
}

/** The target ratios, each computed within a run, then the median over runs. */
function reportRatios(results: RunResult[], runs: number, connectionCounts: number[]): void {
  const rows: string[][] = [['ratio', 'metric', 'conns', 'per run', 'median', 'target', '']];
  const find = (run: number, workload: Workload, connections: number) =>
    results.find((r) => r.run === run && r.workload === workload && r.connections === connections);
  for (const target of TARGETS) {
    for (const connections of connectionCounts) {
      const ratios: number[] = [];
      for (let run = 1; run <= runs; run++) {
        const value = find(run, target.workload, connections);
        const ceiling = find(run, target.ceiling, connections);
        if (!value || !ceiling) continue;
        const [v, c] = target.metric === 'rps' ? [value.rps, ceiling.rps] : [value.p99, ceiling.p99];
        ratios.push(c > 0 ? v / c : Number.NaN);
      }
      if (ratios.length === 0) continue;
      const m = median(ratios);
      const show = (r: number) =>
        Number.isNaN(r) ? 'n/a' : target.metric === 'rps' ? `${(r * 100).toFixed(1)}%` : `${r.toFixed(2)}×`;
      let bound = '—';
      let verdict = '';
      if (target.bound !== undefined) {
        const met = target.metric === 'rps' ? m >= target.bound : m <= target.bound;
        bound =
          target.metric === 'rps' ? `≥ ${(target.bound * 100).toFixed(0)}%` : `≤ ${target.bound.toFixed(1)}×`;
        verdict = Number.isNaN(m) ? '' : met ? 'met' : 'missed';
      }
      rows.push([
        target.label,
        target.metric === 'rps' ? 'req/s' : 'p99',
        String(connections),
        ratios.map(show).join(' / '),
        show(m),
        bound,
        verdict,
      ]);
    }
  }
  if (rows.length === 1) return;
  console.log(`\n${table(rows)}\n`);
  console.log(
    'Targets (issue #14): REST ≥ 60% of the express ceiling’s req/s with p99 ≤ 1.5× its p99; GraphQL ≥ 60% of ' +
      'the Apollo ceiling’s req/s. Each ratio pairs a workload with its ceiling in the same run.',
  );
}

export async function runApiBench(_args: string[]): Promise<void> {
  // On a Redis Cluster: moves/s of several nodes against one node on one Redis (api-cluster.ts).
  if (process.env.BENCH_CLUSTER === '1' || process.env.REDIS_CLUSTER_NODES) return runClusterBench();
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const warmup = Number(process.env.BENCH_WARMUP ?? 1);
  const connectionCounts = envList('BENCH_CONNECTIONS', ['10', '100']).map(Number);
  const workloads = envList<Workload>('BENCH_WORKLOADS', [...DEFAULT_WORKLOADS], WORKLOADS);
  const cpuProf = process.env.BENCH_CPU_PROF;
  const prefix = benchPrefix('api');

  buildServer();
  let server: Child | undefined;
  let ceiling: Child | undefined;
  const results: RunResult[] = [];
  try {
    const env = serverEnv(REDIS_URL, prefix);
    if (workloads.some((w) => w === 'rest' || w === 'rest-full' || w === 'graphql')) {
      server = await startServer('server', env, cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] : []);
    }
    if (workloads.some(isCeiling)) {
      ceiling = await startChild('ceilings', ['-r', '@swc-node/register', 'bench/ceiling-server.ts'], env);
    }
    const pool = server ? new GamePool(server.base) : undefined;
    const bases: Record<Workload, string | undefined> = {
      rest: server?.base,
      'rest-full': server?.base,
      graphql: server?.base,
      ceiling: ceiling?.base,
      'ceiling-app': ceiling?.base,
      apollo: ceiling?.base,
    };
    // Successful requests/s seen per workload, to size the game pool before each run.
    const seen = new Map<Workload, number>();
    const prepare = async (workload: Workload, connections: number, duration: number) => {
      if (!pool || isCeiling(workload)) return;
      const rate = seen.get(workload) ?? 3000;
      const need = Math.ceil(((rate * duration) / pool.averagePlies) * 1.5) + 2 * connections;
      await pool.fill(need);
    };

    console.log(
      `api bench: ${workloads.join(', ')} × ${connectionCounts.join('/')} connections, ${runs} run(s) of ` +
        `${seconds} s, ${warmup} s warm-up each; Redis ${REDIS_URL}, prefix ${prefix}`,
    );
    if (warmup > 0) {
      for (const workload of workloads) {
        const connections = Math.max(...connectionCounts);
        await prepare(workload, connections, warmup);
        const r = await runOnce(workload, connections, warmup, bases[workload]!, pool, 0);
        seen.set(workload, r.rps);
        console.log(`  warm-up ${workload}: ${r.rps.toFixed(0)} req/s`);
      }
    }
    // Within a run, the workloads of one connection count run back to back (so each ratio compares
    // measurements taken moments apart); runs repeat it all, so drift spreads over every workload.
    for (let run = 1; run <= runs; run++) {
      for (const connections of connectionCounts) {
        for (const workload of workloads) {
          await prepare(workload, connections, seconds);
          const r = await runOnce(workload, connections, seconds, bases[workload]!, pool, run);
          seen.set(workload, Math.max(seen.get(workload) ?? 0, r.rps));
          results.push(r);
          console.log(
            `  run ${run} ${workload} c=${connections}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, ` +
              `p99 ${r.p99} ms, failures ${r.failures}`,
          );
        }
      }
    }
    if (pool) {
      console.log(
        `games: ${pool.finishedGames} played to the end, ${pool.averagePlies.toFixed(1)} plies on average`,
      );
    }
    reportWorkloads(results, workloads, connectionCounts);
    reportRatios(results, runs, connectionCounts);
    const failures = results.reduce((n, r) => n + r.failures, 0);
    if (failures > 0)
      throw new Error(`${failures} failed requests (non-2xx, GraphQL errors or socket errors)`);
  } finally {
    await Promise.all([stopChild(server), stopChild(ceiling)]);
    await deletePrefix(prefix);
    console.log(`cleanup: stopped children, deleted the keys under ${prefix}`);
  }
}
