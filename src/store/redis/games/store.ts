import type Redis from 'ioredis';
import type { Side } from '../../../engines/types';
import {
  IDEMPOTENCY_TTL_SECONDS,
  accountEffectsOf,
  headOf,
  type GameHead,
  type MoveRecord,
  type GameEventBus,
  type GameFilter,
  type GamePage,
  type CreateResult,
  type GameLimit,
  type GameStore,
  type IdempotencyRecord,
  type GameEffects,
  type Notice,
  type RatingResult,
  type StoredGame,
  type UpdateResult,
  type FeedOptions,
  type GameChange,
  type MovePage,
  type StoredMoveDetails,
} from '../../store';
import { clockIndexArgument, createGameArguments, listedArgument } from './arguments';
import type { ChannelFanout } from '../client';
import { createGame, readGame, reserveGame, updateGame } from './scripts';
import { ALL_SHARDS, Keys, shardOf, shardTag } from '../keys';
import {
  OutboxRelay,
  gameParts,
  outboxFields,
  runReplicated,
  type RelayOptions,
  type Replication,
} from '../relay/relay';

/** Listing index entries read per round trip (per shard, for listings without an account). */
const LIST_BATCH = 50;

export interface RedisGameStoreOptions {
  readonly feed?: FeedOptions;
  /** 'SPUBLISH' on a Cluster, 'PUBLISH' on one Redis (the default). */
  readonly publish?: 'PUBLISH' | 'SPUBLISH';
  readonly onError?: RelayOptions['onError'];
  /** See RelayOptions.relayOwnWrites (tests of a node that dies right after its writes). */
  readonly relayOwnWrites?: boolean;
  /** How long a node holds a shard's outbox while relaying it (default 10 s). */
  readonly leaseMs?: number;
  /** REDIS_WAIT_REPLICAS: every game write waits for this many replicas (see runReplicated). */
  readonly replication?: Replication;
  /** Applies a rating result an entry carries, before the account's part (RelayOptions.rate). */
  readonly rate?: (result: RatingResult) => Promise<unknown>;
}

/**
 * A finished game's moves, packed: {"p": first ply, "t": createdAt ms, "m": [[notation, ms since the
 * one before, seat, details?]]}.
 */
interface Packed {
  readonly p: number;
  readonly t: number;
  readonly m: ReadonlyArray<readonly [string, number, Side, StoredMoveDetails?]>;
}

/**
 * Whether packed moves keep their details (engine facts: captures, sowing traces). They do not:
 * the service derives them again by replaying a game whose moves come without (game-rules.ts).
 */
const PACK_DETAILS = false;

/** A finished game's moves in a few bytes each. */
export function packMoves(moves: readonly MoveRecord[], createdAt: string): string {
  let last = Date.parse(createdAt);
  const m = moves.map((move) => {
    const at = Date.parse(move.at);
    const entry: Packed['m'][number] =
      PACK_DETAILS && move.details
        ? [move.notation, at - last, move.seat, move.details]
        : [move.notation, at - last, move.seat];
    last = at;
    return entry;
  });
  return JSON.stringify({ p: moves[0]?.ply ?? 1, t: Date.parse(createdAt), m } satisfies Packed);
}

export function unpackMoves(packed: string): MoveRecord[] {
  const { p, t, m } = JSON.parse(packed) as Packed;
  let at = t;
  return m.map(([notation, dt, seat, details], i) => {
    at += dt;
    return { ply: p + i, notation, seat, at: new Date(at).toISOString(), ...(details ? { details } : {}) };
  });
}

export class RedisGameStore implements GameStore {
  private readonly redis: Redis;
  readonly keys: Keys;
  readonly relay: OutboxRelay;
  private readonly publish: 'PUBLISH' | 'SPUBLISH';
  private readonly feed: FeedOptions;
  private readonly replication: Replication | undefined;

  constructor(redis: Redis, prefix: string, options: RedisGameStoreOptions = {}) {
    this.replication = options.replication;
    this.redis = redis;
    this.keys = new Keys(prefix);
    this.publish = options.publish ?? 'PUBLISH';
    this.feed = options.feed ?? {};
    this.relay = new OutboxRelay(this.redis, this.keys, {
      feed: this.feed,
      publish: this.publish,
      ...(options.onError ? { onError: options.onError } : {}),
      ...(options.relayOwnWrites === false ? { relayOwnWrites: false } : {}),
      ...(options.replication ? { replication: options.replication } : {}),
      ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
      ...(options.rate ? { rate: options.rate } : {}),
    });
  }

  private gameKeys(id: string): { game: string; moves: string } {
    return { game: this.keys.game(id), moves: this.keys.moves(id) };
  }

  /** The pub/sub channel of a game's changes. */
  channel(id: string): string {
    return this.keys.gameChannel(id);
  }

  async create(
    game: StoredGame,
    notices: readonly Notice[] = [],
    limits: readonly GameLimit[] = [],
  ): Promise<CreateResult> {
    const reserved = await this.reservePlaces(game.id, limits);
    if (!reserved.ok) return { status: 'too-many-games', account: reserved.account };
    const release = reserved.release;
    const shard = shardOf(game.id);
    const fields = outboxFields(
      {
        origin: `g:${game.id}`,
        version: game.version + 1,
        before: 0,
        parts: gameParts(this.keys, game, { notices, accounts: accountEffectsOf(game) }),
      },
      this.feed,
    );
    let created: [number, string?, string?, string?];
    try {
      created = await runReplicated(
        this.redis,
        this.replication,
        createGame.name,
        createGame.argv(this.gameKeys(game.id), createGameArguments(this.keys.prefix, game), fields),
      );
    } catch (error) {
      await release().catch(() => undefined);
      throw error;
    }
    if (created[0] !== 1) {
      await release();
      throw new Error(`game ${game.id} exists`);
    }
    await this.relay.deliver(shard, fields, created[2], undefined, created[3]);
    return { status: 'created' };
  }

  /**
   * Counts a game among each limited account's ongoing games, in the account's shard, before the
   * game is written (its relay entry adds it there again, harmlessly); `release` gives the places
   * back when the game is not written after all. A node that dies in between leaves a place taken
   * (an ongoing entry for a game that does not exist) — see docs/data-model.md.
   */
  async reserve(game: string, limits: readonly GameLimit[]): Promise<CreateResult> {
    const reserved = await this.reservePlaces(game, limits);
    return reserved.ok ? { status: 'created' } : { status: 'too-many-games', account: reserved.account };
  }

  async release(game: string, accounts: readonly string[]): Promise<void> {
    await Promise.all(accounts.map((account) => this.redis.srem(this.keys.ongoing(account), game)));
  }

  /**
   * Reserves `id`'s places (see reserve). `release` gives back only the places this call added, and
   * not those of accounts seated in a game `id` that exists by then: of concurrent accepts of one
   * challenge, the one that added a place may be the one that lost, and the winner's game counts.
   */
  async reservePlaces(
    id: string,
    limits: readonly GameLimit[],
  ): Promise<{ ok: true; release: () => Promise<unknown> } | { ok: false; account: string }> {
    const added: string[] = [];
    const release = async () => {
      if (added.length === 0) return;
      const game = await this.head(id);
      const seated = new Set(game?.status === 'ongoing' ? game.seats.map((s) => s.account) : []);
      const free = added.filter((account) => !seated.has(account));
      await Promise.all(free.map((account) => this.redis.srem(this.keys.ongoing(account), id)));
    };
    for (const limit of limits) {
      const reply = await reserveGame.run(
        this.redis,
        { set: this.keys.ongoing(limit.account) },
        { id, max: limit.max },
      );
      if (reply === 0) {
        await release();
        return { ok: false, account: limit.account };
      }
      if (reply === 1) added.push(limit.account);
    }
    return { ok: true, release };
  }

  async countOngoing(account: string): Promise<number> {
    return this.redis.scard(this.keys.ongoing(account));
  }

  async get(id: string): Promise<StoredGame | undefined> {
    const read = await readGame.run(this.redis, this.gameKeys(id), { from: 0, to: -1 });
    if (!read) return undefined;
    const [head, packed, moves] = read;
    return {
      ...(JSON.parse(head) as GameHead),
      moves: packed ? unpackMoves(packed) : moves.map((m) => JSON.parse(m) as MoveRecord),
    };
  }

  /** The game without its moves (one HGET): for what needs its seats or state, not its history. */
  async head(id: string): Promise<GameHead | undefined> {
    const head = await this.redis.hget(this.keys.game(id), 'head');
    return head ? (JSON.parse(head) as GameHead) : undefined;
  }

  async heads(ids: readonly string[]): Promise<(GameHead | undefined)[]> {
    // One HGET each: on a Cluster the games live in several slots (ioredis pipelines them).
    return Promise.all(ids.map((id) => this.head(id)));
  }

  async moves(id: string, after: number, limit: number): Promise<MovePage | undefined> {
    const from = Math.max(0, Math.floor(after) || 0);
    const count = Math.max(0, Math.floor(limit) || 0);
    const read = await readGame.run(this.redis, this.gameKeys(id), {
      from,
      to: count === 0 ? from - 1 : from + count - 1,
    });
    if (!read) return undefined;
    const [, packed, moves, total] = read;
    const items = packed
      ? unpackMoves(packed).slice(from, from + count)
      : moves.map((m) => JSON.parse(m) as MoveRecord);
    const end = from + items.length;
    return { items, next: end < Number(total) ? end : null };
  }

  async list(filter: GameFilter, limit: number, before?: number): Promise<GamePage> {
    // An account's listings live in its shard (one index); the others are split over the shards
    // and merged here, newest first.
    const indexes =
      filter.account !== undefined
        ? [this.keys.accountListing(filter.account, filter.kind, filter.status)]
        : ALL_SHARDS.map((shard) => this.keys.shardListing(shard, filter.kind, filter.status));
    const entries = new NewestFirst(this.redis, indexes, before, Math.min(limit + 1, LIST_BATCH));
    const items: StoredGame[] = [];
    let lastSeq = 0;
    for (;;) {
      const batch = await entries.take(limit + 1 - items.length);
      if (batch.length === 0) return { items, next: null };
      const games = await Promise.all(batch.map((entry) => this.get(entry.id)));
      for (let i = 0; i < batch.length; i++) {
        const game = games[i];
        // The index and the game are written apart (the account's through the relay): a game
        // whose status changed in between is left out of this page.
        if (
          !game ||
          (filter.kind && game.kind !== filter.kind) ||
          (filter.status && game.status !== filter.status) ||
          (filter.account && !game.seats.some((s) => s.account === filter.account))
        ) {
          continue;
        }
        if (items.length === limit) return { items, next: lastSeq };
        items.push(game);
        lastSeq = (batch[i] as { seq: number }).seq;
      }
    }
  }

  async update(
    next: StoredGame,
    expectedVersion: number,
    idempotency: { key: string; fingerprint: string } | undefined,
    effects: GameEffects,
  ): Promise<UpdateResult> {
    const head = JSON.stringify(headOf(next));
    const move = next.moves[next.moves.length - 1];
    const fields = outboxFields(
      {
        origin: `g:${next.id}`,
        version: next.version + 1,
        before: expectedVersion + 1,
        parts: gameParts(this.keys, next, effects),
      },
      this.feed,
    );
    const write = (moves: string) =>
      runReplicated<[string, ...Array<string | number>]>(
        this.redis,
        this.replication,
        updateGame.name,
        updateGame.argv(
          {
            game: this.keys.game(next.id),
            moves: this.keys.moves(next.id),
            idem: this.keys.gameIdempotency(next.id, idempotency?.key ?? '-'),
          },
          {
            prefix: this.keys.prefix,
            tag: shardTag(shardOf(next.id)),
            id: next.id,
            expected: String(expectedVersion),
            head,
            version: String(next.version),
            status: next.status,
            kind: next.kind,
            total: next.moves.length,
            move: move ? JSON.stringify(move) : '',
            idempotent: idempotency ? '1' : '0',
            fingerprint: idempotency?.fingerprint ?? '',
            ttl: IDEMPOTENCY_TTL_SECONDS,
            channel: this.channel(next.id),
            publish: this.publish,
            clock: clockIndexArgument(effects.clock),
            packed: moves,
            listed: listedArgument(next),
            truncate: effects.truncate ? '1' : '0',
          },
          fields,
        ),
      );
    // A finished game's moves are packed; a packed game reopened (rare) gets its list back.
    let result = await write(next.status === 'finished' ? packMoves(next.moves, next.createdAt) : '');
    if (result[0] === 'unpack')
      result = await write(JSON.stringify(next.moves.map((m) => JSON.stringify(m))));
    switch (result[0]) {
      case 'replayed': {
        const [, fingerprint, headJson, count] = result;
        const response = await this.at(JSON.parse(headJson as string) as GameHead, Number(count));
        return { status: 'replayed', record: { fingerprint: fingerprint as string, response } };
      }
      case 'conflict':
        return { status: 'conflict', currentVersion: Number(result[1]) };
      case 'missing':
        return { status: 'missing' };
      case 'moves':
        throw new Error(`game ${next.id}: the write has ${next.moves.length} moves, the store ${result[1]}`);
    }
    await this.relay.deliver(shardOf(next.id), fields, String(result[2]), undefined, String(result[3]));
    return { status: 'updated' };
  }

  /** The game as it was with `head` and its first `count` moves (an idempotent answer). */
  private async at(head: GameHead, count: number): Promise<StoredGame> {
    const page = count > 0 ? await this.moves(head.id, 0, count) : { items: [] };
    return { ...head, moves: [...(page?.items ?? [])] };
  }

  async idempotencyRecord(gameId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const [fingerprint, head, count] = await this.redis.hmget(
      this.keys.gameIdempotency(gameId, key),
      'fingerprint',
      'head',
      'moves',
    );
    if (!fingerprint || !head) return undefined;
    return { fingerprint, response: await this.at(JSON.parse(head) as GameHead, Number(count)) };
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.relay.stop();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Reads several listing indexes newest first as one (a k-way merge): each index is read in
 * batches, and an entry is taken once every index has shown whether it holds a newer one.
 */
export class NewestFirst {
  private readonly buffers: Array<Array<{ id: string; seq: number }>>;
  private readonly exhausted: boolean[];
  private readonly cursors: string[];

  constructor(
    private readonly redis: Redis,
    private readonly indexes: readonly string[],
    before: number | undefined,
    private readonly batch: number,
  ) {
    this.buffers = indexes.map(() => []);
    this.exhausted = indexes.map(() => false);
    this.cursors = indexes.map(() => (before === undefined ? '+inf' : `(${before}`));
  }

  private async refill(): Promise<void> {
    const empty = this.indexes.flatMap((_, i) =>
      this.buffers[i]?.length === 0 && !this.exhausted[i] ? [i] : [],
    );
    await Promise.all(
      empty.map(async (i) => {
        const page = await this.redis.zrevrangebyscore(
          this.indexes[i] as string,
          this.cursors[i] as string,
          '-inf',
          'WITHSCORES',
          'LIMIT',
          0,
          this.batch,
        );
        const entries: Array<{ id: string; seq: number }> = [];
        for (let j = 0; j + 1 < page.length; j += 2) {
          entries.push({ id: page[j] as string, seq: Number(page[j + 1]) });
        }
        this.buffers[i] = entries;
        if (entries.length < this.batch) this.exhausted[i] = true;
        const last = entries[entries.length - 1];
        if (last) this.cursors[i] = `(${last.seq}`;
      }),
    );
  }

  /** Up to `count` entries, newest first; fewer only when the indexes hold no more. */
  async take(count: number): Promise<Array<{ id: string; seq: number }>> {
    const out: Array<{ id: string; seq: number }> = [];
    while (out.length < count) {
      await this.refill();
      let best = -1;
      for (let i = 0; i < this.buffers.length; i++) {
        const head = this.buffers[i]?.[0];
        if (head && (best < 0 || head.seq > (this.buffers[best]?.[0]?.seq ?? -Infinity))) best = i;
      }
      if (best < 0) return out;
      out.push(
        (this.buffers[best] as Array<{ id: string; seq: number }>).shift() as { id: string; seq: number },
      );
    }
    return out;
  }
}

/** Live game updates and token revocations over Redis pub/sub. */
export class RedisEventBus implements GameEventBus {
  constructor(
    private readonly fanout: ChannelFanout,
    private readonly channelOf: (gameId: string) => string,
    private readonly revocations: string,
    private readonly announce: (hash: string) => Promise<void>,
  ) {}

  announceRevocation(hash: string): Promise<void> {
    return this.announce(hash);
  }

  async subscribe(
    gameId: string,
    listener: (change: GameChange) => void,
    onResync?: (flush: () => Promise<void>) => void,
  ): Promise<() => Promise<void>> {
    return this.fanout.listen(
      this.channelOf(gameId),
      (message) => listener(JSON.parse(message) as GameChange),
      onResync && (() => onResync(() => this.fanout.flush())),
    );
  }

  async subscribeRevocations(
    listener: (tokenHash: string) => void,
    onResync?: () => void,
  ): Promise<() => Promise<void>> {
    return this.fanout.listen(this.revocations, listener, onResync);
  }

  /** Closes the subscriber connection (shared with the feed). */
  async close(): Promise<void> {
    await this.fanout.close();
  }
}
