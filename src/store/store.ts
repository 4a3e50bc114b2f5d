import type { GameKind, Options, Outcome, Side } from '../engines/types';

// The ports between the service and storage. Two implementations (memory/, redis/) pass the
// same contract suite (test/store/store-contract.ts).

export const GAME_STATUSES = ['ongoing', 'finished'] as const;
export type GameStatus = (typeof GAME_STATUSES)[number];

export interface MoveRecord {
  readonly ply: number;
  readonly notation: string;
  readonly seat: Side;
  readonly at: string;
  /** Engine facts about the move (captures, sowing trace), JSON. */
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface SeatRecord {
  readonly seat: Side;
  readonly name: string;
  /** The account bound to the seat; null while seats are held by seat tokens only. */
  readonly account: string | null;
  /** Correspondence: the end of the seat account's vacation in progress at the last write (pauses its clock). */
  readonly vacationUntil?: string | null;
}

/** The stored game: one self-describing JSON document (see DESIGN.md). */
export interface StoredGame {
  readonly id: string;
  readonly kind: GameKind;
  readonly rulesVersion: string;
  readonly options: Options;
  /** The seat that moved first. */
  readonly first: Side;
  /**
   * A game from a position: the position it started from (canonical notation); absent for the
   * standard start. Replays start from it. Such a game is never rated.
   */
  readonly initialPosition?: string;
  readonly seats: readonly SeatRecord[];
  /** sha256 of each seat's secret token (never leaves the service). */
  readonly seatTokenHashes: readonly [string, string];
  readonly status: GameStatus;
  readonly outcome: Outcome | null;
  readonly ply: number;
  readonly version: number;
  /** The seat to move, or null once the game is over. */
  readonly toMove: Side | null;
  readonly position: string;
  readonly legalMoves: readonly string[];
  readonly moves: readonly MoveRecord[];
  /** A pending draw offer by that seat. */
  readonly drawOffer: Side | null;
  /** Chosen at creation; absent on documents written before time controls existed (= unlimited). */
  readonly timeControl?: TimeControl;
  /** Realtime games: both clocks (absent or null otherwise). */
  readonly clock?: GameClock | null;
  /** When the side to move runs out of time (ISO); null without a time limit or once over. */
  readonly deadlineAt?: string | null;
  /** Correspondence: when the side to move gets `game.deadline_soon` (ISO); null otherwise. */
  readonly reminderAt?: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface GameFilter {
  readonly kind?: GameKind;
  readonly status?: GameStatus;
  /** Only games with a seat bound to this account id. */
  readonly account?: string;
}

/**
 * Listings are indexed by every combination of their filters, so that a page costs O(page), not
 * O(games). The index a filter reads (both stores name them alike; Redis prefixes them):
 * `games:all`, or `games` followed by `:account:<a>`, `:kind:<k>`, `:status:<s>` for each filter
 * given, in that order.
 */
export function listingIndex(filter: GameFilter): string {
  let key = 'games';
  if (filter.account !== undefined) key += `:account:${filter.account}`;
  if (filter.kind !== undefined) key += `:kind:${filter.kind}`;
  if (filter.status !== undefined) key += `:status:${filter.status}`;
  return key === 'games' ? 'games:all' : key;
}

/** The accounts seated in a game (each once), as the listings index them. */
export function seatedAccounts(game: StoredGame): string[] {
  return [...new Set(game.seats.flatMap((s) => (s.account === null ? [] : [s.account])))];
}

/**
 * Every listing index a game is in: one per combination of (any or its seat account) × (any or
 * its kind) × (any or its status).
 */
export function listingIndexesOf(game: StoredGame): string[] {
  return listingBasesOf(game).flatMap((base) => [
    base.any,
    listingIndex({ ...base.filter, status: game.status }),
  ]);
}

/**
 * The filters (without status) a game is listed under: `any` is the index of the filter alone,
 * and the game's entry in `filter` + each status moves when its status changes.
 */
export function listingBasesOf(game: StoredGame): Array<{ filter: GameFilter; any: string }> {
  const filters: GameFilter[] = [];
  for (const account of [undefined, ...seatedAccounts(game)]) {
    for (const kind of [undefined, game.kind]) {
      filters.push({
        ...(account === undefined ? {} : { account }),
        ...(kind === undefined ? {} : { kind }),
      });
    }
  }
  return filters.map((filter) => ({ filter, any: listingIndex(filter) }));
}

export interface GamePage {
  readonly items: readonly StoredGame[];
  /** Pass back as `before` for the next page; null on the last page. */
  readonly next: number | null;
}

/** What a write remembers under its idempotency key: the request it was and the answer it gave. */
export interface IdempotencyRecord {
  readonly fingerprint: string;
  readonly response: StoredGame;
}

export type UpdateResult =
  | { readonly status: 'updated' }
  | { readonly status: 'conflict'; readonly currentVersion: number }
  | { readonly status: 'replayed'; readonly record: IdempotencyRecord }
  | { readonly status: 'missing' };

/** A cap on an account's ongoing games, checked in the same atomic step as the write that starts a game. */
export interface GameLimit {
  readonly account: string;
  /** The game is refused when the account already has this many ongoing games. */
  readonly max: number;
}

export type CreateResult =
  | { readonly status: 'created' }
  /** `account` already had its `max` ongoing games: nothing was written. */
  | { readonly status: 'too-many-games'; readonly account: string };

export interface GameStore {
  /**
   * Store a new game (its id must be new) and append `notices` to the feeds, atomically; refused
   * (nothing written) when an account of `limits` already has its maximum of ongoing games.
   */
  create(game: StoredGame, notices?: readonly Notice[], limits?: readonly GameLimit[]): Promise<CreateResult>;
  /** How many ongoing games have a seat bound to `account` (what limits count). */
  countOngoing(account: string): Promise<number>;
  get(id: string): Promise<StoredGame | undefined>;
  /** Newest first; `before` is a previous page's `next` (games are numbered as they are created). */
  list(filter: GameFilter, limit: number, before?: number): Promise<GamePage>;
  /**
   * Atomically: if `idempotencyKey` already has a record, return it (`replayed`); else if the stored
   * version is not `expectedVersion`, `conflict`; else write `next`, remember the idempotency record
   * for 24 h, append `notices` to the account feeds, and publish `next` to the game's subscribers.
   * A replay or a conflict appends nothing.
   */
  update(
    next: StoredGame,
    expectedVersion: number,
    idempotency?: { readonly key: string; readonly fingerprint: string },
    notices?: readonly Notice[],
  ): Promise<UpdateResult>;
  /** The record kept for a game's idempotency key, if any. */
  idempotencyRecord(gameId: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Resolves when the store answers; rejects when it cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Live updates of games, and revocations of API tokens, across every server node. Delivery is
 * best effort: when a node's connection to the bus drops, what is published until it is back is
 * lost. So each subscription takes an `onResync`, called once the connection is back (and
 * subscribed again), for the subscriber to compare what it has with the store. Its `flush`
 * resolves once everything published before the call has reached the listener (so that what the
 * store showed a moment earlier and is still on its way is not taken for lost).
 */
export interface GameEventBus {
  /**
   * Calls `listener` with every update of `gameId` from now on; returns the unsubscribe function.
   * Each listener parses its own copy (the service keeps one subscription per game per node).
   */
  subscribe(
    gameId: string,
    listener: (game: StoredGame) => void,
    onResync?: (flush: () => Promise<void>) => void,
  ): Promise<() => Promise<void>>;
  /** Calls `listener` with the hash of each API token revoked from now on, on any node. */
  subscribeRevocations(
    listener: (tokenHash: string) => void,
    onResync?: () => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface Storage {
  readonly games: GameStore;
  readonly events: GameEventBus;
  /** Deadlines, reminders, my-turn lists and vacations (see "Clocks" below). */
  readonly clocks: ClockStore;
  readonly accounts: AccountStore;
  readonly challenges: ChallengeStore;
  readonly seeks: SeekStore;
  readonly feed: EventFeed;
  readonly webhooks: WebhookStore;
  /** Idempotency records of creates (games, challenges, seeks, tokens, accounts). */
  readonly idempotency: IdempotencyStore;
  /** A fixed-window rate limiter shared by every node using this storage. */
  limiter(options: LimiterOptions): RateLimiter;
  /** 'memory' or 'redis', for /readyz and logs. */
  readonly name: string;
}

/** Idempotency records live this long. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

// ---------------------------------------------------------------------------------------------
// Idempotency of creates: the first request with a key claims it, runs, and stores its answer;
// a retry meanwhile sees the claim pending, and afterwards the answer.

export type IdempotencyClaim =
  /** The key was free: the caller runs the create, then completes (or releases) the claim. */
  | { readonly status: 'claimed' }
  /** Another request holds the key and has not answered yet. */
  | { readonly status: 'pending'; readonly fingerprint: string }
  /** The key's first request answered `response`. */
  | { readonly status: 'done'; readonly fingerprint: string; readonly response: string };

export interface IdempotencyStore {
  /** Atomically: the record under `key` if there is one; else a pending one with `fingerprint` for `pendingMs`. */
  claim(key: string, fingerprint: string, pendingMs: number): Promise<IdempotencyClaim>;
  /** Stores the answer under a claimed key, kept `ttlSeconds`. */
  complete(key: string, fingerprint: string, response: string, ttlSeconds: number): Promise<void>;
  /** Drops a claim still pending (its create failed), so that a retry runs again. */
  release(key: string): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Time controls (chosen in a challenge or seek; stored with the game).

export const TIME_CONTROL_TYPES = ['unlimited', 'realtime', 'correspondence'] as const;
export type TimeControlType = (typeof TIME_CONTROL_TYPES)[number];

export type TimeControl =
  | { readonly type: 'unlimited' }
  /** Fischer: initial time plus an increment per move. */
  | { readonly type: 'realtime'; readonly initialSeconds: number; readonly incrementSeconds: number }
  | { readonly type: 'correspondence'; readonly daysPerMove: number };

// ---------------------------------------------------------------------------------------------
// Clocks: deadlines, reminders, my-turn lists and vacations.
//
// The game store keeps these indexes in step with every game write (create, update, and a game
// created by a challenge), in the same atomic step, from the fields of the document alone
// (clockIndexOf). A ClockStore reads and claims them.

/** A realtime game's clocks. The running side's time counts down from `runningSince`. */
export interface GameClock {
  /** Milliseconds left per seat as of `runningSince` (the last move, or the start). */
  readonly remainingMs: readonly [number, number];
  /** When the clock of the side to move started; null once the game is over. */
  readonly runningSince: string | null;
}

/** One vacation of an account: its correspondence clocks stand still from `from` to `until`. */
export interface VacationWindow {
  readonly from: string;
  readonly until: string;
}

/** An account's vacation allowance and its recent vacations. */
export interface StoredVacation {
  readonly account: string;
  /** 1, 2, 3… per save (compare-and-set). */
  readonly version: number;
  /** The calendar year (UTC) `usedDays` counts for. */
  readonly year: number;
  readonly usedDays: number;
  /** Oldest first, never overlapping; old ones are dropped. */
  readonly windows: readonly VacationWindow[];
}

/** Position in the my-turn list: its sort score and the game id (ties ordered by id). */
export interface TurnCursor {
  readonly score: number;
  readonly id: string;
}

export interface TurnPage {
  readonly items: readonly StoredGame[];
  /** Pass back as `after` for the next page; null on the last page. */
  readonly next: TurnCursor | null;
}

export interface ClockStore {
  /**
   * Atomically: the ids of up to `limit` games whose deadline is at or before `now` (epoch ms),
   * earliest first, each hidden from further claims until `leaseUntil` (epoch ms). Any write of
   * the game sets its entry anew; a claimer that dies lets the lease run out and another retries.
   */
  claimDeadlines(now: number, limit: number, leaseUntil: number): Promise<string[]>;
  /** As claimDeadlines, for the reminder times of correspondence games. */
  claimReminders(now: number, limit: number, leaseUntil: number): Promise<string[]>;
  /** The earliest deadline or reminder time indexed (epoch ms), or null when there is none. */
  nextDue(): Promise<number | null>;
  /**
   * Atomically and at most once per turn: if the game is still at `turn` (clockIndexOf; never
   * OVER) and no reminder was recorded for that turn, record it, drop the game's reminder entry and append
   * `notices`. False (and nothing appended) otherwise.
   */
  markReminded(gameId: string, turn: string, notices: readonly Notice[]): Promise<boolean>;
  /**
   * Ongoing games where `account` is to move, by score (the deadline in epoch ms; games without a
   * deadline after all others, oldest turn first), ties by id; after `after` (keyset), filtered by
   * kind. Each document is re-checked against the index.
   */
  listTurn(
    account: string,
    filter: { readonly kind?: GameKind },
    limit: number,
    after?: TurnCursor,
  ): Promise<TurnPage>;
  getVacation(account: string): Promise<StoredVacation | undefined>;
  /** Compare-and-set: stores `next` if the stored version is `expectedVersion` (0: none stored yet). */
  saveVacation(next: StoredVacation, expectedVersion: number): Promise<boolean>;
}

/** The turn of a finished game (clockIndexOf): never reminded. */
export const OVER = 'over';

/** My-turn scores of games without a deadline: this plus when the turn began (epoch ms). */
export const NO_DEADLINE_SCORE = 1e15;

/** What the clock indexes hold for one game document. */
export interface ClockIndex {
  /** Epoch ms of the deadline (null: none). */
  readonly deadline: number | null;
  /** Epoch ms of the reminder (null: none). */
  readonly reminder: number | null;
  /** The turn the game is at: the ply while ongoing, 'over' once finished (reminders: once per turn). */
  readonly turn: string;
  /** Every account seated in the game. */
  readonly accounts: readonly string[];
  /** The account to move (my-turn list), or null. */
  readonly mover: string | null;
  readonly moverScore: number;
}

/** True while `account` holds the seat to move in the ongoing `game`. */
export function isTurnOf(game: StoredGame, account: string): boolean {
  return game.status === 'ongoing' && game.toMove !== null && game.seats[game.toMove]?.account === account;
}

/** The index entries of a game, from its document alone. */
export function clockIndexOf(game: StoredGame): ClockIndex {
  const ongoing = game.status === 'ongoing';
  const deadline = ongoing && game.deadlineAt ? Date.parse(game.deadlineAt) : null;
  const reminder = ongoing && game.reminderAt ? Date.parse(game.reminderAt) : null;
  const accounts = [...new Set(game.seats.flatMap((s) => (s.account === null ? [] : [s.account])))];
  const mover = ongoing && game.toMove !== null ? (game.seats[game.toMove]?.account ?? null) : null;
  const turnStart = Date.parse(game.moves[game.moves.length - 1]?.at ?? game.createdAt);
  return {
    deadline: Number.isFinite(deadline) ? deadline : null,
    reminder: Number.isFinite(reminder) ? reminder : null,
    turn: ongoing ? String(game.ply) : OVER,
    accounts,
    mover,
    moverScore: deadline !== null && Number.isFinite(deadline) ? deadline : NO_DEADLINE_SCORE + turnStart,
  };
}

// ---------------------------------------------------------------------------------------------
// Accounts and personal API tokens.

export const ACCOUNT_KINDS = ['human', 'bot'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export const TOKEN_SCOPES = ['game:read', 'game:play', 'challenge:write', 'bot:play'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** What a bot account accepts; the service declines other challenges on its behalf. */
export interface BotPolicy {
  readonly kinds: readonly GameKind[];
  readonly timeControls: readonly TimeControlType[];
  /** Per kind, per option name: the values accepted (an option not listed accepts any value). */
  readonly options: Readonly<Partial<Record<GameKind, Readonly<Record<string, readonly unknown[]>>>>>;
  /** Ongoing games at most; more challenges are declined with reason `tooManyGames`. */
  readonly maxGames: number;
}

export interface StoredAccount {
  /** The username in lower case: unique, and what seats and feeds refer to. */
  readonly id: string;
  readonly username: string;
  readonly kind: AccountKind;
  /** Bots only: what the bot accepts; null accepts every challenge. */
  readonly bot: BotPolicy | null;
  readonly createdAt: string;
}

export interface StoredToken {
  /** Public id (for listing and revoking); not the secret. */
  readonly id: string;
  readonly account: string;
  /** sha256 of the secret token. */
  readonly hash: string;
  readonly scopes: readonly TokenScope[];
  readonly label: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
  /** When the token stops working (ISO); absent or null: never. */
  readonly expiresAt?: string | null;
  /** About when the token last authenticated a request (updated at most once a minute); absent: never. */
  readonly lastUsedAt?: string;
}

/**
 * A token that keeps an account usable: not revoked, never expiring, holding every one of `scopes`
 * (the scopes of the account's kind). An account's last such token cannot be revoked.
 */
export function isRootToken(token: StoredToken, scopes: readonly TokenScope[]): boolean {
  return (
    token.revokedAt === null && !token.expiresAt && scopes.every((scope) => token.scopes.includes(scope))
  );
}

export type RevokeResult =
  | { readonly status: 'revoked'; readonly token: StoredToken }
  /** No token with that id on the account. */
  | { readonly status: 'missing' }
  /** The token is the account's last root token (isRootToken): nothing changed. */
  | { readonly status: 'last-root'; readonly token: StoredToken };

export interface AccountStore {
  /** Stores a new account; false when its id (lower-case username) is taken. */
  createAccount(account: StoredAccount, firstToken: StoredToken): Promise<boolean>;
  getAccount(id: string): Promise<StoredAccount | undefined>;
  /** Overwrites an existing account (the bot policy is the only thing that changes). */
  saveAccount(account: StoredAccount): Promise<void>;
  addToken(token: StoredToken): Promise<void>;
  /** The token with this hash, revoked ones included (so callers can say "revoked"). */
  tokenByHash(hash: string): Promise<StoredToken | undefined>;
  /** The account's tokens, oldest first, revoked ones included. */
  listTokens(account: string): Promise<StoredToken[]>;
  /**
   * Marks the token revoked (a revoked one keeps its first time), atomically refusing when
   * `rootScopes` is given and the token is the account's last root token with those scopes; in the
   * same step it publishes the token's hash on the event bus (every node's `subscribeRevocations`).
   * A token revoked before is returned as it is, and not published again.
   */
  revokeToken(
    account: string,
    tokenId: string,
    at: string,
    rootScopes?: readonly TokenScope[],
  ): Promise<RevokeResult>;
  /** Records that the token authenticated a request at `at` (lastUsedAt); cheap, last write wins. */
  touchToken(hash: string, at: string): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Challenges.

export const CHALLENGE_STATUSES = ['open', 'accepted', 'declined', 'canceled', 'expired'] as const;
export type ChallengeStatus = (typeof CHALLENGE_STATUSES)[number];

export const DECLINE_REASONS = [
  'generic',
  'later',
  'kind',
  'options',
  'timeControl',
  'tooManyGames',
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

export interface StoredChallenge {
  readonly id: string;
  readonly version: number;
  readonly status: ChallengeStatus;
  readonly kind: GameKind;
  readonly options: Options;
  readonly timeControl: TimeControl;
  /** A challenge to a game from a position: the position (canonical notation); absent: the standard start. */
  readonly initialPosition?: string;
  /** The account that made the challenge. */
  readonly challenger: string;
  /** Direct challenges: the challenged account. Null for open challenges. */
  readonly destination: string | null;
  /** Open challenges limited to a named pair; null when anyone with the link may accept. */
  readonly players: readonly [string, string] | null;
  /** Who moves first: for direct challenges 'challenger' | 'destination'; 'listed' (open) = players[0]. */
  readonly starts: 'challenger' | 'destination' | 'listed' | 'random';
  /** Accounts that accepted, in order (an open challenge needs two). */
  readonly accepted: readonly string[];
  readonly declineReason: DeclineReason | null;
  /** Who declined or canceled. */
  readonly closedBy: string | null;
  /** The game the challenge became. */
  readonly gameId: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly expiresAt: string;
}

export type ChallengeUpdateResult =
  | 'updated'
  | 'conflict'
  | 'missing'
  /** The game would start while `tooManyGames` has its maximum of ongoing games: nothing written. */
  | { readonly tooManyGames: string };

export interface ChallengeStore {
  /** Stores a new challenge and appends `notices`, atomically. */
  createChallenge(challenge: StoredChallenge, notices: readonly Notice[]): Promise<void>;
  getChallenge(id: string): Promise<StoredChallenge | undefined>;
  /**
   * Compare-and-set on `version`: if the stored version is `expectedVersion`, write `next`, create
   * `game` (when given; the challenge became it) and append `notices`, all atomically. With a
   * game, `limits` are checked in the same step (tooManyGames, nothing written).
   */
  updateChallenge(
    next: StoredChallenge,
    expectedVersion: number,
    effects: {
      readonly notices: readonly Notice[];
      readonly game?: StoredGame;
      readonly limits?: readonly GameLimit[];
    },
  ): Promise<ChallengeUpdateResult>;
  /** Open challenges that involve `account` (challenger, destination or named player), newest first. */
  listOpen(account: string): Promise<StoredChallenge[]>;
  /** Ids of open challenges whose expiresAt is at or before `now` (ISO), oldest first. */
  dueChallenges(now: string, limit: number): Promise<string[]>;
}

// ---------------------------------------------------------------------------------------------
// Seeks: two compatible seeks (same `pool`) make a game.

export interface StoredSeek {
  readonly id: string;
  readonly account: string;
  readonly kind: GameKind;
  readonly options: Options;
  readonly timeControl: TimeControl;
  /** A seek for a game from a position: the position (canonical notation); absent: the standard start. */
  readonly initialPosition?: string;
  /** Seeks with equal pools are compatible (kind, canonical options, time control and start position). */
  readonly pool: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface SeekStore {
  /**
   * Atomically: remove and return the oldest unexpired seek in `seek.pool` by another account;
   * if there is none, store `seek` and return undefined. Expired seeks met on the way are dropped.
   */
  matchOrAdd(seek: StoredSeek, now: string): Promise<StoredSeek | undefined>;
  getSeek(id: string): Promise<StoredSeek | undefined>;
  /** Removes a waiting seek; false when it is not waiting (matched, expired or never existed). */
  removeSeek(id: string): Promise<boolean>;
}

// ---------------------------------------------------------------------------------------------
// One event feed per account: ordered, numbered, resumable.

export const FEED_EVENT_TYPES = [
  'challenge.received',
  'challenge.accepted',
  'challenge.declined',
  'challenge.canceled',
  'challenge.expired',
  'game.started',
  'game.moved',
  'draw.offered',
  'draw.declined',
  'game.finished',
  'game.deadline_soon',
  'game.updated',
] as const;
export type FeedEventType = (typeof FEED_EVENT_TYPES)[number];

/** An event to append to the feed of each account in `to`. */
export interface Notice {
  readonly to: readonly string[];
  readonly type: FeedEventType;
  /** ISO time of the event; also the clock for trimming old events. */
  readonly at: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * An event as stored in one account's feed: `seq` counts 1, 2, 3… per account, without gaps.
 * `epoch` is the feed's epoch when the event was written: (epoch, seq) names one event for good.
 */
export interface FeedEvent {
  readonly seq: number;
  readonly epoch: string;
  readonly type: FeedEventType;
  readonly at: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * A feed's epoch. A feed begins a new epoch when the Redis serving it is not the one that last
 * touched it (restarted, restored from a backup, failed over to a replica): writes may have been
 * lost, so seqs after `since` may be reused for other events. Each epoch begins at the feed's newest
 * seq then (`since`); the events up to it are those of the earlier epoch, unchanged.
 */
export interface FeedEpoch {
  /** A random id, never reused within a feed. */
  readonly id: string;
  /** The newest seq of the feed when the epoch began. */
  readonly since: number;
}

export interface FeedPage {
  readonly events: readonly FeedEvent[];
  /** The newest seq of the feed (0 when it never had an event). */
  readonly last: number;
  /** The oldest seq still kept (events before it were trimmed); last + 1 when nothing is kept. */
  readonly first: number;
  /** The feed's current epoch. */
  readonly epoch: string;
  /** The current epoch and those before it, newest first (a few kept). */
  readonly epochs: readonly FeedEpoch[];
}

/**
 * The newest seq up to which a reader that follows the feed in `epoch` saw the same events as the
 * feed holds now: no limit (MAX_SAFE_INTEGER) in the current epoch; for an earlier one, the least
 * `since` of the epochs that began after it (the events after that were lost); for an epoch the
 * feed does not remember, the least `since` it remembers.
 */
export function sharedUpTo(epochs: readonly FeedEpoch[], epoch: string): number {
  let shared = Number.MAX_SAFE_INTEGER;
  for (const e of epochs) {
    if (e.id === epoch) return shared;
    shared = Math.min(shared, e.since);
  }
  return shared === Number.MAX_SAFE_INTEGER ? 0 : shared;
}

export interface EventFeed {
  /** Appends each notice to its accounts' feeds (atomically) and publishes them live. */
  append(notices: readonly Notice[]): Promise<void>;
  /**
   * Up to `limit` events with seq > `after`, oldest first, with the feed's bounds and epochs. A read
   * may begin a new epoch (see FeedEpoch), like an append.
   */
  read(account: string, after: number, limit: number): Promise<FeedPage>;
  /** Calls `listener` with each event appended to the account's feed from now on. */
  subscribe(account: string, listener: (event: FeedEvent) => void): Promise<() => Promise<void>>;
}

/**
 * Feed events older than this are trimmed (on append), by age only. The default (21 days) outlasts
 * the longest correspondence period (14 days per move) with a week to spare; FEED_RETENTION_DAYS.
 */
export const FEED_RETENTION_MS = 21 * 24 * 60 * 60 * 1000;

/** Feed settings of a storage. */
export interface FeedOptions {
  /** How long events are kept (default FEED_RETENTION_MS). */
  readonly retentionMs?: number;
}

// ---------------------------------------------------------------------------------------------
// Rate limiting.

export interface LimiterOptions {
  /** Separates limiters that share a store (e.g. 'token', 'ip'). */
  readonly name: string;
  readonly points: number;
  readonly windowSeconds: number;
}

export interface LimiterVerdict {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Milliseconds until the window resets. */
  readonly resetMs: number;
}

export interface RateLimiter {
  readonly options: LimiterOptions;
  /** Takes `points` (default 1) from the key's window; refused when fewer are left. */
  consume(key: string, points?: number): Promise<LimiterVerdict>;
}

// ---------------------------------------------------------------------------------------------
// Webhooks: each endpoint follows its account's feed with a cursor (the feed is the outbox).

export interface StoredWebhook {
  readonly id: string;
  readonly account: string;
  readonly url: string;
  /** The event types delivered; null: every type. */
  readonly events: readonly FeedEventType[] | null;
  /** The signing secret as given or generated: kept as is, because signing needs it. */
  readonly secret: string;
  /** The id of the API token that registered the endpoint. */
  readonly createdBy: string;
  readonly createdAt: string;
}

/** The event an endpoint is retrying (its attempts so far failed). */
export interface PendingDelivery {
  readonly seq: number;
  /** One per event and endpoint: retries and redeliveries of the event keep it. */
  readonly deliveryId: string;
  readonly attempts: number;
  /** ISO time of the next attempt. */
  readonly nextAttemptAt: string;
}

export interface WebhookState {
  /** The newest seq of the account's feed the endpoint is done with (delivered, filtered out or given up). */
  readonly cursor: number;
  /** The feed epoch `cursor` belongs to (null: stored before epochs, taken as the current one). */
  readonly epoch: string | null;
  readonly pending: PendingDelivery | null;
}

export interface WebhookRecord {
  readonly webhook: StoredWebhook;
  readonly state: WebhookState;
}

/** An endpoint claimed for delivery: no other claim gets it until `release` or the lease ends. */
export interface WebhookClaim extends WebhookRecord {
  /** Proves the claim to `release`. */
  readonly lease: string;
}

export const DELIVERY_OUTCOMES = ['delivered', 'retrying', 'failed', 'skipped'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** Why events were passed over without an attempt. */
export const SKIP_REASONS = ['trimmed', 'epoch'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * One attempt to deliver one event to one endpoint, as the delivery log keeps it; or (outcome
 * `skipped`) events passed over without one: seqs `seq`…`lastSeq`, for `reason`.
 */
export interface DeliveryAttempt {
  /** The attempt's place in the endpoint's log: 1, 2, 3… (the log's cursor). */
  readonly n: number;
  readonly deliveryId: string;
  readonly seq: number;
  /** The epoch of the event (null in entries written before epochs). */
  readonly epoch: string | null;
  /** Skipped entries: the last seq passed over (null otherwise, and when unknown). */
  readonly lastSeq: number | null;
  /** Skipped entries: why (null otherwise). */
  readonly reason: SkipReason | null;
  /** The event type; null for skipped entries. */
  readonly type: FeedEventType | null;
  /** 1, 2, 3… within the delivery (a redelivery continues the count). */
  readonly attempt: number;
  /** ISO time the attempt started. */
  readonly at: string;
  readonly durationMs: number;
  /** The receiver's HTTP status; null when no answer came (refused, timed out, unsafe address). */
  readonly statusCode: number | null;
  readonly error: string | null;
  /**
   * delivered: a 2xx; retrying: failed, `nextAttemptAt` says when again; failed: failed and given up
   * (the endpoint moves on to its next event; a redelivery that failed is not retried); skipped:
   * events passed over without an attempt (trimmed from the feed, or lost to an epoch change).
   */
  readonly outcome: DeliveryOutcome;
  readonly nextAttemptAt: string | null;
  /** A redelivery asked for by the account, outside the ordered stream. */
  readonly redelivery: boolean;
}

export type NewDeliveryAttempt = Omit<DeliveryAttempt, 'n'>;

export interface DeliveryLogPage {
  /** Newest first. */
  readonly items: readonly DeliveryAttempt[];
  /** Pass back as `before` for the next (older) page; null on the last page. */
  readonly next: number | null;
}

export interface WebhookStore {
  /**
   * Stores a new endpoint whose cursor is its account's newest feed seq (read in the same step), so
   * it gets the events after its creation. Undefined (nothing stored) when the account already has
   * `max` endpoints.
   */
  createWebhook(webhook: StoredWebhook, max: number): Promise<WebhookState | undefined>;
  getWebhook(id: string): Promise<WebhookRecord | undefined>;
  /** The account's endpoints, oldest first. */
  listWebhooks(account: string): Promise<WebhookRecord[]>;
  /** Removes the endpoint, its state and its log; false when there was none. */
  deleteWebhook(id: string): Promise<boolean>;
  /**
   * Atomically claims up to `limit` endpoints with work due at `now` (ISO): a pending delivery whose
   * next attempt is due, or a cursor behind the account's feed. Each claim holds a lease for
   * `leaseMs`; two claims never hold one endpoint at once, and an endpoint whose lease ran out (its
   * claimer died) can be claimed again.
   */
  claimDue(now: string, limit: number, leaseMs: number): Promise<WebhookClaim[]>;
  /**
   * Ends a claim: saves `state`, appends `attempts` to the log, and makes the endpoint due again
   * when it has work (a pending delivery at its next attempt, or a cursor behind the feed at
   * `now`). False, saving nothing, when the lease is not the endpoint's current one (it ran out and
   * another claim took over) or the endpoint was deleted.
   */
  release(
    id: string,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
    now: string,
  ): Promise<boolean>;
  /**
   * Saves progress during a claim without ending it: `state` and `attempts` as `release` does, and
   * the lease (and the endpoint's due time, should the claimer die) extended to `now` + `leaseMs`.
   * False, saving nothing, when the lease is no longer the endpoint's.
   */
  checkpoint(
    id: string,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
    now: string,
    leaseMs: number,
  ): Promise<boolean>;
  /** Appends an attempt made outside the ordered stream (a redelivery); undefined when the endpoint is gone. */
  logAttempt(id: string, attempt: NewDeliveryAttempt): Promise<DeliveryAttempt | undefined>;
  /** The endpoint's log, newest first; `before` is a previous page's `next`. */
  deliveryLog(id: string, limit: number, before?: number): Promise<DeliveryLogPage>;
  /** The newest kept attempt of a delivery, if any. */
  findDelivery(id: string, deliveryId: string): Promise<DeliveryAttempt | undefined>;
}

/** Each endpoint's log keeps about this many newest attempts. */
export const DELIVERY_LOG_MAX_LENGTH = 1000;
