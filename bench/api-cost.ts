// `npm run bench -- api-cost`: the server's CPU time per request, for REST submitMove (Prefer:
// return=minimal, the `api` bench's workload, through the built server) and for the express ceiling
// (bench/ceiling-server.ts's route) behind each of the app's middlewares alone (bench/cost-server.ts).
// CPU time, unlike requests/s, hardly depends on what else the machine runs: each server is its own
// process, and its user+system time (/proc/<pid>/stat, every thread) over a run is divided by the
// answers it sent in that run. The difference to `bare` is what a layer costs; the move's
// difference to `bare` is what the whole route adds to one EVALSHA round trip. At equal CPU per
// request, requests/s on a quiet machine go as its inverse (each node is one event loop).
//
// Env: BENCH_SECONDS (4 per run), BENCH_RUNS (3; the median is shown), BENCH_CONNECTIONS (100),
// BENCH_LAYERS (every one of bench/cost-server.ts's, and `move`), BENCH_SKIP_BUILD=1, REDIS_URL,
// BENCH_BASELINE=<another build's main.js> (e.g. of main, built with `tsc -p tsconfig.build.json
// --outDir dist/before`): its move too, as `move-baseline`, measured in turn with the others.
// BENCH_RATE=<requests/s>: every run sends at this rate (autocannon overallRate) instead of as fast
// as answered, so that servers compared batch alike (per-request CPU falls as more requests share an
// event-loop turn and a Redis round trip, i.e. with load); below what each server answers.
// BENCH_STORE=memory: the servers that move run on the embedded store (no REDIS_URL), so that the
// move's difference to a Redis run is what the Redis store costs the API process.
// BENCH_PROFILE=1: where a move's CPU goes. The move servers run with `node --cpu-prof` (games are
// made through another server, so that the profiles hold moves only; start-up is left out), and each one’s
// profile is summarized by stage (bench/cpu-profile.ts): µs of main-thread CPU per move, by the
// module it was spent in. The profiler slows the server a little: its totals are a bit above the
// unprofiled µs per request, and only moves are measured. BENCH_PROFILE_DIR=<dir>: the profiles are
// kept there (open them in Chrome DevTools or speedscope).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Redis from 'ioredis';
import path from 'node:path';
import { deletePrefix, REDIS_URL } from '../test/support/redis';
import { GamePool, runOnce } from './api-load';
import { LAYERS, type Layer } from './cost-server';
import { stageRows, stagesOfDir } from './cpu-profile';
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

type Measured = Layer | 'move' | 'move-baseline';
const MEASURED: readonly Measured[] = [...LAYERS, 'move', 'move-baseline'];

const LABELS: Record<Measured, string> = {
  bare: 'express ceiling: JSON body, one EVALSHA, res.json',
  log: '+ request log (pino-http, info, to /dev/null)',
  helmet: '+ security headers (helmet)',
  cors: '+ CORS (cors, origin *)',
  metrics: '+ metrics (prom-client histogram)',
  ratelimit: '+ rate limit (token and IP windows on Redis)',
  all: '+ all of the above',
  move: 'REST submitMove, return=minimal (the built server)',
  'move-baseline': 'REST submitMove, return=minimal (BENCH_BASELINE)',
};

/** Idle time between making a run's games and the run. */
const SETTLE_MS = 1000;

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The Redis server's user + system CPU milliseconds so far (INFO cpu; every thread). */
async function redisCpuMs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1000;
}

/** User + system CPU milliseconds of a process so far, every thread included. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name, which may hold spaces, in its parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

export async function runApiCostBench(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 4);
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
  const fixedRate = process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : undefined;
  const baselineScript = process.env.BENCH_BASELINE;
  const profile = process.env.BENCH_PROFILE === '1';
  const measured = profile
    ? (['move'] as Measured[])
    : envList<Measured>('BENCH_LAYERS', [...LAYERS, 'move'], MEASURED);
  if (baselineScript && !measured.includes('move-baseline')) measured.push('move-baseline');
  if (measured.includes('move-baseline') && !baselineScript)
    throw new Error('move-baseline needs BENCH_BASELINE');
  const prefix = benchPrefix('api-cost');
  buildServer();
  let server: Child | undefined;
  let baseline: Child | undefined;
  let layers: Child | undefined;
  let maker: Child | undefined;
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  const profileDirs = new Map<Measured, string>();
  const servedBy = new Map<Measured, number>();
  const profiled = (what: Measured): string[] => {
    if (!profile) return [];
    const dir = mkdtempSync(path.join(process.env.BENCH_PROFILE_DIR ?? tmpdir(), `api-cost-${what}-`));
    profileDirs.set(what, dir);
    return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
  };
  try {
    const env = serverEnv(REDIS_URL, prefix);
    // Games made through one move server are played through either: one store for both.
    if (process.env.BENCH_STORE === 'memory' && baselineScript)
      throw new Error('BENCH_STORE=memory measures one server (not with BENCH_BASELINE)');
    // Unset keys are left out of a child's environment: the embedded store.
    const moveEnv = process.env.BENCH_STORE === 'memory' ? { ...env, REDIS_URL: undefined } : env;
    if (measured.includes('move')) server = await startServer('server', moveEnv, profiled('move'));
    if (baselineScript) {
      baseline = await startChild('baseline', [...profiled('move-baseline'), baselineScript], moveEnv);
    }
    // Games are made through a server of their own when two servers move (each then reads a game at
    // its first move, as a node of several does; made through one of them, only the other would)
    // and when profiling (the profiles hold moves only). The embedded store is the server's own.
    const onRedis = process.env.BENCH_STORE !== 'memory';
    if (onRedis && (profile || baselineScript)) maker = await startServer('maker', moveEnv);
    if (measured.some((m) => m !== 'move' && m !== 'move-baseline')) {
      layers = await startChild('layers', ['-r', '@swc-node/register', 'bench/cost-server.ts'], env);
    }
    // Both servers share the store: games made through one are played through either.
    const pool = server || baseline ? new GamePool((maker ?? server ?? baseline)!.base) : undefined;
    console.log(
      `api-cost bench: ${measured.join(', ')}; ${connections} connections, ${runs} run(s) of ${seconds} s ` +
        `after a ${seconds} s warm-up each; Redis ${REDIS_URL}, prefix ${prefix}`,
    );
    const perRequest = new Map<Measured, number[]>();
    const redisPerRequest = new Map<Measured, number[]>();
    let rate = 3000;
    const once = async (what: Measured, run: number, duration: number) => {
      const isMove = what === 'move' || what === 'move-baseline';
      const child = what === 'move' ? server! : what === 'move-baseline' ? baseline! : layers!;
      if (isMove) {
        // Enough games for the run, made before it starts (their creation is not measured).
        const need = Math.ceil((((fixedRate ?? rate) * duration) / pool!.averagePlies) * 2) + 2 * connections;
        await pool!.fill(need);
        // What the creations cause on every node (listings, TV…) is over before the run's clock starts.
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      }
      const before = cpuMs(child.proc.pid!);
      const redisBefore = await redisCpuMs(redis);
      const r = await runOnce(
        isMove ? 'rest' : 'ceiling',
        connections,
        duration,
        child.base,
        pool,
        run,
        `/cost/${what}`,
        fixedRate,
      );
      const used = cpuMs(child.proc.pid!) - before;
      const redisUsed = (await redisCpuMs(redis)) - redisBefore;
      servedBy.set(what, (servedBy.get(what) ?? 0) + r.served);
      if (isMove) rate = Math.max(rate, r.rps);
      if (r.failures > 0) throw new Error(`${what}: ${r.failures} failed requests`);
      return {
        us: (used * 1000) / Math.max(1, r.served),
        redisUs: (redisUsed * 1000) / Math.max(1, r.served),
        rps: r.rps,
        creates: r.inbandCreates,
      };
    };
    for (const what of measured) await once(what, 0, seconds);
    for (let run = 1; run <= runs; run++) {
      // Every other run in reverse order: neither server always runs first after the other.
      for (const what of run % 2 === 1 ? measured : [...measured].reverse()) {
        const r = await once(what, run, seconds);
        perRequest.set(what, [...(perRequest.get(what) ?? []), r.us]);
        redisPerRequest.set(what, [...(redisPerRequest.get(what) ?? []), r.redisUs]);
        console.log(
          `  run ${run} ${what}: ${r.us.toFixed(0)} µs CPU/request (Redis ${r.redisUs.toFixed(0)}), ` +
            `${r.rps.toFixed(0)} req/s` +
            (r.creates > 0 ? ` (${r.creates} in-band creates)` : ''),
        );
      }
    }
    const bare = perRequest.get('bare') ? median(perRequest.get('bare')!) : undefined;
    const rows: string[][] = [
      ['layer', 'µs CPU/request (median)', 'runs', 'over bare', 'Redis µs/request (median)'],
    ];
    for (const what of measured) {
      const values = perRequest.get(what)!;
      const m = median(values);
      rows.push([
        LABELS[what],
        m.toFixed(0),
        values.map((v) => v.toFixed(0)).join(' / '),
        bare === undefined || what === 'bare' ? '' : `+${(m - bare).toFixed(0)} (${(m / bare).toFixed(2)}×)`,
        median(redisPerRequest.get(what)!).toFixed(0),
      ]);
    }
    console.log(`\n${table(rows)}\n`);
    console.log(
      'µs CPU/request: the server process’s user+system time over a run / the answers it sent (10 ms ' +
        'clock ticks). bare/(move) is the req/s ratio the move could reach on a quiet machine. Redis ' +
        'µs/request: the Redis server’s CPU time (INFO cpu) over the run / the answers (anything else ' +
        'that uses that Redis meanwhile counts too).',
    );
    if (profile) {
      // The profiles are written as the servers exit.
      await Promise.all([stopChild(server), stopChild(baseline)]);
      for (const [what, dir] of profileDirs) {
        const script = what === 'move-baseline' ? baselineScript! : 'dist/main.js';
        const root = path.dirname(path.resolve(script));
        const rows = stageRows(stagesOfDir(dir, root, /game-writes\.routes\.js$/), servedBy.get(what) ?? 1);
        console.log(
          `\n${LABELS[what]}: main-thread time by stage over ${servedBy.get(what) ?? 0} moves (--cpu-prof ` +
            'samples of the busy thread from the first move on; time in a system call counts, also while the ' +
            'process waits for a core)\n',
        );
        console.log(table([['stage', 'µs/move', 'share'], ...rows]));
      }
    }
  } finally {
    await Promise.all([stopChild(server), stopChild(baseline), stopChild(layers), stopChild(maker)]);
    redis.disconnect();
    if (!process.env.BENCH_PROFILE_DIR) {
      for (const dir of profileDirs.values()) rmSync(dir, { recursive: true, force: true });
    }
    await deletePrefix(prefix);
    console.log(`cleanup: stopped children, deleted the keys under ${prefix}`);
  }
}
