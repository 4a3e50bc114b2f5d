// `npm run bench -- migrate [games…]`: how long migrateV1 takes to move a v1 deployment of that many
// games (default 10000) to the v2 layout: games of 40 moves (one in 3 finished, so packed), 2 of
// ACCOUNTS accounts each, every account with a feed of 50 events, and an idempotency record per 10
// games. The v1 data is written as test/support/v1-layout.ts writes it. Redis at REDIS_URL (default
// redis://127.0.0.1:6379), under a key prefix of its own that is deleted afterwards.
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { migrateV1 } from '../src/store/redis';
import type { StoredGame, StoredMoveDetails } from '../src/store/store';
import { deletePrefix, REDIS_URL } from '../test/support/redis';
import { writeV1Feed, writeV1Game, writeV1Idempotency } from '../test/support/v1-layout';

const ACCOUNTS = 1000;
const MOVES = 40;
const FEED_EVENTS = 50;
const AT_ONCE = 200;

function game(i: number, t0: number): StoredGame {
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  const finished = i % 3 === 0;
  const moves = Array.from({ length: MOVES }, (_, m) => ({
    ply: m + 1,
    notation: String((m % 6) + 1),
    seat: (m % 2) as 0 | 1,
    at: at(i * 1000 + m * 60_000),
    // A small stand-in for engine details: the store copies them as they are.
    details: { captured: m % 3 } as unknown as StoredMoveDetails,
  }));
  return {
    id: randomBytes(9).toString('base64url'),
    kind: 'kalah',
    rulesVersion: '1',
    options: {},
    first: 0,
    seats: [
      { seat: 0, name: 'south', account: `player${i % ACCOUNTS}` },
      { seat: 1, name: 'north', account: `player${(i * 7 + 3) % ACCOUNTS}` },
    ],
    seatTokenHashes: ['', ''],
    status: finished ? 'finished' : 'ongoing',
    outcome: null,
    ply: MOVES,
    version: MOVES,
    toMove: finished ? null : 0,
    position: '4,4,4,4,4,4/0/4,4,4,4,4,4/0 S',
    legalMoves: finished ? [] : ['1', '2', '3', '4', '5', '6'],
    moves,
    drawOffer: null,
    deadlineAt: finished ? null : at(30 * 86_400_000),
    createdAt: at(i * 1000),
    updatedAt: at(i * 1000 + MOVES * 60_000),
  };
}

/** Runs `work(i)` for i < n, AT_ONCE at a time. */
async function batches(n: number, work: (i: number) => Promise<unknown>): Promise<void> {
  for (let from = 0; from < n; from += AT_ONCE) {
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, n - from) }, (_, j) => work(from + j)));
  }
}

export async function runMigrateBench(args: readonly string[]): Promise<void> {
  const sizes = args.length > 0 ? args.map(Number) : [10_000];
  const redis = new Redis(REDIS_URL, { enableAutoPipelining: true });
  try {
    for (const n of sizes) {
      const prefix = `bhbench:migrate:${randomBytes(6).toString('hex')}:`;
      try {
        const t0 = Date.now() - 60 * 86_400_000;
        const written = Date.now();
        await batches(n, async (i) => {
          const g = game(i, t0);
          await writeV1Game(redis, prefix, g);
          if (i % 10 === 0) {
            await writeV1Idempotency(
              redis,
              prefix,
              g.id,
              `k${i}`,
              { fingerprint: '0:move', response: g },
              3600,
            );
          }
        });
        await batches(ACCOUNTS, (a) =>
          writeV1Feed(redis, prefix, `player${a}`, {
            events: Array.from({ length: FEED_EVENTS }, (_, e) => ({
              seq: e + 1,
              epoch: 'e1',
              type: 'game.moved' as const,
              at: new Date(Date.now() - (FEED_EVENTS - e) * 1000).toISOString(),
              data: { gameId: 'x', ply: e },
            })),
            last: FEED_EVENTS,
            epoch: 'e1',
            epochs: [{ id: 'e1', since: 0 }],
          }),
        );
        const memory = await redis.info('memory');
        console.log(
          `${n} v1 games, ${ACCOUNTS} feeds written in ${Date.now() - written} ms ` +
            `(used_memory ${/used_memory_human:(\S+)/.exec(memory)?.[1]})`,
        );
        const report = await migrateV1(redis, prefix);
        console.log(`migrateV1: ${report.ms} ms`, JSON.stringify(report.steps));
        const again = await migrateV1(redis, prefix);
        console.log(`again (marker set): ${again.ms} ms`);
      } finally {
        await deletePrefix(prefix);
      }
    }
  } finally {
    redis.disconnect();
  }
}
