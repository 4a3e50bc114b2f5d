import { russianDraughts as engine } from '../../../src/engines/draughts';
import { perftKeep } from '../../../src/engines/draughts/perft';
import { perft } from '../../../src/engines/perft';
import { state } from './helpers';

// Source: rhalbersma/dctl test/src/algo/traversal/initial/board_08x08.cpp via docs/rules/russian-draughts.md (Test vectors) [published]
// The drop column lives in test/fixtures/perft/russian-draughts.perft.
const KEEP: Array<[number, number]> = [
  [1, 7],
  [2, 49],
  [3, 302],
  [4, 1469],
  [5, 7482],
  [6, 37986],
  [7, 190146],
  [8, 929905],
];

describe('russian draughts perft', () => {
  const start = engine.setup({});

  it.each(KEEP)('counts every capture path (keep convention) at depth %i: %i', (depth, nodes) => {
    expect(perftKeep(start, depth)).toBe(nodes);
  });

  // Source: docs/rules/russian-draughts.md, Test vectors (position with kings, keep convention) [derived]
  it('counts 3 343 keep-convention paths at depth 4 from a position with kings on both sides', () => {
    expect(perftKeep(state('W:Wc3,e3,g3,b2,d2,Kh2:Bb6,d6,f6,a7,c7,Kg7'), 4)).toBe(3343);
  });

  it('keeps both circular king captures of R4 that the drop convention merges', () => {
    const r4 = state('W:WKd2:Bc5,e5,c3,e3');
    expect(perftKeep(r4, 1)).toBe(4);
    expect(engine.perft!(r4, 1)).toBe(3);
    expect(perft(engine, r4, 1)).toBe(3);
  });

  it('fast perft equals generic perft from positions with kings, where draw rules apply', () => {
    for (const fen of [
      'W:WKd2:Bc5,e5,c3,e3',
      'W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8',
      'W:WKg1:BKb8,Kd8,Kf8:D0,26,0',
      'W:WKa1,h2:BKh8,a7:D27,0,0',
      'W:Wc3,e3,g3,b2,d2,Kh2:Bb6,d6,f6,a7,c7,Kg7',
    ]) {
      const s = state(fen);
      expect(engine.perft!(s, 4)).toBe(perft(engine, s, 4));
    }
  });
});
