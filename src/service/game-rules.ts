import type { AnyEngine } from '../engines/engine';
import type { EngineError } from '../engines/types';
import type { GameHead, StoredGame } from '../store/store';
import { GameError } from './errors';

// The rules as the service applies them to stored games: replays, a move's effect, its refusals.

/** The engine state a game started from: the standard start, or the position it was created from. */
export function startState(engine: AnyEngine, game: GameHead): unknown {
  if (game.initialPosition === undefined) return engine.setup(game.options, game.first);
  const start = engine.parseState(game.initialPosition, game.options);
  if (!start.ok) throw new Error(`stored game ${game.id}: its initial position does not parse`);
  return start.value;
}

/** The engine state after every move of `game`, replayed from its start (repetition history complete). */
export function replayState(engine: AnyEngine, game: StoredGame): unknown {
  let state = startState(engine, game);
  for (const record of game.moves) {
    const move = engine.parseMove(state, record.notation);
    const next = move.ok ? engine.play(state, move.value) : move;
    if (!next.ok) throw new Error(`stored game ${game.id} does not replay at ply ${record.ply}`);
    state = next.value;
  }
  return state;
}

/** `text` played in `state`: the next state, the move's canonical notation and its details. */
export function applyMove(engine: AnyEngine, game: StoredGame, state: unknown, text: string) {
  if (game.status === 'finished')
    throw new GameError('GAME_OVER', 'The game is over', { result: game.outcome });
  const move = engine.parseMove(state, text.trim());
  if (!move.ok) throw moveError(move.error, game);
  const details = engine.describeMove?.(state, move.value) ?? null;
  const notation = engine.formatMove(state, move.value);
  const next = engine.play(state, move.value);
  if (!next.ok) throw moveError(next.error, game);
  return { next: next.value, notation, details };
}

/** The stored fields a state determines: position, outcome, side to move, legal moves. */
export function positionFields(engine: AnyEngine, state: unknown) {
  const outcome = engine.outcome(state) ?? null;
  return {
    position: engine.formatState(state),
    outcome,
    toMove: outcome ? null : engine.turn(state),
    legalMoves: outcome ? [] : engine.moves(state).map((m) => engine.formatMove(state, m)),
  };
}

export function notYourTurn(engine: AnyEngine, game: StoredGame): GameError {
  const name = game.toMove === null ? 'nobody' : engine.seatNames[game.toMove];
  return new GameError('NOT_YOUR_TURN', `It is ${name}'s turn`, { toMove: game.toMove });
}

function moveError(error: EngineError, game: StoredGame): GameError {
  switch (error.code) {
    case 'AMBIGUOUS_MOVE':
      return new GameError('AMBIGUOUS_MOVE', error.message, { candidates: error.candidates ?? [] });
    case 'GAME_OVER':
      return new GameError('GAME_OVER', error.message, { result: game.outcome });
    default:
      return new GameError('ILLEGAL_MOVE', error.message, { legalMoves: game.legalMoves });
  }
}
