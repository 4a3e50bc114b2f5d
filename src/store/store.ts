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

/** Live updates of games across every server node. */
export interface GameEventBus {
  /** Calls `listener` with every update of `gameId` from now on; returns the unsubscribe function. */
  subscribe(gameId: string, listener: (game: StoredGame) => void): Promise<() => Promise<void>>;
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
   * `rootScopes` is given and the token is the account's last root token with those scopes.
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
  /** Seeks with equal pools are compatible (kind, canonical options and time control). */
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

/** An event as stored in one account's feed: `seq` counts 1, 2, 3… per account, without gaps. */
export interface FeedEvent {
  readonly seq: number;
  readonly type: FeedEventType;
  readonly at: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface FeedPage {
  readonly events: readonly FeedEvent[];
  /** The newest seq of the feed (0 when it never had an event). */
  readonly last: number;
  /** The oldest seq still kept (events before it were trimmed); last + 1 when nothing is kept. */
  readonly first: number;
}

export interface EventFeed {
  /** Appends each notice to its accounts' feeds (atomically) and publishes them live. */
  append(notices: readonly Notice[]): Promise<void>;
  /** Up to `limit` events with seq > `after`, oldest first. */
  read(account: string, after: number, limit: number): Promise<FeedPage>;
  /** Calls `listener` with each event appended to the account's feed from now on. */
  subscribe(account: string, listener: (event: FeedEvent) => void): Promise<() => Promise<void>>;
}

/** Feed events older than this are trimmed (on append). */
export const FEED_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

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
  consume(key: string): Promise<LimiterVerdict>;
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

export const DELIVERY_OUTCOMES = ['delivered', 'retrying', 'failed'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** One attempt to deliver one event to one endpoint, as the delivery log keeps it. */
export interface DeliveryAttempt {
  /** The attempt's place in the endpoint's log: 1, 2, 3… (the log's cursor). */
  readonly n: number;
  readonly deliveryId: string;
  readonly seq: number;
  readonly type: FeedEventType;
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
   * (the endpoint moves on to its next event; a redelivery that failed is not retried).
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
  /** Appends an attempt made outside the ordered stream (a redelivery); undefined when the endpoint is gone. */
  logAttempt(id: string, attempt: NewDeliveryAttempt): Promise<DeliveryAttempt | undefined>;
  /** The endpoint's log, newest first; `before` is a previous page's `next`. */
  deliveryLog(id: string, limit: number, before?: number): Promise<DeliveryLogPage>;
  /** The newest kept attempt of a delivery, if any. */
  findDelivery(id: string, deliveryId: string): Promise<DeliveryAttempt | undefined>;
}

/** Each endpoint's log keeps about this many newest attempts. */
export const DELIVERY_LOG_MAX_LENGTH = 1000;
