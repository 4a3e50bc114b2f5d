import type { GameKind } from '../../engines/types';
import {
  accountEffectsOf,
  clockIndexOf,
  type AccountEffect,
  type ClockIndex,
  isTurnOf,
  OVER,
  type ClockStore,
  type GameLimit,
  type Notice,
  type StoredGame,
  type StoredVacation,
  type TurnCursor,
  type TurnPage,
} from '../store';
import type { MemoryEventFeed } from './feed';
import type { MemoryGameStore } from './games';

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
  /** Per account: its ongoing games (what game limits count). */
  readonly ongoing = new Map<string, Set<string>>();

  /** A new game's entries (its accounts' as accountEffectsOf decides for a game as it is). */
  put(game: StoredGame): void {
    const index = clockIndexOf(game);
    this.putClock(game.id, index);
    this.putAccounts(game.id, accountEffectsOf(game, [], index));
  }

  /** The game's own entries: its deadline, its reminder and the turn it is at. */
  putClock(id: string, index: ClockIndex): void {
    if (index.deadline === null) this.deadlines.delete(id);
    else this.deadlines.set(id, index.deadline);
    this.turns.set(id, index.turn);
    if (index.reminder === null || this.reminded.get(id) === index.turn) this.reminders.delete(id);
    else this.reminders.set(id, index.reminder);
  }

  /** Each account's ongoing set and my-turn entry, as a write's effects say. */
  putAccounts(id: string, accounts: readonly AccountEffect[]): void {
    for (const { account, ongoing, turn } of accounts) {
      let games = this.ongoing.get(account);
      if (!games) this.ongoing.set(account, (games = new Set()));
      if (ongoing) games.add(id);
      else games.delete(id);
      if (turn === null) {
        this.myTurn.get(account)?.delete(id);
        continue;
      }
      let turns = this.myTurn.get(account);
      if (!turns) this.myTurn.set(account, (turns = new Map()));
      turns.set(id, turn);
    }
  }

  /** The first account of `limits` that already has its maximum of ongoing games, if any. */
  overLimit(limits: readonly GameLimit[]): string | undefined {
    return limits.find((l) => (this.ongoing.get(l.account)?.size ?? 0) >= l.max)?.account;
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
