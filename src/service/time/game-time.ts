import type { AnyEngine } from '../../engines/engine';
import { clockIndexOf, type Storage, type StoredGame } from '../../store/store';
import { isOverdue, retime, sameTiming, type Vacations } from './clock';
import { GameError } from '../errors';
import { slimNotice } from '../delivery/feed-events';
import { wakeOf } from '../game/effects';
import { timedOut, vacationsFor, vacationsOf, type Deadlines } from '../game/timing';
import { WRITE_ATTEMPTS, type GameWriter } from '../game/writer';

/**
 * The time of stored games for GameService: timeouts, the deadlines a sweeper wakes for, reminders
 * and the vacations of the seated accounts (the arithmetic itself is in clock.ts). Its writes (a
 * timeout, a deadline a vacation moved) go through the writer like a seat's.
 */
export class GameTime {
  constructor(
    private readonly storage: Storage,
    private readonly now: () => Date,
    private readonly engineFor: (kind: string) => AnyEngine,
    private readonly writer: GameWriter,
    private readonly deadlines: Deadlines,
  ) {}

  /** Told of each deadline a write of this node sets (epoch ms), so a sweeper can wake for it. */
  get onDeadline(): ((at: number) => void) | undefined {
    return this.deadlines.listener;
  }

  set onDeadline(listener: ((at: number) => void) | undefined) {
    this.deadlines.listener = listener;
  }

  /** Tells the sweeper of a deadline or reminder a new game sets (writes tell it themselves). */
  announce(game: StoredGame): void {
    this.deadlines.announce(wakeOf(game));
  }

  /** The vacations of the accounts seated in an ongoing correspondence game (none otherwise). */
  vacationsOf(game: StoredGame): Promise<Vacations> {
    return vacationsOf(this.storage, game);
  }

  /** The vacation windows of these accounts. */
  vacationsFor(accounts: readonly string[]): Promise<Vacations> {
    return vacationsFor(this.storage, accounts);
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
        next = timedOut(game, at, vacations);
        outcome = 'timeout';
      } else {
        const fields = retime(game, game, at, vacations);
        if (sameTiming(game, fields)) return { game, outcome: 'unchanged' };
        next = { ...game, ...fields, version: game.version + 1, updatedAt: new Date(at).toISOString() };
        outcome = 'updated';
      }
      const result = await this.writer.commit(game, next);
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
    const view = this.writer.headView(this.engineFor(game.kind), game);
    // Stored slim, like a game write's notices (delivery/feed-events.ts).
    return this.storage.clocks.markReminded(game.id, index.turn, [
      slimNotice({
        to: [index.mover],
        type: 'game.deadline_soon',
        at: at.toISOString(),
        data: { game: view, seat: game.toMove, deadlineAt: game.deadlineAt },
      }),
    ]);
  }
}
