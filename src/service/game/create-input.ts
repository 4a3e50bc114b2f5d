// What creating a game takes and answers (GameService.createGame), and what checking a move answers.
import type { MoveDetails } from '../../engines/move-details';
import type { TimeControlInput } from '../time/control';
import type { GameSettingsInput } from './settings';
import type { GameView } from './view';

export interface CreateGameInput {
  readonly kind: string;
  readonly options?: unknown;
  /** Seat name, seat number or 'random' (see start.ts firstSeat). Default: seat 0. */
  readonly first?: number | string;
  /** Start from this position (the game's notation) instead of the standard start. */
  readonly position?: string | null;
  /** Default: unlimited. */
  readonly timeControl?: TimeControlInput | null;
  /** Who may read it: public (default), unlisted or private (audience.ts). A seat-token game is the open app's. */
  readonly visibility?: string | null;
  /** What it allows (settings.ts): takebacks, chat. */
  readonly settings?: GameSettingsInput | null;
}

export interface CreatedGame {
  readonly game: GameView;
  /** One secret per seat, shown only in this answer. */
  readonly seatTokens: ReadonlyArray<{
    readonly seat: number;
    readonly name: string;
    readonly token: string;
  }>;
}

/** Who creates, for creates without an account: the address (quota, idempotency scope) and the key. */
export interface CreateOptions {
  readonly ip?: string;
  /** Retrying with the same key (from the same address) answers the first answer (24 h). */
  readonly idempotencyKey?: string;
}

export interface MoveCheck {
  /** The move in canonical notation. */
  readonly move: string;
  readonly position: string;
  readonly view: Pick<GameView, 'board' | 'legalMoves' | 'toMove' | 'toMoveName' | 'result' | 'status'>;
  readonly details: MoveDetails | null;
}
