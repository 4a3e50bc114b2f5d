import type Redis from 'ioredis';
import type { GameKind } from '../../engines/types';
import {
  isTurnOf,
  type ClockStore,
  type Notice,
  type StoredGame,
  type StoredVacation,
  type TurnCursor,
  type TurnPage,
  type FeedOptions,
} from '../store';
import { wholeNumber } from './games/arguments';
import type { RedisGameStore } from './games/store';
import { ALL_SHARDS, shardOf, shardTag } from './keys';
import { claimDue, saveVacation } from './lua';
import { markReminded } from './games/scripts';
import { outboxFields } from './relay/relay';

// Clocks: deadlines, reminders, my-turn lists and vacations.

export class RedisClockStore implements ClockStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** The game store: deadlines and reminders live in each game's shard, reminders go through its outbox. */
    private readonly games: RedisGameStore,
    private readonly feed: FeedOptions = {},
  ) {}

  async claimDeadlines(now: number, limit: number, leaseUntil: number): Promise<string[]> {
    return this.claim((shard) => this.games.keys.deadlines(shard), now, limit, leaseUntil);
  }

  async claimReminders(now: number, limit: number, leaseUntil: number): Promise<string[]> {
    return this.claim((shard) => this.games.keys.reminders(shard), now, limit, leaseUntil);
  }

  /**
   * Claims up to `limit` due entries over all shards, earliest first (ties by id): the earliest
   * due of every shard are read and merged, then each shard claims as many as it has among the
   * first `limit` (its earliest due at that moment, so a concurrent claimer may take some first).
   */
  private async claim(
    keyOf: (shard: number) => string,
    now: number,
    limit: number,
    leaseUntil: number,
  ): Promise<string[]> {
    const count = wholeNumber(limit);
    if (count === 0) return [];
    const at = String(Math.floor(now));
    const pages = await Promise.all(
      ALL_SHARDS.map((shard) =>
        this.redis.zrangebyscore(keyOf(shard), '-inf', at, 'WITHSCORES', 'LIMIT', 0, count),
      ),
    );
    const due = mergeDue(pages).slice(0, count);
    const perShard = new Map<number, number>();
    for (const entry of due) perShard.set(entry.shard, (perShard.get(entry.shard) ?? 0) + 1);
    const scores = new Map(due.map((entry) => [entry.id, entry.score]));
    const claimed = await Promise.all(
      [...perShard].map(([shard, n]) =>
        claimDue.run(
          this.redis,
          { set: keyOf(shard) },
          { now: at, limit: n, leaseEnd: String(Math.floor(leaseUntil)) },
        ),
      ),
    );
    return byScoreThenId(claimed.flat().map((id) => ({ id, score: scores.get(id) ?? Infinity }))).map(
      (entry) => entry.id,
    );
  }

  async nextDue(): Promise<number | null> {
    const keys = this.games.keys;
    const firsts = await Promise.all(
      ALL_SHARDS.flatMap((shard) => [keys.deadlines(shard), keys.reminders(shard)]).map((key) =>
        this.redis.zrange(key, 0, 0, 'WITHSCORES'),
      ),
    );
    const scores = firsts.flatMap((f) => (f[1] === undefined ? [] : [Number(f[1])]));
    return scores.length === 0 ? null : Math.min(...scores);
  }

  async markReminded(gameId: string, turn: string, notices: readonly Notice[]): Promise<boolean> {
    // Only its accounts are needed: the head, not the moves (O(1) in the length of the game).
    const game = await this.games.head(gameId);
    if (!game) return false;
    const keys = this.games.keys;
    const shard = shardOf(gameId);
    // Once per turn: the origin is the reminder's own (r:<id>), numbered by its time, in order only.
    // The notices only: a reminder changes no listing.
    const at = Math.max(0, ...notices.map((n) => Date.parse(n.at)).filter(Number.isFinite));
    const accounts = [...new Set(game.seats.flatMap((s) => (s.account === null ? [] : [s.account])))];
    const parts = accounts.map((account) => ({
      account,
      notices: notices.filter((n) => n.to.includes(account)),
      ops: [],
    }));
    const fields = outboxFields({ origin: `r:${gameId}`, version: at, before: '', parts }, this.feed);
    const marked = await markReminded.run(
      this.redis,
      { game: keys.game(gameId), reminders: keys.reminders(shard) },
      { prefix: this.prefix, tag: shardTag(shard), id: gameId, turn },
      fields,
    );
    if (marked === 0) return false;
    await this.games.relay.deliver(shard, fields);
    return true;
  }

  async listTurn(
    account: string,
    filter: { readonly kind?: GameKind },
    limit: number,
    after?: TurnCursor,
  ): Promise<TurnPage> {
    const key = this.games.keys.turn(account);
    const batchSize = Math.max(limit * 2, 20);
    const items: StoredGame[] = [];
    const seen = new Set<string>();
    let last: TurnCursor | null = null;
    // Keyset over (score, id): read from the cursor's score on, skipping what sorts at or before
    // it. `offset` skips the entries already read that share the batch's last score (ties).
    let min = after ? String(after.score) : '-inf';
    let offset = 0;
    for (;;) {
      const batch = await this.redis.zrangebyscore(
        key,
        min,
        '+inf',
        'WITHSCORES',
        'LIMIT',
        offset,
        batchSize,
      );
      const entries: TurnCursor[] = [];
      for (let i = 0; i + 1 < batch.length; i += 2) {
        entries.push({ id: batch[i] as string, score: Number(batch[i + 1]) });
      }
      const docs = await Promise.all(entries.map((e) => this.get(e.id)));
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i] as TurnCursor;
        const game = docs[i];
        if (after && (entry.score < after.score || (entry.score === after.score && entry.id <= after.id))) {
          continue;
        }
        if (seen.has(entry.id)) continue;
        seen.add(entry.id);
        if (!game || !isTurnOf(game, account) || (filter.kind && game.kind !== filter.kind)) continue;
        if (items.length === limit) return { items, next: last };
        items.push(game);
        last = entry;
      }
      if (entries.length < batchSize) return { items, next: null };
      const lastScore = (entries[entries.length - 1] as TurnCursor).score;
      const ties = entries.filter((e) => e.score === lastScore).length;
      offset = String(lastScore) === min ? offset + ties : ties;
      min = String(lastScore);
    }
  }

  private async get(id: string): Promise<StoredGame | undefined> {
    return this.games.get(id);
  }

  async getVacation(account: string): Promise<StoredVacation | undefined> {
    const doc = await this.redis.hget(this.games.keys.vacation(account), 'doc');
    return doc ? (JSON.parse(doc) as StoredVacation) : undefined;
  }

  async saveVacation(next: StoredVacation, expectedVersion: number): Promise<boolean> {
    const saved = await saveVacation.run(
      this.redis,
      { vacation: this.games.keys.vacation(next.account) },
      { expected: String(expectedVersion), doc: JSON.stringify(next), version: String(next.version) },
    );
    return saved === 1;
  }
}

/** Due entries of every shard (ZRANGEBYSCORE … WITHSCORES pages, indexed by shard), earliest first, ties by id. */
export function mergeDue(
  pages: ReadonlyArray<readonly string[]>,
): Array<{ id: string; score: number; shard: number }> {
  const due: Array<{ id: string; score: number; shard: number }> = [];
  pages.forEach((page, shard) => {
    for (let i = 0; i + 1 < page.length; i += 2) {
      due.push({ id: page[i] as string, score: Number(page[i + 1]), shard });
    }
  });
  return byScoreThenId(due);
}

function byScoreThenId<T extends { id: string; score: number }>(entries: T[]): T[] {
  return entries.sort((x, y) => x.score - y.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}
