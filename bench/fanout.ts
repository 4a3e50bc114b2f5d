// `npm run bench -- fanout [watchers…]`: one game, many watchers. With that many watchers of one
// game (default 1000), each move is timed: the spread from the first watcher's arrival of the new
// version to the last one's (issue #32's target: ≤ 50 ms at 1000), the move to the first and to the
// last arrival, and the CPU time of this process per move (the move, the fan-out to every watcher and
// the socket writes: in one process, the time the node can do nothing else).
//
// `npm run bench -- fanout burst [games] [watchers-per-game]` (default 100 × 190 = 19,000
// connections): every game makes one move at once (submitted together in this process, as one node
// taking them); the delivery latency from the round's start to each watcher's arrival, p50/p99/max
// over every watcher and round (issue #32's target: p99 ≤ 300 ms), and the spread per game; the CPU
// time per round of this process (and per connection) and of the client processes together, and the
// round's time (move to last arrival): on a machine whose cores the clients share, a round cannot
// take less than the server's and the readers' CPU together over the cores they get.
//
// The app runs in this process (memory store, or Redis at REDIS_URL with BENCH_STORES=redis), with
// the stream, connection and graphql-ws caps raised out of reach. The watchers are in BENCH_CLIENTS
// (4) child processes, each game's watchers spread over all of them, so that reading costs this
// process nothing and no one reader is the bottleneck: raw sockets reading the game's SSE stream
// (BENCH_TRANSPORT=sse, the default), or graphql-ws connections with one gameUpdated subscription each
// (BENCH_TRANSPORT=graphql). Arrival times are taken by each client when the data holding the
// version's `id:` line (SSE) or `"version":` (graphql-ws) is read, on the machine's one clock
// (performance.timeOrigin + performance.now(), shared by every process); the spreads and latencies
// include the clients' own reading (on a loaded machine, their scheduling too).
//
// `npm run bench -- fanout writes [sockets] [bytes]` (19,000 × 1,500): the floor under a burst, with
// no app: one write of a Buffer made once to each of that many loopback sockets (see runWritesFloor).
//
// Env: BENCH_STORES (memory,redis), BENCH_TRANSPORT (sse), BENCH_MOVES (30; burst: 10 rounds),
// BENCH_PREPLAY (80 moves played before watching; burst: 20), BENCH_CLIENTS (4), BENCH_PROFILE (a
// file: the app's CPU profile over the timed moves or rounds only).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { createApp } from '../src/app';
import { DEFAULT_HTTP_LIMITS } from '../src/edge';
import type { GameView } from '../src/service/game/view';
import { createMemoryStorage } from '../src/store/memory';
import { createRedisStorage } from '../src/store/redis';
import { deletePrefix, REDIS_URL } from '../test/support/redis';
import { median, percentile } from './support';

/**
 * One client process: argv is the port and [[game id, watchers]…]. Each socket reads its game's SSE
 * stream and keeps when each version's `id:` line arrived. On `wait {"<id>":<version>…}` it answers,
 * once every watcher has its game's version, with the arrival time of that version at each watcher
 * (in the order of argv), as a JSON array.
 */
const CLIENT = `
const net = require('node:net');
const { performance } = require('node:perf_hooks');
const port = Number(process.argv[1]);
const spec = JSON.parse(process.argv[2]);
const localAddress = process.argv[3];
const transport = process.argv[4];
const now = () => performance.timeOrigin + performance.now();
const watchers = [];
let target;
let ready = 0;
let lastCpu = process.cpuUsage();
const check = () => {
  if (!target) return;
  while (ready < watchers.length && watchers[ready].times.has(target[watchers[ready].game])) ready++;
  if (ready < watchers.length) return;
  const arrivals = watchers.map((w) => w.times.get(target[w.game]));
  for (const w of watchers) for (const v of w.times.keys()) if (v < target[w.game]) w.times.delete(v);
  target = undefined;
  // With the CPU time this process spent since its previous answer (µs): reading, mostly.
  const cpu = process.cpuUsage(lastCpu);
  lastCpu = process.cpuUsage();
  process.stdout.write(JSON.stringify({ arrivals, cpu: cpu.user + cpu.system }) + '\\n');
};
// Connects 25 at a time (the server's listen backlog), each once the previous batch has its first bytes,
// from its own loopback address (127.0.0.2…: each client has a port range of its own).
const openSse = (w) => new Promise((resolve) => {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => {
    socket.write('GET /api/v1/games/' + w.game + '/stream HTTP/1.1\\r\\nHost: x\\r\\nAccept: text/event-stream\\r\\n\\r\\n');
  });
  socket.setEncoding('latin1');
  socket.on('data', (chunk) => {
    const t = now();
    resolve();
    const text = w.tail + chunk;
    for (const m of text.matchAll(/\\nid: (\\d+)\\n/g)) if (!w.times.has(Number(m[1]))) w.times.set(Number(m[1]), t);
    w.tail = text.slice(-24);
    check();
  });
  socket.on('error', (error) => { process.stderr.write('watcher ' + watchers.indexOf(w) + ': ' + error.message + '\\n'); process.exit(1); });
  socket.on('close', () => { process.stderr.write('watcher: the server closed a stream\\n'); process.exit(1); });
});
// graphql-ws: one connection per watcher, one gameUpdated subscription on it.
const QUERY = 'subscription ($id: ID!) { gameUpdated(id: $id) { id version ply status position toMove legalMoves drawOffer deadlineAt updatedAt result { winner reason } lastMove { ply notation seat at } } }';
const openGraphql = (w) => new Promise((resolve) => {
  const socket = new (require('ws'))('ws://127.0.0.1:' + port + '/graphql', 'graphql-transport-ws', { localAddress });
  socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
  socket.on('message', (data) => {
    const t = now();
    const text = data.toString();
    if (text.startsWith('{"type":"connection_ack"')) {
      socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY, variables: { id: w.game } } }));
      return;
    }
    const m = /"version":(\\d+)/.exec(text);
    if (!m) { process.stderr.write('watcher: ' + text.slice(0, 300) + '\\n'); process.exit(1); }
    resolve();
    if (!w.times.has(Number(m[1]))) w.times.set(Number(m[1]), t);
    check();
  });
  socket.on('error', (error) => { process.stderr.write('watcher ' + watchers.indexOf(w) + ': ' + error.message + '\\n'); process.exit(1); });
  socket.on('close', () => { process.stderr.write('watcher: the server closed a connection\\n'); process.exit(1); });
});
const open = transport === 'graphql' ? openGraphql : openSse;
for (const [game, count] of spec) for (let k = 0; k < count; k++) watchers.push({ game, times: new Map(), tail: '' });
(async () => {
  for (let i = 0; i < watchers.length; i += 25) await Promise.all(watchers.slice(i, i + 25).map(open));
})();
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  target = JSON.parse(line.slice(5));
  ready = 0;
  check();
});
`;

/** The client processes of one run, and the round trip of a `wait`. */
class Watchers {
  private readonly clients: Array<{ proc: ChildProcess; answers: string[]; wake?: () => void }> = [];
  /** The game of each watcher, in the order the clients answer (client by client). */
  readonly games: string[] = [];
  /** The CPU time (ms) the client processes spent, together, up to their answers of the last `arrivals`. */
  cpuMs = 0;

  constructor(
    port: number,
    perGame: ReadonlyArray<readonly [string, number]>,
    processes: number,
    transport: string,
  ) {
    for (let c = 0; c < processes; c++) {
      // Each game's watchers split evenly over the clients.
      const spec = perGame
        .map(([id, n]) => [id, Math.floor(n / processes) + (c < n % processes ? 1 : 0)] as const)
        .filter(([, n]) => n > 0);
      for (const [id, n] of spec) for (let k = 0; k < n; k++) this.games.push(id);
      const proc = spawn(
        process.execPath,
        ['-e', CLIENT, String(port), JSON.stringify(spec), `127.0.0.${c + 2}`, transport],
        {
          stdio: ['pipe', 'pipe', 'inherit'],
        },
      );
      const client: (typeof this.clients)[number] = { proc, answers: [] };
      proc.on('exit', () => client.wake?.());
      createInterface({ input: proc.stdout! }).on('line', (line) => {
        client.answers.push(line);
        client.wake?.();
      });
      this.clients.push(client);
    }
  }

  /** Each watcher's arrival time (ms, the machine's clock) of its game's version in `versions`. */
  async arrivals(versions: Record<string, number>): Promise<number[]> {
    const line = `wait ${JSON.stringify(versions)}\n`;
    const answers = await Promise.all(
      this.clients.map(async (client) => {
        client.proc.stdin!.write(line);
        while (client.answers.length === 0) {
          if (client.proc.exitCode !== null)
            throw new Error(
              `a watcher process exited (this process has ${readdirSync('/proc/self/fd').length} files open)`,
            );
          await new Promise<void>((resolve) => (client.wake = resolve));
        }
        return JSON.parse(client.answers.shift() as string) as { arrivals: number[]; cpu: number };
      }),
    );
    this.cpuMs = answers.reduce((sum, answer) => sum + answer.cpu, 0) / 1000;
    return answers.flatMap((answer) => answer.arrivals);
  }

  stop(): void {
    for (const client of this.clients) client.proc.kill();
  }
}

const now = () => performance.timeOrigin + performance.now();
const ms = (value: number) => `${value.toFixed(1)} ms`;
const max = (values: readonly number[]) => values.reduce((a, b) => Math.max(a, b), -Infinity);
const min = (values: readonly number[]) => values.reduce((a, b) => Math.min(a, b), Infinity);

/**
 * A reader process for `fanout writes`: argv is the port, the socket count and its loopback address;
 * it opens that many sockets and reads them, and answers each `wait <bytes>` line, once every socket
 * has read that many bytes in all, with the CPU time it spent since its previous answer (µs).
 */
const READER = `
const net = require('node:net');
const [port, count, localAddress] = [Number(process.argv[1]), Number(process.argv[2]), process.argv[3]];
const sockets = [];
let target = -1;
let lastCpu = process.cpuUsage();
let behind = 0;
const check = () => {
  if (target < 0 || behind > 0) return;
  target = -1;
  const cpu = process.cpuUsage(lastCpu);
  lastCpu = process.cpuUsage();
  process.stdout.write(JSON.stringify({ arrivals: [], cpu: cpu.user + cpu.system }) + '\\n');
};
(async () => {
  for (let i = 0; i < count; i += 25) {
    await Promise.all(Array.from({ length: Math.min(25, count - i) }, () => new Promise((resolve) => {
      const entry = { read: 0 };
      const socket = net.connect({ port, host: '127.0.0.1', localAddress }, resolve);
      socket.on('data', (chunk) => {
        const before = entry.read;
        entry.read += chunk.length;
        if (target >= 0 && before < target && entry.read >= target) behind--;
        check();
      });
      socket.on('error', (error) => { process.stderr.write(error.message + '\\n'); process.exit(1); });
      sockets.push(entry);
    })));
  }
})();
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  target = Number(line.slice(5));
  behind = 0;
  for (const entry of sockets) if (entry.read < target) behind++;
  check();
});
`;

/**
 * `fanout writes [sockets] [bytes]`: the floor under a burst's delivery, with no app at all: one
 * write of a `bytes` Buffer (made once) to each of `sockets` loopback TCP sockets, read by
 * BENCH_CLIENTS processes; the CPU time per round of the writing process (and per socket) and of
 * the readers, and the round's time.
 */
async function runWritesFloor(sockets: number, bytes: number, processes: number, rounds: number) {
  const server = createServer();
  const accepted: Socket[] = [];
  server.on('connection', (socket) => accepted.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const readers = Array.from({ length: processes }, (_, c) => {
    const count = Math.floor(sockets / processes) + (c < sockets % processes ? 1 : 0);
    const proc = spawn(process.execPath, ['-e', READER, String(port), String(count), `127.0.0.${c + 2}`], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const reader = { proc, answers: [] as string[], wake: undefined as (() => void) | undefined };
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      reader.answers.push(line);
      reader.wake?.();
    });
    return reader;
  });
  try {
    while (accepted.length < sockets) await new Promise((resolve) => setTimeout(resolve, 50));
    const message = Buffer.alloc(bytes, 'x');
    const writerCpu: number[] = [];
    const readerCpu: number[] = [];
    const roundTimes: number[] = [];
    for (let round = 1; round <= rounds + 1; round++) {
      const used = process.cpuUsage();
      const started = now();
      for (const socket of accepted) socket.write(message);
      const spent = process.cpuUsage(used);
      const answers = await Promise.all(
        readers.map(async (reader) => {
          reader.proc.stdin!.write(`wait ${round * bytes}\n`);
          while (reader.answers.length === 0) await new Promise<void>((resolve) => (reader.wake = resolve));
          return (JSON.parse(reader.answers.shift() as string) as { cpu: number }).cpu;
        }),
      );
      if (round === 1) continue;
      roundTimes.push(now() - started);
      writerCpu.push((spent.user + spent.system) / 1000);
      readerCpu.push(answers.reduce((a, b) => a + b, 0) / 1000);
    }
    console.log(
      `writes floor: one ${bytes}-byte write to each of ${sockets} loopback sockets (${processes} reader processes), ${rounds} rounds: ` +
        `writer CPU per round median ${ms(median(writerCpu))} (${((median(writerCpu) * 1000) / sockets).toFixed(1)} µs per socket); ` +
        `readers' CPU per round median ${ms(median(readerCpu))}; round median ${ms(median(roundTimes))}`,
    );
  } finally {
    for (const reader of readers) reader.proc.kill();
    for (const socket of accepted) socket.destroy();
    server.close();
  }
}

/**
 * With BENCH_PROFILE=<file>, a CPU profile of this process (the app) from now until the returned
 * function is called, written to that file (.cpuprofile: Chrome DevTools, speedscope).
 */
async function startProfile(): Promise<(() => Promise<void>) | undefined> {
  const file = process.env.BENCH_PROFILE;
  if (!file) return undefined;
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  return async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

export async function runFanoutBench(args: readonly string[]): Promise<void> {
  if (args[0] === 'writes') {
    const rounds = Number(process.env.BENCH_MOVES ?? 10);
    return runWritesFloor(
      Number(args[1] ?? 19_000),
      Number(args[2] ?? 1500),
      Number(process.env.BENCH_CLIENTS ?? 4),
      rounds,
    );
  }
  const burst = args[0] === 'burst';
  const stores = (process.env.BENCH_STORES ?? 'memory,redis').split(',');
  const processes = Number(process.env.BENCH_CLIENTS ?? 4);
  const transport = process.env.BENCH_TRANSPORT ?? 'sse';
  const watching = transport === 'graphql' ? 'graphql-ws gameUpdated subscribers' : 'SSE watchers';
  const rounds = Number(process.env.BENCH_MOVES ?? (burst ? 10 : 30));
  const preplay = Number(process.env.BENCH_PREPLAY ?? (burst ? 20 : 80));
  const shapes: Array<[games: number, watchers: number]> = burst
    ? [[Number(args[1] ?? 100), Number(args[2] ?? 190)]]
    : (args.length > 0 ? args.map(Number) : [1000]).map((n) => [1, n]);
  for (const store of stores) {
    for (const [gameCount, perGame] of shapes) {
      const prefix = `bhbench:fanout:${randomBytes(4).toString('hex')}:`;
      const storage = store === 'redis' ? await createRedisStorage(REDIS_URL, prefix) : createMemoryStorage();
      const app = await createApp({
        storage,
        sweepIntervalMs: 0,
        webhooks: { intervalMs: 0 },
        rateLimits: { perToken: 1e9, perIp: 1e9, windowSeconds: 60 },
        streams: { perIp: 1e9, perToken: 1e9, maxBufferBytes: 1024 * 1024 },
        http: { ...DEFAULT_HTTP_LIMITS, maxConnections: 0 },
        websocket: {
          maxConnectionsPerIp: 1e9,
          maxConnectionsPerAccount: 1e9,
          maxSubscriptionsPerIp: 1e9,
          maxSubscriptionsPerAccount: 1e9,
        },
      });
      const port = await app.listen(0, '127.0.0.1');
      let watchers: Watchers | undefined;
      try {
        // Congo games some way in (documents grow with the moves), played with no one watching.
        const games: Array<{ view: GameView; tokens: string[] }> = [];
        for (let g = 0; g < gameCount; g++) {
          const created = await app.services.games.createGame({ kind: 'congo' });
          games.push({ view: created.game, tokens: created.seatTokens.map((seat) => seat.token) });
        }
        const play = async (game: (typeof games)[number]) => {
          const { view } = game;
          const move = view.legalMoves[(view.ply * 7) % view.legalMoves.length] as string;
          game.view = await app.services.games.submitMove(view.id, move, {
            credential: { token: game.tokens[view.toMove as number] as string },
          });
        };
        for (const game of games)
          while (game.view.ply < preplay && game.view.status === 'ongoing') await play(game);
        const ongoing = () => games.filter((game) => game.view.status === 'ongoing');
        const versions = () => Object.fromEntries(games.map((game) => [game.view.id, game.view.version]));
        watchers = new Watchers(
          port,
          games.map((game) => [game.view.id, perGame] as const),
          processes,
          transport,
        );
        await watchers.arrivals(versions());
        const latencies: number[] = [];
        const spreads: number[] = [];
        const firsts: number[] = [];
        const lasts: number[] = [];
        const cpu: number[] = [];
        const clientCpu: number[] = [];
        const roundTimes: number[] = [];
        let done = 0;
        const profile = await startProfile();
        for (; done < rounds && ongoing().length === games.length; done++) {
          const used = process.cpuUsage();
          const started = now();
          await Promise.all(games.map(play));
          const arrivals = await watchers.arrivals(versions());
          const spent = process.cpuUsage(used);
          cpu.push((spent.user + spent.system) / 1000);
          clientCpu.push(watchers.cpuMs);
          roundTimes.push(now() - started);
          const byGame = new Map<string, number[]>();
          arrivals.forEach((at, index) => {
            latencies.push(at - started);
            const id = watchers!.games[index] as string;
            const times = byGame.get(id);
            if (times) times.push(at);
            else byGame.set(id, [at]);
          });
          for (const times of byGame.values()) {
            const first = min(times);
            const last = max(times);
            spreads.push(last - first);
            firsts.push(first - started);
            lasts.push(last - started);
          }
        }
        await profile?.();
        const ply = (games[0] as (typeof games)[number]).view.ply - done;
        if (!burst) {
          console.log(
            `${store}, ${perGame} ${watching} of one game at ply ${ply} over ${processes} client processes, ${done} moves: ` +
              `first to last watcher median ${ms(median(spreads))}, p90 ${ms(percentile(spreads, 0.9))}, max ${ms(max(spreads))}; ` +
              `move to first median ${ms(median(firsts))}, to last median ${ms(median(lasts))}, max ${ms(max(lasts))}; ` +
              `server CPU per move median ${ms(median(cpu))}, max ${ms(max(cpu))}`,
          );
        } else {
          console.log(
            `${store}, burst: ${gameCount} games × ${perGame} ${watching} (${gameCount * perGame} connections, ` +
              `${processes} client processes) from ply ${ply}, ${done} rounds of every game moving at once: ` +
              `delivery p50 ${ms(median(latencies))}, p99 ${ms(percentile(latencies, 0.99))}, max ${ms(max(latencies))}; ` +
              `first to last watcher of a game median ${ms(median(spreads))}, max ${ms(max(spreads))}; ` +
              `server CPU per round median ${ms(median(cpu))} (${ms(median(cpu) / gameCount)} per move, ` +
              `${((median(cpu) * 1000) / (gameCount * perGame)).toFixed(1)} µs per connection); ` +
              `client processes' CPU per round median ${ms(median(clientCpu))}; round (move to last arrival) median ${ms(median(roundTimes))}`,
          );
        }
      } finally {
        watchers?.stop();
        await app.stop();
        if (store === 'redis') await deletePrefix(prefix);
      }
    }
  }
}
