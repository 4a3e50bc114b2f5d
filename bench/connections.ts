// `npm run bench -- connections [counts…]`: what idle connections cost one node, and how fast a burst
// of moves reaches them. The built server (dist/main.js) runs in its own process on Redis (REDIS_URL,
// a key prefix of its own, the stream and connection caps raised by env so that they refuse nothing);
// BENCH_CLIENTS client processes (bench/connections-client.ts) open `count` idle connections (default
// 10000 and 19000) over BENCH_GAMES Kalah games (round robin): SSE game streams (GET
// /api/v1/games/{id}/stream) and graphql-ws subscriptions (`gameUpdated`, one per WebSocket), half
// each (`mixed`) or one kind alone (BENCH_CONN_KINDS=mixed,sse,ws).
//
// For each run, from a fresh server with BENCH_GAMES games made and a warm-up of a few connections
// opened and closed (lazily loaded code is not counted per connection):
// - the server's RSS (VmRSS) and JS heap (heapUsed after two full GCs: the server runs with
//   --expose-gc and a probe that answers SIGUSR2) before and after opening them, and both per
//   connection (KiB), and what V8 holds for the heap (heapTotal: pages, used or not) per connection;
// - idle CPU: the server's utime+stime over BENCH_IDLE_SECONDS (30) of idleness (keep-alives
//   only), as % of one core;
// - the burst: every game makes one move at once (REST, from this process); for each connection,
//   the time from its game's move request being sent to the new version's arrival (both on the
//   same clock: performance.timeOrigin + performance.now(), all processes on one machine):
//   p50, p99, max, per kind.
//
// Env: BENCH_CONN_KINDS (mixed), BENCH_CLIENTS (4), BENCH_GAMES (100), BENCH_IDLE_SECONDS (30),
// BENCH_SERVER (dist/main.js; another build's main.js to measure it instead, e.g. one built with
// `tsc -p tsconfig.build.json --outDir dist/before`), REDIS_URL (redis://127.0.0.1:6379),
// BENCH_SKIP_BUILD=1, BENCH_SERVER_FLAGS (node flags for the server, e.g. --max-semi-space-size=2),
// BENCH_HEAP_SNAPSHOTS (a directory: the server writes a heap snapshot there at
// each memory probe, before and after opening the connections, for a look at what each one holds).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { deletePrefix, REDIS_URL } from '../test/support/redis';
import type { ClientPlan } from './connections-client';
import {
  benchPrefix,
  buildServer,
  call,
  envList,
  percentile,
  HOST,
  ROOT,
  serverEnv,
  startChild,
  stopChild,
  table,
  type Child,
  type CreatedGameJson,
} from './support';

type Mix = 'mixed' | 'sse' | 'ws';
type Kind = 'sse' | 'ws';

const KIB = 1024;
const CLOCK_TICKS = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux

/** Loaded before the server with --import: on SIGUSR2, two full GCs, then memoryUsage() into a file. */
const PROBE =
  'data:text/javascript,' +
  encodeURIComponent(
    "import { writeFileSync } from 'node:fs';" +
      "import { writeHeapSnapshot } from 'node:v8'; let shots = 0;" +
      "process.on('SIGUSR2', () => { globalThis.gc(); globalThis.gc();" +
      ' const dir = process.env.BENCH_HEAP_SNAPSHOTS;' +
      ' if (dir) writeHeapSnapshot(`${dir}/${process.pid}-${shots++}.heapsnapshot`);' +
      ' writeFileSync(process.env.BENCH_PROBE_FILE, JSON.stringify(process.memoryUsage())); });',
  );

interface Memory {
  readonly rss: number;
  readonly heapUsed: number;
  /** What V8 holds for the JS heap (its pages, used or not, the young generation's included). */
  readonly heapTotal: number;
  readonly external: number;
}

/** The server's memory after two full GCs (VmRSS from /proc, heap from the probe). */
async function memoryOf(server: Child, probeFile: string): Promise<Memory> {
  rmSync(probeFile, { force: true });
  server.proc.kill('SIGUSR2');
  const deadline = Date.now() + 30_000;
  while (!existsSync(probeFile)) {
    if (Date.now() > deadline) throw new Error(`no memory probe from the server:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 50));
  const usage = JSON.parse(readFileSync(probeFile, 'utf8')) as {
    heapUsed: number;
    heapTotal: number;
    external: number;
  };
  const status = readFileSync(`/proc/${server.proc.pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * KIB;
  return { rss, heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, external: usage.external };
}

/** The server's CPU time so far (utime + stime), in seconds. */
function cpuSeconds(server: Child): number {
  const stat = readFileSync(`/proc/${server.proc.pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) : state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * Plays `move` over a connection of its own (not fetch's pool: its sockets from making the games sit
 * idle through the run, and the server may close one just as the burst sends on it).
 */
function postMove(port: number, id: string, move: string, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ move });
    const req = request(
      {
        host: HOST,
        port,
        method: 'POST',
        path: `/api/v1/games/${id}/moves`,
        agent: false,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`move on ${id}: ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A client process with its connections and its answers (stdout lines). */
class Client {
  private readonly proc: ChildProcess;
  private readonly lines: string[] = [];
  private wake: (() => void) | undefined;
  readonly kinds: Kind[];
  readonly games: number[];

  constructor(plan: ClientPlan, games: number[]) {
    this.kinds = plan.connections.map((c) => c.kind);
    this.games = games;
    this.proc = spawn(
      process.execPath,
      ['-r', '@swc-node/register', path.join(ROOT, 'bench/connections-client.ts')],
      { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    // The plan on stdin: too long for an argument (128 KiB at most) at thousands of connections.
    this.send(JSON.stringify(plan));
    createInterface({ input: this.proc.stdout! }).on('line', (line) => {
      this.lines.push(line);
      this.wake?.();
    });
  }

  /** The next line starting with `word`, without it. */
  async answer(word: string, timeoutMs = 600_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.lines.findIndex((l) => l.startsWith(`${word} `));
      if (index >= 0) return this.lines.splice(index, 1)[0]!.slice(word.length + 1);
      if (this.proc.exitCode !== null) throw new Error(`a client exited (${this.proc.exitCode})`);
      if (Date.now() > deadline) throw new Error(`no ${word} from a client`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 1000);
      });
    }
  }

  send(line: string): void {
    this.proc.stdin!.write(`${line}\n`);
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.proc.once('exit', () => resolve()));
    this.proc.kill('SIGKILL');
    await exited;
  }
}

/** Opens `count` connections of `mix` over `games`, spread over `clients` processes. */
async function openClients(
  port: number,
  games: readonly string[],
  count: number,
  mix: Mix,
  clients: number,
  firstAddress = 2,
): Promise<Client[]> {
  const started: Client[] = [];
  for (let c = 0; c < clients; c++) {
    const connections: Array<{ kind: Kind; game: string }> = [];
    const indexes: number[] = [];
    for (let i = c; i < count; i += clients) {
      const kind: Kind = mix === 'mixed' ? (i % 2 === 0 ? 'sse' : 'ws') : mix;
      const g = Math.floor(i / 2) % games.length;
      connections.push({ kind, game: games[g]! });
      indexes.push(g);
    }
    started.push(
      new Client(
        { port, localAddress: `127.0.0.${firstAddress + c}`, connections, concurrency: 50 },
        indexes,
      ),
    );
  }
  const ready = await Promise.all(started.map((client) => client.answer('ready')));
  const failed = ready.reduce((sum, line) => sum + Number(line.split(' ')[1]), 0);
  const retries = ready.reduce((sum, line) => sum + Number(line.split(' ')[2]), 0);
  if (retries > 0) console.log(`  (${retries} connects tried again after a reset or refusal)`);
  if (failed > 0) throw new Error(`${failed} of ${count} connections failed to open (five tries each)`);
  return started;
}

interface Run {
  readonly mix: Mix;
  readonly count: number;
  readonly before: Memory;
  readonly after: Memory;
  readonly idleCpu: number;
  readonly latency: Record<Kind | 'all', number[]>;
  readonly missing: number;
}

async function runOne(
  mix: Mix,
  count: number,
  clients: number,
  gameCount: number,
  idleSeconds: number,
): Promise<Run> {
  const prefix = benchPrefix('connections');
  const probeFile = path.join(tmpdir(), `bench-connections-${process.pid}.json`);
  const huge = '1000000000';
  const server = await startChild(
    'server',
    [
      ...(process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean),
      '--expose-gc',
      '--import',
      PROBE,
      process.env.BENCH_SERVER ?? 'dist/main.js',
    ],
    {
      ...serverEnv(REDIS_URL, prefix),
      BENCH_PROBE_FILE: probeFile,
      ...(process.env.BENCH_HEAP_SNAPSHOTS ? { BENCH_HEAP_SNAPSHOTS: process.env.BENCH_HEAP_SNAPSHOTS } : {}),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
      HTTP_MAX_CONNECTIONS: huge,
      MAX_STREAMS_PER_IP: huge,
      MAX_STREAMS_PER_TOKEN: huge,
      GRAPHQL_WS_MAX_CONNECTIONS_PER_IP: huge,
      GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT: huge,
      GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_IP: huge,
      GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: huge,
    },
  );
  const port = Number(new URL(server.base).port);
  let clientsOpen: Client[] = [];
  try {
    const created: CreatedGameJson[] = [];
    for (let g = 0; g < gameCount; g++) {
      created.push(
        await call<CreatedGameJson>(server.base, 'POST', '/games', { body: { kind: 'kalah' }, expect: 201 }),
      );
    }
    const ids = created.map((c) => c.game.id);
    // Warm-up: the code and caches a connection of each kind loads, opened and closed once.
    const warm = await openClients(port, ids, Math.min(200, count), mix, 1, 100);
    await Promise.all(warm.map((client) => client.stop()));
    await new Promise((r) => setTimeout(r, 2000));
    const before = await memoryOf(server, probeFile);

    const openedAt = Date.now();
    clientsOpen = await openClients(port, ids, count, mix, clients);
    console.log(`  ${count} ${mix} connections open in ${((Date.now() - openedAt) / 1000).toFixed(1)} s`);
    await new Promise((r) => setTimeout(r, 3000));
    const after = await memoryOf(server, probeFile);

    // Idle: nothing but keep-alives (every 15 s per SSE stream) and timers.
    await new Promise((r) => setTimeout(r, 2000));
    const cpuBefore = cpuSeconds(server);
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const idleCpu = ((cpuSeconds(server) - cpuBefore) / idleSeconds) * 100;

    // The burst: every game moves at once.
    const sentAt: number[] = new Array<number>(ids.length);
    const failedMoves: string[] = [];
    await Promise.all(
      created.map(async (c, g) => {
        const token = c.seatTokens.find((s) => s.seat === c.game.toMove)!.token;
        sentAt[g] = performance.timeOrigin + performance.now();
        await postMove(port, c.game.id, c.game.legalMoves[0]!, token).catch((error: Error) => {
          failedMoves.push(error.message);
          sentAt[g] = Number.NaN;
        });
      }),
    );
    if (failedMoves.length > 0) {
      console.log(
        `  ${failedMoves.length} of ${ids.length} moves failed (${failedMoves[0]}); their games not counted`,
      );
    }
    for (const client of clientsOpen) client.send('arrivals');
    const latency: Record<Kind | 'all', number[]> = { sse: [], ws: [], all: [] };
    let missing = 0;
    for (const client of clientsOpen) {
      const arrivals = JSON.parse(await client.answer('arrivals', 60_000)) as Array<number | null>;
      arrivals.forEach((at, i) => {
        const sent = sentAt[client.games[i]!]!;
        if (Number.isNaN(sent)) return;
        if (at === null) return void missing++;
        const ms = at - sent;
        latency[client.kinds[i]!].push(ms);
        latency.all.push(ms);
      });
    }
    return { mix, count, before, after, idleCpu, latency, missing };
  } catch (error) {
    console.log(`server output:\n${server.output()}`);
    throw error;
  } finally {
    // The server first: it closes the connections (their TIME_WAIT is on its side).
    await stopChild(server);
    await Promise.all(clientsOpen.map((client) => client.stop()));
    rmSync(probeFile, { force: true });
    await deletePrefix(prefix);
  }
}

const kib = (bytes: number) => (bytes / KIB).toFixed(1);

export async function runConnectionsBench(args: readonly string[]): Promise<void> {
  const counts = args.length > 0 ? args.map(Number) : [10_000, 19_000];
  const mixes = envList<Mix>('BENCH_CONN_KINDS', ['mixed'], ['mixed', 'sse', 'ws']);
  const clients = Number(process.env.BENCH_CLIENTS ?? 4);
  const games = Number(process.env.BENCH_GAMES ?? 100);
  const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
  buildServer();
  const rows = [
    [
      'connections',
      'RSS before MiB',
      'RSS after MiB',
      'RSS/conn KiB',
      'heap/conn KiB',
      'heap total/conn KiB',
      'idle CPU %',
    ],
  ];
  const bursts = [['burst (ms from move to arrival)', 'n', 'p50', 'p99', 'max']];
  for (const mix of mixes) {
    for (const count of counts) {
      console.log(`${count} ${mix} connections, ${clients} client processes, ${games} games…`);
      const run = await runOne(mix, count, clients, games, idleSeconds);
      rows.push([
        `${count} ${mix}`,
        (run.before.rss / KIB / KIB).toFixed(1),
        (run.after.rss / KIB / KIB).toFixed(1),
        kib((run.after.rss - run.before.rss) / count),
        kib((run.after.heapUsed - run.before.heapUsed) / count),
        kib((run.after.heapTotal - run.before.heapTotal) / count),
        run.idleCpu.toFixed(1),
      ]);
      for (const kind of ['sse', 'ws', 'all'] as const) {
        const values = run.latency[kind];
        if (values.length === 0 || (kind === 'all' && mix !== 'mixed')) continue;
        bursts.push([
          `${count} ${mix}: ${kind}`,
          String(values.length),
          percentile(values, 0.5).toFixed(1),
          percentile(values, 0.99).toFixed(1),
          Math.max(...values).toFixed(1),
        ]);
      }
      if (run.missing > 0) console.log(`  ${run.missing} connections had no new version within 15 s`);
    }
  }
  console.log(`\n${table(rows)}\n\n${table(bursts)}`);
  console.log(`\n(load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`);
}
