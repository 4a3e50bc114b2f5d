import type { Engine } from './engine';

/** Number of legal move sequences of length `depth` from `state` (a finished game has no moves). */
export function perft<S, M>(engine: Engine<S, M>, state: S, depth: number): number {
  if (depth === 0) return 1;
  const moves = engine.moves(state);
  if (depth === 1) return moves.length;
  let nodes = 0;
  for (const move of moves) {
    const next = engine.play(state, move);
    // A listed move that does not play is an engine bug, never bad user input.
    if (!next.ok) throw new Error(`perft: listed move ${engine.formatMove(state, move)} failed to play`);
    nodes += perft(engine, next.value, depth - 1);
  }
  return nodes;
}

/** Perft through the engine's fast path when it has one. */
export function fastPerft<S, M>(engine: Engine<S, M>, state: S, depth: number): number {
  return engine.perft ? engine.perft(state, depth) : perft(engine, state, depth);
}

/** Perft split by root move: [notation, count] in the engine's move order. */
export function divide<S, M>(engine: Engine<S, M>, state: S, depth: number): Array<[string, number]> {
  if (depth < 1) return [];
  return engine.moves(state).map((move) => {
    const next = engine.play(state, move);
    if (!next.ok) throw new Error(`divide: listed move ${engine.formatMove(state, move)} failed to play`);
    return [engine.formatMove(state, move), fastPerft(engine, next.value, depth - 1)];
  });
}
