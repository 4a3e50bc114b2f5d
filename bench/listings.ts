// `npm run bench -- listings [games…]`: what one page of a filtered game listing costs on each store
// with that many games stored (default 10000 and 30000). On the memory store the time of a listing
// is time the event loop is blocked. Redis at REDIS_URL (default redis://127.0.0.1:6379), under a
// key prefix of its own that is deleted afterwards.
//
// Env: BENCH_STORES (memory,redis), BENCH_REPEAT (50 listings per query).
import { randomBytes } from 'node:crypto';
import { GAME_KINDS } from '../src/engines/types';
import { createMemoryStorage } from '../src/store/memory';
import { createRedisStorage } from '../src/store/redis';
import type { GameFilter, Storage, StoredGame } from '../src/store/store';
import { deletePrefix, REDIS_URL } from '../test/support/redis';

const ACCOUNTS = 500;
const PAGE = 20;

function game(i: number): StoredGame {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  const account = (n: number) => `player${n % ACCOUNTS}`;
  // One game in 10 without accounts; about one in 3 finished; the kinds but congkak in turn.
  const seated = i % 10 !== 0;
  return {
    id: `b${randomBytes(8).toString('base64url')}`.slice(0, 12),
    // Congkak is rare (1 game in 100): its finished games are a rare match.
    kind: (i % 100 === 1 ? 'congkak' : GAME_KINDS[i % 4]) as StoredGame['kind'],
    rulesVersion: '1',
    options: {},
    first: 0,
    seats: [
      { seat: 0, name: 'south', account: seated ? account(i) : null },
      { seat: 1, name: 'north', account: seated ? account(i * 7 + 3) : null },
    ],
    seatTokenHashes: ['', ''],
    status: i % 3 === 0 ? 'finished' : 'ongoing',
    outcome: null,
    ply: 0,
    version: 0,
    toMove: 0,
    position: '4,4,4,4,4,4/0/4,4,4,4,4,4/0 S',
    legalMoves: ['1', '2', '3', '4', '5', '6'],
    moves: [],
    drawOffer: null,
    createdAt: at,
    updatedAt: at,
  };
}

const QUERIES: Array<{ label: string; filter: GameFilter; deep?: boolean }> = [
  { label: 'no filter', filter: {} },
  { label: 'status=finished', filter: { status: 'finished' } },
  { label: 'kind=oware status=finished', filter: { kind: 'oware', status: 'finished' } },
  {
    label: 'kind=oware status=finished, deep page',
    filter: { kind: 'oware', status: 'finished' },
    deep: true,
  },
  { label: 'account status=ongoing', filter: { account: 'player7', status: 'ongoing' } },
  {
    label: 'account kind=oware status=finished',
    filter: { account: 'player7', kind: 'oware', status: 'finished' },
  },
  { label: 'kind=congkak status=finished (rare)', filter: { kind: 'congkak', status: 'finished' } },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
}

async function measure(storage: Storage, repeat: number, total: number): Promise<void> {
  for (const query of QUERIES) {
    // The deep page starts halfway down the listing.
    const before = query.deep ? Math.floor(total / 2) : undefined;
    const times: number[] = [];
    let items = 0;
    for (let r = 0; r < repeat; r++) {
      const started = process.hrtime.bigint();
      const page = await storage.games.list(query.filter, PAGE, before);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      items = page.items.length;
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${query.label.padEnd(40)} ${String(items).padStart(3)} items  median ${percentile(times, 0.5).toFixed(2).padStart(7)} ms  p95 ${percentile(times, 0.95).toFixed(2).padStart(7)} ms  max ${(times[times.length - 1] as number).toFixed(2).padStart(7)} ms`,
    );
  }
}

export async function runListingsBench(args: readonly string[]): Promise<void> {
  const sizes = args.length > 0 ? args.map(Number) : [10_000, 30_000];
  const stores = (process.env.BENCH_STORES ?? 'memory,redis').split(',');
  const repeat = Number(process.env.BENCH_REPEAT ?? 50);
  for (const store of stores) {
    for (const size of sizes) {
      const prefix = `bhbench:listings:${randomBytes(4).toString('hex')}:`;
      const storage = store === 'redis' ? await createRedisStorage(REDIS_URL, prefix) : createMemoryStorage();
      try {
        const started = Date.now();
        for (let i = 0; i < size; i += 500) {
          await Promise.all(
            Array.from({ length: Math.min(500, size - i) }, (_, j) => storage.games.create(game(i + j))),
          );
        }
        console.log(`${store}, ${size} games (stored in ${Date.now() - started} ms), one page of ${PAGE}:`);
        await measure(storage, repeat, size);
      } finally {
        await storage.games.close();
        await storage.events.close();
        if (store === 'redis') await deletePrefix(prefix);
      }
    }
  }
}
