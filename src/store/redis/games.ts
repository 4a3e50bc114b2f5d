import type Redis from 'ioredis';
import {
  IDEMPOTENCY_TTL_SECONDS,
  type GameEventBus,
  type GameFilter,
  type GamePage,
  type CreateResult,
  type GameLimit,
  type GameStore,
  type IdempotencyRecord,
  type Notice,
  type StoredGame,
  type UpdateResult,
} from '../store';
import { noticesArgument, gameIndexes, clockIndexArgument } from './arguments';
import { scripted, type ScriptedRedis, type ChannelFanout } from './client';

export class RedisGameStore implements GameStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.redis = scripted(redis);
  }

  private gameKey(id: string): string {
    return `${this.prefix}game:{${id}}`;
  }

  private idemKey(id: string, key: string): string {
    return `${this.prefix}idem:{${id}}:${key}`;
  }

  /** The pub/sub channel of a game's updates. */
  channel(id: string): string {
    return `${this.prefix}updates:{${id}}`;
  }

  async create(
    game: StoredGame,
    notices: readonly Notice[] = [],
    limits: readonly GameLimit[] = [],
  ): Promise<CreateResult> {
    const created = await this.redis.boardhostCreate(
      this.gameKey(game.id),
      this.prefix,
      game.id,
      JSON.stringify(game),
      game.version,
      gameIndexes(game),
      noticesArgument(notices),
      clockIndexArgument(game),
      JSON.stringify(limits),
    );
    if (typeof created === 'string') return { status: 'too-many-games', account: created };
    if (created !== 1) throw new Error(`game ${game.id} exists`);
    return { status: 'created' };
  }

  async countOngoing(account: string): Promise<number> {
    return this.redis.scard(`${this.prefix}games:ongoing:${account}`);
  }

  /**
   * One-off migration: indexes every ongoing game in its accounts' games:ongoing sets (which the
   * game scripts keep from then on). Safe to run while serving, and again. Resolves with the count.
   */
  async backfillOngoing(batch = 500): Promise<number> {
    let indexed = 0;
    let max = '+inf';
    for (;;) {
      const page = await this.redis.zrevrangebyscore(
        `${this.prefix}games:status:ongoing`,
        max,
        '-inf',
        'WITHSCORES',
        'LIMIT',
        0,
        batch,
      );
      const ids = page.filter((_, i) => i % 2 === 0);
      for (const id of ids) {
        indexed += await this.redis.boardhostIndexOngoing(this.gameKey(id), this.prefix, id);
      }
      if (ids.length < batch) return indexed;
      max = `(${page[page.length - 1]}`;
    }
  }

  async get(id: string): Promise<StoredGame | undefined> {
    const doc = await this.redis.hget(this.gameKey(id), 'doc');
    return doc ? (JSON.parse(doc) as StoredGame) : undefined;
  }

  async list(filter: GameFilter, limit: number, before?: number): Promise<GamePage> {
    const p = this.prefix;
    // Walk the narrowest index and check every filter on each document.
    const index = filter.account
      ? `${p}games:account:${filter.account}`
      : filter.status
        ? `${p}games:status:${filter.status}`
        : filter.kind
          ? `${p}games:kind:${filter.kind}`
          : `${p}games:all`;
    const items: StoredGame[] = [];
    const batchSize = Math.max(limit * 2, 20);
    let lastSeq = 0;
    let max = before === undefined ? '+inf' : `(${before}`;
    for (;;) {
      const batch = await this.redis.zrevrangebyscore(
        index,
        max,
        '-inf',
        'WITHSCORES',
        'LIMIT',
        0,
        batchSize,
      );
      const ids = batch.filter((_, i) => i % 2 === 0);
      const seqs = batch.filter((_, i) => i % 2 === 1).map(Number);
      const docs = await Promise.all(ids.map((id) => this.get(id)));
      for (let i = 0; i < docs.length; i++) {
        const game = docs[i];
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
        lastSeq = seqs[i] as number;
      }
      if (ids.length < batchSize) return { items, next: null };
      max = `(${seqs[seqs.length - 1]}`;
    }
  }

  async update(
    next: StoredGame,
    expectedVersion: number,
    idempotency?: { key: string; fingerprint: string },
    notices: readonly Notice[] = [],
  ): Promise<UpdateResult> {
    const record: IdempotencyRecord | undefined = idempotency
      ? { fingerprint: idempotency.fingerprint, response: next }
      : undefined;
    const json = JSON.stringify(next);
    const [status, payload] = await this.redis.boardhostUpdate(
      this.gameKey(next.id),
      this.idemKey(next.id, idempotency?.key ?? '-'),
      this.prefix,
      String(expectedVersion),
      json,
      String(next.version),
      idempotency ? '1' : '0',
      record ? JSON.stringify(record) : '',
      IDEMPOTENCY_TTL_SECONDS,
      this.channel(next.id),
      next.id,
      next.status,
      noticesArgument(notices),
      clockIndexArgument(next),
    );
    if (status === 'replayed') return { status, record: JSON.parse(payload as string) as IdempotencyRecord };
    if (status === 'conflict') return { status, currentVersion: Number(payload) };
    if (status === 'missing') return { status };
    return { status: 'updated' };
  }

  async idempotencyRecord(gameId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const json = await this.redis.get(this.idemKey(gameId, key));
    return json ? (JSON.parse(json) as IdempotencyRecord) : undefined;
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** Live game updates over Redis pub/sub. */
export class RedisEventBus implements GameEventBus {
  constructor(
    private readonly fanout: ChannelFanout,
    private readonly channelOf: (gameId: string) => string,
  ) {}

  async subscribe(gameId: string, listener: (game: StoredGame) => void): Promise<() => Promise<void>> {
    // Each listener parses its own copy, so no two share (or can corrupt) one object.
    return this.fanout.listen(this.channelOf(gameId), (message) =>
      listener(JSON.parse(message) as StoredGame),
    );
  }

  /** Closes the subscriber connection (shared with the feed). */
  async close(): Promise<void> {
    await this.fanout.close();
  }
}
