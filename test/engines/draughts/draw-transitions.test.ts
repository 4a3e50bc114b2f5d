// Transitions between the counting draw rules (rules B9, B10): each of 7.2.4, 7.2.6, 7.2.7 and 7.2.8
// keeps its own count, which starts at 0 on the move that makes its condition hold. Every case starts
// from a position string carrying the counts (D<7.2.5>,<7.2.6>,<7.2.4>,<7.2.7>,<7.2.8>), plays the
// transition move (ply 1), then quiet moves, and checks the exact ply the draw falls on.
import { russianDraughts as engine, type DraughtsState } from '../../../src/engines/draughts';
import { playAll, state } from './helpers';
import { LONG_DIAGONAL, expectDrawAt, lonePiece, walk } from './walk';

/** The D field of a state (all zero when absent). */
const counts = (s: DraughtsState): string => engine.formatState(s).split(':D')[1] ?? '0,0,0,0,0';
const onDiagonal = (s: DraughtsState, side: number) =>
  lonePiece(s, side).filter((p) => LONG_DIAGONAL.has(p.square)).length;

describe('russian draughts: transitions between the draw rules', () => {
  it('7.2.7 → 7.2.8 by capture: the side facing 7.2.8 gets its full 5 moves from the capture', () => {
    // 7.2.7 count at 9: without the capture the draw would fall on ply 1.
    const start = state('W:WKd4:BKh2,c5,a3:D0,0,0,9,0');
    const s1 = playAll(start, ['d4:b6']);
    expect(engine.outcome(s1)).toBeUndefined();
    expect(counts(s1)).toBe('0,0,0,0,0');
    const line = walk(s1, 10);
    expectDrawAt(line, 10, 'small-material'); // ply 11 from the position
  });

  it('7.2.4 → 7.2.7 by capture: the lone king lands on the long diagonal, both counts start at 0', () => {
    const start = state('W:WKa1:BKc3,Ke1,Kh2,Kb8:D0,0,25,0,0');
    const s1 = playAll(start, ['a1:d4']);
    expect(counts(s1)).toBe('0,0,0,0,0');
    const line = walk(s1, 10, { allow: (s) => onDiagonal(s, 0) === 1 && onDiagonal(s, 1) === 0 });
    expectDrawAt(line, 10, 'long-diagonal'); // ply 11
  });

  it('7.2.4 → 7.2.7 by a move: 7.2.7 counts from 0 while 7.2.4 runs on (and falls first)', () => {
    const start = state('B:WKc1,Ke1,Kg1:BKh6:D0,0,22,0,0');
    const s1 = playAll(start, ['h6-g7']);
    expect(counts(s1)).toBe('1,1,23,0,0');
    const line = walk(s1, 7, { allow: (s) => onDiagonal(s, 1) === 1 && onDiagonal(s, 0) === 0 });
    expectDrawAt(line, 7, 'three-kings-vs-one'); // ply 8: 7.2.4 reaches 30 plies
  });

  it('7.2.4 → 7.2.7 by a move: with a young 7.2.4 count, 7.2.7 falls 5 moves after the move', () => {
    const start = state('B:WKc1,Ke1,Kg1:BKh6:D0,0,2,0,0');
    const s1 = playAll(start, ['h6-g7']);
    const line = walk(s1, 10, { allow: (s) => onDiagonal(s, 1) === 1 && onDiagonal(s, 0) === 0 });
    expectDrawAt(line, 10, 'long-diagonal'); // ply 11
    expect(counts(line[10] as DraughtsState)).toBe('11,11,13,10,0');
  });

  it('7.2.7 → 7.2.4 by a move: leaving the diagonal ends the 7.2.7 count, 7.2.4 runs on', () => {
    // 7.2.7 at 6 would fall on ply 4; 7.2.4 at 20 falls on ply 10.
    const start = state('B:WKc1,Ke1,Kg1:BKb2:D0,0,20,6,0');
    const line = walk(start, 10, { allow: (s) => onDiagonal(s, 1) === 0 });
    expect(counts(line[1] as DraughtsState)).toBe('1,1,21,0,0');
    expectDrawAt(line, 10, 'three-kings-vs-one');
  });

  it('7.2.4 → 7.2.8 by capture: two kings against one get 5 moves from the capture', () => {
    const start = state('W:WKe3:BKc5,Kh6,Kg1:D0,0,28,0,0');
    const s1 = playAll(start, ['e3:a7']);
    expect(counts(s1)).toBe('0,0,0,0,0');
    expectDrawAt(walk(s1, 10), 10, 'small-material'); // ply 11 (7.2.4 alone would have drawn on ply 2)
  });

  it('7.2.4 applies whatever men the stronger side also has (B9)', () => {
    const line = walk(state('W:WKh4:BKb8,Kd8,Kf8,a7,c7'), 30, {
      allow: (s) => lonePiece(s, 1).length === 5,
    });
    expectDrawAt(line, 30, 'three-kings-vs-one');
  });

  it('7.2.4 restarts at a promotion (B9)', () => {
    // 7.2.4 at 20 would fall on ply 10; the promotion on ply 1 restarts it: draw on ply 31.
    const start = state('B:WKh4:BKb8,Kd8,Kf8,b2:D0,0,20,0,0');
    const s1 = playAll(start, ['b2-c1']);
    expect(counts(s1)).toBe('0,0,0,0,0');
    const line = walk(s1, 30, { allow: (s) => onDiagonal(s, 0) === 0 });
    expectDrawAt(line, 30, 'three-kings-vs-one');
  });

  it('7.2.6 → 7.2.4 by promotion: the 7.2.6 count restarts and 7.2.4 starts', () => {
    // 4 pieces with kings on both sides: 7.2.6 at 40 would fall on ply 20.
    const start = state('B:WKh4:BKb8,Kd8,b2:D0,40,0,0,0');
    const s1 = playAll(start, ['b2-c1']);
    expect(counts(s1)).toBe('0,0,0,0,0');
    const line = walk(s1, 30, { allow: (s) => onDiagonal(s, 0) === 0 });
    expect(engine.outcome(line[19] as DraughtsState)).toBeUndefined();
    expectDrawAt(line, 30, 'three-kings-vs-one'); // ply 31
  });

  it('7.2.5 and 7.2.6 → 7.2.8 by capture: both counts end, 7.2.8 starts', () => {
    // 7.2.5 at 25 would fall on ply 5, 7.2.6 at 30 on ply 30.
    const start = state('W:WKb2,Kh2:BKd4,Kf8:D25,30,0,0,0');
    const s1 = playAll(start, ['b2:e5']);
    expect(counts(s1)).toBe('0,0,0,0,0');
    expectDrawAt(walk(s1, 10), 10, 'small-material'); // ply 11
  });

  it('7.2.8 → no counting rule by capture: a king against a man is not drawn by 7.2.8', () => {
    const start = state('W:WKa1:BKc3,h6:D0,0,0,0,8');
    const s1 = playAll(start, ['a1:d4']);
    expect(counts(s1)).toBe('0,0,0,0,0');
    const s2 = playAll(s1, ['h6-g5', 'd4-e3', 'g5-f4']);
    expect(engine.outcome(s2)).toBeUndefined();
  });

  it('7.2.8 runs on through a promotion: the same rule keeps its count (B10)', () => {
    const start = state('B:WKh6:BKe1,b2:D0,0,0,0,4');
    const s1 = playAll(start, ['b2-a1']);
    expect(counts(s1)).toBe('0,0,0,0,5');
    expectDrawAt(walk(s1, 5), 5, 'small-material'); // ply 6
  });

  it('7.2.7 runs on through a promotion of the stronger side', () => {
    const start = state('B:WKd4:BKh2,f8,d2:D0,0,0,4,0');
    const s1 = playAll(start, ['d2-c1']);
    expect(counts(s1)).toBe('0,0,0,5,0');
    const line = walk(s1, 5, { allow: (s) => onDiagonal(s, 0) === 1 && onDiagonal(s, 1) === 0 });
    expectDrawAt(line, 5, 'long-diagonal'); // ply 6
  });
});
