// Test helpers: positions drawn as ASCII boards, and move lists as sorted notation.
import { russianDraughts as engine, type DraughtsState } from '../../../src/engines/draughts';

/**
 * A position from an 8×8 picture, rank 8 first: `.` empty (any square), `w`/`b` men, `W`/`B` kings.
 * Pieces on light squares are rejected by parseState, so a mistyped picture fails loudly.
 */
export function fromAscii(picture: string, toMove: 'W' | 'B' = 'W'): DraughtsState {
  const rows = picture
    .trim()
    .split('\n')
    .map((r) => r.replace(/\s+/g, ''));
  if (rows.length !== 8 || rows.some((r) => r.length !== 8)) throw new Error('need 8 rows of 8 squares');
  const white: string[] = [];
  const black: string[] = [];
  rows.forEach((row, i) => {
    [...row].forEach((c, file) => {
      const square = `${'abcdefgh'[file]}${8 - i}`;
      if (c === 'w') white.push(square);
      else if (c === 'W') white.push(`K${square}`);
      else if (c === 'b') black.push(square);
      else if (c === 'B') black.push(`K${square}`);
    });
  });
  return state(`${toMove}:W${white.join(',')}:B${black.join(',')}`);
}

/** A parsed position (the test fails if it does not parse). */
export function state(fen: string): DraughtsState {
  const parsed = engine.parseState(fen);
  if (!parsed.ok) throw new Error(`${fen}: ${parsed.error.message}`);
  return parsed.value;
}

/** The legal moves of a position in notation, sorted. */
export function moveList(s: DraughtsState): string[] {
  return engine
    .moves(s)
    .map((m) => engine.formatMove(s, m))
    .sort();
}

/** Plays moves given in notation, failing the test on any illegal one. */
export function playAll(s: DraughtsState, moves: readonly string[]): DraughtsState {
  let current = s;
  for (const text of moves) {
    const move = engine.parseMove(current, text);
    if (!move.ok) throw new Error(`${text} in ${engine.formatState(current)}: ${move.error.message}`);
    const next = engine.play(current, move.value);
    if (!next.ok) throw new Error(`${text}: ${next.error.message}`);
    current = next.value;
  }
  return current;
}

/** The pieces of the structured board view. */
export function pieces(s: DraughtsState): ReadonlyArray<{ square: string; side: number; piece: string }> {
  const view = engine.board(s);
  if (view.type !== 'grid') throw new Error('draughts boards are grids');
  return view.pieces;
}
