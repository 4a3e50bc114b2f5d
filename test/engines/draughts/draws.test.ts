import {
  russianDraughts as engine,
  type DraughtsMove,
  type DraughtsState,
} from '../../../src/engines/draughts';
import { ZERO_COUNTS, freshState } from '../../../src/engines/draughts/state';
import { draughtsKind } from '../../../src/engines/draughts/kind';
import { playAll, state } from './helpers';
import { LONG_DIAGONAL, isKingMove, walk, expectDrawAt, EIGHT_PIECES, kingsOnly, lonePiece } from './walk';

describe('russian draughts automatic draws', () => {
  it('7.2.3: the third occurrence of a position with the same side to move draws', () => {
    const cycle = ['h2-g1', 'a7-b8', 'g1-h2', 'b8-a7'];
    const start = state('W:WKh2,a3:BKa7,h6');
    const lines = [start];
    for (const move of [...cycle, ...cycle])
      lines.push(playAll(lines[lines.length - 1] as DraughtsState, [move]));
    expect(engine.outcome(lines[4] as DraughtsState)).toBeUndefined();
    expectDrawAt(lines, 8, 'threefold-repetition');
  });

  it('7.2.3: a man move cuts the history, so earlier occurrences no longer count', () => {
    const start = state('W:WKh2,a3:BKa7,h6');
    const s = playAll(start, ['h2-g1', 'a7-b8', 'g1-h2', 'b8-a7', 'a3-b4', 'h6-g5']);
    const after = playAll(s, ['h2-g1', 'a7-b8', 'g1-h2', 'b8-a7', 'h2-g1', 'a7-b8', 'g1-h2']);
    expect(engine.outcome(after)).toBeUndefined();
    expect(engine.outcome(playAll(after, ['b8-a7']))).toEqual({ reason: 'threefold-repetition' });
  });

  it('7.2.4: three kings against a lone king draw after 15 moves each', () => {
    const line = walk(state('W:WKg1:BKb8,Kd8,Kf8'), 30, {
      allow: (s) => !lonePiece(s, 0).some((p) => LONG_DIAGONAL.has(p.square)),
    });
    expectDrawAt(line, 30, 'three-kings-vs-one');
  });

  it('7.2.4: also with colours reversed', () => {
    const line = walk(state('B:WKc1,Ke1,Kg1:BKb8'), 30, {
      allow: (s) => !lonePiece(s, 1).some((p) => LONG_DIAGONAL.has(p.square)),
    });
    expectDrawAt(line, 30, 'three-kings-vs-one');
  });

  it('7.2.5: fifteen moves each with kings only, no man move and no capture, draw', () => {
    const line = walk(state(EIGHT_PIECES), 30, { only: isKingMove });
    expectDrawAt(line, 30, 'kings-only-15');
  });

  it('7.2.5: a man move restarts the count', () => {
    const before = walk(state(EIGHT_PIECES), 20, { only: isKingMove });
    const last = before[20] as DraughtsState;
    const manMove = engine.moves(last).find((m) => !isKingMove(last, m));
    if (!manMove) throw new Error('no man move');
    const played = engine.play(last, manMove);
    if (!played.ok) throw new Error(played.error.message);
    const line = walk(played.value, 30, { only: isKingMove });
    expect(engine.outcome(line[10] as DraughtsState)).toBeUndefined();
    expectDrawAt(line, 30, 'kings-only-15');
  });

  it('7.2.6: a 4-piece ending with kings on both sides draws after 30 moves without capture or crowning', () => {
    // Man moves keep 7.2.5 from ending it first.
    const rank = (s: DraughtsState, m: DraughtsMove) =>
      s.kingsOnly >= 20 ? -kingsOnly(s, m) : kingsOnly(s, m);
    const line = walk(state('W:WKh2,a3:BKa7,h6'), 60, { rank });
    expectDrawAt(line, 60, 'endgame-30-60');
  });

  it('7.2.6: a 6-piece ending draws after 60 moves', () => {
    const rank = (s: DraughtsState, m: DraughtsMove) =>
      s.kingsOnly >= 20 ? -kingsOnly(s, m) : kingsOnly(s, m);
    const line = walk(state('W:WKh2,a1,c1:BKa7,h8,f8'), 120, { rank });
    expectDrawAt(line, 120, 'endgame-30-60');
  });

  it('7.2.7: three pieces against a lone king on the long diagonal draw after 5 moves each', () => {
    const line = walk(state('W:WKa7,b4,f4:BKa1'), 10, {
      rank: kingsOnly,
      allow: (s) =>
        LONG_DIAGONAL.has(lonePiece(s, 1)[0]?.square ?? '') &&
        lonePiece(s, 0).every((p) => !LONG_DIAGONAL.has(p.square)),
    });
    expectDrawAt(line, 10, 'long-diagonal');
  });

  it('7.2.7 before 7.2.4: three kings against a king on the long diagonal draw after 5 moves (B8)', () => {
    const line = walk(state('W:WKc1,Ke1,Kg1:BKa1'), 10, {
      allow: (s) =>
        LONG_DIAGONAL.has(lonePiece(s, 1)[0]?.square ?? '') &&
        lonePiece(s, 0).every((p) => !LONG_DIAGONAL.has(p.square)),
    });
    expectDrawAt(line, 10, 'long-diagonal');
  });

  it('7.2.8: two pieces with a king against a lone king draw after 5 moves each', () => {
    const line = walk(state('W:WKg1:BKb8,h8'), 10);
    expectDrawAt(line, 10, 'small-material');
  });

  it('7.2.8: a king against a king draws after 5 moves each', () => {
    const line = walk(state('W:WKg1:BKb8'), 10);
    expectDrawAt(line, 10, 'small-material');
  });

  it('counts from the position string counters', () => {
    const s = state('W:WKg1:BKb8,Kd8,Kf8:D29,29,0');
    expect(engine.outcome(s)).toBeUndefined();
    const line = walk(s, 1);
    expect(engine.outcome(line[1] as DraughtsState)).toEqual({ reason: 'three-kings-vs-one' });
  });

  it('a capture that leaves a lone king lets the side to move lose rather than draw', () => {
    // Black's lone king is captured on the move that would otherwise reach the limit.
    const s = state('W:WKa1:BKc3:D0,0,9');
    const after = playAll(s, ['a1:d4']);
    expect(engine.outcome(after)).toEqual({ winner: 0, reason: 'no-moves' });
  });
});

describe('russian draughts move limit (house rule)', () => {
  const at = (fen: string, ply: number) => {
    const s = state(fen);
    return freshState(s.white, s.black, s.kings, s.side, ZERO_COUNTS, ply);
  };

  it(`draws the game when ply ${draughtsKind.moveLimit} is reached`, () => {
    const late = at('W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8', 599);
    expect(engine.outcome(late)).toBeUndefined();
    const last = playAll(late, ['c3-d4']);
    expect(engine.outcome(last)).toEqual({ reason: 'move-limit' });
    expect(engine.moves(last)).toEqual([]);
    expect(engine.perft?.(late, 1)).toBe(7);
    expect(engine.perft?.(late, 2)).toBe(0);
  });

  it('lets the rules end the game first: a capture that leaves no move wins on the last ply', () => {
    const late = at('W:WKa1:BKc3', 599);
    expect(engine.outcome(playAll(late, ['a1:d4']))).toEqual({ winner: 0, reason: 'no-moves' });
  });
});
