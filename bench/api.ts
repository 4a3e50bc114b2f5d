// `npm run bench -- api`: the built server (dist/main.js) on Redis under autocannon, against a ceiling
// (a bare express 5 app doing one EVALSHA per request). Every measured request plays a real legal
// Kalah move: each autocannon connection owns a game, reads the answer to pick the next legal move
// and the token of the seat to move, and takes a fresh pre-created game when its game ends.
//
// Env: BENCH_SECONDS (5 per run), BENCH_RUNS (3), BENCH_WARMUP (1 s per workload),
// BENCH_CONNECTIONS (10,100), BENCH_WORKLOADS (rest,graphql,ceiling), BENCH_SKIP_BUILD=1,
// REDIS_URL (redis://127.0.0.1:6379), BENCH_CPU_PROF=<dir> (run the server under --cpu-prof).
import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import Redis from 'ioredis';

const ROOT = path.resolve(__dirname, '..');
const HOST = '127.0.0.1';

type Workload = 'rest' | 'graphql' | 'ceiling';
const LABELS: Record<Workload, string> = {
  rest: 'REST submitMove',
  graphql: 'GraphQL submitMove',
  ceiling: 'ceiling (express+EVALSHA)',
};
const TARGETS: Partial<Record<Workload, number>> = { rest: 0.5, graphql: 0.3 };

const GQL_SUBMIT =
  'mutation($id:ID!,$move:String!,$t:String){submitMove(id:$id,move:$move,seatToken:$t){status toMove legalMoves}}';

// ---------------------------------------------------------------------------------------------------
// Processes

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface Child {
  readonly name: string;
  readonly proc: ChildProcess;
  readonly base: string;
  /** Last lines of stderr/stdout, for error messages. */
  readonly output: () => string;
}

async function startChild(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<Child> {
  const port = await freePort();
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const child: Child = { name, proc, base: `http://${HOST}:${port}`, output: () => tail };
  await waitReady(child);
  return child;
}

async function waitReady(child: Child, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.proc.exitCode !== null || child.proc.signalCode !== null) {
      throw new Error(`${child.name} exited before it was ready:\n${child.output()}`);
    }
    try {
      const res = await fetch(`${child.base}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${child.name} not ready after ${timeoutMs} ms:\n${child.output()}`);
}

async function stopChild(child: Child | undefined): Promise<void> {
  if (!child || child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.proc.once('exit', () => resolve()));
  child.proc.kill('SIGTERM');
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------------
// Games

interface LiveGame {
  readonly id: string;
  /** Seat token by seat number. */
  readonly tokens: readonly string[];
  toMove: number;
  legalMoves: readonly string[];
  plies: number;
}

interface CreatedGameJson {
  game: { id: string; toMove: number | null; legalMoves: string[]; status: string };
  seatTokens: Array<{ seat: number; token: string }>;
}

function fromCreated(json: CreatedGameJson): LiveGame {
  const tokens: string[] = [];
  for (const s of json.seatTokens) tokens[s.seat] = s.token;
  if (json.game.toMove === null || json.game.legalMoves.length === 0)
    throw new Error('new game not playable');
  return { id: json.game.id, tokens, toMove: json.game.toMove, legalMoves: json.game.legalMoves, plies: 0 };
}

const CREATE_BODY = JSON.stringify({ kind: 'kalah' });

/** Fresh (or part-played, never finished) games shared by the connections of all runs. */
class GamePool {
  private readonly games: LiveGame[] = [];
  private refilling: Promise<void> | undefined;
  finishedGames = 0;
  finishedPlies = 0;

  constructor(private readonly base: string) {}

  get size(): number {
    return this.games.length;
  }

  /** Average plies of the games played to the end so far (40 until one has). */
  get averagePlies(): number {
    return this.finishedGames > 0 ? this.finishedPlies / this.finishedGames : 40;
  }

  take(): LiveGame | undefined {
    return this.games.pop();
  }

  give(game: LiveGame): void {
    this.games.push(game);
  }

  finished(game: LiveGame): void {
    this.finishedGames++;
    this.finishedPlies += game.plies;
  }

  /** Creates games (16 at a time) until the pool holds `target`. */
  async fill(target: number): Promise<void> {
    const worker = async () => {
      while (this.games.length < target) {
        const res = await fetch(`${this.base}/api/v1/games`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: CREATE_BODY,
        });
        if (res.status !== 201) throw new Error(`create game: ${res.status} ${await res.text()}`);
        this.games.push(fromCreated((await res.json()) as CreatedGameJson));
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  }

  /** Tops up in the background while a run is going, if the pool runs low. */
  refillSoon(target: number): void {
    if (this.refilling) return;
    this.refilling = this.fill(target)
      .catch((error: unknown) => console.error(`background refill failed: ${(error as Error).message}`))
      .finally(() => {
        this.refilling = undefined;
      });
  }

  async settle(): Promise<void> {
    await this.refilling;
  }
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

// ---------------------------------------------------------------------------------------------------
// One autocannon run

interface RunResult {
  readonly workload: Workload;
  readonly connections: number;
  /** Successful (accepted-move / 2xx) responses per second. */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Non-2xx responses, GraphQL answers with `errors`, connection errors and timeouts. */
  readonly failures: number;
  /** Requests spent creating a game in-band because the pool was empty (not counted as successes). */
  readonly inbandCreates: number;
}

interface Counters {
  ok: number;
  failed: number;
  creates: number;
  sample: string;
}

/** Per-connection state for the move workloads; wired in through autocannon's setupClient. */
function moveClientSetup(
  workload: 'rest' | 'graphql',
  pool: GamePool,
  lowWater: number,
  counters: Counters,
  live: Set<{ game: LiveGame | undefined; awaiting: boolean }>,
): (client: autocannon.Client) => void {
  return (client) => {
    const conn: { game: LiveGame | undefined; awaiting: boolean; creating: boolean } = {
      game: undefined,
      awaiting: false,
      creating: false,
    };
    live.add(conn);
    const fail = (status: number, body: string) => {
      counters.failed++;
      if (!counters.sample) counters.sample = `${status} ${body.slice(0, 300)}`;
      conn.game = undefined; // its state is unknown now: take another
    };
    client.setRequests([
      {
        method: 'POST',
        setupRequest: (req) => {
          // A request that never got its answer (timeout, reconnect) leaves the game's state unknown.
          if (conn.awaiting) conn.game = undefined;
          conn.awaiting = true;
          if (!conn.game) conn.game = pool.take();
          if (pool.size < lowWater) pool.refillSoon(lowWater * 4);
          const game = conn.game;
          if (!game) {
            conn.creating = true;
            return {
              ...req,
              path: '/api/v1/games',
              headers: { 'content-type': 'application/json' },
              body: CREATE_BODY,
            };
          }
          conn.creating = false;
          const move = pick(game.legalMoves);
          const token = game.tokens[game.toMove] as string;
          if (workload === 'rest') {
            return {
              ...req,
              path: `/api/v1/games/${game.id}/moves`,
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body: JSON.stringify({ move }),
            };
          }
          return {
            ...req,
            path: '/graphql',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: GQL_SUBMIT, variables: { id: game.id, move, t: token } }),
          };
        },
        onResponse: (status, body) => {
          conn.awaiting = false;
          if (conn.creating) {
            counters.creates++;
            if (status === 201) conn.game = fromCreated(JSON.parse(body) as CreatedGameJson);
            else fail(status, body);
            return;
          }
          const game = conn.game;
          if (!game) return;
          if (status < 200 || status >= 300) return fail(status, body);
          let view: { status: string; toMove: number | null; legalMoves: string[] };
          if (workload === 'rest') {
            view = JSON.parse(body) as typeof view;
          } else {
            const json = JSON.parse(body) as { data?: { submitMove?: typeof view } | null; errors?: unknown };
            if (json.errors || !json.data?.submitMove) return fail(status, body);
            view = json.data.submitMove;
          }
          counters.ok++;
          game.plies++;
          if (view.status !== 'ongoing' || view.toMove === null || view.legalMoves.length === 0) {
            pool.finished(game);
            conn.game = undefined;
          } else {
            game.toMove = view.toMove;
            game.legalMoves = view.legalMoves;
          }
        },
      },
    ]);
  };
}

async function runOnce(
  workload: Workload,
  connections: number,
  seconds: number,
  base: string,
  pool: GamePool | undefined,
): Promise<RunResult> {
  const counters: Counters = { ok: 0, failed: 0, creates: 0, sample: '' };
  const live = new Set<{ game: LiveGame | undefined; awaiting: boolean }>();
  const options: autocannon.Options = {
    url: base,
    connections,
    duration: seconds,
    pipelining: 1,
    timeout: 10,
  };
  if (workload === 'ceiling') {
    options.url = `${base}/ceiling`;
    options.method = 'POST';
    options.headers = { 'content-type': 'application/json' };
    options.body = '{"bench":1}';
  } else {
    if (!pool) throw new Error('move workloads need a game pool');
    options.setupClient = moveClientSetup(workload, pool, connections, counters, live);
  }
  const result = await autocannon(options);
  await pool?.settle();
  // Games whose last answer arrived are still playable: hand them back for the next run.
  for (const conn of live) if (conn.game && !conn.awaiting) pool?.give(conn.game);

  const ok = workload === 'ceiling' ? result['2xx'] : counters.ok;
  const failures =
    (workload === 'ceiling' ? result.non2xx : counters.failed) + result.errors + result.timeouts;
  if (counters.sample) console.error(`  ${workload}: first failure: ${counters.sample}`);
  return {
    workload,
    connections,
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures,
    inbandCreates: counters.creates,
  };
}

// ---------------------------------------------------------------------------------------------------
// Redis cleanup

async function deletePrefix(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
  let cursor = '0';
  let deleted = 0;
  try {
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

// ---------------------------------------------------------------------------------------------------
// Report

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
    )
    .join('\n');
}

function report(results: RunResult[], workloads: Workload[], connectionCounts: number[]): boolean {
  const rows: string[][] = [
    [
      'workload',
      'conns',
      'req/s (median)',
      'runs',
      'spread',
      'p50 ms',
      'p99 ms',
      'non-2xx/errors',
      'in-band creates',
    ],
  ];
  const medians = new Map<string, number>();
  for (const workload of workloads) {
    for (const connections of connectionCounts) {
      const runs = results.filter((r) => r.workload === workload && r.connections === connections);
      if (runs.length === 0) continue;
      const rps = runs.map((r) => r.rps);
      const m = median(rps);
      medians.set(`${workload}/${connections}`, m);
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
  console.log('p50/p99: median over runs. spread: (max − min) / median / 2.');

  let allMet = true;
  const ratioRows: string[][] = [['ratio', 'conns', 'value', 'target', '']];
  for (const workload of workloads) {
    const target = TARGETS[workload];
    if (target === undefined) continue;
    for (const connections of connectionCounts) {
      const ceiling = medians.get(`ceiling/${connections}`);
      const value = medians.get(`${workload}/${connections}`);
      if (!ceiling || value === undefined) continue;
      const ratio = value / ceiling;
      const met = ratio >= target;
      allMet &&= met;
      ratioRows.push([
        `${workload === 'rest' ? 'REST' : 'GraphQL'} / ceiling`,
        String(connections),
        `${(ratio * 100).toFixed(1)}%`,
        `≥ ${(target * 100).toFixed(0)}%`,
        met ? 'met' : 'MISSED',
      ]);
    }
  }
  if (ratioRows.length > 1) console.log(`\n${table(ratioRows)}\n`);
  return allMet;
}

// ---------------------------------------------------------------------------------------------------
// Entry point

function envList<T extends string>(name: string, fallback: T[], allowed?: readonly T[]): T[] {
  const raw = process.env[name];
  if (!raw) return fallback;
  const items = raw.split(',').map((s) => s.trim()) as T[];
  if (allowed) {
    for (const item of items) {
      if (!allowed.includes(item)) throw new Error(`${name}: unknown ${item} (one of ${allowed.join(', ')})`);
    }
  }
  return items;
}

export async function runApiBench(_args: string[]): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const warmup = Number(process.env.BENCH_WARMUP ?? 1);
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const connectionCounts = envList('BENCH_CONNECTIONS', ['10', '100']).map(Number);
  const workloads = envList<Workload>(
    'BENCH_WORKLOADS',
    ['rest', 'graphql', 'ceiling'],
    ['rest', 'graphql', 'ceiling'],
  );
  const cpuProf = process.env.BENCH_CPU_PROF;
  const prefix = `bench:${randomBytes(6).toString('hex')}:`;

  if (process.env.BENCH_SKIP_BUILD !== '1') {
    console.log('building (npm run build)…');
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }

  let server: Child | undefined;
  let ceiling: Child | undefined;
  const results: RunResult[] = [];
  try {
    // Limits out of reach, but still counted: the bench measures the real cost of rate limiting.
    const env = {
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: prefix,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_TOKEN: '1000000000',
      RATE_LIMIT_PER_IP: '1000000000',
    };
    const moveWorkloads = workloads.some((w) => w !== 'ceiling');
    if (moveWorkloads) {
      const serverArgs = cpuProf
        ? ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`, 'dist/main.js']
        : ['dist/main.js'];
      server = await startChild('server', serverArgs, env);
    }
    if (workloads.includes('ceiling')) {
      ceiling = await startChild('ceiling', ['-r', '@swc-node/register', 'bench/ceiling-server.ts'], env);
    }
    const pool = server ? new GamePool(server.base) : undefined;
    const bases: Record<Workload, string | undefined> = {
      rest: server?.base,
      graphql: server?.base,
      ceiling: ceiling?.base,
    };
    // Successful requests/s seen per workload, to size the game pool before each run.
    const seen = new Map<Workload, number>();
    const prepare = async (workload: Workload, connections: number, duration: number) => {
      if (!pool || workload === 'ceiling') return;
      const rate = seen.get(workload) ?? 3000;
      const need = Math.ceil(((rate * duration) / pool.averagePlies) * 1.5) + 2 * connections;
      await pool.fill(need);
    };

    console.log(
      `api bench: ${workloads.join(', ')} × ${connectionCounts.join('/')} connections, ${runs} run(s) of ` +
        `${seconds} s, ${warmup} s warm-up each; Redis ${redisUrl}, prefix ${prefix}`,
    );
    if (warmup > 0) {
      for (const workload of workloads) {
        const connections = Math.max(...connectionCounts);
        await prepare(workload, connections, warmup);
        const r = await runOnce(workload, connections, warmup, bases[workload]!, pool);
        seen.set(workload, r.rps);
        console.log(`  warm-up ${workload}: ${r.rps.toFixed(0)} req/s`);
      }
    }
    // Runs interleave the workloads, so that drift (thermal, other load) spreads over all of them.
    for (let run = 1; run <= runs; run++) {
      for (const workload of workloads) {
        for (const connections of connectionCounts) {
          await prepare(workload, connections, seconds);
          const r = await runOnce(workload, connections, seconds, bases[workload]!, pool);
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
    const allMet = report(results, workloads, connectionCounts);
    const failures = results.reduce((n, r) => n + r.failures, 0);
    if (failures > 0)
      throw new Error(`${failures} failed requests (non-2xx, GraphQL errors or socket errors)`);
    if (!allMet) console.log('note: a target was missed (see ratios above)');
  } finally {
    await Promise.all([stopChild(server), stopChild(ceiling)]);
    const deleted = await deletePrefix(redisUrl, prefix);
    console.log(`cleanup: stopped children, unlinked ${deleted} keys under ${prefix}`);
  }
}
