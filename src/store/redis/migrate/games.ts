import type Redis from 'ioredis';
import {
  IDEMPOTENCY_TTL_SECONDS,
  accountEffectsOf,
  clockIndexOf,
  headOf,
  type GameStatus,
  type IdempotencyRecord,
  type StoredGame,
} from '../../store';
import { packMoves } from '../games/store';
import { shardOf, shardTag, type Keys } from '../keys';
import { scanV1, type V1Context, type V1Step } from './base';
import { moveGame, moveIdempotency } from './scripts';
import { gameParts } from '../relay/relay';

// Games and their idempotency records, from v1 (`p game:{g}` hash: doc, version, status, turn,
// reminded; listed in `p games:all`, score = creation seq; clocks in `p deadlines`/`p reminders`;
// `p idem:{g}:<key>` = JSON {fingerprint, response}) to v2 (../games/store.ts, ../games/scripts.ts, ../relay/relay.ts).

/** v1 games moved side by side (each its own round trips, pipelined). */
const GAMES_AT_ONCE = 200;
/** Moves per RPUSH (a Lua call's arguments stay far below its stack limit). */
const RPUSH_CHUNK = 500;

/** A Redis command the migration script runs: name, key, arguments. */
type Op = string[];

/**
 * Every write that makes the v2 form of a v1 game, as the v2 scripts would have left it: the hash
 * (head, version, status, kind, lseq = the v1 seq; turn and reminded while ongoing; a finished game's
 * moves packed as update() packs them), the move list, the shard listings, the deadline and reminder
 * (their v1 scores: a claim's lease stays), each seated account's listings, my-turn entry and
 * ongoing set (the ops of gameParts, with the listing score), and the relay's `applied` version for
 * each of them, so that the relay takes the game's next entry (before = version + 1).
 */
export function v2GameOps(
  keys: Keys,
  game: StoredGame,
  v1: { lseq: string; reminded?: string | undefined; deadline: string | null; reminder: string | null },
): Op[] {
  const { id, kind, status } = game;
  const shard = shardOf(id);
  // The indexes from the document with every seat's account given (null when none: early
  // documents may lack the field); the head is kept as stored.
  const indexed = { ...game, seats: game.seats.map((s) => ({ ...s, account: s.account ?? null })) };
  const hash = [
    'HSET',
    keys.game(id),
    'head',
    JSON.stringify(headOf(game)),
    'version',
    String(game.version),
    'status',
    status,
    'kind',
    kind,
    'lseq',
    v1.lseq,
  ];
  const ops: Op[] = [hash];
  if (status === 'finished') {
    hash.push('packed', packMoves(game.moves, game.createdAt), 'nmoves', String(game.moves.length));
  } else {
    hash.push('turn', clockIndexOf(indexed).turn);
    if (v1.reminded !== undefined) hash.push('reminded', v1.reminded);
    for (let i = 0; i < game.moves.length; i += RPUSH_CHUNK) {
      const chunk = game.moves.slice(i, i + RPUSH_CHUNK).map((m) => JSON.stringify(m));
      ops.push(['RPUSH', keys.moves(id), ...chunk]);
    }
  }
  const listings: Array<[string?, GameStatus?]> = [[], [kind], [undefined, status], [kind, status]];
  for (const [k, s] of listings) ops.push(['ZADD', keys.shardListing(shard, k, s), v1.lseq, id]);
  if (v1.deadline !== null) ops.push(['ZADD', keys.deadlines(shard), v1.deadline, id]);
  if (v1.reminder !== null) ops.push(['ZADD', keys.reminders(shard), v1.reminder, id]);
  for (const part of gameParts(keys, indexed, { notices: [], accounts: accountEffectsOf(indexed) })) {
    for (const [op, key, ...rest] of part.ops) {
      if (op === 'rate') continue; // v1 games were never rated
      ops.push([op.toUpperCase(), key, ...rest.map((v) => (v === '@lseq' ? v1.lseq : String(v)))]);
    }
    ops.push(['HSET', keys.applied(part.account), `g:${id}`, String(game.version + 1)]);
  }
  return ops;
}

type Moved = 'moved' | 'gone' | 'conflict';

/** Moves one v1 game (its seq in games:all is `lseq`). */
export async function migrateGame(redis: Redis, prefix: string, keys: Keys, id: string, lseq: string) {
  const v1Key = `${prefix}game:{${id}}`;
  for (let attempt = 0; attempt < 5; attempt++) {
    const [fields, deadline, reminder] = await Promise.all([
      redis.hgetall(v1Key),
      redis.zscore(`${prefix}deadlines`, id),
      redis.zscore(`${prefix}reminders`, id),
    ]);
    if (fields.doc === undefined) return 'gone';
    const game = JSON.parse(fields.doc) as StoredGame;
    const ops = v2GameOps(keys, game, { lseq, reminded: fields.reminded, deadline, reminder });
    const result = await moveGame.run(
      redis,
      { v1: v1Key, v2: keys.game(id) },
      { version: fields.version ?? '', ops: JSON.stringify(ops) },
    );
    if (result !== 'changed') return result as Moved;
  }
  throw new Error(`v1 game ${id} kept changing while it was moved (is a v1 node still running?)`);
}

/** Every game listed in v1's `p games:all`, oldest first, GAMES_AT_ONCE at a time. */
export const gamesStep: V1Step = {
  name: 'games',
  async run({ redis, prefix, keys }: V1Context) {
    const counts: Record<Moved, number> = { moved: 0, gone: 0, conflict: 0 };
    // games:all stays as it is until v1IndexesStep (no v2 code writes it): pages by rank hold.
    for (let start = 0; ; start += GAMES_AT_ONCE) {
      const page = await redis.zrange(`${prefix}games:all`, start, start + GAMES_AT_ONCE - 1, 'WITHSCORES');
      const work: Array<Promise<Moved>> = [];
      for (let i = 0; i + 1 < page.length; i += 2) {
        work.push(migrateGame(redis, prefix, keys, page[i] as string, page[i + 1] as string));
      }
      for (const result of await Promise.all(work)) counts[result]++;
      if (page.length < GAMES_AT_ONCE * 2) return counts;
    }
  },
};

/** `p idem:{g}:<key>` (v1); v2's are `p idem:{s<n>}:g:<key>`, told apart by their shard tag. */
function v1IdempotencyKey(name: string): { game: string; key: string } | undefined {
  const match = /^idem:\{([^}]+)\}:(.+)$/.exec(name);
  if (!match) return undefined;
  const [, game, key] = match as unknown as [string, string, string];
  const v2Game = key.slice(0, key.indexOf(':'));
  if (/^s\d+$/.test(game) && key.includes(':') && shardTag(shardOf(v2Game)) === `{${game}}`) {
    return undefined;
  }
  return { game, key };
}

/** Idempotency records of game writes (at most a day old: they expire). */
export const idempotencyStep: V1Step = {
  name: 'idempotency',
  async run({ redis, prefix, keys }: V1Context) {
    let moved = 0;
    for await (const batch of scanV1(redis, prefix, 'idem:{*')) {
      const results = await Promise.all(
        batch.map(async (name) => {
          const found = v1IdempotencyKey(name.slice(prefix.length));
          if (!found) return 0;
          const json = await redis.get(name);
          if (json === null) return 0;
          const record = JSON.parse(json) as IdempotencyRecord;
          return moveIdempotency.run(
            redis,
            { v1: name, v2: keys.gameIdempotency(found.game, found.key) },
            {
              fingerprint: record.fingerprint,
              head: JSON.stringify(headOf(record.response)),
              moves: record.response.moves.length,
              ttl: IDEMPOTENCY_TTL_SECONDS,
            },
          );
        }),
      );
      moved += results.reduce<number>((sum, n) => sum + Number(n), 0);
    }
    return { moved };
  },
};
