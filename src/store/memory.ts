import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { GameKind } from '../engines/types';
import { createLimiter } from './limiter';
import {
  DELIVERY_LOG_MAX_LENGTH,
  clockIndexOf,
  isTurnOf,
  OVER,
  FEED_RETENTION_MS,
  IDEMPOTENCY_TTL_SECONDS,
  type AccountStore,
  type ClockStore,
  type StoredVacation,
  type TurnCursor,
  type TurnPage,
  type ChallengeStore,
  type ChallengeUpdateResult,
  type EventFeed,
  type FeedEvent,
  type FeedPage,
  type Notice,
  type SeekStore,
  type StoredAccount,
  type StoredChallenge,
  type StoredSeek,
  type StoredToken,
  type DeliveryAttempt,
  type DeliveryLogPage,
  type NewDeliveryAttempt,
  type StoredWebhook,
  type WebhookClaim,
  type WebhookRecord,
  type WebhookState,
  type WebhookStore,
  type GameEventBus,
  type GameFilter,
  type GamePage,
  type GameStore,
  type IdempotencyRecord,
  type Storage,
  type StoredGame,
  type UpdateResult,
} from './store';

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

  async create(game: StoredGame, notices: readonly Notice[] = []): Promise<void> {
    this.insert(game);
    this.feed.appendNow(notices);
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

// ---------------------------------------------------------------------------------------------
// Clocks: deadlines, reminders, my-turn lists and vacations in this process.

type Scored = { readonly id: string; readonly score: number };

/** Score order: lowest first, ties by id (as Redis orders a sorted set). */
const byScore = (a: Scored, b: Scored) => a.score - b.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The clock indexes of the memory store's games, updated synchronously with each write. */
export class MemoryClockIndex {
  readonly deadlines = new Map<string, number>();
  readonly reminders = new Map<string, number>();
  /** Per game: the turn it is at, and the turn a reminder was recorded for. */
  readonly turns = new Map<string, string>();
  readonly reminded = new Map<string, string>();
  /** Per account: the games where it is to move, with their scores. */
  readonly myTurn = new Map<string, Map<string, number>>();

  put(game: StoredGame): void {
    const index = clockIndexOf(game);
    if (index.deadline === null) this.deadlines.delete(game.id);
    else this.deadlines.set(game.id, index.deadline);
    this.turns.set(game.id, index.turn);
    if (index.reminder === null || this.reminded.get(game.id) === index.turn) this.reminders.delete(game.id);
    else this.reminders.set(game.id, index.reminder);
    for (const account of index.accounts) this.myTurn.get(account)?.delete(game.id);
    if (index.mover !== null) {
      let games = this.myTurn.get(index.mover);
      if (!games) this.myTurn.set(index.mover, (games = new Map()));
      games.set(game.id, index.moverScore);
    }
  }

  /** Due entries (score ≤ now), earliest first, leased until `leaseUntil`. */
  static claim(set: Map<string, number>, now: number, limit: number, leaseUntil: number): string[] {
    const due = [...set]
      .filter(([, score]) => score <= now)
      .map(([id, score]) => ({ id, score }))
      .sort(byScore)
      .slice(0, Math.max(0, Math.floor(limit)));
    for (const { id } of due) set.set(id, leaseUntil);
    return due.map((d) => d.id);
  }
}

export class MemoryClockStore implements ClockStore {
  private readonly vacations = new Map<string, string>();

  constructor(
    private readonly games: MemoryGameStore,
    private readonly feed: MemoryEventFeed,
  ) {}

  private get index(): MemoryClockIndex {
    return this.games.clockIndex;
  }

  async claimDeadlines(now: number, limit: number, leaseUntil: number): Promise<string[]> {
    return MemoryClockIndex.claim(this.index.deadlines, now, limit, leaseUntil);
  }

  async claimReminders(now: number, limit: number, leaseUntil: number): Promise<string[]> {
    return MemoryClockIndex.claim(this.index.reminders, now, limit, leaseUntil);
  }

  async nextDue(): Promise<number | null> {
    const scores = [...this.index.deadlines.values(), ...this.index.reminders.values()];
    return scores.length === 0 ? null : Math.min(...scores);
  }

  async markReminded(gameId: string, turn: string, notices: readonly Notice[]): Promise<boolean> {
    if (turn === OVER || this.index.turns.get(gameId) !== turn || this.index.reminded.get(gameId) === turn) {
      return false;
    }
    this.index.reminded.set(gameId, turn);
    this.index.reminders.delete(gameId);
    this.feed.appendNow(notices);
    return true;
  }

  async listTurn(
    account: string,
    filter: { readonly kind?: GameKind },
    limit: number,
    after?: TurnCursor,
  ): Promise<TurnPage> {
    const entries = [...(this.index.myTurn.get(account) ?? new Map<string, number>())]
      .map(([id, score]) => ({ id, score }))
      .filter((e) => !after || byScore(e, after) > 0)
      .sort(byScore);
    const items: StoredGame[] = [];
    let last: TurnCursor | null = null;
    for (const entry of entries) {
      const game = await this.games.get(entry.id);
      if (!game || !isTurnOf(game, account) || (filter.kind && game.kind !== filter.kind)) continue;
      if (items.length === limit) return { items, next: last };
      items.push(game);
      last = entry;
    }
    return { items, next: null };
  }

  async getVacation(account: string): Promise<StoredVacation | undefined> {
    const json = this.vacations.get(account);
    return json ? (JSON.parse(json) as StoredVacation) : undefined;
  }

  async saveVacation(next: StoredVacation, expectedVersion: number): Promise<boolean> {
    const json = this.vacations.get(next.account);
    const version = json ? (JSON.parse(json) as StoredVacation).version : 0;
    if (version !== expectedVersion) return false;
    this.vacations.set(next.account, JSON.stringify(next));
    return true;
  }
}

/** Accounts and tokens in this process. */
export class MemoryAccountStore implements AccountStore {
  private readonly accounts = new Map<string, string>();
  private readonly tokens = new Map<string, StoredToken>();

  async createAccount(account: StoredAccount, firstToken: StoredToken): Promise<boolean> {
    if (this.accounts.has(account.id)) return false;
    this.accounts.set(account.id, JSON.stringify(account));
    this.tokens.set(firstToken.hash, firstToken);
    return true;
  }

  async getAccount(id: string): Promise<StoredAccount | undefined> {
    const json = this.accounts.get(id);
    return json ? (JSON.parse(json) as StoredAccount) : undefined;
  }

  async saveAccount(account: StoredAccount): Promise<void> {
    if (!this.accounts.has(account.id)) throw new Error(`account ${account.id} does not exist`);
    this.accounts.set(account.id, JSON.stringify(account));
  }

  async addToken(token: StoredToken): Promise<void> {
    this.tokens.set(token.hash, token);
  }

  async tokenByHash(hash: string): Promise<StoredToken | undefined> {
    return this.tokens.get(hash);
  }

  async listTokens(account: string): Promise<StoredToken[]> {
    return [...this.tokens.values()]
      .filter((t) => t.account === account)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async revokeToken(account: string, tokenId: string, at: string): Promise<StoredToken | undefined> {
    for (const token of this.tokens.values()) {
      if (token.account !== account || token.id !== tokenId) continue;
      const revoked = { ...token, revokedAt: token.revokedAt ?? at };
      this.tokens.set(token.hash, revoked);
      return revoked;
    }
    return undefined;
  }
}

/** Challenges in this process; an accepted challenge's game is created in the same step. */
export class MemoryChallengeStore implements ChallengeStore {
  private readonly challenges = new Map<string, string>();

  constructor(
    private readonly games: MemoryGameStore,
    private readonly feed: MemoryEventFeed,
  ) {}

  async createChallenge(challenge: StoredChallenge, notices: readonly Notice[]): Promise<void> {
    if (this.challenges.has(challenge.id)) throw new Error(`challenge ${challenge.id} exists`);
    this.challenges.set(challenge.id, JSON.stringify(challenge));
    this.feed.appendNow(notices);
  }

  async getChallenge(id: string): Promise<StoredChallenge | undefined> {
    const json = this.challenges.get(id);
    return json ? (JSON.parse(json) as StoredChallenge) : undefined;
  }

  async updateChallenge(
    next: StoredChallenge,
    expectedVersion: number,
    effects: { notices: readonly Notice[]; game?: StoredGame },
  ): Promise<ChallengeUpdateResult> {
    const json = this.challenges.get(next.id);
    if (!json) return 'missing';
    if ((JSON.parse(json) as StoredChallenge).version !== expectedVersion) return 'conflict';
    if (effects.game) this.games.insert(effects.game);
    this.challenges.set(next.id, JSON.stringify(next));
    this.feed.appendNow(effects.notices);
    return 'updated';
  }

  async listOpen(account: string): Promise<StoredChallenge[]> {
    return [...this.challenges.values()]
      .map((json) => JSON.parse(json) as StoredChallenge)
      .filter(
        (c) =>
          c.status === 'open' &&
          (c.challenger === account || c.destination === account || (c.players?.includes(account) ?? false)),
      )
      .reverse();
  }

  async dueChallenges(now: string, limit: number): Promise<string[]> {
    return [...this.challenges.values()]
      .map((json) => JSON.parse(json) as StoredChallenge)
      .filter((c) => c.status === 'open' && Date.parse(c.expiresAt) <= Date.parse(now))
      .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt))
      .slice(0, limit)
      .map((c) => c.id);
  }
}

/** Seeks in this process, matched first come, first served within a pool. */
export class MemorySeekStore implements SeekStore {
  private readonly seeks = new Map<string, StoredSeek>();

  async matchOrAdd(seek: StoredSeek, now: string): Promise<StoredSeek | undefined> {
    for (const waiting of this.seeks.values()) {
      if (Date.parse(waiting.expiresAt) <= Date.parse(now)) {
        this.seeks.delete(waiting.id);
        continue;
      }
      if (waiting.pool !== seek.pool || waiting.account === seek.account) continue;
      this.seeks.delete(waiting.id);
      return waiting;
    }
    this.seeks.set(seek.id, seek);
    return undefined;
  }

  async getSeek(id: string): Promise<StoredSeek | undefined> {
    return this.seeks.get(id);
  }

  async removeSeek(id: string): Promise<boolean> {
    return this.seeks.delete(id);
  }
}

/** Per-account feeds in this process, trimmed by age like the Redis streams. */
export class MemoryEventFeed implements EventFeed {
  private readonly feeds = new Map<string, { last: number; events: FeedEvent[] }>();
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  constructor(private readonly retentionMs = FEED_RETENTION_MS) {}

  async append(notices: readonly Notice[]): Promise<void> {
    this.appendNow(notices);
  }

  /** Appends synchronously, so that a store write and its notices are one step. */
  appendNow(notices: readonly Notice[]): void {
    for (const notice of notices) {
      for (const account of new Set(notice.to)) {
        let feed = this.feeds.get(account);
        if (!feed) {
          feed = { last: 0, events: [] };
          this.feeds.set(account, feed);
        }
        const event: FeedEvent = { seq: ++feed.last, type: notice.type, at: notice.at, data: notice.data };
        const cutoff = Date.parse(notice.at) - this.retentionMs;
        while (feed.events.length > 0 && Date.parse((feed.events[0] as FeedEvent).at) < cutoff) {
          feed.events.shift();
        }
        feed.events.push(event);
        const json = JSON.stringify(event);
        setImmediate(() => this.emitter.emit(account, json));
      }
    }
  }

  /** The newest seq of the account's feed (0 when it never had an event), read synchronously. */
  lastSeq(account: string): number {
    return this.feeds.get(account)?.last ?? 0;
  }

  async read(account: string, after: number, limit: number): Promise<FeedPage> {
    const feed = this.feeds.get(account) ?? { last: 0, events: [] };
    const events = feed.events.filter((e) => e.seq > after).slice(0, limit);
    return {
      events: JSON.parse(JSON.stringify(events)) as FeedEvent[],
      last: feed.last,
      first: feed.events[0]?.seq ?? feed.last + 1,
    };
  }

  async subscribe(account: string, listener: (event: FeedEvent) => void): Promise<() => Promise<void>> {
    const handler = (json: string) => listener(JSON.parse(json) as FeedEvent);
    this.emitter.on(account, handler);
    return async () => {
      this.emitter.off(account, handler);
    };
  }
}

/** The embedded storage: games, accounts, challenges, feeds and live updates in this process. */
export function createMemoryStorage(now?: () => number): Storage {
  const events = new MemoryEventBus();
  const feed = new MemoryEventFeed();
  const games = new MemoryGameStore(events, feed, now);
  return {
    name: 'memory',
    games,
    events,
    clocks: new MemoryClockStore(games, feed),
    accounts: new MemoryAccountStore(),
    challenges: new MemoryChallengeStore(games, feed),
    seeks: new MemorySeekStore(),
    feed,
    webhooks: new MemoryWebhookStore((account) => feed.lastSeq(account)),
    limiter: (options) => createLimiter(options),
  };
}

// ---------------------------------------------------------------------------------------------
// Webhooks.

interface MemoryWebhook {
  readonly webhook: string;
  state: string;
  lease: { readonly token: string; readonly until: number } | null;
  logSeq: number;
  log: DeliveryAttempt[];
}

/**
 * Webhook endpoints in this process. Whether an endpoint has work is worked out when claiming
 * (pending retry due, or cursor behind the feed), instead of the due set Redis keeps.
 */
export class MemoryWebhookStore implements WebhookStore {
  private readonly hooks = new Map<string, MemoryWebhook>();

  constructor(
    private readonly lastSeq: (account: string) => number,
    private readonly maxLogLength = DELIVERY_LOG_MAX_LENGTH,
  ) {}

  async createWebhook(webhook: StoredWebhook, max: number): Promise<WebhookState | undefined> {
    if (this.hooks.has(webhook.id)) throw new Error(`webhook ${webhook.id} exists`);
    if (
      [...this.hooks.values()].filter((h) => this.parse(h).webhook.account === webhook.account).length >= max
    ) {
      return undefined;
    }
    const state: WebhookState = { cursor: this.lastSeq(webhook.account), pending: null };
    this.hooks.set(webhook.id, {
      webhook: JSON.stringify(webhook),
      state: JSON.stringify(state),
      lease: null,
      logSeq: 0,
      log: [],
    });
    return state;
  }

  async getWebhook(id: string): Promise<WebhookRecord | undefined> {
    const hook = this.hooks.get(id);
    return hook ? this.parse(hook) : undefined;
  }

  async listWebhooks(account: string): Promise<WebhookRecord[]> {
    return [...this.hooks.values()]
      .map((h) => this.parse(h))
      .filter((r) => r.webhook.account === account)
      .sort(
        (a, b) =>
          a.webhook.createdAt.localeCompare(b.webhook.createdAt) || a.webhook.id.localeCompare(b.webhook.id),
      );
  }

  async deleteWebhook(id: string): Promise<boolean> {
    return this.hooks.delete(id);
  }

  async claimDue(now: string, limit: number, leaseMs: number): Promise<WebhookClaim[]> {
    const nowMs = Date.parse(now);
    const claims: WebhookClaim[] = [];
    const token = randomBytes(12).toString('base64url');
    // No await: the checks and the leases are one step of the event loop.
    for (const hook of this.hooks.values()) {
      if (claims.length >= limit) break;
      if (hook.lease && hook.lease.until > nowMs) continue;
      const record = this.parse(hook);
      const { pending, cursor } = record.state;
      const due = pending
        ? Date.parse(pending.nextAttemptAt) <= nowMs
        : cursor < this.lastSeq(record.webhook.account);
      if (!due) continue;
      hook.lease = { token, until: nowMs + leaseMs };
      claims.push({ ...record, lease: token });
    }
    return claims;
  }

  async release(
    id: string,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
  ): Promise<boolean> {
    const hook = this.hooks.get(id);
    if (!hook || hook.lease?.token !== lease) return false;
    hook.state = JSON.stringify(state);
    hook.lease = null;
    for (const attempt of attempts) this.append(hook, attempt);
    return true;
  }

  async logAttempt(id: string, attempt: NewDeliveryAttempt): Promise<DeliveryAttempt | undefined> {
    const hook = this.hooks.get(id);
    return hook ? this.append(hook, attempt) : undefined;
  }

  async deliveryLog(id: string, limit: number, before?: number): Promise<DeliveryLogPage> {
    const log = this.hooks.get(id)?.log ?? [];
    const older = log.filter((a) => before === undefined || a.n < before).reverse();
    const items = older.slice(0, Math.max(0, limit));
    const last = items[items.length - 1];
    return { items: clone(items), next: older.length > items.length && last ? last.n : null };
  }

  async findDelivery(id: string, deliveryId: string): Promise<DeliveryAttempt | undefined> {
    const log = this.hooks.get(id)?.log ?? [];
    const found = log.findLast((a) => a.deliveryId === deliveryId);
    return found ? clone(found) : undefined;
  }

  private append(hook: MemoryWebhook, attempt: NewDeliveryAttempt): DeliveryAttempt {
    const entry: DeliveryAttempt = { n: ++hook.logSeq, ...clone(attempt) };
    hook.log.push(entry);
    if (hook.log.length > this.maxLogLength) hook.log.splice(0, hook.log.length - this.maxLogLength);
    return clone(entry);
  }

  private parse(hook: MemoryWebhook): WebhookRecord {
    return {
      webhook: JSON.parse(hook.webhook) as StoredWebhook,
      state: JSON.parse(hook.state) as WebhookState,
    };
  }
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
