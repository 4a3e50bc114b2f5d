import type { GameKind } from '../../engines/types';
import type { Notice } from './feed';
import type { AccountEffect, StoredGame } from './games';
import type { RatingResult } from './ratings';

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

/**
 * When the turn of the side to move began (epoch ms): the last move, or the start, or the takeback
 * that made it its turn again (`turnStartedAt`), whichever is latest.
 */
export function turnStartOf(game: Pick<StoredGame, 'moves' | 'createdAt' | 'turnStartedAt'>): number {
  const last = Date.parse(game.moves[game.moves.length - 1]?.at ?? game.createdAt);
  return game.turnStartedAt === undefined ? last : Math.max(last, Date.parse(game.turnStartedAt));
}

/** The index entries of a game, from its document alone. */
export function clockIndexOf(game: StoredGame): ClockIndex {
  const ongoing = game.status === 'ongoing';
  const deadline = ongoing && game.deadlineAt ? Date.parse(game.deadlineAt) : null;
  const reminder = ongoing && game.reminderAt ? Date.parse(game.reminderAt) : null;
  const accounts = [...new Set(game.seats.flatMap((s) => (s.account === null ? [] : [s.account])))];
  const mover = ongoing && game.toMove !== null ? (game.seats[game.toMove]?.account ?? null) : null;
  const turnStart = turnStartOf(game);
  return {
    deadline: Number.isFinite(deadline) ? deadline : null,
    reminder: Number.isFinite(reminder) ? reminder : null,
    // A ply reached again after a takeback is another turn (its reminder comes again).
    turn: ongoing ? (game.takebacks ? `${game.ply}.${game.takebacks}` : String(game.ply)) : OVER,
    accounts,
    mover,
    moverScore: deadline !== null && Number.isFinite(deadline) ? deadline : NO_DEADLINE_SCORE + turnStart,
  };
}

/**
 * Each seated account's indexes as `game` now is (and the rated `ratings` it gets): what the service
 * decides for a write (effects.ts) and what a new or migrated game is indexed under.
 */
export function accountEffectsOf(
  game: StoredGame,
  ratings: readonly RatingResult[] = [],
  index = clockIndexOf(game),
): AccountEffect[] {
  return index.accounts.map((account) => {
    const rating = ratings.find((r) => r.account === account);
    return {
      account,
      status: game.status,
      turn: index.mover === account ? index.moverScore : null,
      ongoing: game.status === 'ongoing',
      ...(rating ? { rating } : {}),
    };
  });
}
