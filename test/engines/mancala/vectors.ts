// Table-driven move vectors from docs/rules (the games' "Test vectors"): position + move → exact
// result. Most vector positions hold fewer seeds than a game starts with, which parseState refuses
// (a position must be one the options allow), so they are read without the position checks.
import type { Engine } from '../../../src/engines/engine';
import { CONGKAK } from '../../../src/engines/mancala/congkak';
import { readPosition, type MancalaGame } from '../../../src/engines/mancala/engine';
import { KALAH } from '../../../src/engines/mancala/kalah';
import { OWARE } from '../../../src/engines/mancala/oware';
import type { MancalaState } from '../../../src/engines/mancala/state';
import type { EngineErrorCode, Outcome } from '../../../src/engines/types';

const GAMES: Record<string, MancalaGame> = { kalah: KALAH, oware: OWARE, congkak: CONGKAK };

/** A position read without parseState's checks (any seed total), with the given options. */
export function anyState<S, M>(engine: Engine<S, M>, text: string, options: unknown = {}): S {
  const parsed = engine.parseOptions(options);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const game = GAMES[engine.kind];
  if (!game) throw new Error(`${engine.kind} is not a mancala game`);
  const state = readPosition(game, text, parsed.value, false);
  if (!state.ok) throw new Error(state.error.message);
  return state.value as MancalaState as S;
}

export interface MoveVector {
  /** Vector id in vectors.md (K1, O4b, G7 …) plus the move. */
  readonly id: string;
  readonly options?: Record<string, unknown>;
  readonly position: string;
  readonly move: string;
  readonly result: string;
  /** The game ends with this move: final score and, unless a draw, the winner. */
  readonly over?: Pick<Outcome, 'score' | 'winner'> & { readonly reason?: Outcome['reason'] };
}

/** Split "K1: 1 → a; 2 → b" style lists into vectors with one move each. */
export function eachMove(
  id: string,
  position: string,
  results: Record<string, string>,
  options?: Record<string, unknown>,
): MoveVector[] {
  return Object.entries(results).map(([move, result]) => ({ id, position, move, result, options }));
}

/** Declare one test per vector: the exact result position, the side to move and the end. */
export function describeMoveVectors<S, M>(engine: Engine<S, M>, vectors: readonly MoveVector[]): void {
  it.each(vectors.map((v) => [`${v.id}: ${v.move} from ${v.position}`, v] as const))(
    'vector %s gives the stated result',
    (_label, v) => {
      const state = anyState(engine, v.position, v.options ?? {});
      expect(engine.outcome(state)).toBeUndefined();
      const move = engine.parseMove(state, v.move);
      if (!move.ok) throw new Error(move.error.message);
      const next = engine.play(state, move.value);
      if (!next.ok) throw new Error(next.error.message);
      expect(engine.formatState(next.value)).toBe(v.result);
      expect(engine.turn(next.value)).toBe(v.result.endsWith(' N') ? 1 : 0);
      const outcome = engine.outcome(next.value);
      if (v.over) {
        expect(outcome).toBeDefined();
        expect(outcome?.score).toEqual(v.over.score);
        expect(outcome?.winner).toBe(v.over.winner);
        if (v.over.reason) expect(outcome?.reason).toBe(v.over.reason);
        expect(engine.moves(next.value)).toEqual([]);
      } else {
        expect(outcome).toBeUndefined();
        expect(engine.moves(next.value).length).toBeGreaterThan(0);
      }
    },
  );
}

/** The legal moves of a position, in notation. */
export function legalMoves<S, M>(engine: Engine<S, M>, position: string, options: unknown = {}): string[] {
  const state = anyState(engine, position, options);
  return engine.moves(state).map((m) => engine.formatMove(state, m));
}

/** Table tests: each option set fails with INVALID_OPTIONS, each position with its code. */
export function describeRejections<S, M>(
  engine: Engine<S, M>,
  options: readonly unknown[],
  positions: ReadonlyArray<readonly [string, EngineErrorCode]>,
  optionsMessage?: RegExp,
): void {
  it.each(options.map((o) => [o]))('rejects the options %j with INVALID_OPTIONS', (raw) => {
    const parsed = engine.parseOptions(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.code).toBe('INVALID_OPTIONS');
    if (!parsed.ok && optionsMessage) expect(parsed.error.message).toMatch(optionsMessage);
  });

  it.each(positions.map(([text, code]) => [text, code]))('rejects the position %j with %s', (text, code) => {
    const parsed = engine.parseState(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.code).toBe(code);
  });
}
