// The time arithmetic of a write (../time/clock.ts computes the fields): the next document's version, write
// time and time fields, a timeout, the vacations that pause correspondence clocks, and who hears of
// the deadlines writes set. Shared by the writer (./writer.ts) and GameTime (../game-time.ts).
import { other } from '../../engines/types';
import type { Storage, StoredGame } from '../../store/store';
import { NO_VACATIONS, retime, type Vacations } from '../time/clock';
import { gameAccounts } from '../delivery/feed';
import { finish } from './decide';

/** `next` (computed from `game` at `at`) with its version, write time and time fields. */
export function timed(
  game: StoredGame,
  next: StoredGame,
  at: number,
  vacations: Vacations,
  timeout = false,
): StoredGame {
  return {
    ...next,
    ...retime(game, next, at, vacations, timeout),
    version: game.version + 1,
    updatedAt: new Date(at).toISOString(),
  };
}

/** The game ended by timeout at `at`: the side to move loses (see ../time/clock.ts). */
export function timedOut(game: StoredGame, at: number, vacations: Vacations): StoredGame {
  const loser = game.toMove ?? 0;
  return timed(game, finish(game, { winner: other(loser), reason: 'timeout' }), at, vacations, true);
}

/** The vacations of the accounts seated in an ongoing correspondence game (none otherwise). */
export async function vacationsOf(storage: Storage, game: StoredGame): Promise<Vacations> {
  if (game.status !== 'ongoing' || game.timeControl?.type !== 'correspondence') return NO_VACATIONS;
  return vacationsFor(storage, gameAccounts(game));
}

/** The vacation windows of these accounts. */
export async function vacationsFor(storage: Storage, accounts: readonly string[]): Promise<Vacations> {
  const unique = [...new Set(accounts)];
  const records = await Promise.all(unique.map((a) => storage.clocks.getVacation(a)));
  return new Map(unique.map((a, i) => [a, records[i]?.windows ?? []]));
}

/**
 * Who is told of each deadline or reminder a write of this node sets (epoch ms), so that a sweeper
 * can wake for it (ClockService sets the listener). Made before the writer and GameTime, which both
 * tell it.
 */
export class Deadlines {
  listener: ((at: number) => void) | undefined;

  /** Tells the listener of `at` (a write's `wake`); nothing for null. */
  announce(at: number | null): void {
    if (at !== null) this.listener?.(at);
  }
}
