import type Redis from 'ioredis';
import {
  appOfAccountId,
  OPEN_APP,
  RATING_HISTORY_MAX,
  initialRating,
  isRanked,
  nextRating,
  ratingNotice,
  type AccountKind,
  type FeedOptions,
  type LeaderboardEntry,
  type LeaderboardPage,
  type RatingHistoryEntry,
  type RatingHistoryPage,
  type RatingResult,
  type RatingStore,
  type RatingUpdate,
  type StoredRating,
} from '../../store';
import { epochCandidate, noticesArgument } from '../games/arguments';
import { Keys } from '../keys';
import { setFieldIf } from '../lua';
import { ACCOUNT_KINDS } from '../../../vocabulary';
import { rank, readBoard, recordRating } from './scripts';

/** Compare-and-set attempts of one result (each loses only to another result of the same account). */
const RECORD_ATTEMPTS = 16;

interface BoardEntry {
  readonly v: number;
  readonly account: string;
  readonly name: string;
  readonly rating: number;
  readonly rd: number;
}

/**
 * Ratings in Redis (scripts.ts): the new rating is computed here, from the stored one, and
 * written by a compare-and-set in the account's shard together with the game's applied mark, so
 * a result applied from two nodes, or twice by the relay, counts once. The leaderboard follows in
 * its own slot, version-guarded.
 */
export class RedisRatingStore implements RatingStore {
  private readonly keys: Keys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly feed: FeedOptions = {},
    private readonly publish: 'PUBLISH' | 'SPUBLISH' = 'PUBLISH',
  ) {
    this.keys = new Keys(prefix);
  }

  async get(account: string): Promise<Readonly<Record<string, StoredRating>>> {
    const all = await this.redis.hgetall(this.keys.ratings(account));
    return Object.fromEntries(
      Object.entries(all).map(([perf, json]) => [perf, JSON.parse(json) as StoredRating]),
    );
  }

  private async current(result: RatingResult): Promise<StoredRating> {
    const json = await this.redis.hget(this.keys.ratings(result.account), result.perf);
    return json ? (JSON.parse(json) as StoredRating) : initialRating(result.category);
  }

  async record(result: RatingResult): Promise<RatingUpdate | null> {
    for (let attempt = 0; attempt < RECORD_ATTEMPTS; attempt++) {
      const before = await this.current(result);
      const after = nextRating(before, result);
      const update = { account: result.account, game: result.game, perf: result.perf, before, after };
      const entry: RatingHistoryEntry = {
        at: result.at,
        rating: after.rating,
        rd: after.rd,
        game: result.game,
        n: after.games,
      };
      const answer = await recordRating.run(
        this.redis,
        {
          ratings: this.keys.ratings(result.account),
          rated: this.keys.ratedGames(result.account),
          history: this.keys.ratingHistory(result.account, result.perf),
          ...this.keys.feedWrite(result.account),
        },
        {
          game: result.game,
          perf: result.perf,
          expected: before.version,
          rating: JSON.stringify(after),
          entry: JSON.stringify(entry),
          historyMax: RATING_HISTORY_MAX,
          notices: noticesArgument([ratingNotice(update)], this.feed, result.account),
          candidate: epochCandidate(),
          publish: this.publish,
          live: this.keys.feedChannel(result.account),
        },
      );
      if (answer === 'conflict') continue;
      // Applied now or before (then by a node that may have died before the leaderboard): the
      // leaderboard gets the rating as it now is; an older version never overwrites a newer one.
      const rating = answer === 'applied' ? after : await this.current(result);
      await this.rank(result, rating);
      return answer === 'applied' ? update : null;
    }
    throw new Error(`rating of ${result.account} in ${result.perf}: too many concurrent changes`);
  }

  private async rank(result: RatingResult, rating: StoredRating): Promise<void> {
    if (rating.version === 0) return;
    const [board, entries] = this.keys.leaderboard(result.perf, result.category, result.pool);
    const entry: BoardEntry = {
      v: rating.version,
      account: result.account,
      name: result.name,
      rating: rating.rating,
      rd: rating.rd,
    };
    await rank.run(
      this.redis,
      { board, entries },
      {
        account: result.account,
        version: rating.version,
        ranked: isRanked(rating) ? '1' : '0',
        rating: rating.rating,
        entry: JSON.stringify(entry),
      },
    );
  }

  async history(account: string, perf: string, limit: number, before?: number): Promise<RatingHistoryPage> {
    const key = this.keys.ratingHistory(account, perf);
    const count = Math.max(0, Math.floor(limit));
    if (count === 0) return { items: [], next: null };
    // The list is newest first and its entries' n fall by one each: entry n is at index newest − n.
    let from = 0;
    if (before !== undefined) {
      const head = await this.redis.lindex(key, 0);
      if (!head) return { items: [], next: null };
      from = Math.max(0, (JSON.parse(head) as RatingHistoryEntry).n - before + 1);
    }
    const raw = await this.redis.lrange(key, from, from + count);
    const items = raw.slice(0, count).map((json) => JSON.parse(json) as RatingHistoryEntry);
    const last = items[items.length - 1];
    return { items, next: raw.length > count && last ? last.n : null };
  }

  async renameAccount(account: string, name: string): Promise<void> {
    const perfs = await this.redis.hkeys(this.keys.ratings(account));
    // Its boards are its pool's: the open pool's, or (an island app's account) its app's.
    const pools = [...new Set([OPEN_APP, appOfAccountId(account)])];
    for (const perf of perfs) {
      for (const [category, pool] of ACCOUNT_KINDS.flatMap((c) => pools.map((p) => [c, p] as const))) {
        const [, entries] = this.keys.leaderboard(perf, category, pool);
        for (let attempt = 0; ; attempt++) {
          const read = await this.redis.hget(entries, account);
          if (!read) break;
          const next = JSON.stringify({ ...(JSON.parse(read) as BoardEntry), name });
          if ((await setFieldIf.run(this.redis, { hash: entries }, { field: account, read, next })) === 1)
            break;
          if (attempt >= 10) throw new Error(`leaderboard entry of ${account} kept changing`);
        }
      }
    }
  }

  async leaderboard(
    perf: string,
    category: AccountKind,
    limit: number,
    offset = 0,
    pool?: string,
  ): Promise<LeaderboardPage> {
    const [board, entries] = this.keys.leaderboard(perf, category, pool);
    const from = Math.max(0, Math.floor(offset));
    const [raw, size] = await readBoard.run(
      this.redis,
      { board, entries },
      { offset: from, limit: Math.max(0, Math.floor(limit)) },
    );
    const items: LeaderboardEntry[] = [];
    for (const json of raw) {
      if (!json) continue;
      const entry = JSON.parse(json) as BoardEntry;
      items.push({ account: entry.account, name: entry.name, rating: entry.rating, rd: entry.rd });
    }
    const end = from + raw.length;
    return { items, offset: from, next: end < Number(size) ? end : null };
  }
}
