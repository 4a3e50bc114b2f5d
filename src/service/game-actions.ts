import { other, type Side } from '../engines/types';
import type { StoredGame } from '../store/store';
import { DAY_MS, turnStart } from './clock';
import { GameError } from './errors';
import { finish, type WriteAnswer } from './game-writes';
import type { GameService } from './games';
import type { WriteOptions } from './game-writes';

/** How long the player to move in an unlimited game may stay away before the other may claim. */
export const DEFAULT_ABANDON_CLAIM_MS = 3 * DAY_MS;

/**
 * The in-game actions other than moves: resign, abort, draws, and claims against an opponent who
 * abandoned an unlimited game. Each is a write of a seat with the same If-Match and Idempotency-Key
 * semantics as a move (see GameService.write), and its feed events follow from the change. Each
 * answers the new head (its `move` is null) with the whole game on demand (see WriteAnswer).
 */
export class GameActions {
  constructor(
    private readonly games: GameService,
    /** The player to wait may claim once the opponent has not moved for this long (unlimited games). */
    private readonly abandonClaimMs = DEFAULT_ABANDON_CLAIM_MS,
  ) {}

  /** Either player gives up, at any time (rules/README.md: "either player may resign at any time"). */
  async resign(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.games.writes.write(id, write, 'resign', (game, seat) =>
      finish(game, { winner: other(seat), reason: 'resignation' }),
    );
  }

  /** Either player ends the game without result, while not both sides have moved yet. */
  async abort(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.games.writes.write(id, write, 'abort', (game) => {
      if (new Set(game.moves.map((m) => m.seat)).size === 2) {
        throw new GameError('TOO_LATE_TO_ABORT', 'Both sides have moved; resign or offer a draw instead');
      }
      return finish(game, { reason: 'aborted' });
    });
  }

  /** Offer a draw; offering while the opponent's offer stands accepts it. */
  async offerDraw(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.games.writes.write(id, write, 'draw:offer', (game, seat) => {
      if (game.drawOffer === other(seat)) return finish(game, { reason: 'agreement' });
      return { ...game, drawOffer: seat };
    });
  }

  /** Accept the opponent's standing draw offer. */
  async acceptDraw(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.games.writes.write(id, write, 'draw:accept', (game, seat) => {
      if (game.drawOffer !== other(seat))
        throw new GameError('NO_DRAW_OFFER', 'The opponent has not offered a draw');
      return finish(game, { reason: 'agreement' });
    });
  }

  /** Decline the opponent's standing draw offer. */
  async declineDraw(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.games.writes.write(id, write, 'draw:decline', (game, seat) => {
      if (game.drawOffer !== other(seat))
        throw new GameError('NO_DRAW_OFFER', 'The opponent has not offered a draw');
      return { ...game, drawOffer: null };
    });
  }

  /**
   * Claim a draw. The draw rules of the hosted games (repetition, move counts, bare lions) end the
   * game by themselves as soon as they apply, so the one draw left to claim is against an opponent
   * who abandoned an unlimited game (see claimVictory); anything else is NO_DRAW_CLAIM.
   */
  async claimDraw(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.games.writes.write(id, write, 'draw:claim', (game, seat, _engine, at) =>
      this.claimAbandoned(game, seat, Date.parse(at), 'draw'),
    );
  }

  /**
   * The player to wait in an unlimited game wins (reason `abandoned`) once the opponent to move has
   * not moved for the abandon period since its turn began: CLAIM_TOO_EARLY (with `claimableAt`)
   * before, NO_VICTORY_CLAIM in games with a time control (their deadlines end them) or on one's
   * own turn.
   */
  async claimVictory(id: string, write: WriteOptions): Promise<WriteAnswer> {
    return this.games.writes.write(id, write, 'victory:claim', (game, seat, _engine, at) =>
      this.claimAbandoned(game, seat, Date.parse(at), 'victory'),
    );
  }

  private claimAbandoned(game: StoredGame, seat: Side, at: number, claim: 'victory' | 'draw'): StoredGame {
    const refuse = (why: string) =>
      claim === 'draw'
        ? new GameError(
            'NO_DRAW_CLAIM',
            `No draw can be claimed: the draw rules of ${game.kind} end the game by themselves when they apply, and ${why}; offer a draw instead`,
          )
        : new GameError('NO_VICTORY_CLAIM', `No victory can be claimed: ${why}`);
    const type = game.timeControl?.type ?? 'unlimited';
    if (type !== 'unlimited') {
      throw refuse(
        `an abandoned game can be claimed only without a time control (this ${type} game ends by timeout)`,
      );
    }
    if (game.toMove !== other(seat))
      throw refuse('an abandoned game can be claimed only while the opponent is to move');
    const claimableAt = turnStart(game) + this.abandonClaimMs;
    if (at < claimableAt) {
      const when = new Date(claimableAt).toISOString();
      throw new GameError(
        'CLAIM_TOO_EARLY',
        `The opponent may still move; a claim is possible from ${when}`,
        {
          claimableAt: when,
          abandonClaimSeconds: this.abandonClaimMs / 1000,
        },
      );
    }
    return finish(
      game,
      claim === 'victory' ? { winner: seat, reason: 'abandoned' } : { reason: 'abandoned' },
    );
  }
}
