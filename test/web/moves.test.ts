// Entering moves by clicking offers exactly the API's legal moves, prefix by prefix.
import { clickPit, clickSquare, gridChoices, moveSquares } from '../../web/src/play/moves';

describe('entering a move by clicking', () => {
  it('splits notation into squares (quiet, capture chains, monkey jumps)', () => {
    expect(moveSquares('c3-d4')).toEqual(['c3', 'd4']);
    expect(moveSquares('E3:G5:E7')).toEqual(['e3', 'g5', 'e7']);
    expect(moveSquares('c2-e4-e2-c2')).toEqual(['c2', 'e4', 'e2', 'c2']);
  });

  it('offers the starts, then the next squares of the moves that begin with the path', () => {
    const legal = ['c3-d4', 'c3-b4', 'e3-f4'];
    expect([...gridChoices(legal, []).starts].sort()).toEqual(['c3', 'e3']);
    expect(gridChoices(legal, []).targets.size).toBe(0);
    expect([...gridChoices(legal, ['c3']).targets].sort()).toEqual(['b4', 'd4']);
    expect(gridChoices(legal, ['c3']).complete).toBeUndefined();
    expect(clickSquare(legal, [], 'c3')).toEqual({ path: ['c3'] });
    expect(clickSquare(legal, ['c3'], 'e3')).toEqual({ path: ['e3'] });
    expect(clickSquare(legal, ['c3'], 'c3')).toEqual({ path: [] });
    expect(clickSquare(legal, ['c3'], 'd4')).toEqual({ play: 'c3-d4' });
    expect(clickSquare(legal, ['c3'], 'h8')).toEqual({ path: [] });
  });

  it('walks a draughts capture chain square by square and plays it at its last square', () => {
    const legal = ['c3:e5:g7', 'c3:e5:c7'];
    expect(clickSquare(legal, ['c3'], 'e5')).toEqual({ path: ['c3', 'e5'] });
    expect([...gridChoices(legal, ['c3', 'e5']).targets].sort()).toEqual(['c7', 'g7']);
    expect(gridChoices(legal, ['c3', 'e5']).complete).toBeUndefined();
    expect(clickSquare(legal, ['c3', 'e5'], 'g7')).toEqual({ play: 'c3:e5:g7' });
    // Mid-chain, a square off every legal path starts over.
    expect(clickSquare(legal, ['c3', 'e5'], 'd4')).toEqual({ path: [] });
  });

  it('lets a monkey stop or jump on when both are legal, and revisit squares', () => {
    const legal = ['a5-c7', 'a5-c7-e5', 'c2-e4-e2-c2', 'c2-e4'];
    expect(clickSquare(legal, ['a5'], 'c7')).toEqual({ path: ['a5', 'c7'] });
    expect(gridChoices(legal, ['a5', 'c7']).complete).toBe('a5-c7');
    expect([...gridChoices(legal, ['a5', 'c7']).targets]).toEqual(['e5']);
    expect(clickSquare(legal, ['a5', 'c7'], 'e5')).toEqual({ play: 'a5-c7-e5' });
    expect(clickSquare(legal, ['c2', 'e4', 'e2'], 'c2')).toEqual({ play: 'c2-e4-e2-c2' });
  });

  it('maps a house click to the legal move of the seat that owns it', () => {
    expect(clickPit(['1', '3'], 0, 'S3')).toBe('3');
    expect(clickPit(['1', '3'], 0, 'S2')).toBeUndefined();
    expect(clickPit(['1', '3'], 1, 'S3')).toBeUndefined();
    expect(clickPit(['1', '3'], 1, 'N1')).toBe('1');
  });
});
