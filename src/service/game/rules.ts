import type { AnyEngine } from '../../engines/engine';
import type { AnyKind } from '../../engines/kind';
import { kindIds, kindOf } from '../../engines/kinds';
import type { MoveDetails } from '../../engines/move-details';
import type { EngineError } from '../../engines/types';
import type { GameHead, MoveRecord, StoredGame } from '../../store/store';
import { GameError } from '../errors';

// The rules as the service applies them to stored games: replays, a move's effect, its refusals.
//
// A store may drop the `details` of the moves of finished games (engine facts such as captures and
// sowing traces) to keep them small: they follow from the moves. The service puts them back by
// replaying the game before it builds any view, so the API answers the same either way.

/** The descriptor of a kind this server hosts (UNKNOWN_GAME_KIND otherwise). */
export function kindFor(kind: string): AnyKind {
  const descriptor = kindOf(kind);
  if (!descriptor) {
    const kinds = [...kindIds()];
    throw new GameError('UNKNOWN_GAME_KIND', `Unknown game kind "${kind}"; hosted: ${kinds.join(', ')}`, {
      kinds,
    });
  }
  return descriptor;
}

/** The engine of a kind this server hosts (UNKNOWN_GAME_KIND otherwise). */
export function engineFor(kind: string): AnyEngine {
  return kindFor(kind).engine;
}

/** The engine state a game started from: the standard start, or the position it was created from. */
export function startState(engine: AnyEngine, game: GameHead): unknown {
  if (game.initialPosition === undefined) return engine.setup(game.options, game.first);
  const start = engine.parseState(game.initialPosition, game.options);
  if (!start.ok) throw new Error(`stored game ${game.id}: its initial position does not parse`);
  return start.value;
}

/** True when some move lacks the details its engine gives every move. */
export function lacksDetails(engine: AnyEngine, moves: readonly MoveRecord[]): boolean {
  return engine.describeMove !== undefined && moves.some((m) => m.details === undefined);
}

/**
 * `game` with the details of every move, replayed from its start when some are missing (the same
 * object when none is). Costs one replay of the game, and nothing when every move has its details.
 */
export function withDetails(engine: AnyEngine, game: StoredGame): StoredGame {
  if (!lacksDetails(engine, game.moves)) return game;
  let state = startState(engine, game);
  const moves = game.moves.map((record) => {
    const move = engine.parseMove(state, record.notation);
    const next = move.ok ? engine.play(state, move.value) : move;
    if (!move.ok || !next.ok) throw new Error(`stored game ${game.id} does not replay at ply ${record.ply}`);
    const details = record.details ?? describeLegal(engine, state, move.value);
    state = next.value;
    return record.details === undefined ? { ...record, details } : record;
  });
  return { ...game, moves };
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
  const details = describeLegal(engine, state, move.value) ?? null;
  const notation = engine.formatMove(state, move.value);
  const next = engine.play(state, move.value);
  if (!next.ok) throw moveError(next.error, game);
  return { next: next.value, notation, details };
}

/**
 * The details of a move that parsed, so is legal: never mancala's answer for another value
 * (IllegalMancalaMove). Undefined for an engine that does not describe moves.
 */
function describeLegal(engine: AnyEngine, state: unknown, move: unknown): MoveDetails | undefined {
  return engine.describeMove?.(state, move) as MoveDetails | undefined;
}

/** The legal moves of `state`, in notation (a game's `legalMoves` while it goes on). */
export function legalMovesOf(engine: AnyEngine, state: unknown): string[] {
  return engine.moves(state).map((m) => engine.formatMove(state, m));
}

/** The stored fields a state determines: position, outcome, side to move, legal moves. */
export function positionFields(engine: AnyEngine, state: unknown) {
  const outcome = engine.outcome(state) ?? null;
  return {
    position: engine.formatState(state),
    outcome,
    toMove: outcome ? null : engine.turn(state),
    legalMoves: outcome ? [] : legalMovesOf(engine, state),
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
