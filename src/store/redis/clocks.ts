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
import { noticesArgument, wholeNumber } from './arguments';
import { scripted, type ScriptedRedis } from './client';

// Clocks: deadlines, reminders, my-turn lists and vacations.

export class RedisClockStore implements ClockStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly feed: FeedOptions = {},
  ) {
    this.redis = scripted(redis);
  }

  async claimDeadlines(now: number, limit: number, leaseUntil: number): Promise<string[]> {
    return this.claim(`${this.prefix}deadlines`, now, limit, leaseUntil);
  }

  async claimReminders(now: number, limit: number, leaseUntil: number): Promise<string[]> {
    return this.claim(`${this.prefix}reminders`, now, limit, leaseUntil);
  }

  private async claim(key: string, now: number, limit: number, leaseUntil: number): Promise<string[]> {
    const count = wholeNumber(limit);
    if (count === 0) return [];
    return this.redis.boardhostClaimDue(key, String(Math.floor(now)), count, String(Math.floor(leaseUntil)));
  }

  async nextDue(): Promise<number | null> {
    const [deadline, reminder] = await Promise.all([
      this.redis.zrange(`${this.prefix}deadlines`, 0, 0, 'WITHSCORES'),
      this.redis.zrange(`${this.prefix}reminders`, 0, 0, 'WITHSCORES'),
    ]);
    const scores = [deadline[1], reminder[1]].filter((s): s is string => s !== undefined).map(Number);
    return scores.length === 0 ? null : Math.min(...scores);
  }

  async markReminded(gameId: string, turn: string, notices: readonly Notice[]): Promise<boolean> {
    const marked = await this.redis.boardhostMarkReminded(
      `${this.prefix}game:{${gameId}}`,
      `${this.prefix}reminders`,
      this.prefix,
      gameId,
      turn,
      noticesArgument(notices, this.feed),
    );
    return marked === 1;
  }

  async listTurn(
    account: string,
    filter: { readonly kind?: GameKind },
    limit: number,
    after?: TurnCursor,
  ): Promise<TurnPage> {
    const key = `${this.prefix}games:turn:${account}`;
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
    const doc = await this.redis.hget(`${this.prefix}game:{${id}}`, 'doc');
    return doc ? (JSON.parse(doc) as StoredGame) : undefined;
  }

  async getVacation(account: string): Promise<StoredVacation | undefined> {
    const doc = await this.redis.hget(`${this.prefix}vacation:${account}`, 'doc');
    return doc ? (JSON.parse(doc) as StoredVacation) : undefined;
  }

  async saveVacation(next: StoredVacation, expectedVersion: number): Promise<boolean> {
    const saved = await this.redis.boardhostSaveVacation(
      `${this.prefix}vacation:${next.account}`,
      String(expectedVersion),
      JSON.stringify(next),
      String(next.version),
    );
    return saved === 1;
  }
}
