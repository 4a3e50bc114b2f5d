// Takebacks: a seat asks to take back its last move (its last turn: the moves from its own last move
// onward, and in mancala the extra moves it chained before it); the opponent accepts or declines.
// Pure, like decide.ts, which calls these: the writer times the next document (the running clock is
// charged what it ran, the turn starts at the takeback: see ../time/clock.ts) and the store drops
// the moves after the ply (GameEffects.truncate).
import { other, type Side } from '../../engines/types';
import type { MoveRecord, StoredGame } from '../../store/store';
import type { TakebackRefusal } from '../../vocabulary';
import { GameError } from '../errors';
import { positionFields, replayState } from './rules';
import type { Decision, DecideContext } from './decide';

/**
 * The built-in AI's accounts (`aiUsername` in ../bots/ai-games.ts, which this module cannot import
 * without a cycle): the AI accepts every takeback at once.
 */
const AI_ACCOUNT = /^ai-level-[1-8]$/;

/** Whether a game allows takebacks at all: casual games whose settings do not forbid them. */
export function takebackAllowed(game: Pick<StoredGame, 'rated' | 'settings'>): boolean {
  return game.rated !== true && game.settings?.takeback !== false;
}

/**
 * How many moves stay when `seat` takes back: those before its last turn (its last move and the
 * moves of its own just before it, chained extra turns); undefined when it has not moved.
 */
export function takebackPly(moves: readonly MoveRecord[], seat: Side): number | undefined {
  let index = moves.length - 1;
  while (index >= 0 && moves[index]?.seat !== seat) index--;
  if (index < 0) return undefined;
  while (index > 0 && moves[index - 1]?.seat === seat) index--;
  return index;
}

/** The game as it is without its moves after `toPly`: one version on, the asker to move again. */
function takeBack(context: DecideContext, toPly: number): Decision {
  const { game, engine, at } = context;
  const moves = game.moves.slice(0, toPly);
  const state = replayState(engine, { ...game, moves });
  const fields = positionFields(engine, state);
  const { takebackOffer: _offer, ...rest } = game;
  return {
    next: {
      ...rest,
      ...fields,
      status: 'ongoing',
      ply: toPly,
      moves,
      // The position the offers were made in is gone.
      drawOffer: null,
      turnStartedAt: at,
      takebacks: (game.takebacks ?? 0) + 1,
    },
    played: { version: game.version + 1, position: fields.position, state },
  };
}

function refused(reason: TakebackRefusal, message: string): GameError {
  return new GameError('TAKEBACK_NOT_ALLOWED', message, { reason });
}

function noOffer(): GameError {
  return new GameError('NO_TAKEBACK_OFFER', 'The opponent has no takeback offer pending');
}

/** Whether `seat`'s opponent is the built-in AI (which accepts at once). */
function againstAi(game: StoredGame, seat: Side): boolean {
  return AI_ACCOUNT.test(game.seats[other(seat)]?.account ?? '');
}

/**
 * `seat` asks to take back its last turn. Offering while the opponent's offer stands accepts that
 * one (as with draws); against the AI the offer is accepted at once.
 */
export function offerTakeback(context: DecideContext): Decision {
  const { game, seat, engine } = context;
  if (game.rated === true) throw refused('rated', 'Rated games allow no takeback');
  if (!takebackAllowed(game)) throw refused('forbidden', 'This game was created without takebacks');
  const standing = game.takebackOffer ?? null;
  if (standing?.seat === other(seat)) return takeBack(context, standing.toPly);
  if (standing?.seat === seat) throw refused('offered', 'Your takeback offer is pending already');
  const toPly = takebackPly(game.moves, seat);
  if (toPly === undefined) {
    throw refused('nothing', `${engine.seatNames[seat] as string} has no move to take back`);
  }
  if (againstAi(game, seat)) return takeBack(context, toPly);
  return { next: { ...game, takebackOffer: { seat, toPly } } };
}

/** The opponent's standing offer is accepted: its moves leave the game. */
export function acceptTakeback(context: DecideContext): Decision {
  const offer = context.game.takebackOffer;
  if (!offer || offer.seat !== other(context.seat)) throw noOffer();
  return takeBack(context, offer.toPly);
}

/** The opponent's standing offer is declined: the game goes on as it is. */
export function declineTakeback({ game, seat }: DecideContext): Decision {
  if (game.takebackOffer?.seat !== other(seat)) throw noOffer();
  return { next: { ...game, takebackOffer: null } };
}

/** `game` without a takeback offer or a takeback's turn start (a move, the end: they no longer apply). */
export function withoutTakeback(game: StoredGame): StoredGame {
  if (game.takebackOffer === undefined && game.turnStartedAt === undefined) return game;
  const { takebackOffer: _offer, turnStartedAt: _turn, ...rest } = game;
  return rest;
}

/** How many plies a takeback from `before` to `after` took back (0: none). */
export function pliesTakenBack(before: Pick<StoredGame, 'ply'>, after: Pick<StoredGame, 'ply'>): number {
  return Math.max(0, before.ply - after.ply);
}
