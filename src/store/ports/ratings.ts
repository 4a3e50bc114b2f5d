import { GLICKO, isProvisional, rateGame, type Glicko } from '../../ratings/glicko2';
import type { AccountKind } from './accounts';

// Ratings: one Glicko-2 rating per account and perf (perfKey: `kalah.realtime`), its history, and
// per perf and category (bots, humans) a leaderboard of the accounts whose rating is not provisional.

export interface StoredRating extends Glicko {
  /** Rated games played in the perf. */
  readonly games: number;
  /** When the last rated game in the perf ended (ISO); null before the first. */
  readonly latest: string | null;
  /** Counts the rating's changes (compare-and-set; leaderboards keep only newer versions). */
  readonly version: number;
}

/** One account's result in one rated game, as the game's ending write carries it. */
export interface RatingResult {
  readonly account: string;
  /** The account's username (leaderboards show it). */
  readonly name: string;
  /** Bots start higher and have their own leaderboards. */
  readonly category: AccountKind;
  readonly game: string;
  readonly perf: string;
  /** 1 won, 0.5 drawn, 0 lost. */
  readonly score: number;
  /** The opponent's rating when the game ended. */
  readonly opponent: Glicko;
  /** When the game ended (ISO). */
  readonly at: string;
  /**
   * The account's pool (ports/apps.ts) as the game ended: the leaderboard it is on. Absent: the open
   * pool (whose leaderboards keep the keys they had before pools).
   */
  readonly pool?: string;
}

/** What applying a result did. */
export interface RatingUpdate {
  readonly account: string;
  readonly game: string;
  readonly perf: string;
  readonly before: StoredRating;
  readonly after: StoredRating;
}

export interface RatingHistoryEntry {
  readonly at: string;
  readonly rating: number;
  readonly rd: number;
  readonly game: string;
  /** The rating's number of games after this one (1, 2, …): pass as `before` for older entries. */
  readonly n: number;
}

export interface RatingHistoryPage {
  readonly items: readonly RatingHistoryEntry[];
  readonly next: number | null;
}

export interface LeaderboardEntry {
  readonly account: string;
  readonly name: string;
  readonly rating: number;
  readonly rd: number;
}

export interface LeaderboardPage {
  /** Best first; `rank` of the first item is `offset + 1`. */
  readonly items: readonly LeaderboardEntry[];
  readonly offset: number;
  /** The offset of the next page; null on the last. */
  readonly next: number | null;
}

/** How many history entries an account keeps per perf (the newest). */
export const RATING_HISTORY_MAX = 500;

export interface RatingStore {
  /** An account's ratings, per perf key (perfs it never played rated are absent). */
  get(account: string): Promise<Readonly<Record<string, StoredRating>>>;
  /**
   * Applies a result once per (account, game), whoever calls and however often: the new rating
   * (glicko2 over the stored one, compare-and-set), a history entry, a `rating.updated` event in
   * the account's feed, then the leaderboard. null: the game was applied before (the leaderboard is
   * brought up to date again).
   */
  record(result: RatingResult): Promise<RatingUpdate | null>;
  /** Newest first; `before` is a page's `next`. */
  history(account: string, perf: string, limit: number, before?: number): Promise<RatingHistoryPage>;
  /** Best first, non-provisional ratings only, of one pool (default the open pool); `offset` a page's `next`. */
  leaderboard(
    perf: string,
    category: AccountKind,
    limit: number,
    offset?: number,
    pool?: string,
  ): Promise<LeaderboardPage>;
  /** Writes `name` in the account's leaderboard entries (an erased account's tombstone name). */
  renameAccount(account: string, name: string): Promise<void>;
}

/** A new account's rating in a perf: lichess's 1500/500/0.09, bots 2000. */
export function initialRating(category: AccountKind): StoredRating {
  return {
    rating: category === 'bot' ? GLICKO.botRating : GLICKO.rating,
    rd: GLICKO.rd,
    volatility: GLICKO.volatility,
    games: 0,
    latest: null,
    version: 0,
  };
}

const DAY_MS = 86_400_000;

/** The rating after `result` (the days since the last rated game in the perf are rating periods). */
export function nextRating(current: StoredRating, result: RatingResult): StoredRating {
  const days = current.latest === null ? 0 : (Date.parse(result.at) - Date.parse(current.latest)) / DAY_MS;
  const next = rateGame(current, result.opponent, result.score, days);
  return {
    ...next,
    games: current.games + 1,
    latest: result.at,
    version: current.version + 1,
  };
}

/** The `rating.updated` feed event's data. */
export function ratingNotice(update: RatingUpdate) {
  return {
    to: [update.account],
    type: 'rating.updated' as const,
    at: update.after.latest ?? new Date(0).toISOString(),
    data: {
      game: update.game,
      perf: update.perf,
      before: Math.round(update.before.rating),
      after: Math.round(update.after.rating),
      provisional: isProvisional(update.after),
    },
  };
}

/** Whether a rating is on the leaderboards. */
export function isRanked(rating: StoredRating): boolean {
  return rating.games > 0 && !isProvisional(rating);
}
