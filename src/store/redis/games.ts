import type Redis from 'ioredis';
import {
  IDEMPOTENCY_TTL_SECONDS,
  listingBasesOf,
  listingIndex,
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
  type FeedOptions,
  type GameChange,
  type MovePage,
  changeOf,
} from '../store';
import { noticesArgument, gameIndexes, clockIndexArgument, statusIndexesArgument } from './arguments';
import { scripted, type ScriptedRedis, type ChannelFanout } from './client';

/** The listings' index layout (see listingIndex); indexListings() brings older data to it. */
const LISTINGS_VERSION = '2';

export class RedisGameStore implements GameStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly feed: FeedOptions = {},
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
      noticesArgument(notices, this.feed),
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
   * Once per deployment (marker key `p games:ongoing-indexed`): backfillOngoing() for data written
   * before ongoing games were counted per account. Games written meanwhile index themselves. Needs
   * the listings indexed first (indexListings).
   */
  async indexOngoing(): Promise<number> {
    const marker = `${this.prefix}games:ongoing-indexed`;
    if ((await this.redis.get(marker)) === '1') return 0;
    const indexed = await this.backfillOngoing();
    await this.redis.set(marker, '1');
    return indexed;
  }

  /**
   * Indexes every ongoing game in its accounts' games:ongoing sets (which the game scripts keep from
   * then on). Safe to run while serving, and again. Resolves with the count.
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

  async moves(id: string, after: number, limit: number): Promise<MovePage | undefined> {
    const game = await this.get(id);
    if (!game) return undefined;
    const from = Math.max(0, Math.floor(after) || 0);
    const items = game.moves.slice(from, from + Math.max(0, limit));
    const end = from + items.length;
    return { items, next: end < game.moves.length ? end : null };
  }

  async list(filter: GameFilter, limit: number, before?: number): Promise<GamePage> {
    // The index of exactly this filter (see listingIndex): a page reads about `limit` entries.
    const index = `${this.prefix}${listingIndex(filter)}`;
    const items: StoredGame[] = [];
    const batchSize = limit + 1;
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
        // The index and the document are written together, but a game may change between the two
        // reads here (its status): such a game is left out of this page.
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

  /**
   * Once per deployment: adds the games written before the listings had one index per combination
   * of filters to those indexes (a marker key remembers it is done; running it twice, or on two
   * nodes at once, does no harm). Games created or updated meanwhile index themselves.
   */
  async indexListings(batch = 500): Promise<number> {
    const marker = `${this.prefix}games:listings`;
    if ((await this.redis.get(marker)) === LISTINGS_VERSION) return 0;
    let indexed = 0;
    let min = '-inf';
    for (;;) {
      const page = await this.redis.zrangebyscore(
        `${this.prefix}games:all`,
        min,
        '+inf',
        'WITHSCORES',
        'LIMIT',
        0,
        batch,
      );
      for (let i = 0; i < page.length; i += 2) {
        const id = page[i] as string;
        for (let attempt = 0; attempt < 10; attempt++) {
          const [doc, version] = await this.redis.hmget(this.gameKey(id), 'doc', 'version');
          if (!doc || version === null || version === undefined) break;
          const game = JSON.parse(doc) as StoredGame;
          const result = await this.redis.boardhostIndexListings(
            this.gameKey(id),
            this.prefix,
            id,
            version,
            game.status,
            JSON.stringify(listingBasesOf(game).map((base) => base.any)),
            statusIndexesArgument(game),
          );
          if (result !== -1) {
            indexed += result;
            break;
          }
        }
      }
      if (page.length < batch * 2) break;
      min = `(${page[page.length - 1]}`;
    }
    await this.redis.set(marker, LISTINGS_VERSION);
    return indexed;
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
    const current = await this.redis.hget(this.gameKey(next.id), 'doc');
    const change = changeOf(next, current ? (JSON.parse(current) as StoredGame).moves.length : 0);
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
      noticesArgument(notices, this.feed),
      clockIndexArgument(next),
      statusIndexesArgument(next),
      JSON.stringify(change),
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

/** Live game updates and token revocations over Redis pub/sub. */
export class RedisEventBus implements GameEventBus {
  constructor(
    private readonly fanout: ChannelFanout,
    private readonly channelOf: (gameId: string) => string,
    private readonly revocations: string,
  ) {}

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
