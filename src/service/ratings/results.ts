import { decayedRd, isProvisional, type Glicko } from '../../ratings/glicko2';
import { GameError } from '../errors';
import { perfKey, speedOf } from './perf';
import {
  appOf,
  initialRating,
  OPEN_APP,
  poolOfApp,
  type StoredAccount,
  type AccountKind,
  type RatingResult,
  type SeatRecord,
  type Storage,
  type StoredGame,
  type StoredRating,
} from '../../store/store';

const DAY_MS = 86_400_000;

/** The perf key of a game: its kind and speed. */
export function perfOf(game: Pick<StoredGame, 'kind' | 'timeControl'>): string {
  return perfKey({ kind: game.kind, speed: speedOf(game.timeControl) });
}

/** An account's rating in a perf as it stands at `at`: RD grown with the days since its last rated game. */
export function ratingAt(stored: StoredRating | undefined, kind: AccountKind, at: string): StoredRating {
  const rating = stored ?? initialRating(kind);
  if (rating.latest === null) return rating;
  return { ...rating, rd: decayedRd(rating, (Date.parse(at) - Date.parse(rating.latest)) / DAY_MS) };
}

/** Whether a write that turns `game` into `next` ends a rated game with a result that counts. */
export function endsRated(game: StoredGame, next: StoredGame): boolean {
  return (
    next.rated === true &&
    game.status === 'ongoing' &&
    next.status === 'finished' &&
    next.outcome !== null &&
    next.outcome.reason !== 'aborted'
  );
}

/**
 * Each account's result of a rated game that `next` ends (none for casual games, aborted ones, or
 * writes that end nothing): the score, and the opponent's rating read now (one read per seat, on
 * the ending write only). The game's write carries them to the accounts (GameStore.update).
 */
export async function ratingResults(
  storage: Storage,
  game: StoredGame,
  next: StoredGame,
): Promise<RatingResult[]> {
  if (!endsRated(game, next)) return [];
  const seats = next.seats.filter((seat): seat is SeatRecord & { account: string } => seat.account !== null);
  if (seats.length !== 2 || seats[0]?.account === seats[1]?.account) return [];
  const perf = perfOf(next);
  const at = next.updatedAt;
  const read = await Promise.all(
    seats.map(async (seat) => {
      const [account, ratings] = await Promise.all([
        storage.accounts.getAccount(seat.account),
        storage.ratings.get(seat.account),
      ]);
      const kind: AccountKind = account?.kind ?? 'human';
      return { seat, account, kind, rating: ratingAt(ratings[perf], kind, at) };
    }),
  );
  const winner = next.outcome?.winner;
  // Each account's leaderboards are its pool's, read as the game ends (an app moved in or out of
  // the shared pool takes its accounts' next ratings to the other pool's boards).
  const pools = await Promise.all(read.map((own) => poolOf(storage, own.account)));
  return read.map((own, i) => {
    const other = read[1 - i] as (typeof read)[number];
    const opponent: Glicko = {
      rating: other.rating.rating,
      rd: other.rating.rd,
      volatility: other.rating.volatility,
    };
    return {
      account: own.seat.account,
      name: own.account?.username ?? own.seat.account,
      category: own.kind,
      game: next.id,
      perf,
      score: winner === undefined ? 0.5 : winner === own.seat.seat ? 1 : 0,
      opponent,
      at,
      ...(pools[i] === OPEN_APP ? {} : { pool: pools[i] }),
    };
  });
}

/** The pool of an account (its app's: apps/pools.ts), read from the store; the open pool for the open app's. */
async function poolOf(storage: Storage, account: StoredAccount | undefined): Promise<string> {
  const app = account ? appOf(account) : OPEN_APP;
  return app === OPEN_APP ? OPEN_APP : poolOfApp(await storage.apps.getApp(app));
}

/** A seat's rating when its game begins (SeatRecord.rating / provisional). */
export interface SeatRating {
  readonly rating: number;
  readonly provisional: boolean;
}

/** The accounts' ratings in the game's perf now, for the seats of a rated game about to begin. */
export async function seatRatings(
  storage: Storage,
  accounts: readonly string[],
  game: Pick<StoredGame, 'kind' | 'timeControl'>,
  at: string,
): Promise<Map<string, SeatRating>> {
  const perf = perfOf(game);
  const entries = await Promise.all(
    [...new Set(accounts)].map(async (id) => {
      const [account, ratings] = await Promise.all([
        storage.accounts.getAccount(id),
        storage.ratings.get(id),
      ]);
      const rating = ratingAt(ratings[perf], account?.kind ?? 'human', at);
      return [id, { rating: Math.round(rating.rating), provisional: isProvisional(rating) }] as const;
    }),
  );
  return new Map(entries);
}

/**
 * The `rated` flag of a challenge or seek (default false): a boolean, and refused with
 * RATED_NOT_ALLOWED for a game from a position (only the standard start is rated).
 */
export function ratedFlag(rated: unknown, initialPosition: string | undefined): boolean {
  if (rated === undefined || rated === null || rated === false) return false;
  if (rated !== true) throw new GameError('INVALID_INPUT', 'rated must be true or false', { field: 'rated' });
  if (initialPosition !== undefined) {
    throw new GameError('RATED_NOT_ALLOWED', 'Games from a position are casual: omit position or rated', {
      field: 'rated',
    });
  }
  return true;
}

/** AI games are casual: `rated: true` is refused with RATED_NOT_ALLOWED. */
export function casualOnly(rated: unknown): void {
  if (rated === true) {
    throw new GameError('RATED_NOT_ALLOWED', 'Games against the built-in AI are casual', { field: 'rated' });
  }
  if (rated !== undefined && rated !== null && rated !== false) {
    throw new GameError('INVALID_INPUT', 'rated must be true or false', { field: 'rated' });
  }
}
