import type { GameHead, SeatRecord, StoredGame, TimeControl, VacationWindow } from '../../store/store';
import { turnStartOf, type GameClock } from '../../store/store';

// The arithmetic of time controls, without I/O: every time field of a game (clock, deadlineAt,
// reminderAt, seats[].vacationUntil) is computed here from the game, the time of the write and
// the vacations of its players.
//
// - realtime (Fischer): each seat starts with the initial time. The clock of the side to move runs
//   from `runningSince`: the game's start for the first mover (clocks run from the start; abort
//   remains possible until both sides have moved), then the server time of the last move. A move
//   takes the time it took off the mover's clock and adds the increment (also on a move that ends
//   the game). The side to move flags at runningSince + its remaining time.
// - correspondence: each move has `daysPerMove` days, from the server time of the previous move
//   (or the start). The clock of the account to move stands still during its vacations.
// - A takeback gives no time back: the running clock is charged what it ran (no increment) and the
//   turn of the side to move starts at the takeback (`turnStartedAt`), for deadlines and claims.
// - A deadline reached means a loss by timeout. The rules (docs/rules) say nothing of a
//   draw when the opponent cannot possibly win, so a timeout is always a loss.

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Vacation windows of accounts, by account id (oldest first, not overlapping). */
export type Vacations = ReadonlyMap<string, readonly VacationWindow[]>;

export const NO_VACATIONS: Vacations = new Map();

/** The time fields of a game document. */
export interface Timing {
  readonly clock: GameClock | null;
  readonly deadlineAt: string | null;
  readonly reminderAt: string | null;
  readonly seats: readonly SeatRecord[];
  /** Ongoing unlimited games: when the turn of the side to move began (see StoredGame); else undefined. */
  readonly turnStartedAt?: string | undefined;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** How long before a correspondence deadline the reminder comes: 10% of the period, at most 24 h. */
export function reminderLeadMs(daysPerMove: number): number {
  return Math.min((daysPerMove * DAY_MS) / 10, DAY_MS);
}

/**
 * When a stretch of `durationMs` of clock time that starts at `start` ends, the clock standing
 * still inside each vacation window.
 */
export function pausedEnd(start: number, durationMs: number, windows: readonly VacationWindow[]): number {
  let at = start;
  let left = durationMs;
  for (const window of windows) {
    const from = Date.parse(window.from);
    const until = Date.parse(window.until);
    if (until <= at) continue;
    if (from > at) {
      if (from - at >= left) return at + left;
      left -= from - at;
    }
    at = until;
  }
  return at + left;
}

/** The window in progress at `at`, if any. */
export function windowAt(windows: readonly VacationWindow[], at: number): VacationWindow | undefined {
  return windows.find((w) => Date.parse(w.from) <= at && at < Date.parse(w.until));
}

/**
 * When the player waiting in an ongoing unlimited game may claim it abandoned (epoch ms): the abandon
 * period after the turn of the side to move began; null for games with a time control (their
 * deadlines end them) and finished ones. A head without `turnStartedAt` (written before it existed)
 * counts from its last move, or from the last write when its moves are not at hand.
 */
export function abandonClaimAt(game: GameHead | StoredGame, abandonClaimMs: number): number | null {
  if (game.status !== 'ongoing' || game.toMove === null || timeControlOf(game).type !== 'unlimited')
    return null;
  const since =
    game.turnStartedAt !== undefined
      ? Date.parse(game.turnStartedAt)
      : 'moves' in game
        ? turnStartOf(game)
        : Date.parse(game.ply === 0 ? game.createdAt : game.updatedAt);
  return since + abandonClaimMs;
}

/** The turn start a write at `at` from `before` to `after` stores (StoredGame.turnStartedAt). */
function turnStartedAt(before: StoredGame, after: StoredGame, at: number): string | undefined {
  if (after.status !== 'ongoing' || after.toMove === null) return undefined;
  // Timed games keep only a takeback's turn start (decide sets it; the next move clears it): their
  // moves' times say when other turns began.
  if (timeControlOf(after).type !== 'unlimited') return after.turnStartedAt;
  // A move (or anything else that changes the ply) starts a turn now; other writes keep it.
  if (after.ply !== before.ply) return iso(at);
  return before.turnStartedAt ?? iso(turnStartOf(before));
}

function timeControlOf(game: Pick<StoredGame, 'timeControl'>): TimeControl {
  return game.timeControl ?? { type: 'unlimited' };
}

/**
 * The clocks after a write at `at` that turned `before` into `after` (realtime games only):
 * a move charges the mover and adds the increment; a game that ends stops the clock (a timeout
 * leaves the loser at 0); any other write leaves the clocks alone.
 */
export function clockAfter(
  before: StoredGame,
  after: StoredGame,
  at: number,
  timedOut = false,
): GameClock | null {
  const tc = timeControlOf(after);
  if (tc.type !== 'realtime') return null;
  const initial = tc.initialSeconds * 1000;
  const previous = before.clock ?? { remainingMs: [initial, initial], runningSince: before.createdAt };
  const remaining: [number, number] = [previous.remainingMs[0], previous.remainingMs[1]];
  const running = before.status === 'ongoing' ? before.toMove : null;
  const moved = after.ply > before.ply;
  // A takeback gives no time back: the running clock is charged what it ran (no increment), and
  // the turn of the side to move now starts at the takeback.
  const takenBack = after.ply < before.ply;
  let runningSince = previous.runningSince;
  if (running !== null && runningSince !== null) {
    const elapsed = Math.max(0, at - Date.parse(runningSince));
    if (timedOut) remaining[running] = 0;
    else if (moved)
      remaining[running] = Math.max(0, remaining[running] - elapsed) + tc.incrementSeconds * 1000;
    else if (after.status !== 'ongoing' || takenBack)
      remaining[running] = Math.max(0, remaining[running] - elapsed);
    if (moved || takenBack) runningSince = iso(at);
  }
  return { remainingMs: remaining, runningSince: after.status === 'ongoing' ? runningSince : null };
}

/** The deadline, reminder and vacation fields of `game` (whose clock is already up to date). */
export function timing(game: StoredGame, clock: GameClock | null, at: number, vacations: Vacations): Timing {
  const tc = timeControlOf(game);
  const ongoing = game.status === 'ongoing' && game.toMove !== null;
  const seats =
    tc.type === 'correspondence'
      ? game.seats.map((s) => {
          const window = s.account === null ? undefined : windowAt(vacations.get(s.account) ?? [], at);
          return { ...s, vacationUntil: ongoing && window ? window.until : null };
        })
      : game.seats;
  if (!ongoing || tc.type === 'unlimited') return { clock, deadlineAt: null, reminderAt: null, seats };
  const toMove = game.toMove as 0 | 1;
  if (tc.type === 'realtime') {
    const since = clock?.runningSince;
    const deadline = since ? Date.parse(since) + (clock?.remainingMs[toMove] ?? 0) : null;
    return { clock, deadlineAt: deadline === null ? null : iso(deadline), reminderAt: null, seats };
  }
  const mover = game.seats[toMove]?.account ?? null;
  const windows = mover === null ? [] : (vacations.get(mover) ?? []);
  const start = turnStartOf(game);
  const period = tc.daysPerMove * DAY_MS;
  const deadline = pausedEnd(start, period, windows);
  // The reminder comes when the counted time left is the lead (pauses do not count); only an
  // account has a feed to hear it in.
  const reminder = mover === null ? null : pausedEnd(start, period - reminderLeadMs(tc.daysPerMove), windows);
  return { clock, deadlineAt: iso(deadline), reminderAt: reminder === null ? null : iso(reminder), seats };
}

/** The time fields after a write at `at` that turned `before` into `after`. */
export function retime(
  before: StoredGame,
  after: StoredGame,
  at: number,
  vacations: Vacations,
  timedOut = false,
): Timing {
  return {
    ...timing(after, clockAfter(before, after, at, timedOut), at, vacations),
    turnStartedAt: turnStartedAt(before, after, at),
  };
}

/** The time fields of a new game starting at `at`: the first mover's clock runs from the start. */
export function startTiming(game: StoredGame, at: number, vacations: Vacations): Timing {
  return retime(game, game, at, vacations);
}

/** The deadline of an ongoing game as of now: correspondence ones recomputed with `vacations`. */
export function currentDeadline(game: StoredGame, at: number, vacations: Vacations): number | null {
  if (game.status !== 'ongoing') return null;
  const tc = timeControlOf(game);
  if (tc.type === 'correspondence') {
    const deadlineAt = timing(game, null, at, vacations).deadlineAt;
    return deadlineAt === null ? null : Date.parse(deadlineAt);
  }
  return game.deadlineAt ? Date.parse(game.deadlineAt) : null;
}

/** True when the side to move of an ongoing game has run out of time at `at`. */
export function isOverdue(game: StoredGame, at: number, vacations: Vacations): boolean {
  const deadline = currentDeadline(game, at, vacations);
  return deadline !== null && at >= deadline;
}

/** True when two documents have the same time fields. */
export function sameTiming(game: StoredGame, fields: Timing): boolean {
  const seatVacation = (seats: readonly SeatRecord[]) => seats.map((s) => s.vacationUntil ?? null);
  return (
    JSON.stringify(game.clock ?? null) === JSON.stringify(fields.clock) &&
    (game.deadlineAt ?? null) === fields.deadlineAt &&
    (game.reminderAt ?? null) === fields.reminderAt &&
    JSON.stringify(seatVacation(game.seats)) === JSON.stringify(seatVacation(fields.seats))
  );
}
