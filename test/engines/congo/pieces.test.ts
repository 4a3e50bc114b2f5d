// Piece movement drawn on the board: the diagram in, the piece's destinations out.
import { diagram, movesFrom } from './helpers';

const targets = (moves: string[]): string[] => moves.map((m) => m.slice(3)).sort();

describe('Congo pieces', () => {
  it('a land crocodile slides toward the river, taking the first enemy, never away from it', () => {
    const state = diagram(`
      . . . l . . .
      . . . . . . .
      . . . . . . .
      . . . . . p .
      . . . . . . .
      . . . . . . .
      . . . L . C .`);
    // f1: steps e1 e2 f2 g1 g2, slide f3 and the river square f4 (capturing); no slide backward.
    expect(targets(movesFrom(state, 'f1'))).toEqual(['e1', 'e2', 'f2', 'f3', 'f4', 'g1', 'g2']);
  });

  it('a crocodile slide stops before its own piece and does not pass an enemy', () => {
    const state = diagram(`
      . . . l . . .
      . . . . . . .
      . . . . . . .
      C . p . P . .
      . . . . . . .
      . . . . . . .
      . . . L . . .`);
    // a4 in the river: b4 (step), c4 (capture, slide stops); no vertical slide out of the river.
    expect(targets(movesFrom(state, 'a4'))).toEqual(['a3', 'a5', 'b3', 'b4', 'b5', 'c4']);
  });

  it('a giraffe leaps two squares over anything but cannot take an adjacent piece', () => {
    const state = diagram(`
      . . . l . . .
      . . . . . . .
      . . . . . . .
      . . . p . . .
      . . . G p . .
      . . . . . . .
      . . . L . . .`);
    expect(targets(movesFrom(state, 'd3'))).toEqual([
      'b1',
      'b3',
      'b5',
      'c2',
      'c3',
      'c4',
      'd2',
      'd5',
      'e2',
      'e4',
      'f1',
      'f3',
      'f5',
    ]);
  });

  it('an elephant moves one or two squares orthogonally, leaping the first', () => {
    const state = diagram(`
      . . . l . . .
      . . . . . . .
      . . . . . . .
      . . . . . . .
      . . . . . . .
      P E p . . . .
      . . . L . . .`);
    expect(targets(movesFrom(state, 'b2'))).toEqual(['b1', 'b3', 'b4', 'c2', 'd2']);
  });

  it('a zebra leaps like a knight', () => {
    const state = diagram(`
      . . . l . . .
      . . . . . . .
      . . . . . . .
      . . . Z . . .
      . P . . . . .
      . . . . . . .
      . . . L . . .`);
    expect(targets(movesFrom(state, 'd4'))).toEqual(['b5', 'c2', 'c6', 'e2', 'e6', 'f3', 'f5']);
  });

  it('a pawn past the river retreats one or two squares without capturing or jumping', () => {
    const state = diagram(`
      . . . l . . .
      . . . . . . .
      . P . . P . .
      . . . . p . .
      . . . . . . .
      . . . . . . .
      . . . L . . .`);
    expect(targets(movesFrom(state, 'b5'))).toEqual(['a6', 'b3', 'b4', 'b6', 'c6']);
    expect(targets(movesFrom(state, 'e5'))).toEqual(['d6', 'e6', 'f6']);
  });

  it('a superpawn also steps sideways and retreats diagonally, anywhere', () => {
    const state = diagram(`
      . . . l . . .
      . . . . . . .
      . . . . . . .
      . . . . . . .
      . . . . . . .
      . p S . . . .
      . . . L . . .`);
    expect(targets(movesFrom(state, 'c2'))).toEqual(['b1', 'b2', 'b3', 'c1', 'c3', 'd2', 'd3']);
  });

  it('a Black superpawn moves toward rank 1', () => {
    const state = diagram(
      `
      . . . l . . .
      . . . . . . .
      . . . . s . .
      . . . . . . .
      . . . . . . .
      . . . . . . .
      . . . L . . .`,
      'b',
    );
    expect(targets(movesFrom(state, 'e5'))).toEqual([
      'c7',
      'd4',
      'd5',
      'd6',
      'e4',
      'e6',
      'e7',
      'f4',
      'f5',
      'f6',
      'g7',
    ]);
  });

  it('a monkey steps to empty squares and jumps enemies only, never its own pieces', () => {
    const state = diagram(`
      . . . l . . .
      . . . . . . .
      . . . . . . .
      . . p P . . .
      . . . M . . .
      . . . . . . .
      . . . L . . .`);
    expect(targets(movesFrom(state, 'd3'))).toEqual(['b5', 'c2', 'c3', 'd2', 'e2', 'e3', 'e4']);
  });

  it('a monkey cannot land where a piece it jumped still stands', () => {
    // After c3-c5 over c4 the pawn still stands there and may not be jumped again: no c3-c5-c3.
    const state = diagram(`
      . . . l . . .
      . . . . . . .
      . . . . . . .
      . . p . . . .
      . . M . . . .
      . . . . . . .
      . . . L . . .`);
    expect(targets(movesFrom(state, 'c3'))).toEqual(['b2', 'b3', 'b4', 'c2', 'c5', 'd2', 'd3', 'd4']);
  });

  it('the lion steps inside its castle only', () => {
    const state = diagram(`
      z . . l . . .
      . . . . . . .
      . . . . . . .
      . . . . . . .
      . . . . . . .
      . . . . . . .
      . . L . . . .`);
    expect(targets(movesFrom(state, 'c1'))).toEqual(['c2', 'd1', 'd2']);
  });
});
