import {
  RATING_HISTORY_MAX,
  initialRating,
  isRanked,
  nextRating,
  ratingNotice,
  type AccountKind,
  type LeaderboardEntry,
  type LeaderboardPage,
  type RatingHistoryEntry,
  type RatingHistoryPage,
  type RatingResult,
  type RatingStore,
  type RatingUpdate,
  type StoredRating,
} from '../store';
import type { MemoryEventFeed } from './feed';
import { OPEN_APP } from '../ports/apps';

/** A leaderboard's key: perf, category and pool (each pool has its own). */
function boardOf(perf: string, category: string, pool: string = OPEN_APP): string {
  return `${perf}\u0000${category}\u0000${pool}`;
}

/** Ratings in this process: each record() reads, computes and writes in one synchronous step. */
export class MemoryRatingStore implements RatingStore {
  private readonly ratings = new Map<string, Map<string, StoredRating>>();
  /** account + perf → history, oldest first. */
  private readonly histories = new Map<string, RatingHistoryEntry[]>();
  /** account → the games applied. */
  private readonly applied = new Map<string, Set<string>>();
  /** perf + category → account → entry. */
  private readonly boards = new Map<string, Map<string, LeaderboardEntry>>();

  constructor(private readonly feed: MemoryEventFeed) {}

  async get(account: string): Promise<Readonly<Record<string, StoredRating>>> {
    return Object.fromEntries(this.ratings.get(account) ?? []);
  }

  async record(result: RatingResult): Promise<RatingUpdate | null> {
    return this.recordNow(result);
  }

  /** record() in one synchronous step (a game's ending write applies its results with it). */
  recordNow(result: RatingResult): RatingUpdate | null {
    const applied = this.applied.get(result.account) ?? new Set<string>();
    if (applied.has(result.game)) return null;
    const perfs = this.ratings.get(result.account) ?? new Map<string, StoredRating>();
    const before = perfs.get(result.perf) ?? initialRating(result.category);
    const after = nextRating(before, result);
    perfs.set(result.perf, after);
    this.ratings.set(result.account, perfs);
    applied.add(result.game);
    this.applied.set(result.account, applied);
    const key = `${result.account}\u0000${result.perf}`;
    const history = this.histories.get(key) ?? [];
    history.push({ at: result.at, rating: after.rating, rd: after.rd, game: result.game, n: after.games });
    if (history.length > RATING_HISTORY_MAX) history.shift();
    this.histories.set(key, history);
    const update = { account: result.account, game: result.game, perf: result.perf, before, after };
    this.feed.appendNow([ratingNotice(update)]);
    const boardKey = boardOf(result.perf, result.category, result.pool);
    const board = this.boards.get(boardKey) ?? new Map<string, LeaderboardEntry>();
    if (isRanked(after)) {
      board.set(result.account, {
        account: result.account,
        name: result.name,
        rating: after.rating,
        rd: after.rd,
      });
    } else board.delete(result.account);
    this.boards.set(boardKey, board);
    return update;
  }

  async history(account: string, perf: string, limit: number, before?: number): Promise<RatingHistoryPage> {
    const history = this.histories.get(`${account}\u0000${perf}`) ?? [];
    const older = before === undefined ? history : history.filter((entry) => entry.n < before);
    const items = older.slice(Math.max(0, older.length - limit)).reverse();
    const last = items[items.length - 1];
    return { items, next: last && items.length === limit && last.n > (history[0]?.n ?? 0) ? last.n : null };
  }

  async renameAccount(account: string, name: string): Promise<void> {
    for (const board of this.boards.values()) {
      const entry = board.get(account);
      if (entry) board.set(account, { ...entry, name });
    }
  }

  async leaderboard(
    perf: string,
    category: AccountKind,
    limit: number,
    offset = 0,
    pool: string = OPEN_APP,
  ): Promise<LeaderboardPage> {
    const board = [...(this.boards.get(boardOf(perf, category, pool))?.values() ?? [])].sort(
      (a, b) => b.rating - a.rating || (a.account < b.account ? 1 : -1),
    );
    const items = board.slice(offset, offset + limit);
    return { items, offset, next: offset + items.length < board.length ? offset + items.length : null };
  }
}
