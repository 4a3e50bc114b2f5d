import type { GameKind, Options } from '../../engines/types';
import type { Notice } from './feed';
import type { TimeControl } from './time-control';
import type { TournamentFormat, TournamentStatus } from '../../vocabulary';
export { TOURNAMENT_FORMATS, TOURNAMENT_STATUSES, type TournamentStatus } from '../../vocabulary';

// Tournaments (round robin and Swiss): one self-describing document per tournament, written with
// compare-and-set on its version. Standings are never stored: they are computed from the
// pairings and the games' results (src/service/tournaments/standings.ts).

export interface TournamentPlayer {
  readonly account: string;
  readonly name: string;
  /** The seeding rating (seedRating at join). */
  readonly rating: number;
  readonly joinedAt: string;
  /** Withdrew after the start: no pairing from the round after this one; unplayed games forfeited. */
  readonly withdrawnAfterRound?: number;
}

/** Points of one game of a pairing, [first, second] (the pairing's players, not the game's seats). */
export type LegPoints = readonly [number, number];

export interface TournamentPairing {
  readonly round: number;
  /** 1, 2, 3… within the round (byes last). */
  readonly board: number;
  /** Plays seat 0 of the first leg (and of the only leg without micro-matches). */
  readonly first: string;
  /** null: `first` has a bye. */
  readonly second: string | null;
  /** The games' ids, one per leg (derived from tournament id, round, board, leg); none for a bye. */
  readonly games: readonly string[];
  /** Not played: that player had withdrawn (its opponent scores every leg). */
  readonly forfeitedBy?: string;
}

export interface StoredTournament {
  readonly id: string;
  readonly name: string;
  readonly kind: GameKind;
  readonly options: Options;
  readonly timeControl: TimeControl;
  readonly format: TournamentFormat;
  /** Rounds to play: Swiss as configured; round robin fixed at the start (n − 1, or n when odd). */
  readonly rounds: number;
  /** Each pairing plays two games, colours swapped; its score is their sum. */
  readonly microMatch: boolean;
  /** Points for a bye, per leg. */
  readonly byePoints: number;
  readonly rated: boolean;
  readonly minPlayers: number;
  readonly maxPlayers: number;
  /** Starts then (with at least minPlayers, else cancelled); null: when full. */
  readonly startsAt: string | null;
  /** Still open then (never filled, never started): cancelled. Absent on documents made before it. */
  readonly expiresAt?: string;
  readonly createdBy: string;
  /**
   * The pool it was made in, its creator's (ports/apps.ts): only that pool's accounts join it, read
   * it and see it listed. Absent: the open pool.
   */
  readonly pool?: string;
  readonly status: TournamentStatus;
  /** The round being played (0 before the start). */
  readonly round: number;
  readonly players: readonly TournamentPlayer[];
  /** Every pairing made so far (round robin: all rounds, made at the start). */
  readonly pairings: readonly TournamentPairing[];
  /** Results of the finished rounds' games: game id → points [first, second] of its pairing. */
  readonly results: Readonly<Record<string, LegPoints>>;
  /** Finished rounds' games lost on time by a player who never moved: game id → that account (a forfeit). */
  readonly noShows?: Readonly<Record<string, string>>;
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly startedAt?: string;
  readonly finishedAt?: string;
}

export interface TournamentPage {
  readonly items: readonly StoredTournament[];
  /** Pass back as `before` for the next page; null on the last page. */
  readonly next: number | null;
}

export type TournamentUpdate =
  | { readonly status: 'updated' }
  | { readonly status: 'conflict'; readonly currentVersion: number }
  | { readonly status: 'missing' };

export interface TournamentStore {
  /** Stores a new tournament (its id must be new) and lists it. */
  create(tournament: StoredTournament): Promise<void>;
  get(id: string): Promise<StoredTournament | undefined>;
  /**
   * Atomically: when the stored version is `expectedVersion`, writes `next` (whose version is
   * expectedVersion + 1), moves it to its status' listing and records `notices` for their
   * addressees' feeds, each delivered once even if this node dies right after the write (Redis:
   * the shard's outbox, like a game's); else conflict (or missing), and no notice.
   */
  update(
    next: StoredTournament,
    expectedVersion: number,
    notices?: readonly Notice[],
  ): Promise<TournamentUpdate>;
  /** Newest first, of one pool (default the open pool), of one status or all; `before` is a previous page's `next`. */
  list(
    status: TournamentStatus | undefined,
    limit: number,
    before?: number,
    pool?: string,
  ): Promise<TournamentPage>;
  /** The tournaments an account joined (or created), newest first. */
  listOf(account: string, limit: number, before?: number): Promise<TournamentPage>;
  /** Records that `account` is in a tournament (its "my tournaments"); idempotent. */
  addMember(account: string, id: string): Promise<void>;
  /**
   * Ids of the open and ongoing tournaments due at `now` (ms) by the due index (see dueAt), most
   * overdue first, at most `limit`. Each one answered is put back at `now + retryMs` (after every
   * other one due now), so the director goes round them; a write's due time replaces that.
   * Tournaments not due are never read.
   */
  due(now: number, limit: number, retryMs: number): Promise<string[]>;
  /** How many open or ongoing tournaments `account` created. */
  openBy(account: string): Promise<number>;
}

/**
 * When the director must next look at a tournament (ms since the epoch), null when never again:
 * an ongoing one at once (its games may have ended); an open one when full, else at its start
 * time or its expiry; a finished or cancelled one never.
 */
export function dueAt(t: StoredTournament): number | null {
  if (t.status === 'finished' || t.status === 'cancelled') return null;
  if (t.status === 'ongoing' || t.players.length >= t.maxPlayers) return 0;
  const times = [t.startsAt, t.expiresAt].flatMap((x) => (x ? [Date.parse(x)] : []));
  // A document from before expiresAt without a start time: looked at on every sweep (the director expires it).
  return times.length > 0 ? Math.min(...times) : Date.parse(t.createdAt);
}
