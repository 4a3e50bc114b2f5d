// What a seat's command does to a game: every refusal and every next document, in one switch over
// GameCommand. Pure: the writer (./writer.ts) reads the game, authorizes the seat and applies the
// time before, and compare-and-sets the answer after.
import type { AnyEngine } from '../../engines/engine';
import { other, type Outcome, type Side } from '../../engines/types';
import type { MoveRecord, StoredGame } from '../../store/store';
import { abandonClaimAt, DAY_MS } from '../time/clock';
import { GameError } from '../errors';
import { applyMove, notYourTurn, positionFields } from './rules';
import type { GameCommand } from './commands';
import { acceptTakeback, declineTakeback, offerTakeback, withoutTakeback } from './takeback';

/** How long the player to move in an unlimited game may stay away before the other may claim. */
export const DEFAULT_ABANDON_CLAIM_MS = 3 * DAY_MS;

/** What `decide` needs besides the command: the game as read, who asks, when, and the rules. */
export interface DecideContext {
  readonly game: StoredGame;
  readonly seat: Side;
  readonly engine: AnyEngine;
  /** When the command is applied (ISO). */
  readonly at: string;
  /** The player to wait may claim once the opponent has not moved for this long (unlimited games). */
  readonly abandonClaimMs: number;
  /** The engine state of the game's position (a move only; the writer's cache or a replay). */
  readonly state: (engine: AnyEngine, game: StoredGame) => unknown;
}

/** A move's new engine state, so that the head view and the next write need not read the position again. */
export interface PlayedState {
  readonly version: number;
  readonly position: string;
  readonly state: unknown;
}

export interface Decision {
  /** The next document, before the writer applies the time (version, clocks, deadlines). */
  readonly next: StoredGame;
  /** A move's engine state after it (undefined for the other commands). */
  readonly played?: PlayedState;
}

/** The game ended with `outcome`: nobody to move, no moves, no standing offer. */
export function finish(game: StoredGame, outcome: Outcome): StoredGame {
  return {
    ...withoutTakeback(game),
    status: 'finished',
    outcome,
    toMove: null,
    legalMoves: [],
    drawOffer: null,
  };
}

/** The next document `command` makes of `context.game`, or the GameError that refuses it. */
export function decide(command: GameCommand, context: DecideContext): Decision {
  const { game, seat } = context;
  switch (command.type) {
    case 'move':
      return move(command.move, context);
    // Either player gives up, at any time (rules/README.md: "either player may resign at any time").
    case 'resign':
      return { next: finish(game, { winner: other(seat), reason: 'resignation' }) };
    // Either player ends the game without result, while not both sides have moved yet.
    case 'abort':
      if (new Set(game.moves.map((m) => m.seat)).size === 2) {
        throw new GameError('TOO_LATE_TO_ABORT', 'Both sides have moved; resign or offer a draw instead');
      }
      return { next: finish(game, { reason: 'aborted' }) };
    // Offering while the opponent's offer stands accepts it.
    case 'draw.offer':
      if (game.drawOffer === other(seat)) return { next: finish(game, { reason: 'agreement' }) };
      return { next: { ...game, drawOffer: seat } };
    case 'draw.accept':
      if (game.drawOffer !== other(seat)) throw noDrawOffer();
      return { next: finish(game, { reason: 'agreement' }) };
    case 'draw.decline':
      if (game.drawOffer !== other(seat)) throw noDrawOffer();
      return { next: { ...game, drawOffer: null } };
    // The draw rules of the hosted games (repetition, move counts, bare lions) end the game by
    // themselves as soon as they apply, so the one draw left to claim is against an opponent who
    // abandoned an unlimited game; anything else is NO_DRAW_CLAIM.
    case 'claim.draw':
      return { next: claimAbandoned(context, 'draw') };
    case 'claim.victory':
      return { next: claimAbandoned(context, 'victory') };
    // Either seat, in a casual game that allows them (./takeback.ts).
    case 'takeback.offer':
      return offerTakeback(context);
    case 'takeback.accept':
      return acceptTakeback(context);
    case 'takeback.decline':
      return declineTakeback(context);
  }
}

function move(text: string, { game, seat, engine, at, state }: DecideContext): Decision {
  if (game.toMove !== seat) throw notYourTurn(engine, game);
  const { next, notation, details } = applyMove(engine, game, state(engine, game), text);
  const record: MoveRecord = { ply: game.ply + 1, notation, seat, at, ...(details ? { details } : {}) };
  const fields = positionFields(engine, next);
  return {
    next: {
      // A move answers a takeback offer too (declined by playing on, or withdrawn by moving).
      ...withoutTakeback(game),
      ...fields,
      status: fields.outcome ? 'finished' : 'ongoing',
      ply: game.ply + 1,
      moves: [...game.moves, record],
      // A move answers any offer the opponent made: declined by playing on.
      drawOffer: game.drawOffer === seat ? seat : null,
    },
    played: { version: game.version + 1, position: fields.position, state: next },
  };
}

function noDrawOffer(): GameError {
  return new GameError('NO_DRAW_OFFER', 'The opponent has not offered a draw');
}

/**
 * The player to wait in an unlimited game wins (reason `abandoned`), or draws, once the opponent to
 * move has not moved for the abandon period since its turn began (StoredGame.turnStartedAt): CLAIM_TOO_EARLY (with
 * `claimableAt`) before; NO_VICTORY_CLAIM / NO_DRAW_CLAIM in games with a time control (their
 * deadlines end them) or on one's own turn.
 */
function claimAbandoned(
  { game, seat, at, abandonClaimMs }: DecideContext,
  claim: 'victory' | 'draw',
): StoredGame {
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
  // The game view's claimableAt says the same instant (view.ts).
  const claimableAt = abandonClaimAt(game, abandonClaimMs) as number;
  if (Date.parse(at) < claimableAt) {
    const when = new Date(claimableAt).toISOString();
    throw new GameError('CLAIM_TOO_EARLY', `The opponent may still move; a claim is possible from ${when}`, {
      claimableAt: when,
      abandonClaimSeconds: abandonClaimMs / 1000,
    });
  }
  return finish(game, claim === 'victory' ? { winner: seat, reason: 'abandoned' } : { reason: 'abandoned' });
}
