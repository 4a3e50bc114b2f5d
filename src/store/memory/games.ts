import { EventEmitter } from 'node:events';
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
import { MemoryClockIndex } from './clocks';
import type { MemoryEventFeed } from './feed';

/** In-process store: the embedded default, same contract as Redis. */
export class MemoryGameStore implements GameStore {
  private readonly games = new Map<string, { seq: number; json: string }>();
  private readonly idempotency = new Map<string, { record: string; expires: number }>();
  private seq = 0;
  /** Deadlines, reminders and my-turn lists, kept in step with every write (see MemoryClockStore). */
  readonly clockIndex = new MemoryClockIndex();

  constructor(
    private readonly bus: MemoryEventBus,
    private readonly feed: MemoryEventFeed,
    private readonly now: () => number = Date.now,
  ) {}

  async create(
    game: StoredGame,
    notices: readonly Notice[] = [],
    limits: readonly GameLimit[] = [],
  ): Promise<CreateResult> {
    const over = this.clockIndex.overLimit(limits);
    if (over !== undefined) return { status: 'too-many-games', account: over };
    this.insert(game);
    this.feed.appendNow(notices);
    return { status: 'created' };
  }

  async countOngoing(account: string): Promise<number> {
    return this.clockIndex.ongoing.get(account)?.size ?? 0;
  }

  /** Synchronous create, shared with the challenge store (one step of the event loop). */
  insert(game: StoredGame): void {
    if (this.games.has(game.id)) throw new Error(`game ${game.id} exists`);
    this.games.set(game.id, { seq: ++this.seq, json: JSON.stringify(game) });
    this.clockIndex.put(game);
  }

  async get(id: string): Promise<StoredGame | undefined> {
    const entry = this.games.get(id);
    return entry ? (JSON.parse(entry.json) as StoredGame) : undefined;
  }

  async list(filter: GameFilter, limit: number, before?: number): Promise<GamePage> {
    const matches: Array<{ seq: number; game: StoredGame }> = [];
    for (const { seq, json } of this.games.values()) {
      if (before !== undefined && seq >= before) continue;
      const game = JSON.parse(json) as StoredGame;
      if (filter.kind && game.kind !== filter.kind) continue;
      if (filter.status && game.status !== filter.status) continue;
      if (filter.account && !game.seats.some((s) => s.account === filter.account)) continue;
      matches.push({ seq, game });
    }
    matches.sort((a, b) => b.seq - a.seq);
    const page = matches.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map((m) => m.game), next: matches.length > limit && last ? last.seq : null };
  }

  async update(
    next: StoredGame,
    expectedVersion: number,
    idempotency?: { key: string; fingerprint: string },
    notices: readonly Notice[] = [],
  ): Promise<UpdateResult> {
    // No await before the write: the check and the write are one step of the event loop.
    const idemKey = idempotency ? `${next.id}\u0000${idempotency.key}` : undefined;
    if (idemKey) {
      const record = this.liveRecord(idemKey);
      if (record) return { status: 'replayed', record };
    }
    const entry = this.games.get(next.id);
    if (!entry) return { status: 'missing' };
    const current = JSON.parse(entry.json) as StoredGame;
    if (current.version !== expectedVersion) return { status: 'conflict', currentVersion: current.version };
    const json = JSON.stringify(next);
    this.games.set(next.id, { seq: entry.seq, json });
    this.clockIndex.put(next);
    if (idemKey && idempotency) {
      const record: IdempotencyRecord = { fingerprint: idempotency.fingerprint, response: next };
      this.idempotency.set(idemKey, {
        record: JSON.stringify(record),
        expires: this.now() + IDEMPOTENCY_TTL_SECONDS * 1000,
      });
    }
    this.feed.appendNow(notices);
    this.bus.emit(next.id, json);
    return { status: 'updated' };
  }

  async idempotencyRecord(gameId: string, key: string): Promise<IdempotencyRecord | undefined> {
    return this.liveRecord(`${gameId}\u0000${key}`);
  }

  private liveRecord(key: string): IdempotencyRecord | undefined {
    const entry = this.idempotency.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.idempotency.delete(key);
      return undefined;
    }
    return JSON.parse(entry.record) as IdempotencyRecord;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}

/** In-process fan-out of game updates (one server process: no other node to reach). */
export class MemoryEventBus implements GameEventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  /** Delivers a game document (JSON) to the game's listeners. */
  emit(gameId: string, json: string): void {
    // Asynchronous like Redis pub/sub, so a publisher never runs subscriber code in its own stack.
    setImmediate(() => this.emitter.emit(gameId, json));
  }

  async subscribe(gameId: string, listener: (game: StoredGame) => void): Promise<() => Promise<void>> {
    // Each listener parses its own copy, so no two share (or can corrupt) one object.
    const handler = (json: string) => listener(JSON.parse(json) as StoredGame);
    this.emitter.on(gameId, handler);
    return async () => {
      this.emitter.off(gameId, handler);
    };
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
