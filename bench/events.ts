// `npm run bench -- events`: what one move costs on the wire and one finished game costs in Redis,
// through the built server (dist/main.js) on Redis at REDIS_URL, under a key prefix of its own.
//
// (a) the bytes of the per-game stream message (GET /games/{id}/stream, SSE and NDJSON) and (b) of
//     the account feed's `game.moved` event (GET /account/events, SSE and NDJSON) for the move that
//     makes ply 10 and the one that makes ply 200 of one long game between two accounts;
// (c) the Redis memory of one game finished at ply 60 (60 plies, then a resignation), as an account
//     game and as a seat-token game: MEMORY USAGE … SAMPLES 0 summed over every key under the
//     server's prefix whose name contains the game's id (whatever the key layout: `game:{<id>}` today,
//     `game:{s17}:<id>`, `moves:{s17}:<id>` in data model v2), each key listed;
// (d) the Redis memory per stored feed event of one account, by event type, stored (slim) and in the
//     full form (the public event's data, as events were stored before: src/service/delivery/feed-events.ts).
//
// The game is Oware with 6 seeds a house; its moves are a seeded random game (planned with the
// engine, the first seed whose game lasts past ply 210), so every run, before and after a change,
// plays the very same game. Issue #14's target for (c): ≤ 2 KB; issue #32's for (d): game.moved ≤ 300 B.
//
// Env: REDIS_URL (redis://127.0.0.1:6379), BENCH_SKIP_BUILD=1.
import Redis from 'ioredis';
import type { ItemStream } from '../test/support/stream-reader';
import { deletePrefix, REDIS_URL } from '../test/support/redis';
import { getEngine } from '../src/engines/kinds';
import { Keys } from '../src/store/redis/keys';
import type { Side } from '../src/engines/types';
import {
  accountGame,
  benchPrefix,
  buildServer,
  call,
  openFrames,
  playMove,
  prng,
  serverEnv,
  signUp,
  startServer,
  stopChild,
  table,
  type BenchAccount,
  type Child,
  type CreatedGameJson,
  type Frame,
  type GameJson,
} from './support';

const KIND = 'oware';
const OPTIONS = { seeds: 6 };
const PLIES = [10, 200] as const;
const LONGEST = 210;
const FINISHED_AT = 60;
const TARGET_BYTES = 2048;
/** Issue #32: one stored game.moved event ≤ 300 bytes of Redis. */
const MOVED_TARGET_BYTES = 300;

/** The moves of the first seeded random game of KIND that lasts past `minPlies` plies. */
function planGame(first: Side, minPlies: number): string[] {
  const engine = getEngine(KIND);
  const options = engine?.parseOptions(OPTIONS);
  if (!engine || !options?.ok) throw new Error(`no ${KIND} engine for ${JSON.stringify(OPTIONS)}`);
  for (let seed = 1; seed <= 1000; seed++) {
    const random = prng(seed);
    let state = engine.setup(options.value, first);
    const moves: string[] = [];
    for (;;) {
      const legal = engine.moves(state);
      if (legal.length === 0) break;
      const move = legal[Math.floor(random() * legal.length)];
      moves.push(engine.formatMove(state, move));
      const next = engine.play(state, move);
      if (!next.ok) throw new Error(`the engine refused its own move ${moves.at(-1)}`);
      state = next.value;
    }
    if (moves.length > minPlies) return moves;
  }
  throw new Error(`no ${KIND} game of more than ${minPlies} plies in 1000 seeds`);
}

/** Plays `plan` from the game's ply up to ply `until`, each move by the token of the seat to move. */
async function playTo(
  base: string,
  game: GameJson,
  plan: readonly string[],
  until: number,
  tokenOf: (seat: number) => string,
): Promise<GameJson> {
  while (game.ply < until) {
    const move = plan[game.ply];
    if (game.status !== 'ongoing' || game.toMove === null || move === undefined) {
      throw new Error(`game ${game.id} ended at ply ${game.ply}, before ply ${until}`);
    }
    if (!game.legalMoves.includes(move)) {
      throw new Error(
        `planned move ${move} at ply ${game.ply} is not legal on the server: ${game.legalMoves}`,
      );
    }
    game = await playMove(base, game.id, move, tokenOf(game.toMove));
  }
  return game;
}

// ---------------------------------------------------------------------------------------------------
// (a) and (b): bytes per message

interface Ply {
  readonly ply: number;
  readonly id: string;
}

/** The game a frame carries: a game stream's version, or a feed event's `data.game`. */
function gameOf(frame: Frame): Ply | undefined {
  const data = frame.data as { game?: Ply; data?: { game?: Ply } };
  // A game stream's first message is the game; each later one an update (the head and the move).
  return frame.event === 'game' || frame.event === 'update' ? ((data.game ?? data) as Ply) : data.data?.game;
}

interface Watched {
  readonly label: string;
  readonly stream: ItemStream<Frame>;
  /** The frames that carry the game's versions (game streams) or its `game.moved` events (feeds). */
  readonly event: string;
}

async function messageBytes(base: string, alpha: BenchAccount, beta: BenchAccount): Promise<string[][]> {
  const game = await accountGame(base, alpha, beta, KIND, OPTIONS);
  const plan = planGame(game.toMove as Side, LONGEST);
  const tokenOf = (seat: number) => (game.seats[seat]?.account === alpha.id ? alpha.token : beta.token);
  const gameUrl = `${base}/api/v1/games/${game.id}/stream`;
  const feedUrl = `${base}/api/v1/account/events`;
  const auth = { authorization: `Bearer ${alpha.token}` };
  const watched: Watched[] = [
    { label: 'game stream, SSE', stream: await openFrames(gameUrl, 'sse'), event: 'update' },
    { label: 'game stream, NDJSON', stream: await openFrames(gameUrl, 'ndjson'), event: 'update' },
    {
      label: 'game stream ?full=1, NDJSON',
      stream: await openFrames(`${gameUrl}?full=1`, 'ndjson'),
      event: 'game',
    },
    {
      label: 'account feed game.moved, SSE',
      stream: await openFrames(feedUrl, 'sse', auth),
      event: 'game.moved',
    },
    {
      label: 'account feed game.moved, NDJSON',
      stream: await openFrames(feedUrl, 'ndjson', auth),
      event: 'game.moved',
    },
  ];
  try {
    // The game streams start with the game as it is; the feeds with `ready` (from now on).
    for (const w of watched) await w.stream.until((f) => f.event === 'game' || f.event === 'ready');
    await playTo(base, game, plan, Math.max(...PLIES), tokenOf);
    const rows = [['message', ...PLIES.map((p) => `ply ${p}`), 'bytes/ply between']];
    for (const w of watched) {
      const bytes: number[] = [];
      for (const ply of PLIES) {
        const frame = await w.stream.until((f) => {
          const carried = gameOf(f);
          return f.event === w.event && carried?.id === game.id && carried.ply === ply;
        });
        bytes.push(frame.bytes);
      }
      const growth = (bytes.at(-1)! - bytes[0]!) / (PLIES.at(-1)! - PLIES[0]!);
      rows.push([w.label, ...bytes.map(String), growth.toFixed(1)]);
    }
    return rows;
  } finally {
    for (const w of watched) w.stream.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// (c): Redis memory of a finished game

/** MEMORY USAGE (SAMPLES 0: every element counted) of every key under `prefix`. */
async function memoryByKey(redis: Redis, prefix: string): Promise<Map<string, number>> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  const sizes = new Map<string, number>();
  for (const key of keys.sort()) {
    sizes.set(key, Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')));
  }
  return sizes;
}

const sum = (sizes: Map<string, number>) => [...sizes.values()].reduce((a, b) => a + b, 0);

async function finishedGames(
  base: string,
  prefix: string,
  alpha: BenchAccount,
  beta: BenchAccount,
): Promise<string[][]> {
  const redis = new Redis(REDIS_URL);
  // Alpha's feed shows when the account game's end has reached the accounts.
  const feed = await openFrames(`${base}/api/v1/account/events`, 'ndjson', {
    authorization: `Bearer ${alpha.token}`,
  });
  try {
    await feed.until((f) => f.event === 'ready');
    const rows = [
      [
        'game finished at ply 60',
        'its keys',
        'kept (no TTL)',
        `target ≤ ${TARGET_BYTES}`,
        'expiring (TTL)',
        'all keys grew by',
      ],
    ];
    const details: string[][] = [];
    const cases: Array<{
      label: string;
      start: () => Promise<{ game: GameJson; tokenOf: (s: number) => string }>;
    }> = [
      {
        label: 'account game',
        start: async () => {
          const game = await accountGame(base, alpha, beta, KIND, OPTIONS);
          return {
            game,
            tokenOf: (seat) => (game.seats[seat]?.account === alpha.id ? alpha.token : beta.token),
          };
        },
      },
      {
        label: 'seat-token game',
        start: async () => {
          const created = await call<CreatedGameJson>(base, 'POST', '/games', {
            body: { kind: KIND, options: OPTIONS },
            expect: 201,
          });
          const tokens = new Map(created.seatTokens.map((s) => [s.seat, s.token]));
          return { game: created.game, tokenOf: (seat) => tokens.get(seat) as string };
        },
      },
    ];
    for (const c of cases) {
      const beforeByKey = await memoryByKey(redis, prefix);
      const before = sum(beforeByKey);
      const { game, tokenOf } = await c.start();
      const played = await playTo(base, game, planGame(game.toMove as Side, LONGEST), FINISHED_AT, tokenOf);
      const ended = await call<GameJson>(base, 'POST', `/games/${game.id}/resign`, {
        token: tokenOf(played.toMove as number),
        body: {},
      });
      if (ended.status !== 'finished' || ended.ply !== FINISHED_AT) {
        throw new Error(`game ${game.id}: ${ended.status} at ply ${ended.ply} after the resignation`);
      }
      if (c.label === 'account game') {
        await feed.until((f) => f.event === 'game.finished' && gameOf(f)?.id === game.id);
      }
      const after = await memoryByKey(redis, prefix);
      const mine = [...after].filter(([key]) => key.includes(game.id));
      // A key with a TTL (a closed challenge: 7 days) is not part of what a stored game keeps.
      const ttls = await Promise.all(mine.map(([key]) => redis.pttl(key)));
      const kept = mine.reduce((n, [, bytes], i) => n + (ttls[i]! < 0 ? bytes : 0), 0);
      const expiring = mine.reduce((n, [, bytes], i) => n + (ttls[i]! >= 0 ? bytes : 0), 0);
      rows.push([
        c.label,
        String(mine.length),
        String(kept),
        kept <= TARGET_BYTES ? 'met' : 'missed',
        String(expiring),
        String(sum(after) - before),
      ]);
      details.push([`${c.label}, per key`, 'type', 'bytes', 'expires in']);
      for (const [i, [key, bytes]] of mine.entries()) {
        const name = key.slice(prefix.length).split(game.id).join('<id>');
        const ttl = ttls[i]!;
        const expires = ttl < 0 ? 'never' : `${(ttl / 86_400_000).toFixed(1)} days`;
        details.push([`  ${name}`, await redis.type(key), String(bytes), expires]);
      }
      // Where the rest went (the accounts' feeds, listings…): the keys that grew most.
      const grown = [...after]
        .map(([key, bytes]) => [key, bytes - (beforeByKey.get(key) ?? 0)] as const)
        .filter(([key, bytes]) => bytes > 0 && !key.includes(game.id))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4);
      for (const [key, bytes] of grown) {
        const name = key.slice(prefix.length).split(game.id).join('<id>');
        details.push([`  other: ${name}`, await redis.type(key), `+${bytes}`, '']);
      }
    }
    return [...rows, [''], ...details];
  } finally {
    feed.close();
    redis.disconnect();
  }
}

// ---------------------------------------------------------------------------------------------------
// (d): Redis memory per stored feed event, by type

/** A correspondence game's life in one account's feed (what the sizing counts: a move a day). */
async function correspondenceGame(base: string, alpha: BenchAccount, beta: BenchAccount): Promise<string> {
  const challenge = await call<{ id: string }>(base, 'POST', '/challenges', {
    token: alpha.token,
    body: {
      to: beta.username,
      kind: KIND,
      options: OPTIONS,
      starts: 'challenger',
      timeControl: { type: 'correspondence', daysPerMove: 3 },
    },
    expect: 201,
  });
  const accepted = await call<{ gameId: string }>(base, 'POST', `/challenges/${challenge.id}/accept`, {
    token: beta.token,
  });
  let game = await call<GameJson>(base, 'GET', `/games/${accepted.gameId}`);
  const tokenOf = (seat: number) => (game.seats[seat]?.account === alpha.id ? alpha.token : beta.token);
  const plan = planGame(game.toMove as Side, LONGEST);
  const other = (seat: number) => tokenOf(seat === 0 ? 1 : 0);
  for (let round = 0; round < 3; round++) {
    game = await playTo(base, game, plan, game.ply + 18, tokenOf);
    const mover = game.toMove as number;
    await call(base, 'POST', `/games/${game.id}/draw/offer`, { token: tokenOf(mover), body: {} });
    await call(base, 'POST', `/games/${game.id}/draw/decline`, { token: other(mover), body: {} });
    await call(base, 'POST', `/games/${game.id}/takeback/offer`, { token: other(mover), body: {} });
    await call(base, 'POST', `/games/${game.id}/takeback/decline`, { token: tokenOf(mover), body: {} });
    await call(base, 'POST', `/games/${game.id}/chat`, {
      token: tokenOf(mover),
      body: { text: 'good game so far' },
      expect: 201,
    });
    game = await call<GameJson>(base, 'GET', `/games/${game.id}`);
  }
  await call(base, 'POST', `/games/${game.id}/resign`, { token: tokenOf(game.toMove as number), body: {} });
  return game.id;
}

/** The marginal MEMORY USAGE of a stream entry: XADD `entries` (cycled) to a scratch stream, 100 then 200. */
async function bytesPerEntry(redis: Redis, scratch: string, entries: readonly string[][]): Promise<number> {
  const usage = async (count: number) => {
    await redis.del(scratch);
    for (let i = 0; i < count; i++)
      await redis.xadd(scratch, `${i + 1}-0`, ...(entries[i % entries.length] as string[]));
    return Number(await redis.call('MEMORY', 'USAGE', scratch, 'SAMPLES', '0'));
  };
  const hundred = await usage(100);
  const perEntry = ((await usage(200)) - hundred) / 100;
  await redis.del(scratch);
  return Math.round(perEntry);
}

async function feedEventBytes(base: string, prefix: string): Promise<string[][]> {
  const redis = new Redis(REDIS_URL);
  try {
    const alpha = await signUp(base, 'gamma');
    const beta = await signUp(base, 'delta');
    await correspondenceGame(base, alpha, beta);
    // The stored entries (as the server wrote them) and the public events (as it reads them out).
    const key = new Keys(prefix).feed(alpha.id);
    const raw = (await redis.xrange(key, '-', '+')) as Array<[string, string[]]>;
    const res = await fetch(`${base}/api/v1/account/events?after=0&limit=500`, {
      headers: { authorization: `Bearer ${alpha.token}`, accept: 'application/json' },
    });
    const page = (await res.json()) as { events: Array<{ seq: number; data: unknown }> };
    const rendered = new Map(page.events.map((e) => [e.seq, JSON.stringify(e.data)]));
    const byType = new Map<string, { stored: string[][]; full: string[][]; data: number[] }>();
    for (const [id, fields] of raw) {
      const type = fields[fields.indexOf('type') + 1] as string;
      const entry = byType.get(type) ?? { stored: [], full: [], data: [] };
      byType.set(type, entry);
      entry.stored.push(fields);
      // The same entry with the public event's data: the full form every event was stored in before.
      const full = [...fields];
      full[fields.indexOf('data') + 1] = rendered.get(parseInt(id, 10)) as string;
      entry.full.push(full);
      entry.data.push((fields[fields.indexOf('data') + 1] as string).length);
    }
    const whole = Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
    const rows = [
      ['event type', 'events', 'stored data (B)', 'bytes per event', 'full form (B/event)', 'target'],
    ];
    for (const [type, entry] of [...byType].sort((a, b) => b[1].stored.length - a[1].stored.length)) {
      const bytes = await bytesPerEntry(redis, `${prefix}bench:scratch`, entry.stored);
      const full = await bytesPerEntry(redis, `${prefix}bench:scratch`, entry.full);
      const mean = Math.round(entry.data.reduce((a, b) => a + b, 0) / entry.data.length);
      const target = type === 'game.moved' ? (bytes <= MOVED_TARGET_BYTES ? 'met' : 'missed') : '';
      rows.push([type, String(entry.stored.length), String(mean), String(bytes), String(full), target]);
    }
    rows.push(['the whole feed', String(raw.length), '', String(Math.round(whole / raw.length)), '', '']);
    return rows;
  } finally {
    redis.disconnect();
  }
}

export async function runEventsBench(): Promise<void> {
  const prefix = benchPrefix('events');
  buildServer();
  let server: Child | undefined;
  try {
    server = await startServer('server', serverEnv(REDIS_URL, prefix));
    console.log(`events bench: ${KIND} ${JSON.stringify(OPTIONS)}; Redis ${REDIS_URL}, prefix ${prefix}`);
    const alpha = await signUp(server.base, 'alpha');
    const beta = await signUp(server.base, 'beta');
    console.log(`\n(a), (b): bytes of the message for the move that makes ply N (UTF-8, framing included)\n`);
    console.log(table(await messageBytes(server.base, alpha, beta)));
    console.log(`\n(c): Redis MEMORY USAGE (SAMPLES 0) of every key whose name holds the game id\n`);
    console.log(table(await finishedGames(server.base, prefix, alpha, beta)));
    console.log(
      `\n(d): Redis memory per stored feed event of one account, by type (a correspondence game of ${KIND}: ` +
        '54 plies, 3 draw offers and takeback offers declined, 3 chat messages, a resignation): the ' +
        'growth of MEMORY USAGE from 100 to 200 entries of that type in a scratch stream; "full form": ' +
        "the same entries with the public event's data, as every event was stored before slim events\n",
    );
    console.log(table(await feedEventBytes(server.base, prefix)));
    console.log(
      `\nTarget (issue #14): one finished 60-ply game ≤ ${TARGET_BYTES} bytes in Redis (its keys that are ` +
        'kept: a key with a TTL, such as the closed challenge an account game began as, is counted apart). "all keys ' +
        'grew by": every key under the prefix, before the game was created and after it finished (feeds, ' +
        'listings and indexes included; allocator rounding makes it approximate).',
    );
  } finally {
    await stopChild(server);
    await deletePrefix(prefix);
  }
}
