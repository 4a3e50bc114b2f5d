// The exact legal-move lists C1–C11 and drowning vectors D1–D10 of docs/rules/congo.md (Test vectors).
import { congoEngine as engine } from '../../../src/engines/congo';
import { anyPosition, legal, play, position } from './helpers';

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean).sort();

const C: Array<[string, string, string]> = [
  [
    'C1 initial position',
    'gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w',
    `a1-a3 a1-c3 a2-a3 a2-b3 b2-a3 b2-b3 b2-c3 c1-c3 c2-b3 c2-c3 c2-d3 d2-c3 d2-d3 d2-e3
     e1-e3 e2-d3 e2-e3 e2-f3 f2-e3 f2-f3 f2-g3 g1-f3 g2-f3 g2-g3`,
  ],
  ['C2 bare lions facing on the d-file', '3l3/7/7/7/7/7/3L3 w', 'd1-c1 d1-c2 d1-d2 d1-d7 d1-e1 d1-e2'],
  [
    'C3 lions facing on the c3–e5 diagonal',
    '7/7/4l2/7/2L4/7/E6 w',
    'a1-a2 a1-a3 a1-b1 a1-c1 c3-c2 c3-d2 c3-d3 c3-e5',
  ],
  ['C3b the diagonal blocked on d4', '7/7/4l2/3p3/2L4/7/E6 w', 'a1-a2 a1-a3 a1-b1 a1-c1 c3-c2 c3-d2 c3-d3'],
  ['C4 lions not aligned', '7/7/4l2/7/3L3/7/E6 w', 'a1-a2 a1-a3 a1-b1 a1-c1 d3-c2 d3-c3 d3-d2 d3-e2 d3-e3'],
  [
    'C5 monkey multi-jumps revisiting its start square',
    '3l3/7/7/7/3pp2/2Mp3/3L3 w',
    `c2-b1 c2-b2 c2-b3 c2-c1 c2-c3 c2-e2 c2-e2-c4 c2-e2-e4 c2-e2-e4-c2 c2-e4 c2-e4-e2 c2-e4-e2-c2
     d1-c1 d1-d2 d1-e1 d1-e2`,
  ],
  [
    'C6 a monkey jump over the lion ends the sequence',
    '7/5p1/3l3/2M4/7/3P3/3L3 w',
    `c4-b3 c4-b4 c4-b5 c4-c3 c4-c5 c4-d3 c4-d4 c4-e6 d1-c1 d1-c2 d1-e1 d1-e2 d2-c3 d2-d3 d2-e3`,
  ],
  [
    'C7 crocodiles on land and in the river',
    '3l3/5C1/7/pC2p2/7/7/3L3 w',
    `b4-a3 b4-a4 b4-a5 b4-b3 b4-b5 b4-c3 b4-c4 b4-c5 b4-d4 b4-e4 d1-c1 d1-c2 d1-d2 d1-d7 d1-e1 d1-e2
     f6-e5 f6-e6 f6-e7 f6-f4 f6-f5 f6-f7 f6-g5 f6-g6 f6-g7`,
  ],
  [
    'C8 pawns retreat past the river only, unblocked, and promote',
    '3l3/1P5/2P4/2pP2P/6p/7/3L3 w',
    `b6-a7 b6-b4 b6-b5 b6-b7 b6-c7 c5-c6 c5-d6 d1-c1 d1-c2 d1-d2 d1-e1 d1-e2 d4-d5 d4-e5 g4-f5 g4-g5`,
  ],
  [
    'C9 superpawn in the river',
    '3l3/7/4p2/3S3/2P4/7/3L3 w',
    `c3-b4 c3-c4 d1-c1 d1-c2 d1-d2 d1-e1 d1-e2 d4-c4 d4-c5 d4-d2 d4-d3 d4-d5 d4-e3 d4-e4 d4-e5 d4-f2`,
  ],
  [
    'C10 giraffe, elephant and zebra',
    '3l3/7/3p3/2pp3/1Gp1Z2/2E4/3L3 w',
    `b3-a2 b3-a3 b3-a4 b3-b1 b3-b2 b3-b4 b3-b5 b3-d3 b3-d5 c2-a2 c2-b2 c2-c1 c2-c3 c2-c4 c2-d2 c2-e2
     d1-c1 d1-d2 d1-e1 d1-e2 e3-c4 e3-d5 e3-f1 e3-f5 e3-g2 e3-g4`,
  ],
  ['C11 Black to move', '4l2/7/7/7/p6/7/3L3 b', 'a3-a2 a3-a4 a3-a5 a3-b2 e7-d6 e7-d7 e7-e6'],
];

// C7, C8 and C10 cannot arise in a game (two white crocodiles; two pieces of one side in the river,
// where drowning leaves at most one), so parseState refuses them; they still test the move
// generator, read without the position checks.
describe('Congo legal-move vectors C1–C11', () => {
  it.each(C)('%s has exactly the listed moves', (_name, fen, expected) => {
    expect(legal(anyPosition(fen))).toEqual(words(expected));
  });

  it.each(C)('%s: the fast perft(1) agrees with the list', (_name, fen, expected) => {
    expect(engine.perft?.(anyPosition(fen), 1)).toBe(words(expected).length);
  });

  it('parseState refuses exactly the three that cannot arise, saying why', () => {
    const refused = C.map(([name, fen]) => [name.split(' ')[0], engine.parseState(fen)] as const)
      .filter(([, parsed]) => !parsed.ok)
      .map(([id, parsed]) => `${id}: ${parsed.ok ? '' : parsed.error.message}`);
    expect(refused).toEqual([
      'C7: White has 2 crocodiles; a side has at most 1 (no piece is ever added)',
      'C8: White has 2 pieces other than crocodiles in the river (d4, g4); at most one can be there (the others would have drowned)',
      'C10: Black has 2 pieces other than crocodiles in the river (c4, d4); at most one can be there (the others would have drowned)',
    ]);
  });
});

const D: Array<[string, string, string, string]> = [
  [
    'D1 a monkey that did not leave the river drowns',
    '3l3/7/7/3M3/7/7/E2L3 w',
    'a1-a2',
    '3l3/7/7/7/7/E6/3L3 b',
  ],
  ['D2 entering the river is safe for now', '3l3/7/7/7/2P4/7/E2L3 w', 'c3-c4', '3l3/7/7/2P4/7/7/E2L3 b'],
  [
    'D3 it drowns if its owner moves elsewhere next',
    '3l3/7/7/2P4/7/7/E2L3 w',
    'a1-a2',
    '3l3/7/7/7/7/E6/3L3 b',
  ],
  ['D4 moving within the river still drowns', '3l3/7/7/G6/7/7/3L3 w', 'a4-c4', '3l3/7/7/7/7/7/3L3 b'],
  [
    'D5 a river-start monkey jumping out and back in drowns, its captures stand',
    '3l3/7/2pp3/1M5/7/7/3L3 w',
    'b4-d6-d4',
    '3l3/7/7/7/7/7/3L3 b',
  ],
  [
    'D6 a land-start monkey ending in the river survives',
    '3l3/7/7/7/2p4/1M5/3L3 w',
    'b2-d4',
    '3l3/7/7/3M3/7/7/3L3 b',
  ],
  ['D7 a crocodile never drowns', '3l3/7/7/3C3/7/7/E2L3 w', 'a1-a2', '3l3/7/7/3C3/7/E6/3L3 b'],
  ["D8 the opponent's river piece is untouched", '3l3/7/7/3p3/7/7/E2L3 w', 'a1-a2', '3l3/7/7/3p3/7/E6/3L3 b'],
  [
    'D9 a river-start monkey ending on land survives',
    '3l3/7/7/1M5/2p4/7/3L3 w',
    'b4-d2',
    '3l3/7/7/7/7/3M3/3L3 b',
  ],
  ['D10 leaving the river saves the piece', '3l3/7/7/2P4/7/7/3L3 w', 'c4-c5', '3l3/7/2P4/7/7/7/3L3 b'],
];

describe('Congo drowning vectors D1–D10', () => {
  it.each(D)('%s', (_name, fen, move, result) => {
    expect(engine.formatState(play(position(fen), move))).toBe(result);
  });

  it('describeMove names the drowned and captured squares', () => {
    expect(
      engine.describeMove?.(position('3l3/7/7/3M3/7/7/E2L3 w'), moveOf('3l3/7/7/3M3/7/7/E2L3 w', 'a1-a2')),
    ).toEqual({
      family: 'congo',
      captured: [],
      drowned: ['d4'],
      promoted: false,
    });
    expect(
      engine.describeMove?.(
        position('3l3/7/2pp3/1M5/7/7/3L3 w'),
        moveOf('3l3/7/2pp3/1M5/7/7/3L3 w', 'b4-d6-d4'),
      ),
    ).toEqual({
      family: 'congo',
      captured: ['c5', 'd5'],
      drowned: ['d4'],
      promoted: false,
    });
    expect(
      engine.describeMove?.(position('3l3/7/7/G6/7/7/3L3 w'), moveOf('3l3/7/7/G6/7/7/3L3 w', 'a4-c4')),
    ).toEqual({
      family: 'congo',
      captured: [],
      drowned: ['c4'],
      promoted: false,
    });
  });

  it('describeMove reports a promotion with its capture', () => {
    const fen = '2ml3/1P5/7/7/7/7/3L3 w';
    expect(engine.describeMove?.(position(fen), moveOf(fen, 'b6-c7'))).toEqual({
      family: 'congo',
      captured: ['c7'],
      drowned: [],
      promoted: true,
    });
    expect(engine.formatState(play(position(fen), 'b6-c7'))).toBe('2Sl3/7/7/7/7/7/3L3 b');
  });
});

function moveOf(fen: string, text: string) {
  const move = engine.parseMove(position(fen), text);
  if (!move.ok) throw new Error(move.error.message);
  return move.value;
}
