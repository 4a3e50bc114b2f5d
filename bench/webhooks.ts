// `npm run bench -- webhooks`: webhook deliveries per second from one node's worker to a receiver
// (its own process, on 127.0.0.1) that answers 200 after a fixed delay, on Redis (or the memory
// store). Events are appended straight to the feeds of the endpoints' accounts, then one
// `deliverDue()` run delivers them all; the receiver checks that each endpoint's events come in
// order and counts the TCP connections it accepted.
//
// Env: REDIS_URL (redis://127.0.0.1:6379; BENCH_STORE=memory for the memory store),
// BENCH_CASES (a list of latencyMs×endpoints×events, default 300x1x20,0x1x2000,300x50x10,0x50x100),
// BENCH_CONCURRENCY (32, the default of WEBHOOK_CONCURRENCY).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { WebhookWorker } from '../src/service/delivery/webhook-worker';
import { createMemoryStorage } from '../src/store/memory';
import { createRedisStorage } from '../src/store/redis';
import type { Notice, Storage } from '../src/store/store';
import { deletePrefix, REDIS_URL } from '../test/support/redis';

/** The receiver: answers every POST 200 after `delay` ms; GET /stats tells what it saw. */
const RECEIVER = `
const http = require('node:http');
const delay = Number(process.argv[1]);
let requests = 0, outOfOrder = 0;
const last = new Map();
const sockets = new WeakSet();
let connections = 0; // connections that carried deliveries
let inFlight = 0, maxInFlight = 0;

const server = http.createServer((req, res) => {
  if (req.method === 'GET') return res.end(JSON.stringify({ connections, requests, outOfOrder, maxInFlight }));
  if (!sockets.has(req.socket)) { sockets.add(req.socket); connections++; }
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const { account, seq } = JSON.parse(body);
    if (seq !== (last.get(account) ?? 0) + 1) outOfOrder++;
    last.set(account, seq);
    requests++;
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    setTimeout(() => { inFlight--; res.end('ok'); }, delay);
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

interface Case {
  readonly latencyMs: number;
  readonly endpoints: number;
  readonly events: number;
}

interface Stats {
  readonly connections: number;
  readonly requests: number;
  readonly outOfOrder: number;
  readonly maxInFlight: number;
}

async function startReceiver(delayMs: number): Promise<{ port: number; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['-e', RECEIVER, String(delayMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    proc.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    proc.once('exit', () => reject(new Error('the receiver exited')));
  });
  return { port, proc };
}

async function stats(port: number): Promise<Stats> {
  return (await (await fetch(`http://127.0.0.1:${port}/stats`)).json()) as Stats;
}

async function openStorage(prefix: string): Promise<Storage> {
  return process.env.BENCH_STORE === 'memory' ? createMemoryStorage() : createRedisStorage(REDIS_URL, prefix);
}

async function runCase(
  c: Case,
  concurrency: number,
): Promise<{ rate: number; stats: Stats; seconds: number }> {
  const prefix = `bench:webhooks:${randomBytes(4).toString('hex')}:`;
  const storage = await openStorage(prefix);
  const receiver = await startReceiver(c.latencyMs);
  try {
    const accounts = Array.from({ length: c.endpoints }, (_, i) => `acct${i}`);
    for (const [i, account] of accounts.entries()) {
      await storage.webhooks.createWebhook(
        {
          id: `bench${String(i).padStart(7, '0')}`,
          account,
          url: `http://127.0.0.1:${receiver.port}/hook/${account}`,
          events: null,
          secret: 'whsec_benchbenchbenchbench',
          createdBy: 'bench',
          createdAt: new Date().toISOString(),
        },
        10,
      );
    }
    for (let sent = 0; sent < c.events; sent += 500) {
      const notices: Notice[] = [];
      for (let n = sent; n < Math.min(c.events, sent + 500); n++) {
        notices.push({ to: accounts, type: 'game.moved', at: new Date().toISOString(), data: { n } });
      }
      await storage.feed.append(notices);
    }
    const worker = new WebhookWorker(storage, () => new Date(), { allowPrivate: true, concurrency });
    const started = performance.now();
    const attempts = await worker.deliverDue();
    const seconds = (performance.now() - started) / 1000;
    await worker.stop();
    const seen = await stats(receiver.port);
    if (attempts !== c.endpoints * c.events || seen.requests !== attempts) {
      throw new Error(
        `expected ${c.endpoints * c.events} deliveries, made ${attempts}, received ${seen.requests}`,
      );
    }
    return { rate: attempts / seconds, stats: seen, seconds };
  } finally {
    receiver.proc.kill();
    await storage.games.close();
    await storage.events.close();
    if (process.env.BENCH_STORE !== 'memory') await deletePrefix(prefix);
  }
}

function parseCases(spec: string): Case[] {
  return spec.split(',').map((c) => {
    const [latencyMs, endpoints, events] = c.split('x').map(Number);
    if (![latencyMs, endpoints, events].every((n) => Number.isInteger(n) && (n as number) >= 0)) {
      throw new Error(`bad case "${c}": latencyMs x endpoints x events, e.g. 300x1x20`);
    }
    return { latencyMs, endpoints, events } as Case;
  });
}

export async function runWebhooksBench(): Promise<void> {
  const cases = parseCases(process.env.BENCH_CASES ?? '300x1x20,0x1x2000,300x50x10,0x50x100');
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
  const store = process.env.BENCH_STORE === 'memory' ? 'memory' : 'redis';
  console.log(`webhook deliveries per second (${store} store, concurrency ${concurrency})`);
  const rows = [
    [
      'receiver answers in',
      'endpoints',
      'events each',
      'deliveries/s',
      'seconds',
      'connections',
      'most at once',
      'out of order',
    ],
  ];
  for (const c of cases) {
    const { rate, stats: seen, seconds } = await runCase(c, concurrency);
    rows.push([
      `${c.latencyMs} ms`,
      String(c.endpoints),
      String(c.events),
      rate.toFixed(1),
      seconds.toFixed(2),
      String(seen.connections),
      String(seen.maxInFlight),
      String(seen.outOfOrder),
    ]);
    console.log(`  ${rows.at(-1)!.join('  ')}`);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log(`\n${rows.map((r) => r.map((cell, i) => cell.padStart(widths[i]!)).join('  ')).join('\n')}\n`);
}
