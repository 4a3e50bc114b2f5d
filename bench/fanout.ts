// `npm run bench -- fanout [watchers…]`: what one move costs the node its watchers are on, with that
// many SSE watchers of one game (default 1000). The app runs in this process (memory store, or
// Redis at REDIS_URL with BENCH_STORES=redis); the watchers are raw sockets in a child process, so
// that their reading costs this process nothing. For each move it reports the CPU time of this
// process (the move, the fan-out to every watcher and the socket writes: in one process, the time
// the node can do nothing else) and the wall time until every watcher had the new version (which
// includes the watchers' own reading).
//
// Env: BENCH_STORES (memory,redis), BENCH_MOVES (30), BENCH_PREPLAY (80 moves played before watching).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { createApp } from '../src/app';
import { createMemoryStorage } from '../src/store/memory';
import { createRedisStorage } from '../src/store/redis';
import { deletePrefix, REDIS_URL } from '../test/support/redis';

/** The watchers: N sockets reading the game's SSE stream; on `wait <v>` it answers `got <v>` once all have it. */
const CLIENT = `
const net = require('node:net');
const [port, id, n] = process.argv.slice(1).map((a, i) => (i === 1 ? a : Number(a)));
const seen = new Array(n).fill(-1);
let waiting = -1;
const check = () => {
  if (waiting >= 0 && seen.every((v) => v >= waiting)) { process.stdout.write('got ' + waiting + '\\n'); waiting = -1; }
};
for (let i = 0; i < n; i++) {
  const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /api/v1/games/' + id + '/stream HTTP/1.1\\r\\nHost: x\\r\\nAccept: text/event-stream\\r\\n\\r\\n'));
  let tail = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    const text = tail + chunk;
    for (const m of text.matchAll(/\\nid: (\\d+)\\n/g)) seen[i] = Math.max(seen[i], Number(m[1]));
    tail = text.slice(-32);
    check();
  });
}
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => { waiting = Number(line.split(' ')[1]); check(); });
`;

export async function runFanoutBench(args: readonly string[]): Promise<void> {
  const counts = args.length > 0 ? args.map(Number) : [1000];
  const stores = (process.env.BENCH_STORES ?? 'memory,redis').split(',');
  const moves = Number(process.env.BENCH_MOVES ?? 30);
  const preplay = Number(process.env.BENCH_PREPLAY ?? 80);
  for (const store of stores) {
    for (const watchers of counts) {
      const prefix = `bhbench:fanout:${randomBytes(4).toString('hex')}:`;
      const storage = store === 'redis' ? await createRedisStorage(REDIS_URL, prefix) : createMemoryStorage();
      const app = await createApp({
        storage,
        sweepIntervalMs: 0,
        webhooks: { intervalMs: 0 },
        rateLimits: { perToken: 1e9, perIp: 1e9, windowSeconds: 60 },
      });
      const port = await app.listen(0, '127.0.0.1');
      let client: ReturnType<typeof spawn> | undefined;
      try {
        // A Congo game some way in (documents grow with the moves), played with no one watching.
        const created = await app.services.games.createGame({ kind: 'congo' });
        const id = created.game.id;
        let game = created.game;
        const play = async () => {
          const token = created.seatTokens[game.toMove as number]?.token as string;
          const moves = game.legalMoves;
          const move = moves[(game.ply * 7) % moves.length] as string;
          game = await app.services.games.submitMove(id, move, { credential: { token } });
        };
        while (game.ply < preplay && game.status === 'ongoing') await play();
        client = spawn(process.execPath, ['-e', CLIENT, String(port), id, String(watchers)], {
          stdio: ['pipe', 'pipe', 'inherit'],
        });
        const lines = createInterface({ input: client.stdout! });
        const answers: string[] = [];
        let wake: (() => void) | undefined;
        lines.on('line', (line) => {
          answers.push(line);
          wake?.();
        });
        const waitFor = async (version: number) => {
          client!.stdin!.write(`wait ${version}\n`);
          while (!answers.includes(`got ${version}`)) await new Promise<void>((resolve) => (wake = resolve));
        };
        await waitFor(game.version);
        const latencies: number[] = [];
        const cpu: number[] = [];
        for (let i = 0; i < moves && game.status === 'ongoing'; i++) {
          const started = process.hrtime.bigint();
          const used = process.cpuUsage();
          await play();
          await waitFor(game.version);
          const spent = process.cpuUsage(used);
          cpu.push((spent.user + spent.system) / 1000);
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
        const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
        const max = (xs: number[]) => Math.max(...xs);
        console.log(
          `${store}, ${watchers} SSE watchers of a game at ply ${game.ply - cpu.length}, ${cpu.length} moves: ` +
            `server CPU per move median ${median(cpu).toFixed(1)} ms, max ${max(cpu).toFixed(1)} ms; ` +
            `move to every watcher median ${median(latencies).toFixed(1)} ms, max ${max(latencies).toFixed(1)} ms`,
        );
      } finally {
        client?.kill();
        await app.stop();
        if (store === 'redis') await deletePrefix(prefix);
      }
    }
  }
}
