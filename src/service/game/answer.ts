// What a write of a seat is given (WriteOptions) and what it answers (WriteAnswer).
import type { MoveRecord } from '../../store/store';
import type { Credential } from '../accounts/auth';
import {
  LIVE_MOVES,
  toMoveView,
  withMoves,
  type GameHeadView,
  type GameView,
  type LiveGameView,
  type MovesSource,
  type MoveView,
  type MoveViewer,
} from './view';

export interface WriteOptions {
  readonly credential: Credential;
  /** The version the client last saw; a different current version fails with VERSION_CONFLICT. */
  readonly expectedVersion?: number;
  /** Retrying with the same key returns the first answer without acting twice (24 h). */
  readonly idempotencyKey?: string;
}

/**
 * What a write of a seat answers: the new head and the move the write played (null for the other
 * actions), O(1) in the length of the game, with the whole game built only when asked for (`game`,
 * once). REST answers `slim` with `Prefer: return=minimal`, GraphQL resolves `live` (its `moves`
 * field pages the moves on demand), and the whole `game` is the default REST answer.
 */
export class WriteAnswer implements MovesSource {
  private whole: GameView | undefined;

  constructor(
    readonly head: GameHeadView,
    readonly move: MoveView | null,
    private readonly viewer: MoveViewer,
    /** Every move of the new version, oldest first. */
    private readonly records: readonly MoveRecord[],
  ) {}

  moves(after = 0, limit?: number): readonly MoveView[] {
    const from = Math.min(after, this.records.length);
    return this.records
      .slice(from, limit === undefined ? undefined : from + limit)
      .map((m) => toMoveView(this.viewer, m));
  }

  get lastMove(): MoveView | null {
    const last = this.records[this.records.length - 1];
    return last ? toMoveView(this.viewer, last) : null;
  }

  /** The whole game, moves included: O(moves). */
  get game(): GameView {
    return (this.whole ??= withMoves(this.head, this.moves()));
  }

  /** The head, and the move the write played: a game stream's `update`, O(1). */
  get slim(): { readonly game: GameHeadView; readonly move: MoveView | null } {
    return { game: this.head, move: this.move };
  }

  /** The head with the moves on demand, as GraphQL resolves a Game. */
  get live(): LiveGameView {
    return { ...this.head, [LIVE_MOVES]: this };
  }
}
