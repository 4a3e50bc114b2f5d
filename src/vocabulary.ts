// The vocabulary of the API: every closed set a client can see (kinds, statuses, reasons, event
// types, scopes, error codes…) as one `as const` tuple with its type, so that one list drives
// validation, iteration, GraphQL enums, OpenAPI enums and exhaustive switches.
//
// Import rules (eslint.config.js enforces them): this module imports only from src/engines, whose
// sets it re-exports (the engines import nothing outside src/engines); the store ports, the AI, the
// service and the transports import their sets from here; transports take closed sets and domain
// types only from here and from src/service, never from src/store or src/engines.

// --- Defined by the engines (src/engines/types.ts), re-exported --------------------------------

export {
  /** The built-in games (the GameKind type); the hosted ones are kindIds(). */
  GAME_KINDS,
  /** How a finished game ended. */
  OUTCOME_REASONS,
  /** The engines' error codes (the service maps each to a GameErrorCode). */
  ENGINE_ERROR_CODES,
  /** The two seats: 0 moves first in the standard game, 1 is the other. */
  SIDES,
  type GameKind,
  type OutcomeReason,
  type EngineErrorCode,
  type Side,
  type Outcome,
  type Options,
  type BoardView,
} from './engines/types';
/**
 * The hosted kinds (src/engines/kinds.ts, one descriptor each): their ids, which enums and
 * validators are built from when a module loads; the longest move limit (the house rule after which
 * a game ends with reason `move-limit`); the records' own media types.
 */
export { kindIds, longestMoveLimit, recordMediaTypes } from './engines/kinds';
/** How a kind's moves are described and its board drawn (a kind descriptor's `family`). */
export { BOARD_FAMILIES, type BoardFamily } from './engines/kind';

// --- Games ------------------------------------------------------------------------------------

/** A game is being played or is over. */
export const GAME_STATUSES = ['ongoing', 'finished'] as const;
export type GameStatus = (typeof GAME_STATUSES)[number];

/** The clock a game is played on: none, Fischer (initial + increment) or days per move. */
export const TIME_CONTROL_TYPES = ['unlimited', 'realtime', 'correspondence'] as const;
export type TimeControlType = (typeof TIME_CONTROL_TYPES)[number];

/** A perf's speed (the rating pool with the kind): realtime clocks, or correspondence and unlimited. */
export const SPEEDS = ['realtime', 'correspondence'] as const;
export type Speed = (typeof SPEEDS)[number];

/** The lists of an account's own games. */
export const MY_GAMES_FILTERS = ['my-turn', 'ongoing', 'finished', 'all'] as const;
export type MyGamesFilter = (typeof MY_GAMES_FILTERS)[number];

/** The built-in AI's playing strength: 1 plays almost at random, 8 as strongly as its budget allows. */
export const AI_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
export type AiLevel = (typeof AI_LEVELS)[number];

// --- Accounts ---------------------------------------------------------------------------------

/** An account is a person or a bot. */
export const ACCOUNT_KINDS = ['human', 'bot'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/** What an API token may do. */
export const TOKEN_SCOPES = [
  'game:read',
  'game:play',
  'challenge:write',
  'bot:play',
  'challenge:bulk',
] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/**
 * What an app key may do for its app, beside the account scopes it lends to the accounts it acts for
 * (TOKEN_SCOPES): app:accounts provisions and edits its accounts (get-or-create by external id),
 * app:sessions mints session tokens for them, app:webhooks manages the app-wide webhooks and reads the
 * app feed, app:moderate suspends, bans, erases and exports them.
 */
export const APP_SCOPES = ['app:accounts', 'app:sessions', 'app:webhooks', 'app:moderate'] as const;
export type AppScope = (typeof APP_SCOPES)[number];

/** Every scope an app key can hold: the account scopes it acts with, and the app's own. */
export const APP_KEY_SCOPES = [...TOKEN_SCOPES, ...APP_SCOPES] as const;
export type AppKeyScope = (typeof APP_KEY_SCOPES)[number];

/**
 * Where an account stands. active: as ever; suspended: no new games, challenges or seeks (ongoing
 * games go on); banned: every credential refused, streams closed, ongoing games lost by forfeit.
 * (An erased account is gone: its games name a tombstone.)
 */
export const ACCOUNT_STATUSES = ['active', 'suspended', 'banned'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** The leaderboards of each perf: one for humans, one for bots. */
export const LEADERBOARD_CATEGORIES = ['human', 'bot'] as const satisfies readonly AccountKind[];

// --- Games' audience ---------------------------------------------------------------------------

/**
 * Who may read and watch a game. public: anyone, and it may be listed and featured on TV;
 * unlisted: anyone with its id, never listed nor on TV; private: only its seats, its app's key and
 * the spectators the app invites, never listed nor on TV.
 */
export const GAME_VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export type GameVisibility = (typeof GAME_VISIBILITIES)[number];

/**
 * What a rematch request answers (docs/rematch.md): offered (the offer stands), accepted (the new
 * game started), declined (the opponent's offer declined).
 */
export const REMATCH_STATUSES = ['offered', 'accepted', 'declined'] as const;
export type RematchStatus = (typeof REMATCH_STATUSES)[number];

// --- Per-game settings ---------------------------------------------------------------------------

/**
 * Who may chat in a game (its `settings.chat`, chosen at creation). seats (the default): the two
 * players; everyone: the players and every account that may read the game; off: nobody.
 */
export const CHAT_MODES = ['seats', 'everyone', 'off'] as const;
export type ChatMode = (typeof CHAT_MODES)[number];

/**
 * Why a takeback is refused (TAKEBACK_NOT_ALLOWED `reason`): rated (rated games never allow one),
 * forbidden (the game's settings.takeback is false), nothing (the asker has no move to take back),
 * offered (the asker's own offer is pending).
 */
export const TAKEBACK_REFUSALS = ['rated', 'forbidden', 'nothing', 'offered'] as const;
export type TakebackRefusal = (typeof TAKEBACK_REFUSALS)[number];

// --- Challenges and bulk pairings ---------------------------------------------------------------

/** Where a challenge stands. */
export const CHALLENGE_STATUSES = ['open', 'accepted', 'declined', 'canceled', 'expired'] as const;
export type ChallengeStatus = (typeof CHALLENGE_STATUSES)[number];

/** Why a challenge was declined (by its destination, or by the service for a bot). */
export const DECLINE_REASONS = [
  'generic',
  'later',
  'kind',
  'options',
  'timeControl',
  'tooManyGames',
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** Who moves first: the challenger, the destination (direct), the first of `players` (open, listed), or by lot. */
export const CHALLENGE_STARTS = ['challenger', 'destination', 'listed', 'random'] as const;
export type ChallengeStart = (typeof CHALLENGE_STARTS)[number];

/** A seek waits for another account's matching seek, or has been matched into a game. */
export const SEEK_STATUSES = ['waiting', 'matched'] as const;
export type SeekStatus = (typeof SEEK_STATUSES)[number];

/** The live lobby's events (GET /seeks/stream, subscription lobby): a seek listed, a seek gone. */
export const LOBBY_EVENT_TYPES = ['seek.added', 'seek.removed'] as const;
export type LobbyEventType = (typeof LOBBY_EVENT_TYPES)[number];

/** Why a seek left the lobby: paired into a game, withdrawn by its seeker, or past its expiresAt. */
export const SEEK_REMOVAL_REASONS = ['matched', 'canceled', 'expired'] as const;
export type SeekRemovalReason = (typeof SEEK_REMOVAL_REASONS)[number];

/**
 * Where a bulk pairing stands. reserving: its accounts' places are being reserved (by the node that
 * holds its lease); scheduled: every place is reserved, its games are created at `startAt`;
 * creating: its games are being created (by the node that holds its lease); created: every game
 * exists; refused: nothing was created (`reason`); canceled: canceled before it started.
 */
export const BULK_STATES = ['reserving', 'scheduled', 'creating', 'created', 'refused', 'canceled'] as const;
export type BulkState = (typeof BULK_STATES)[number];

// --- Tournaments --------------------------------------------------------------------------------

/** How a tournament pairs its players. */
export const TOURNAMENT_FORMATS = ['round-robin', 'swiss'] as const;
export type TournamentFormat = (typeof TOURNAMENT_FORMATS)[number];

/** open: taking entries; ongoing: rounds being played; finished; cancelled (too few players). */
export const TOURNAMENT_STATUSES = ['open', 'ongoing', 'finished', 'cancelled'] as const;
export type TournamentStatus = (typeof TOURNAMENT_STATUSES)[number];

// --- Feeds and webhooks -------------------------------------------------------------------------

/** The events of an account's feed (streamed, and delivered to its webhooks). */
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
  'rematch.offered',
  'rematch.declined',
  'takeback.offered',
  'takeback.declined',
  'game.taken_back',
  'game.finished',
  'game.deadline_soon',
  'game.updated',
  'tournament.started',
  'tournament.round_started',
  'tournament.finished',
  'tournament.cancelled',
  'rating.updated',
  'chat.message',
] as const;
export type FeedEventType = (typeof FEED_EVENT_TYPES)[number];

/** What became of one webhook delivery attempt. */
export const DELIVERY_OUTCOMES = ['delivered', 'retrying', 'failed', 'skipped'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** Why events were passed over without an attempt. */
export const SKIP_REASONS = ['trimmed', 'epoch'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

// --- Errors -------------------------------------------------------------------------------------

/**
 * Every error code of the API with its HTTP status: GraphQL `extensions.code`, REST
 * `application/problem+json` `code` and `type` (src/service/errors.ts throws them as GameError).
 */
export const GAME_ERROR_CODES = {
  /** The request is malformed: body, id, options, query parameters. */
  INVALID_INPUT: 400,
  /**
   * A name or label holds a control, format or bidi character (Unicode Cc, Cf, Cs, Zl, Zp):
   * `field`, `character` (`U+202E`), `index`.
   */
  INVALID_CHARACTER: 400,
  /** The request body is larger than the server accepts (64 kB). */
  PAYLOAD_TOO_LARGE: 413,
  /** The request body is not application/json (or not in a charset JSON allows). */
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** The `kind` names no game this server hosts. */
  UNKNOWN_GAME_KIND: 400,
  /** A start `position` that does not parse, is impossible, or is already decided (the message says which). */
  INVALID_POSITION: 400,
  /** No credential was given for an action that needs one. */
  UNAUTHENTICATED: 401,
  /** The credential does not hold the seat the action needs, or acts on another account's behalf. */
  FORBIDDEN: 403,
  /** The API token lacks the scope the action needs (`required` lists the scopes that would do). */
  MISSING_SCOPE: 403,
  /** No game has that id. */
  GAME_NOT_FOUND: 404,
  /** No such route or resource. */
  NOT_FOUND: 404,
  /** No account has that username. */
  ACCOUNT_NOT_FOUND: 404,
  /** No challenge has that id. */
  CHALLENGE_NOT_FOUND: 404,
  /** No waiting seek has that id (it may have been matched or have expired). */
  SEEK_NOT_FOUND: 404,
  /** No tournament has that id. */
  TOURNAMENT_NOT_FOUND: 404,
  /** The tournament takes no entries (or departures before the start) any more (`status` says why). */
  TOURNAMENT_CLOSED: 409,
  /** The tournament has its maxPlayers already. */
  TOURNAMENT_FULL: 409,
  /** The account is not a player of the tournament (or has withdrawn already). */
  NOT_IN_TOURNAMENT: 409,
  /** The username is taken. */
  USERNAME_TAKEN: 409,
  /** The username looks like a reserved one once confusable characters are folded (`reserved`). */
  USERNAME_RESERVED: 409,
  /** The challenge is no longer open (`challengeStatus` says whether accepted, declined, canceled or expired). */
  CHALLENGE_CLOSED: 409,
  /** Abort is only possible before both sides have moved. */
  TOO_LATE_TO_ABORT: 409,
  /** The rules allow no draw claim in this position (every draw rule applies automatically). */
  NO_DRAW_CLAIM: 409,
  /** No victory can be claimed: the game has a time control, or it is the claimant's turn. */
  NO_VICTORY_CLAIM: 409,
  /** The opponent has not been away long enough to claim the game (`claimableAt` says from when). */
  CLAIM_TOO_EARLY: 409,
  /** The game has moved on since the version the client expected. */
  VERSION_CONFLICT: 409,
  /** It is the other seat's turn. */
  NOT_YOUR_TURN: 409,
  /** The game is finished; nothing more can be played. */
  GAME_OVER: 409,
  /** No draw offer is pending, or the offer is one's own. */
  NO_DRAW_OFFER: 409,
  /**
   * No rematch of this game (`reason`): `ongoing` (not finished yet), `source` (a tournament or bulk
   * game), `blocked` (one player blocked the other), `declined` (the opponent declined your offer).
   */
  REMATCH_NOT_ALLOWED: 409,
  /** No rematch offer of the opponent stands (none made, one's own, declined, or accepted already). */
  NO_REMATCH_OFFER: 409,
  /**
   * No takeback here (`reason`, one of TAKEBACK_REFUSALS): a rated game, a game whose settings
   * forbid it, no move of the asker's to take back, or the asker's own offer pending.
   */
  TAKEBACK_NOT_ALLOWED: 409,
  /** No takeback offer of the opponent's is pending (a move since cleared it, or there never was one). */
  NO_TAKEBACK_OFFER: 409,
  /** The game ended by timeout (`result`), possibly just now: the deadline passed before the action. */
  TIMEOUT: 409,
  /** The account is on vacation already (`until`); end it first. */
  VACATION_ACTIVE: 409,
  /** More vacation days than the account has left this year (`allowanceDays`, `usedDays`, `remainingDays`). */
  VACATION_ALLOWANCE_EXCEEDED: 409,
  /**
   * A rated game was asked for where none can be: rated games need two accounts and the standard
   * start (no `position`), and games against the built-in AI are casual.
   */
  RATED_NOT_ALLOWED: 422,
  /** The move is not in the game's notation or not legal in this position. */
  ILLEGAL_MOVE: 422,
  /** A shorthand move matches several legal moves (`candidates` lists them). */
  AMBIGUOUS_MOVE: 422,
  /** An idempotency key was reused for a different request. */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** The events after the requested sequence number were trimmed (`first` is the oldest kept). */
  EVENTS_EXPIRED: 410,
  /**
   * The event store came back older than events the client saw (`epoch` is the feed's new epoch;
   * re-read state, then resume with that epoch after `after`).
   */
  FEED_EPOCH_CHANGED: 409,
  /** No webhook endpoint of the caller's account has that id. */
  WEBHOOK_NOT_FOUND: 404,
  /** The endpoint's delivery log holds no delivery with that id (it may have been trimmed). */
  DELIVERY_NOT_FOUND: 404,
  /** The webhook URL is, or resolves to, an address that is not public (`range` says which kind). */
  UNSAFE_WEBHOOK_URL: 400,
  /** The account has as many webhook endpoints as allowed (`max`). */
  TOO_MANY_WEBHOOKS: 409,
  /** A live game stream missed versions (this node lost its connection to the store); watch again. */
  UPDATES_LOST: 503,
  /** The GraphQL operation is over a limit: tokens, depth, cost, aliases (`limit` says which). */
  QUERY_TOO_COMPLEX: 400,
  /** A GraphQL query ran past its time budget or answered more bytes than its budget (`limit`, `max`). */
  QUERY_BUDGET_EXCEEDED: 400,
  /** Too many requests; retry after the given time. */
  RATE_LIMITED: 429,
  /** Too many open GraphQL subscriptions from this IP or account (`scope`, `max`). */
  TOO_MANY_SUBSCRIPTIONS: 429,
  /** Too many open WebSocket connections from this IP or account (`scope`, `max`; close code 4429). */
  TOO_MANY_CONNECTIONS: 429,
  /**
   * Too many open streams (SSE/NDJSON responses and graphql-ws subscriptions together) for this
   * address or account/token (`scope`, `limit`, `retryAfterSeconds`).
   */
  TOO_MANY_STREAMS: 429,
  /**
   * The client address, or the app (`app`), created as many accounts or games today as allowed
   * (`quota`, `limit`, `retryAfterSeconds`).
   */
  QUOTA_EXCEEDED: 429,
  /** An account of the game already has as many ongoing games as allowed (`account`, `max`, `limit`: maxGames or quota). */
  TOO_MANY_GAMES: 409,
  /** The client address already has as many ongoing games against the AI without an account as allowed (`max`). */
  TOO_MANY_AI_GAMES: 409,
  /** The account already has as many active API tokens as allowed (`max`). */
  TOO_MANY_TOKENS: 409,
  /** The account has created as many open or ongoing tournaments as allowed (`max`); one must end first. */
  TOO_MANY_TOURNAMENTS: 409,
  /**
   * The account has as many open challenges as allowed (`max`; `scope`: account, all its open
   * challenges, or pair, those to this one account); one must be answered, canceled or expire first.
   */
  TOO_MANY_CHALLENGES: 409,
  /**
   * The other account blocks the caller: it takes no challenge from it, and the caller cannot accept its
   * open challenges (no details: the answer says no more than that).
   */
  BLOCKED: 403,
  /**
   * The caller's rating in the seek's perf (`rating`) is outside the range the seeker admits (`min`,
   * `max`; either may be null): it cannot take that seek.
   */
  RATING_OUT_OF_RANGE: 403,
  /** The account blocks as many accounts as allowed (`max`); unblock one first. */
  TOO_MANY_BLOCKS: 409,
  /** Revoking this token would leave the account no token that never expires and holds every scope. */
  LAST_ROOT_TOKEN: 409,
  /**
   * An expiring API token asked for a token that would outlive it (`callerExpiresAt`,
   * `maxExpiresInSeconds`): a token expiring at T creates only tokens expiring by T.
   */
  TOKEN_OUTLIVES_CALLER: 403,
  /** Only a root token (never expiring, every scope of the kind; `scopes`) may revoke a root token. */
  ROOT_TOKEN_REQUIRED: 403,
  /** The API token expired (`expiredAt`). */
  TOKEN_EXPIRED: 401,
  /** A request with this Idempotency-Key is still running; retry shortly. */
  IDEMPOTENCY_KEY_IN_USE: 409,
  /** The caller has as many analyses running or waiting as allowed (`max`); retry after Retry-After. */
  TOO_MANY_ANALYSES: 429,
  /** The AI's queue is full (or the node is stopping); retry after Retry-After (`retryAfterSeconds`). */
  AI_BUSY: 503,
  /** No bulk pairing of the caller's has that id. */
  BULK_NOT_FOUND: 404,
  /** The bulk pairing is no longer scheduled (`state`: creating, created, refused, canceled). */
  BULK_NOT_CANCELABLE: 409,
  /** A player's token in a bulk pairing is not a valid API token (`index`, `seat`, `reason`: its error code). */
  BULK_TOKEN_INVALID: 422,
  /** A player's token in a bulk pairing lacks the scope (`index`, `seat`, `required`, `granted`). */
  BULK_TOKEN_SCOPE: 422,
  /** An account is in a bulk pairing twice (`index`, `seat`, `account`, `firstIndex`). */
  BULK_DUPLICATE_ACCOUNT: 422,
  /** No app has that id (operator API), or the caller's app has no such key or session. */
  APP_NOT_FOUND: 404,
  /** The app has no key with that id. */
  APP_KEY_NOT_FOUND: 404,
  /** The session (by id or refresh token) does not exist, was revoked or expired. */
  SESSION_NOT_FOUND: 404,
  /** The refresh token is unknown, used already, revoked or expired (`reason`); sign the user in again. */
  INVALID_REFRESH_TOKEN: 401,
  /** Open sign-up (`POST /accounts`) is off on this server (OPEN_SIGNUP=false): accounts are made by apps. */
  SIGNUP_CLOSED: 403,
  /** The operator API needs the operator key (`Authorization: Bearer <OPERATOR_KEY>`), or is off (no OPERATOR_KEY set). */
  OPERATOR_ONLY: 403,
  /**
   * The account may not do this now (`status`: suspended: no new games, challenges or seeks; banned:
   * nothing), with the app's or operator's `reason` if one was given.
   */
  ACCOUNT_RESTRICTED: 403,
  /** An app key acting for an account needs the account named (`Boardhost-Account: <id>`), one of the app's. */
  ACCOUNT_REQUIRED: 400,
  /** The app has as many keys, webhooks, sessions or accounts as allowed (`what`, `max`). */
  APP_LIMIT_REACHED: 409,
  /**
   * Chat is off for this game: `by` says who turned it off (`server`: CHAT=off, `app`: the app's
   * setting, `game`: the game's chat mode, `spectators`: the game's chat is for its seats only).
   */
  CHAT_DISABLED: 403,
  /** The game store cannot be reached; retry later. */
  STORE_UNAVAILABLE: 503,
  /** A bug: the server failed. */
  INTERNAL: 500,
} as const;

export type GameErrorCode = keyof typeof GAME_ERROR_CODES;
