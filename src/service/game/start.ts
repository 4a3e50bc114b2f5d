// Where a new game starts: who moves first, and for a game from a position, that position.
// One vocabulary for `first` on every transport, and one validation of `position` for games,
// challenges and seeks.
import { randomInt } from 'node:crypto';
import type { AnyEngine } from '../../engines/engine';
import type { Options, Side } from '../../engines/types';
import { GameError } from '../errors';

/** The longest position string accepted (the longest real one, a full draughts FEN, is ~120). */
export const MAX_POSITION_LENGTH = 1000;

export interface Start {
  /** The seat that moves first. */
  readonly first: Side;
  /** A game from a position: the position in canonical notation (absent: the standard start). */
  readonly initialPosition?: string;
}

/**
 * `first` as every transport takes it: a seat name of the kind (`white`/`black`, `south`/`north`),
 * `random`, or the seat number `"0"`/`"1"` (REST also takes the JSON numbers 0 and 1). Default: seat 0.
 */
export function firstSeat(engine: AnyEngine, first: number | string | undefined): Side {
  if (first === undefined) return 0;
  const text = String(first).trim().toLowerCase();
  if (text === 'random') return randomInt(2) as Side;
  if (text === '0' || text === '1') return Number(text) as Side;
  const byName = engine.seatNames.indexOf(text);
  if (byName === 0 || byName === 1) return byName;
  throw new GameError(
    'INVALID_INPUT',
    `first must be ${engine.seatNames.map((n) => `"${n}"`).join(', ')}, "random", or the seat number "0" or "1"`,
    { field: 'first' },
  );
}

/**
 * A position string read for a new game: refused with INVALID_POSITION when it does not parse, is
 * impossible, or is already decided (no game is left to play).
 */
export function readPosition(
  engine: AnyEngine,
  options: Options,
  position: unknown,
): { readonly state: unknown; readonly position: string } {
  const refuse = (message: string, details: Record<string, unknown> = {}) =>
    new GameError('INVALID_POSITION', message, { field: 'position', ...details });
  if (typeof position !== 'string' || position.trim() === '') {
    throw refuse('position must be a non-empty string in the game’s notation');
  }
  if (position.length > MAX_POSITION_LENGTH) {
    throw refuse(`position is longer than ${MAX_POSITION_LENGTH} characters`);
  }
  const parsed = engine.parseState(position, options);
  if (!parsed.ok) {
    throw refuse(`Not a valid ${engine.kind} position: ${parsed.error.message}`, {
      reason: parsed.error.code,
    });
  }
  const state = parsed.value;
  const board = engine.board(state);
  const houses = options.houses;
  if (board.type === 'mancala' && typeof houses === 'number' && board.houses[0].length !== houses) {
    throw refuse(
      `The position has ${board.houses[0].length} houses per side but options.houses is ${houses}; ` +
        `create the game with options.houses ${board.houses[0].length}`,
    );
  }
  const outcome = engine.outcome(state);
  if (outcome || engine.moves(state).length === 0) {
    throw refuse(
      `The position is already decided${outcome ? ` (${outcome.reason})` : ''}: there is no game left to play`,
      { reason: 'DECIDED', ...(outcome ? { outcome } : {}) },
    );
  }
  return { state, position: engine.formatState(state) };
}

/**
 * Where a game starts. Without `position`: the standard start, `first` to move. With it: that
 * position, whose side to move moves first (`first` may be given only when it agrees).
 */
export function startOf(
  engine: AnyEngine,
  options: Options,
  input: { readonly position?: string | null; readonly first?: number | string },
): Start {
  if (input.position === undefined || input.position === null) {
    return { first: firstSeat(engine, input.first) };
  }
  const { state, position } = readPosition(engine, options, input.position);
  const toMove = engine.turn(state);
  if (input.first !== undefined) {
    const wanted =
      String(input.first).trim().toLowerCase() === 'random' ? null : firstSeat(engine, input.first);
    if (wanted !== toMove) {
      throw new GameError(
        'INVALID_INPUT',
        `The position has ${engine.seatNames[toMove]} to move; omit first (or give "${engine.seatNames[toMove]}")`,
        { field: 'first' },
      );
    }
  }
  return { first: toMove, initialPosition: position };
}
