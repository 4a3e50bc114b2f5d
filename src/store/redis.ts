import Redis, { type RedisOptions } from 'ioredis';
import {
  IDEMPOTENCY_TTL_SECONDS,
  type GameEventBus,
  type GameFilter,
  type GamePage,
  type GameStore,
  type IdempotencyRecord,
  type Storage,
  type StoredGame,
  type UpdateResult,
} from './store';

// Key layout (prefix p, game id g). A game's keys share the `{g}` hash tag, so that they live on one
// Redis Cluster slot and one Lua script may touch them all:
//   p game:{g}           hash: doc (JSON), version
//   p idem:{g}:<key>     JSON IdempotencyRecord, expires after 24 h
//   p updates:{g}        pub/sub channel carrying each new doc
// Listing indexes (sorted sets, score = creation sequence): p games:seq, p games:all,
// p games:kind:<kind>, p games:status:<status>. They are updated after the game write; list()
// re-checks each document, so an index left stale by a crash never shows a wrong game.

/** Check idempotency key, then version; write doc, remember the answer, publish: all or nothing. */
const UPDATE_SCRIPT = `
if ARGV[4] == '1' then
  local seen = redis.call('GET', KEYS[2])
  if seen then return {'replayed', seen} end
end
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return {'missing'} end
if version ~= ARGV[1] then return {'conflict', version} end
redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'version', ARGV[3])
if ARGV[4] == '1' then
  redis.call('SET', KEYS[2], ARGV[5], 'EX', ARGV[6])
end
redis.call('PUBLISH', ARGV[7], ARGV[2])
return {'updated'}
`;

/** Create only if absent. */
const CREATE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[1], 'version', ARGV[2])
return 1
`;

interface ScriptedRedis extends Redis {
  boardhostUpdate(...args: Array<string | number>): Promise<[string, string?]>;
  boardhostCreate(...args: Array<string | number>): Promise<number>;
}

/** Client options that fail fast when Redis is down, so requests get 503 instead of hanging. */
export function redisClientOptions(): RedisOptions {
  return {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    // Concurrent requests share round trips: one write per event-loop tick instead of one per command.
    enableAutoPipelining: true,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  };
}

/** Opens a client and waits until it is ready (or fails after `timeoutMs`). */
export async function connectRedis(url: string, timeoutMs = 5000): Promise<Redis> {
  const client = new Redis(url, { ...redisClientOptions(), lazyConnect: true });
  client.on('error', () => {
    // Connection errors surface on the commands that fail; without a listener ioredis logs them.
  });
  const timer = setTimeout(() => client.disconnect(), timeoutMs);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new Error(`cannot connect to Redis at ${url}: ${(error as Error).message}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  return client;
}

export class RedisGameStore implements GameStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('boardhostUpdate', { numberOfKeys: 2, lua: UPDATE_SCRIPT });
    redis.defineCommand('boardhostCreate', { numberOfKeys: 1, lua: CREATE_SCRIPT });
    this.redis = redis as ScriptedRedis;
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

  private indexKeys(game: StoredGame): string[] {
    const p = this.prefix;
    return [`${p}games:all`, `${p}games:kind:${game.kind}`, `${p}games:status:${game.status}`];
  }

  async create(game: StoredGame): Promise<void> {
    const created = await this.redis.boardhostCreate(
      this.gameKey(game.id),
      JSON.stringify(game),
      game.version,
    );
    if (created !== 1) throw new Error(`game ${game.id} exists`);
    const seq = await this.redis.incr(`${this.prefix}games:seq`);
    await Promise.all(this.indexKeys(game).map((key) => this.redis.zadd(key, seq, game.id)));
  }

  async get(id: string): Promise<StoredGame | undefined> {
    const doc = await this.redis.hget(this.gameKey(id), 'doc');
    return doc ? (JSON.parse(doc) as StoredGame) : undefined;
  }

  async list(filter: GameFilter, limit: number, before?: number): Promise<GamePage> {
    const p = this.prefix;
    // Walk the narrowest index and check the other filter on each document.
    const index = filter.status
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
          (filter.status && game.status !== filter.status)
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
  ): Promise<UpdateResult> {
    const record: IdempotencyRecord | undefined = idempotency
      ? { fingerprint: idempotency.fingerprint, response: next }
      : undefined;
    const json = JSON.stringify(next);
    const [status, payload] = await this.redis.boardhostUpdate(
      this.gameKey(next.id),
      this.idemKey(next.id, idempotency?.key ?? '-'),
      String(expectedVersion),
      json,
      String(next.version),
      idempotency ? '1' : '0',
      record ? JSON.stringify(record) : '',
      IDEMPOTENCY_TTL_SECONDS,
      this.channel(next.id),
    );
    if (status === 'replayed') return { status, record: JSON.parse(payload as string) as IdempotencyRecord };
    if (status === 'conflict') return { status, currentVersion: Number(payload) };
    if (status === 'missing') return { status };
    if (next.status === 'finished') await this.reindexStatus(next);
    return { status: 'updated' };
  }

  private async reindexStatus(game: StoredGame): Promise<void> {
    const p = this.prefix;
    const seq = await this.redis.zscore(`${p}games:all`, game.id);
    if (seq === null) return;
    await this.redis.zrem(`${p}games:status:ongoing`, game.id);
    await this.redis.zadd(`${p}games:status:finished`, seq, game.id);
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

/** Fans Redis pub/sub messages out to this process's listeners, one channel subscription per game. */
export class RedisEventBus implements GameEventBus {
  private readonly listeners = new Map<string, Set<(game: StoredGame) => void>>();

  constructor(
    private readonly subscriber: Redis,
    private readonly channelOf: (gameId: string) => string,
  ) {
    subscriber.on('message', (channel: string, message: string) => {
      const set = this.listeners.get(channel);
      if (!set) return;
      for (const listener of set) listener(JSON.parse(message) as StoredGame);
    });
  }

  async subscribe(gameId: string, listener: (game: StoredGame) => void): Promise<() => Promise<void>> {
    const channel = this.channelOf(gameId);
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.subscriber.subscribe(channel);
    }
    set.add(listener);
    return async () => {
      const current = this.listeners.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      this.listeners.delete(channel);
      await this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}

/** Games in Redis: one data connection and one subscriber connection. */
export async function createRedisStorage(url: string, prefix: string): Promise<Storage> {
  const data = await connectRedis(url);
  const subscriber = await connectRedis(url).catch(async (error: unknown) => {
    data.disconnect();
    throw error;
  });
  const games = new RedisGameStore(data, prefix);
  return { name: 'redis', games, events: new RedisEventBus(subscriber, (id) => games.channel(id)) };
}
