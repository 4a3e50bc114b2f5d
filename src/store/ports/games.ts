import type { MoveDetails } from '../../engines/move-details';
import type { GameKind, Options, Outcome, Side } from '../../engines/types';
import type { ClockIndex, GameClock } from './clocks';
import type { Notice } from './feed';
import type { RatingResult } from './ratings';
import type { TimeControl } from './time-control';
import type { GameStatus, GameVisibility } from '../../vocabulary';
import { OPEN_APP } from './apps';
export { GAME_STATUSES, type GameStatus } from '../../vocabulary';

export interface MoveRecord {
  readonly ply: number;
  readonly notation: string;
  readonly seat: Side;
  readonly at: string;
  /** Engine facts about the move (captures, sowing trace), JSON. */
  readonly details?: StoredMoveDetails;
}

/**
 * A move's details as stored: tagged with their board family, or, stored before they carried the
 * tag, the same facts without it (the service adds it when it builds the view).
 */
export type StoredMoveDetails = MoveDetails | DistributiveOmit<MoveDetails, 'family'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface SeatRecord {
  readonly seat: Side;
  readonly name: string;
  /** The account bound to the seat; null while seats are held by seat tokens only. */
  readonly account: string | null;
  /** Correspondence: the end of the seat account's vacation in progress at the last write (pauses its clock). */
  readonly vacationUntil?: string | null;
  /** Rated games: the seat account's rating in the game's perf (kind + speed) when the game began. */
  readonly rating?: number;
  /** Rated games: that rating was provisional (RD ≥ 110) when the game began. */
  readonly provisional?: boolean;
}

/** What made a game other than a player: a tournament's pairing (with its round) or a bulk pairing. */
export interface GameSource {
  readonly type: 'tournament' | 'bulk';
  readonly id: string;
  readonly round?: number;
}

/**
 * A finished game's rematch: the seat whose offer stands, the seat that declined the last offer, and
 * the new game once accepted (its id derives from the finished game's: service/game/rematch.ts).
 */
export interface RematchRecord {
  readonly offeredBy: Side | null;
  readonly declinedBy: Side | null;
  readonly game: string | null;
}

/**
 * A game's settings chosen at creation, only those that differ from the defaults (takeback allowed
 * in casual games, chat between the seats), so that most documents carry none.
 */
export interface StoredGameSettings {
  /** false: no takebacks in this game (rated games never have any, whatever this says). */
  readonly takeback?: false;
  /** Who may chat: absent = the seats (CHAT_MODES in src/vocabulary.ts). */
  readonly chat?: 'everyone' | 'off';
}

/** A pending takeback offer: `seat` asks to take back every move after ply `toPly`. */
export interface TakebackOffer {
  readonly seat: Side;
  readonly toPly: number;
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
  /** A rated game: its result changes both accounts' ratings, once, when it ends. Absent: casual. */
  readonly rated?: boolean;
  /** A game made by a tournament or a bulk pairing. */
  readonly source?: GameSource;
  readonly seats: readonly SeatRecord[];
  /**
   * A game against the AI held by a seat token: who its AI turns count against in the AI pool
   * (`ip:` and the creator's address bucket). Never leaves the service.
   */
  readonly owner?: string;
  /**
   * The app the game belongs to (its creator's; absent: OPEN_APP): listings, TV and other apps see
   * it only if that app is the open one or in the shared pool.
   */
  readonly app?: string;
  /**
   * The pool it was made in (its app's id, or OPEN_APP for the open app and shared-pool apps; absent:
   * OPEN_APP): the listings and TV it appears in. Fixed at creation.
   */
  readonly pool?: string;
  /** Who may read and watch it (absent: public). */
  readonly visibility?: GameVisibility;
  /** Private games: the accounts (besides the seats) invited to watch. */
  readonly spectators?: readonly string[];
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
  /** A finished game's rematch (service/game/rematch.ts): the offer, the refusal, the new game. Absent: none yet. */
  readonly rematch?: RematchRecord;
  /** A rematch: the finished game it was offered from. */
  readonly rematchOf?: string;
  /** A pending takeback offer (absent or null: none). Any move, and the game's end, clears it. */
  readonly takebackOffer?: TakebackOffer | null;
  /** Settings chosen at creation that differ from the defaults (absent: none). */
  readonly settings?: StoredGameSettings;
  /** How many takebacks the game has had (absent: none); a turn after one is a new turn (reminders). */
  readonly takebacks?: number;
  /** Chosen at creation; absent on documents written before time controls existed (= unlimited). */
  readonly timeControl?: TimeControl;
  /** Realtime games: both clocks (absent or null otherwise). */
  readonly clock?: GameClock | null;
  /** When the side to move runs out of time (ISO); null without a time limit or once over. */
  readonly deadlineAt?: string | null;
  /** Correspondence: when the side to move gets `game.deadline_soon` (ISO); null otherwise. */
  readonly reminderAt?: string | null;
  /**
   * When the side to move's turn began (ISO), where its moves do not say it: in ongoing unlimited
   * games always (the last move, a change of the ply, or the start: the player waiting may claim an
   * abandoned game from it plus the abandon period); in timed games only after a takeback, whose turn
   * begins at the takeback (clocks and deadlines count from it) until the next move. Absent otherwise
   * (and on documents written before it existed).
   */
  readonly turnStartedAt?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The game without its move list: what is stored beside the moves, and what an update carries. */
export type GameHead = Omit<StoredGame, 'moves'>;

/** The head of a game (its moves left out). */
export function headOf(game: StoredGame): GameHead {
  const { moves: _moves, ...head } = game;
  return head;
}

/**
 * A new version of a game as the bus carries it: the head, and the move that made this version
 * (null for a version no move made: a draw offer, a resignation, a timeout). O(1) in the game's length.
 */
export interface GameChange {
  readonly game: GameHead;
  readonly move: MoveRecord | null;
}

/**
 * The change from a game with `before` moves to `next` (each write appends at most one move, or a
 * takeback drops the moves after a ply). The move list of the new version is the old one plus
 * `move`; when `game.ply` is below the old count, its first `game.ply` moves (a takeback).
 */
export function changeOf(next: StoredGame, before: number): GameChange {
  const move = next.moves.length > before ? (next.moves[next.moves.length - 1] ?? null) : null;
  return { game: headOf(next), move };
}

/** A page of a game's moves, oldest first; `next` is the ply to pass as `after` for the next page. */
export interface MovePage {
  readonly items: readonly MoveRecord[];
  readonly next: number | null;
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

/**
 * Whether a game is in the public listings (`games:all`, by kind, by status) and may be on TV: a
 * public game of the open pool. Unlisted and private games, and every game of an app's own pool,
 * are listed only under their seated accounts. Fixed at creation (pool and visibility never change).
 */
export function publiclyListed(game: Pick<StoredGame, 'pool' | 'visibility'>): boolean {
  return (game.pool ?? OPEN_APP) === OPEN_APP && (game.visibility ?? 'public') === 'public';
}

/** The accounts seated in a game (each once), as the listings index them. */
export function seatedAccounts(game: StoredGame): string[] {
  return [...new Set(game.seats.flatMap((s) => (s.account === null ? [] : [s.account])))];
}

/**
 * Every listing index a game is in: one per combination of (any or its seat account) × (any or
 * its kind) × (any or its status); "any account" only for a publicly listed game (publiclyListed).
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
  const accounts = seatedAccounts(game);
  for (const account of publiclyListed(game) ? [undefined, ...accounts] : accounts) {
    for (const kind of [undefined, game.kind]) {
      filters.push({
        ...(account === undefined ? {} : { account }),
        ...(kind === undefined ? {} : { kind }),
      });
    }
  }
  return filters.map((filter) => ({ filter, any: listingIndex(filter) }));
}

/**
 * One seated account's indexes after a write, as the service decided them (service/game/effects.ts):
 * the status it lists the game under (and under any status and the game's kind), the game's score
 * in its my-turn list (null: not its turn), whether the game counts among its ongoing games, and a
 * rated game's result for it.
 */
export interface AccountEffect {
  readonly account: string;
  readonly status: GameStatus;
  readonly turn: number | null;
  readonly ongoing: boolean;
  readonly rating?: RatingResult;
}

/** What a write carries beside the document, applied atomically with it (GameStore.update). */
export interface GameEffects {
  /** Appended to the feeds of the accounts each names. */
  readonly notices: readonly Notice[];
  /** Each seated account's indexes (none for a game held by seat tokens only). */
  readonly accounts: readonly AccountEffect[];
  /** The game's deadline, reminder and my-turn index entries as it now is (clockIndexOf). */
  readonly clock: ClockIndex;
  /**
   * A takeback: `next`'s moves are the first ones of the stored game (fewer than stored), and the
   * store drops the others. Without it, a write with fewer moves than stored is refused.
   */
  readonly truncate?: boolean;
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
  /**
   * Counts `game` (not yet stored) among the ongoing games of each account of `limits`, each in one
   * atomic step with its cap (a bulk pairing's reservation; again for the same game: no change);
   * refused at the first account already at its max, those reserved before it released.
   */
  reserve(game: string, limits: readonly GameLimit[]): Promise<CreateResult>;
  /** Takes `game` out of the accounts' ongoing games (reserved places of a game never stored). */
  release(game: string, accounts: readonly string[]): Promise<void>;
  /** How many ongoing games have a seat bound to `account` (what limits count). */
  countOngoing(account: string): Promise<number>;
  get(id: string): Promise<StoredGame | undefined>;
  /**
   * Several games without their moves, in the order of `ids` (undefined for an unknown one): what
   * rendering feed events reads (service/delivery/feed-render.ts). O(ids), whatever the games' lengths.
   */
  heads(ids: readonly string[]): Promise<(GameHead | undefined)[]>;
  /**
   * Up to `limit` moves of a game after ply `after` (0: from the first), oldest first; undefined for
   * an unknown game. Costs O(limit), whatever the length of the game.
   */
  moves(id: string, after: number, limit: number): Promise<MovePage | undefined>;
  /** Newest first; `before` is a previous page's `next` (games are numbered as they are created). */
  list(filter: GameFilter, limit: number, before?: number): Promise<GamePage>;
  /**
   * Atomically: if `idempotencyKey` already has a record, return it (`replayed`); else if the stored
   * version is not `expectedVersion`, `conflict`; else write `next`, remember the idempotency record
   * for 24 h, apply `effects` (append the notices to the account feeds, set each account's indexes,
   * carry a rated result to the account, applied there once: RatingStore.record, whoever relays it
   * and however often), and publish the change (changeOf) to the game's subscribers. `next` has at
   * most one move more than the stored game, or (a takeback: `effects.truncate`) fewer, the first of
   * the stored ones: the store drops the moves after them. A replay or a conflict applies nothing. The store
   * decides none of the effects: it encodes what it is given.
   */
  update(
    next: StoredGame,
    expectedVersion: number,
    idempotency: { readonly key: string; readonly fingerprint: string } | undefined,
    effects: GameEffects,
  ): Promise<UpdateResult>;
  /** The record kept for a game's idempotency key, if any. */
  idempotencyRecord(gameId: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Resolves when the store answers; rejects when it cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
