import { congkakEngine } from '../../../src/engines/mancala/congkak';
import { describeEngineContract } from '../contract';
import { describeMoveVectors, eachMove, type MoveVector, describeRejections, anyState } from './vectors';

const engine = congkakEngine;

describeEngineContract(engine, {
  optionSets: [{}, { houses: 5 }, { houses: 6 }, { houses: 9 }, { houses: 7, seeds: 3 }],
});

// docs/rules/congkak.md, Test vectors [hand-checked]
const VECTORS: MoveVector[] = [
  ...eachMove('G1', '7,7,7,7,7,7,7/0/7,7,7,7,7,7,7/0 S', {
    1: '0,8,8,8,8,8,8/1/7,7,7,7,7,7,7/0 S',
    2: '8,0,8,8,8,8,8/10/0,8,8,8,8,0,8/0 N',
    3: '8,8,0,8,8,8,8/10/8,0,8,8,0,8,8/0 N',
    4: '8,8,8,0,8,8,8/10/8,8,0,0,8,8,8/0 N',
    5: '8,8,8,8,0,8,8/10/8,8,0,0,8,8,8/0 N',
    6: '8,8,8,8,8,0,8/10/8,0,8,8,0,8,8/0 N',
    7: '8,8,8,8,8,8,0/10/0,8,8,8,8,0,8/0 N',
  }),
  ...eachMove('G2', '0,1,0,0,2,0,3/10/1,0,0,4,0,2,0/12 S', {
    2: '0,0,1,0,2,0,3/10/1,0,0,4,0,2,0/12 N',
    5: '0,1,0,0,0,1,0/11/2,1,1,4,0,2,0/12 N',
    7: '0,1,0,0,2,0,0/11/2,1,0,4,0,2,0/12 N',
  }),
  {
    id: 'G3',
    position: '0,0,0,0,0,0,1/45/2,0,0,0,0,0,0/50 S',
    move: '7',
    result: '0,0,0,0,0,0,0/46/0,0,0,0,0,0,0/52 S',
    over: { score: [46, 52], winner: 1, reason: 'row-empty' },
  },
  ...eachMove('G4', '0,0,0,1,2,0,0/20/1,1,1,1,1,1,1/20 S', {
    4: '0,0,0,0,0,1,1/21/1,1,1,1,1,1,1/20 S',
    5: '0,0,0,1,0,1,0/22/0,1,1,1,1,1,1/20 N',
  }),
  ...eachMove('G5', '0,0,1,0,0,0,2/10/6,0,0,0,0,0,0/10 S', {
    3: '0,0,0,1,0,0,2/10/6,0,0,0,0,0,0/10 N',
    7: '0,0,1,0,0,0,0/13/0,1,1,1,1,1,0/10 N',
  }),
  ...eachMove('G6', '0,1,0,0,0,0,5/10/3,0,0,0,0,0,0/10 S', {
    2: '0,0,1,0,0,0,5/10/3,0,0,0,0,0,0/10 N',
    7: '0,1,0,0,0,0,0/11/4,1,1,1,0,0,0/10 N',
  }),
  ...eachMove('G7', '2,0,0,5,0,0,1/10/0,2,0,0,1,0,1/12 N', {
    2: '2,0,0,0,0,0,1/10/0,0,1,0,1,0,1/18 S',
    5: '2,0,0,5,0,0,1/10/0,2,0,0,0,1,1/12 S',
    7: '2,0,0,5,0,0,1/10/0,2,0,0,1,0,0/13 N',
  }),
  {
    id: 'G8',
    position: '0,0,0,0,0,1,0/30/4,0,0,0,0,0,0/30 S',
    move: '6',
    result: '0,0,0,0,0,0,0/35/0,0,0,0,0,0,0/30 N',
    over: { score: [35, 30], winner: 0, reason: 'row-empty' },
  },
  ...eachMove(
    'G9',
    '6,6,6,6,6,6/0/6,6,6,6,6,6/0 S',
    {
      1: '0,7,7,7,7,7/1/6,6,6,6,6,6/0 S',
      2: '7,0,7,7,7,7/9/0,7,7,7,0,7/0 N',
      3: '7,7,0,7,7,7/9/7,0,7,0,7,7/0 N',
      4: '7,7,7,1,7,7/1/7,7,0,7,7,7/0 N',
      5: '7,7,7,7,0,7/9/7,0,7,0,7,7/0 N',
      6: '7,7,7,7,7,0/9/0,7,7,7,0,7/0 N',
    },
    { houses: 6 },
  ),
  ...eachMove('G10', '15,0,0,0,0,0,0/0/0,0,0,0,0,0,1/0 S', { 1: '0,1,1,1,1,1,1/4/1,1,1,1,1,1,0/0 N' }),
];

describe('congkak', () => {
  describeMoveVectors(engine, VECTORS);

  it('describes a relay: the whole sowing trace, the house lifted, and where it ended (G2 move 5)', () => {
    const state = anyState(engine, '0,1,0,0,2,0,3/10/1,0,0,4,0,2,0/12 S');
    expect(engine.describeMove?.(state, 5)).toEqual({
      family: 'mancala',
      legal: true,
      house: 5,
      trace: ['S6', 'S7', 'Sstore', 'N1', 'N2', 'N3'],
      relays: ['S7'],
      capturedFrom: [],
      captured: 0,
      extraMove: false,
      gameOver: false,
    });
  });

  it('describes a relay through the opponent row that ends in a capture (G1 move 2)', () => {
    const facts = engine.describeMove?.(engine.setup({}), 2);
    expect(facts).toMatchObject({
      trace: ['S3', 'S4', 'S5', 'S6', 'S7', 'Sstore', 'N1', 'N2', 'N3', 'N4', 'N5', 'N6', 'N7', 'S1', 'S2'],
      relays: ['N1'],
      capturedFrom: ['N6', 'S2'],
      captured: 9,
      extraMove: false,
    });
  });

  it('sets up h houses of h seeds unless seeds are given', () => {
    const start = (options: unknown) => {
      const parsed = engine.parseOptions(options);
      if (!parsed.ok) throw new Error(parsed.error.message);
      return engine.formatState(engine.setup(parsed.value));
    };
    expect(start({})).toBe('7,7,7,7,7,7,7/0/7,7,7,7,7,7,7/0 S');
    expect(start({ houses: 5 })).toBe('5,5,5,5,5/0/5,5,5,5,5/0 S');
    expect(start({ houses: 6, seeds: 4 })).toBe('4,4,4,4,4,4/0/4,4,4,4,4,4/0 S');
  });

  describeRejections(
    engine,
    [{ houses: 12 }, { houses: 4 }, { seeds: 0 }, { seeds: 10 }, { rounds: 3 }],
    [
      ['7,7,7,7,7,7,7/0/7,7,7,7,7,7,7/0', 'INVALID_NOTATION'],
      ['7,7,7,7,7,7,7/7,7,7,7,7,7,7 stores 0-0 S', 'INVALID_NOTATION'],
      ['4,4,4,4/0/4,4,4,4/0 S', 'INVALID_POSITION'],
      ['1,1,1,1,1,1,1,1,1,1/0/1,1,1,1,1,1,1,1,1,1/0 S', 'INVALID_POSITION'],
      ['7,7,7,7,7,7,7/0/7,7,7,7,7,7/0 S', 'INVALID_POSITION'],
    ],
  );
});
