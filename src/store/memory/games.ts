import { EventEmitter } from 'node:events';
import {
  IDEMPOTENCY_TTL_SECONDS,
  listingIndex,
  listingIndexesOf,
  publiclyListed,
  changeOf,
  headOf,
  type GameChange,
  type GameHead,
  type GameEventBus,
  type GameStatus,
  type MovePage,
  type GameFilter,
  type GamePage,
  type CreateResult,
  type GameLimit,
  type GameStore,
  type IdempotencyRecord,
  type GameEffects,
  type Notice,
  type StoredGame,
  type UpdateResult,
} from '../store';
import { MemoryClockIndex } from './clocks';
import type { MemoryEventFeed } from './feed';
import type { MemoryRatingStore } from './ratings';

/** Creation sequence numbers of the games in one listing, ascending, with their ids. */
class SeqIndex {
  private readonly seqs: number[] = [];
  private readonly ids: string[] = [];

  /** The position of the first entry with a seq ≥ `seq`. */
  private position(seq: number): number {
    let low = 0;
    let high = this.seqs.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.seqs[mid] as number) < seq) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  add(seq: number, id: string): void {
    const at = this.position(seq);
    if (this.seqs[at] === seq) return;
    this.seqs.splice(at, 0, seq);
    this.ids.splice(at, 0, id);
  }

  remove(seq: number): void {
    const at = this.position(seq);
    if (this.seqs[at] !== seq) return;
    this.seqs.splice(at, 1);
    this.ids.splice(at, 1);
  }

  /** Up to `limit` entries with seq < `before`, newest first. */
  newest(limit: number, before = Infinity): Array<{ seq: number; id: string }> {
    const end = this.position(before);
    const out: Array<{ seq: number; id: string }> = [];
    for (let i = end - 1; i >= 0 && out.length < limit; i--) {
      out.push({ seq: this.seqs[i] as number, id: this.ids[i] as string });
    }
    return out;
  }
}

/** A stored game: its head as JSON, and each move as JSON (appended, never rewritten). */
interface Entry {
  readonly seq: number;
  readonly head: string;
  readonly moves: string[];
  readonly status: GameStatus;
}

/** An idempotency record: the answer was the game at `version`, whose first `moves` moves are the stored ones. */
interface MemoryRecord {
  readonly fingerprint: string;
  readonly head: string;
  readonly moves: number;
  readonly expires: number;
}

function gameOf(entry: Entry, moves = entry.moves.length): StoredGame {
  const head = JSON.parse(entry.head) as StoredGame;
  const list = entry.moves.slice(0, moves).map((m) => JSON.parse(m) as StoredGame['moves'][number]);
  return { ...head, moves: list };
}

/** In-process store: the embedded default, same contract as Redis. */
export class MemoryGameStore implements GameStore {
  private readonly games = new Map<string, Entry>();
  /** The listings, one per combination of filters (see listingIndex), kept with every write. */
  private readonly listings = new Map<string, SeqIndex>();
  private readonly idempotency = new Map<string, MemoryRecord>();
  private seq = 0;
  /** Deadlines, reminders and my-turn lists, kept in step with every write (see MemoryClockStore). */
  readonly clockIndex = new MemoryClockIndex();

  constructor(
    private readonly bus: MemoryEventBus,
    private readonly feed: MemoryEventFeed,
    private readonly now: () => number = Date.now,
    private readonly ratings?: MemoryRatingStore,
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

  async reserve(game: string, limits: readonly GameLimit[]): Promise<CreateResult> {
    const over = limits.find((l) => {
      const games = this.clockIndex.ongoing.get(l.account);
      return !games?.has(game) && (games?.size ?? 0) >= l.max;
    });
    if (over) return { status: 'too-many-games', account: over.account };
    for (const { account } of limits) {
      let games = this.clockIndex.ongoing.get(account);
      if (!games) this.clockIndex.ongoing.set(account, (games = new Set()));
      games.add(game);
    }
    return { status: 'created' };
  }

  async release(game: string, accounts: readonly string[]): Promise<void> {
    for (const account of accounts) this.clockIndex.ongoing.get(account)?.delete(game);
  }

  async countOngoing(account: string): Promise<number> {
    return this.clockIndex.ongoing.get(account)?.size ?? 0;
  }

  /** Synchronous create, shared with the challenge store (one step of the event loop). */
  insert(game: StoredGame): void {
    if (this.games.has(game.id)) throw new Error(`game ${game.id} exists`);
    const seq = ++this.seq;
    this.games.set(game.id, {
      seq,
      head: JSON.stringify(headOf(game)),
      moves: game.moves.map((m) => JSON.stringify(m)),
      status: game.status,
    });
    for (const key of listingIndexesOf(game)) this.listing(key).add(seq, game.id);
    this.clockIndex.put(game);
  }

  /** Moves a game's entry in the listings of `filter` from its stored status to `status`. */
  private relist(filter: GameFilter, id: string, entry: Entry, status: GameStatus): void {
    this.listings.get(listingIndex({ ...filter, status: entry.status }))?.remove(entry.seq);
    this.listing(listingIndex({ ...filter, status })).add(entry.seq, id);
  }

  private listing(key: string): SeqIndex {
    let index = this.listings.get(key);
    if (!index) this.listings.set(key, (index = new SeqIndex()));
    return index;
  }

  async get(id: string): Promise<StoredGame | undefined> {
    const entry = this.games.get(id);
    return entry ? gameOf(entry) : undefined;
  }

  async heads(ids: readonly string[]): Promise<(GameHead | undefined)[]> {
    return ids.map((id) => {
      const entry = this.games.get(id);
      return entry ? (JSON.parse(entry.head) as GameHead) : undefined;
    });
  }

  async moves(id: string, after: number, limit: number): Promise<MovePage | undefined> {
    const entry = this.games.get(id);
    if (!entry) return undefined;
    const from = Math.max(0, Math.floor(after) || 0);
    const items = entry.moves.slice(from, from + Math.max(0, limit)).map((m) => JSON.parse(m));
    const end = from + items.length;
    return { items, next: end < entry.moves.length ? end : null };
  }

  async list(filter: GameFilter, limit: number, before?: number): Promise<GamePage> {
    // The index of exactly this filter: a page costs O(log games + page).
    const entries = this.listings.get(listingIndex(filter))?.newest(limit + 1, before) ?? [];
    const page = entries.slice(0, limit);
    const items = page.map(({ id }) => gameOf(this.games.get(id) as Entry));
    const last = page[page.length - 1];
    return { items, next: entries.length > limit && last ? last.seq : null };
  }

  async update(
    next: StoredGame,
    expectedVersion: number,
    idempotency: { key: string; fingerprint: string } | undefined,
    effects: GameEffects,
  ): Promise<UpdateResult> {
    // No await before the write: the check and the write are one step of the event loop.
    const idemKey = idempotency ? `${next.id}\u0000${idempotency.key}` : undefined;
    if (idemKey) {
      const record = this.liveRecord(idemKey);
      if (record) return { status: 'replayed', record };
    }
    const entry = this.games.get(next.id);
    if (!entry) return { status: 'missing' };
    const current = JSON.parse(entry.head) as StoredGame;
    if (current.version !== expectedVersion) return { status: 'conflict', currentVersion: current.version };
    const before = entry.moves.length;
    const count = next.moves.length;
    // A takeback drops the moves after a ply; any other write appends at most one.
    const dropped = effects.truncate === true && count < before;
    if (!dropped && count !== before && count !== before + 1) {
      throw new Error(`game ${next.id}: a write appends at most one move (${before} → ${count})`);
    }
    const change = changeOf(next, before);
    const head = JSON.stringify(change.game);
    // A record answers its head with the first moves of the list as it is then (as in Redis).
    const moves = dropped ? entry.moves.slice(0, count) : entry.moves;
    if (change.move) moves.push(JSON.stringify(change.move));
    this.games.set(next.id, { seq: entry.seq, head, moves, status: next.status });
    // The game's own listings follow its status; each account's, what the effects say (the entry
    // under the game's stored status is there already).
    if (next.status !== entry.status && publiclyListed(next)) {
      for (const filter of [{}, { kind: next.kind }]) this.relist(filter, next.id, entry, next.status);
    }
    for (const { account, status } of effects.accounts) {
      if (status === entry.status) continue;
      for (const filter of [{ account }, { account, kind: next.kind }])
        this.relist(filter, next.id, entry, status);
    }
    this.clockIndex.putClock(next.id, effects.clock);
    this.clockIndex.putAccounts(next.id, effects.accounts);
    if (idemKey && idempotency) {
      this.idempotency.set(idemKey, {
        fingerprint: idempotency.fingerprint,
        head,
        moves: moves.length,
        expires: this.now() + IDEMPOTENCY_TTL_SECONDS * 1000,
      });
    }
    this.feed.appendNow(effects.notices);
    for (const { rating } of effects.accounts) if (rating) this.ratings?.recordNow(rating);
    this.bus.emit(next.id, JSON.stringify(change));
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
    const game = this.games.get(key.slice(0, key.indexOf('\u0000'))) as Entry;
    return { fingerprint: entry.fingerprint, response: gameOf({ ...game, head: entry.head }, entry.moves) };
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}

/** In-process fan-out of game updates and token revocations (one process: no other node to reach). */
export class MemoryEventBus implements GameEventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  /** Delivers a game change (GameChange JSON) to the game's listeners. */
  emit(gameId: string, json: string): void {
    // Asynchronous like Redis pub/sub, so a publisher never runs subscriber code in its own stack.
    setImmediate(() => this.emitter.emit(`game:${gameId}`, json));
  }

  /** Tells the revocation listeners of a revoked token. */
  revoked(tokenHash: string): void {
    setImmediate(() => this.emitter.emit('revoked', tokenHash));
  }

  async subscribe(gameId: string, listener: (change: GameChange) => void): Promise<() => Promise<void>> {
    // Each listener parses its own copy, so no two share (or can corrupt) one object.
    const handler = (json: string) => listener(JSON.parse(json) as GameChange);
    this.emitter.on(`game:${gameId}`, handler);
    return async () => {
      this.emitter.off(`game:${gameId}`, handler);
    };
  }

  /** Nothing is ever lost in process, so `onResync` is never called. */
  async subscribeRevocations(listener: (tokenHash: string) => void): Promise<() => Promise<void>> {
    const handler = (hash: string) => listener(hash);
    this.emitter.on('revoked', handler);
    return async () => {
      this.emitter.off('revoked', handler);
    };
  }

  async announceRevocation(hash: string): Promise<void> {
    this.revoked(hash);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
