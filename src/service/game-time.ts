import { other } from '../engines/types';
import { clockIndexOf, type Storage, type StoredGame, type UpdateResult } from '../store/store';
import { isOverdue, NO_VACATIONS, retime, sameTiming, type Vacations } from './clock';
import { GameError } from './errors';
import { gameAccounts } from './feed';
import type { GameHeadView } from './game-view';
import { WRITE_ATTEMPTS } from './game-writes';
import { finish } from './game-writes';

/**
 * The time of stored games for GameService: timeouts, the deadlines a sweeper wakes for, reminders
 * and the vacations of the seated accounts (the arithmetic itself is in clock.ts).
 */
export class GameTime {
  /** Told of each deadline a write of this node sets (epoch ms), so a sweeper can wake for it. */
  onDeadline: ((at: number) => void) | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly now: () => Date,
    /** The public view of a game without its moves (GameService.headView). */
    private readonly view: (game: StoredGame) => GameHeadView,
    /** Compare-and-set a write made by the service itself, with its notices (GameService.commit). */
    private readonly commit: (game: StoredGame, next: StoredGame) => Promise<UpdateResult>,
  ) {}

  /** `next` (computed from `game` at `at`) with its version, write time and time fields. */
  timed(game: StoredGame, next: StoredGame, at: number, vacations: Vacations): StoredGame {
    return {
      ...next,
      ...retime(game, next, at, vacations),
      version: game.version + 1,
      updatedAt: new Date(at).toISOString(),
    };
  }

  /** The game ended by timeout at `at`: the side to move loses (see clock.ts). */
  timedOut(game: StoredGame, at: number, vacations: Vacations): StoredGame {
    const loser = game.toMove ?? 0;
    const over = finish(game, { winner: other(loser), reason: 'timeout' });
    return {
      ...over,
      ...retime(game, over, at, vacations, true),
      version: game.version + 1,
      updatedAt: new Date(at).toISOString(),
    };
  }

  /** Tells the sweeper of a deadline or reminder this write set. */
  announce(game: StoredGame): void {
    if (!this.onDeadline || game.status !== 'ongoing') return;
    const index = clockIndexOf(game);
    const due = [index.deadline, index.reminder].filter((t): t is number => t !== null);
    if (due.length > 0) this.onDeadline(Math.min(...due));
  }

  /** The vacations of the accounts seated in an ongoing correspondence game (none otherwise). */
  async vacationsOf(game: StoredGame): Promise<Vacations> {
    if (game.status !== 'ongoing' || game.timeControl?.type !== 'correspondence') return NO_VACATIONS;
    return this.vacationsFor(gameAccounts(game));
  }

  /** The vacation windows of these accounts. */
  async vacationsFor(accounts: readonly string[]): Promise<Vacations> {
    const unique = [...new Set(accounts)];
    const records = await Promise.all(unique.map((a) => this.storage.clocks.getVacation(a)));
    return new Map(unique.map((a, i) => [a, records[i]?.windows ?? []]));
  }

  /**
   * Brings a game's time up to date with the vacations of its players: ends it by timeout when its
   * deadline has passed, or stores the deadline a vacation moved. Undefined for an unknown game.
   */
  async settleTime(
    id: string,
  ): Promise<
    { readonly game: StoredGame; readonly outcome: 'timeout' | 'updated' | 'unchanged' } | undefined
  > {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const game = await this.storage.games.get(id);
      if (!game) return undefined;
      if (game.status !== 'ongoing') return { game, outcome: 'unchanged' };
      const at = this.now().getTime();
      const vacations = await this.vacationsOf(game);
      let next: StoredGame;
      let outcome: 'timeout' | 'updated';
      if (isOverdue(game, at, vacations)) {
        next = this.timedOut(game, at, vacations);
        outcome = 'timeout';
      } else {
        const fields = retime(game, game, at, vacations);
        if (sameTiming(game, fields)) return { game, outcome: 'unchanged' };
        next = { ...game, ...fields, version: game.version + 1, updatedAt: new Date(at).toISOString() };
        outcome = 'updated';
      }
      const result = await this.commit(game, next);
      if (result.status === 'updated') return { game: next, outcome };
      if (result.status === 'missing') return undefined;
    }
    throw new GameError('VERSION_CONFLICT', `Game ${id} is changing too fast to settle its clock`);
  }

  /**
   * Sends `game.deadline_soon` to the account to move if its reminder is due: at most once per
   * turn, whichever node gets there first. True when this call sent it.
   */
  async remind(id: string): Promise<boolean> {
    const settled = await this.settleTime(id);
    if (!settled || settled.game.status !== 'ongoing') return false;
    const { game } = settled;
    const at = this.now();
    const index = clockIndexOf(game);
    if (index.reminder === null || index.reminder > at.getTime() || index.mover === null) return false;
    const view = this.view(game);
    return this.storage.clocks.markReminded(game.id, index.turn, [
      {
        to: [index.mover],
        type: 'game.deadline_soon',
        at: at.toISOString(),
        data: { game: view, seat: game.toMove, deadlineAt: game.deadlineAt },
      },
    ]);
  }
}
