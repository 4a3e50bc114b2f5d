// Shared helpers for the Congo tests: positions from FEN or ASCII diagrams, moves as notation.
import { congoEngine as engine } from '../../../src/engines/congo';
import { readFen } from '../../../src/engines/congo/fen';
import { makeState, type CongoState } from '../../../src/engines/congo/state';

/** The state of a Congo FEN (fails the test on a parse error). */
export function position(fen: string): CongoState {
  const parsed = engine.parseState(fen);
  if (!parsed.ok) throw new Error(`${fen}: ${parsed.error.message}`);
  return parsed.value;
}

/**
 * The state of a Congo FEN read without parseState's position checks, for move-generation tests on
 * positions that cannot arise in play (more pieces than a side has, several pieces in the river).
 */
export function anyPosition(fen: string): CongoState {
  const read = readFen(fen);
  if (!read.ok) throw new Error(`${fen}: ${read.error.message}`);
  return makeState(read.value.board, read.value.side, undefined, 0);
}

/**
 * The state of an ASCII 7×7 diagram: rank 7 first, one character per square (`.` empty, FEN
 * letters otherwise), spaces ignored; `toMove` is 'w' or 'b'; `checked` false reads it as
 * `anyPosition` does.
 */
export function diagram(text: string, toMove: 'w' | 'b' = 'w', checked = true): CongoState {
  const rows = text
    .trim()
    .split('\n')
    .map((row) => row.replace(/\s+/g, ''));
  if (rows.length !== 7 || rows.some((r) => r.length !== 7)) throw new Error('diagram must be 7×7');
  const fen = rows.map((r) => r.replace(/\.+/g, (dots) => String(dots.length))).join('/');
  return checked ? position(`${fen} ${toMove}`) : anyPosition(`${fen} ${toMove}`);
}

/** The legal moves in notation, sorted. */
export function legal(state: CongoState): string[] {
  return engine
    .moves(state)
    .map((m) => engine.formatMove(state, m))
    .sort();
}

/** Plays a sequence of moves given in notation (fails the test on any error). */
export function play(state: CongoState, ...moves: string[]): CongoState {
  let current = state;
  for (const text of moves) {
    const move = engine.parseMove(current, text);
    if (!move.ok) throw new Error(`${text}: ${move.error.message} in ${engine.formatState(current)}`);
    const next = engine.play(current, move.value);
    if (!next.ok) throw new Error(`${text}: ${next.error.message}`);
    current = next.value;
  }
  return current;
}

/** Legal moves of `state` starting on `square`, without the square prefix check noise. */
export function movesFrom(state: CongoState, square: string): string[] {
  return legal(state).filter((m) => m.startsWith(`${square}-`));
}
