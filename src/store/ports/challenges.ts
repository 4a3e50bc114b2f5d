import type { GameKind, Options } from '../../engines/types';
import type { Notice } from './feed';
import type { GameLimit, StoredGame, StoredGameSettings } from './games';
import type { TimeControl } from './time-control';
import type { ChallengeStart, ChallengeStatus, DeclineReason, GameVisibility } from '../../vocabulary';
export { DECLINE_REASONS, type DeclineReason } from '../../vocabulary';

// Challenges.

export interface StoredChallenge {
  readonly id: string;
  readonly version: number;
  readonly status: ChallengeStatus;
  readonly kind: GameKind;
  readonly options: Options;
  readonly timeControl: TimeControl;
  /** A challenge to a game from a position: the position (canonical notation); absent: the standard start. */
  readonly initialPosition?: string;
  /** The account that made the challenge. */
  /** The game it makes is rated (absent: casual). */
  readonly rated?: boolean;
  /** Who may read the game it becomes (absent: public; see service/game/audience.ts). */
  readonly visibility?: GameVisibility;
  /** What the game it becomes allows, where not the defaults (service/game/settings.ts). */
  readonly settings?: StoredGameSettings;
  readonly challenger: string;
  /** Direct challenges: the challenged account. Null for open challenges. */
  readonly destination: string | null;
  /** Open challenges limited to a named pair; null when anyone with the link may accept. */
  readonly players: readonly [string, string] | null;
  /** Who moves first: for direct challenges 'challenger' | 'destination'; 'listed' (open) = players[0]. */
  readonly starts: ChallengeStart;
  /** Accounts that accepted, in order (an open challenge needs two). */
  readonly accepted: readonly string[];
  readonly declineReason: DeclineReason | null;
  /** Who declined or canceled. */
  readonly closedBy: string | null;
  /** The game the challenge became. */
  readonly gameId: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly expiresAt: string;
}

export type ChallengeUpdateResult =
  | 'updated'
  | 'conflict'
  | 'missing'
  /** The game would start while `tooManyGames` has its maximum of ongoing games: nothing written. */
  | { readonly tooManyGames: string };

export interface ChallengePage {
  readonly items: readonly StoredChallenge[];
  /** Pass back as `before` for the next page (the last item's creation, ms); null on the last page. */
  readonly next: number | null;
}

export interface ChallengeStore {
  /** Stores a new challenge and appends `notices`, atomically. */
  createChallenge(challenge: StoredChallenge, notices: readonly Notice[]): Promise<void>;
  getChallenge(id: string): Promise<StoredChallenge | undefined>;
  /**
   * Compare-and-set on `version`: if the stored version is `expectedVersion`, write `next`, create
   * `game` (when given; the challenge became it, and has its id) and append `notices`, all
   * atomically. With a game, `limits` are checked in the same step (tooManyGames, nothing written).
   */
  updateChallenge(
    next: StoredChallenge,
    expectedVersion: number,
    effects: {
      readonly notices: readonly Notice[];
      readonly game?: StoredGame;
      readonly limits?: readonly GameLimit[];
    },
  ): Promise<ChallengeUpdateResult>;
  /** Open challenges that involve `account` (challenger, destination or named player), newest first. */
  listOpen(account: string): Promise<StoredChallenge[]>;
  /**
   * A page of listOpen: at most `limit` (more when several were created in the same millisecond as
   * the page's last one, so that a page boundary never splits them), created before `before` (ms).
   */
  pageOpen(account: string, limit: number, before?: number): Promise<ChallengePage>;
  /** Ids of open challenges whose expiresAt is at or before `now` (ISO), oldest first. */
  dueChallenges(now: string, limit: number): Promise<string[]>;
}
