import { other } from '../engines/types';
import { GameError } from './errors';
import type { GameView } from './game-view';
import { finish, notYourTurn, type GameService, type WriteOptions } from './games';

/**
 * The in-game actions other than moves: resign, abort and draws. Each is a write of a seat with
 * the same If-Match and Idempotency-Key semantics as a move (see GameService.write), and its feed
 * events follow from the change.
 */
export class GameActions {
  constructor(private readonly games: GameService) {}

  /** The player to move gives up (rules/README.md: "the player to move may resign"). */
  async resign(id: string, write: WriteOptions): Promise<GameView> {
    return this.games.write(id, write, 'resign', (game, seat, engine) => {
      if (game.toMove !== seat) throw notYourTurn(engine, game);
      return finish(game, { winner: other(seat), reason: 'resignation' });
    });
  }

  /** Either player ends the game without result, while not both sides have moved yet. */
  async abort(id: string, write: WriteOptions): Promise<GameView> {
    return this.games.write(id, write, 'abort', (game) => {
      if (new Set(game.moves.map((m) => m.seat)).size === 2) {
        throw new GameError('TOO_LATE_TO_ABORT', 'Both sides have moved; resign or offer a draw instead');
      }
      return finish(game, { reason: 'aborted' });
    });
  }

  /**
   * Claim a draw the rules allow on request. In every game hosted here the draw rules
   * (repetition, move counts, bare lions) end the game by themselves as soon as they apply, so a
   * claim never has anything to act on: it is refused with NO_DRAW_CLAIM after the usual checks.
   */
  async claimDraw(id: string, write: WriteOptions): Promise<GameView> {
    return this.games.write(id, write, 'draw:claim', (game) => {
      throw new GameError(
        'NO_DRAW_CLAIM',
        `No draw can be claimed in ${game.kind}: its draw rules end the game automatically when they apply; offer a draw instead`,
      );
    });
  }

  /** Offer a draw; offering while the opponent's offer stands accepts it. */
  async offerDraw(id: string, write: WriteOptions): Promise<GameView> {
    return this.games.write(id, write, 'draw:offer', (game, seat) => {
      if (game.drawOffer === other(seat)) return finish(game, { reason: 'agreement' });
      return { ...game, drawOffer: seat };
    });
  }

  /** Accept the opponent's standing draw offer. */
  async acceptDraw(id: string, write: WriteOptions): Promise<GameView> {
    return this.games.write(id, write, 'draw:accept', (game, seat) => {
      if (game.drawOffer !== other(seat))
        throw new GameError('NO_DRAW_OFFER', 'The opponent has not offered a draw');
      return finish(game, { reason: 'agreement' });
    });
  }

  /** Decline the opponent's standing draw offer. */
  async declineDraw(id: string, write: WriteOptions): Promise<GameView> {
    return this.games.write(id, write, 'draw:decline', (game, seat) => {
      if (game.drawOffer !== other(seat))
        throw new GameError('NO_DRAW_OFFER', 'The opponent has not offered a draw');
      return { ...game, drawOffer: null };
    });
  }
}
