import { kalahEngine } from '../../../src/engines/mancala/kalah';
import { describeEngineContract } from '../contract';
import {
  describeMoveVectors,
  describeRejections,
  eachMove,
  legalMoves,
  type MoveVector,
  anyState,
} from './vectors';

const engine = kalahEngine;

describeEngineContract(engine, {
  optionSets: [{}, { seeds: 6 }, { emptyCapture: true }, { houses: 3, seeds: 2 }, { houses: 1, seeds: 1 }],
});

// docs/rules/kalah.md, Test vectors [hand-checked]
const VECTORS: MoveVector[] = [
  ...eachMove('K1', '4,4,4,4,4,4/0/4,4,4,4,4,4/0 S', {
    1: '0,5,5,5,5,4/0/4,4,4,4,4,4/0 N',
    2: '4,0,5,5,5,5/0/4,4,4,4,4,4/0 N',
    3: '4,4,0,5,5,5/1/4,4,4,4,4,4/0 S',
    4: '4,4,4,0,5,5/1/5,4,4,4,4,4/0 N',
    5: '4,4,4,4,0,5/1/5,5,4,4,4,4/0 N',
    6: '4,4,4,4,4,0/1/5,5,5,4,4,4/0 N',
  }),
  ...eachMove('K2', '0,0,1,0,0,3/5/2,0,7,1,0,2/6 S', {
    3: '0,0,0,0,0,3/13/2,0,0,1,0,2/6 N',
    6: '0,0,1,0,0,0/6/3,1,7,1,0,2/6 N',
  }),
  ...eachMove('K3', '1,0,0,0,0,0/10/3,0,0,0,0,0/10 S', { 1: '0,1,0,0,0,0/10/3,0,0,0,0,0/10 N' }),
  {
    id: 'K3b',
    options: { emptyCapture: true },
    position: '1,0,0,0,0,0/10/3,0,0,0,0,0/10 S',
    move: '1',
    result: '0,0,0,0,0,0/11/0,0,0,0,0,0/13 N',
    over: { score: [11, 13], winner: 1, reason: 'row-empty' },
  },
  ...eachMove('K4', '0,0,13,0,0,0/0/1,1,1,1,1,1/0 S', { 3: '1,1,0,1,1,1/4/2,2,2,0,2,2/0 N' }),
  ...eachMove('K5', '1,2,3,0,0,1/10/0,1,0,2,0,6/11 N', {
    2: '1,2,3,0,0,1/10/0,0,1,2,0,6/11 S',
    4: '1,2,3,0,0,1/10/0,1,0,0,1,7/11 S',
    6: '2,3,4,1,1,1/10/0,1,0,2,0,0/12 S',
  }),
  {
    id: 'K6',
    position: '0,0,0,0,0,1/20/1,2,3,4,5,0/12 S',
    move: '6',
    result: '0,0,0,0,0,0/21/0,0,0,0,0,0/27 S',
    over: { score: [21, 27], winner: 1, reason: 'row-empty' },
  },
  {
    id: 'K7',
    position: '2,0,0,0,0,0/20/0,0,0,5,0,0/21 S',
    move: '1',
    result: '0,0,0,0,0,0/27/0,0,0,0,0,0/21 N',
    over: { score: [27, 21], winner: 0, reason: 'row-empty' },
  },
  ...eachMove('K8', '19,0,0,0,0,0/0/1,1,1,1,1,1/0 S', { 1: '1,2,2,2,2,2/2/2,2,2,2,2,2/0 S' }),
  {
    id: 'K9',
    position: '3,0,2,0,0,0/10/0,0,1,0,0,0/9 N',
    move: '3',
    result: '0,0,0,0,0,0/13/0,0,0,0,0,0/12 S',
    over: { score: [13, 12], winner: 0, reason: 'row-empty' },
  },
  ...eachMove('K10', '6,6,6,6,6,6/0/6,6,6,6,6,6/0 S', {
    1: '0,7,7,7,7,7/1/6,6,6,6,6,6/0 S',
    2: '6,0,7,7,7,7/1/7,6,6,6,6,6/0 N',
    3: '6,6,0,7,7,7/1/7,7,6,6,6,6/0 N',
    4: '6,6,6,0,7,7/1/7,7,7,6,6,6/0 N',
    5: '6,6,6,6,0,7/1/7,7,7,7,6,6/0 N',
    6: '6,6,6,6,6,0/1/7,7,7,7,7,6/0 N',
  }),
];

describe('kalah', () => {
  describeMoveVectors(engine, VECTORS);

  it('lists every house with seeds as a legal move, for the side to move', () => {
    expect(legalMoves(engine, '1,2,3,0,0,1/10/0,1,0,2,0,6/11 N')).toEqual(['2', '4', '6']);
    expect(legalMoves(engine, '0,0,1,0,0,3/5/2,0,7,1,0,2/6 S')).toEqual(['3', '6']);
  });

  it('sets up the standard start and the options', () => {
    const start = (options: unknown) => {
      const parsed = engine.parseOptions(options);
      if (!parsed.ok) throw new Error(parsed.error.message);
      return engine.formatState(engine.setup(parsed.value));
    };
    expect(start({})).toBe('4,4,4,4,4,4/0/4,4,4,4,4,4/0 S');
    expect(start({ houses: 3, seeds: 2 })).toBe('2,2,2/0/2,2,2/0 S');
    expect(engine.parseOptions({}).ok && engine.parseOptions({})).toEqual({
      ok: true,
      value: { seeds: 4, houses: 6, emptyCapture: false },
    });
  });

  describeRejections(
    engine,
    [
      { seeds: 0 },
      { seeds: 7 },
      { houses: 7 },
      { seeds: 4.5 },
      { emptyCapture: 'yes' },
      { colour: 'red' },
      5,
    ],
    [
      ['', 'INVALID_NOTATION'],
      ['4,4,4,4,4,4/0/4,4,4,4,4,4/0', 'INVALID_NOTATION'],
      ['4,4,4,4,4,4/0/4,4,4,4,4,4/0 X', 'INVALID_NOTATION'],
      ['4,4,-4,4,4,4/0/4,4,4,4,4,4/0 S', 'INVALID_NOTATION'],
      ['4,4,4,4,4,4 stores 0-0 S', 'INVALID_NOTATION'],
      ['4,4,4,4,4/0/4,4,4,4,4,4/0 S', 'INVALID_POSITION'],
      ['4,4,4,4,4,4,4/0/4,4,4,4,4,4,4/0 S', 'INVALID_POSITION'],
    ],
    /kalah/,
  );

  it('reads a finished position as over, scoring the seeds left in each row for their owner', () => {
    const parsed = anyState(engine, '0,0,0,0,0,0/20/1,2,0,0,0,0/25 S');
    expect(engine.outcome(parsed)).toEqual({ winner: 1, reason: 'row-empty', score: [20, 28] });
    expect(engine.moves(parsed)).toEqual([]);
  });

  it('parses a house number with spaces and rejects empty houses, other numbers and words', () => {
    const start = engine.setup({});
    expect(engine.parseMove(start, ' 3 ')).toEqual({ ok: true, value: 3 });
    const empty = anyState(engine, '0,4,4,4,4,4/0/4,4,4,4,4,4/0 S');
    const bad = (state: typeof start, text: string) => {
      const parsed = engine.parseMove(state, text);
      return parsed.ok ? 'ok' : parsed.error.code;
    };
    expect(bad(empty, '1')).toBe('ILLEGAL_MOVE');
    expect(bad(start, '7')).toBe('ILLEGAL_MOVE');
    expect(bad(start, '0')).toBe('ILLEGAL_MOVE');
    expect(bad(start, 'S3')).toBe('INVALID_NOTATION');
    expect(bad(start, '3.0')).toBe('INVALID_NOTATION');
  });

  it('refuses moves once the game is over with GAME_OVER', () => {
    const over = anyState(engine, '0,0,0,0,0,0/21/0,0,0,0,0,0/27 S');
    const played = engine.play(over, 1);
    expect(played.ok || played.error.code).toBe('GAME_OVER');
    const parsed = engine.parseMove(over, '1');
    expect(parsed.ok || parsed.error.code).toBe('GAME_OVER');
  });

  it('describes a lap with a capture: the pits sown in order, the capture and no extra move (K4)', () => {
    const state = anyState(engine, '0,0,13,0,0,0/0/1,1,1,1,1,1/0 S');
    expect(engine.describeMove?.(state, 3)).toEqual({
      family: 'mancala',
      legal: true,
      house: 3,
      trace: ['S4', 'S5', 'S6', 'Sstore', 'N1', 'N2', 'N3', 'N4', 'N5', 'N6', 'S1', 'S2', 'S3'],
      relays: [],
      capturedFrom: ['N4', 'S3'],
      captured: 3,
      extraMove: false,
      gameOver: false,
    });
  });

  it('describes an extra move when the last seed lands in the own store (K1 move 3)', () => {
    const facts = engine.describeMove?.(engine.setup({}), 3);
    expect(facts).toMatchObject({ trace: ['S4', 'S5', 'S6', 'Sstore'], captured: 0, extraMove: true });
    expect(engine.describeMove?.(engine.setup({}), 9)).toEqual({ family: 'mancala', legal: false });
  });

  it('shows the board as houses per side in sowing order and the two stores', () => {
    const state = anyState(engine, '1,2,3,0,0,1/10/0,1,0,2,0,6/11 N');
    expect(engine.board(state)).toEqual({
      type: 'mancala',
      houses: [
        [1, 2, 3, 0, 0, 1],
        [0, 1, 0, 2, 0, 6],
      ],
      stores: [10, 11],
    });
  });

  it('exports a record with tags, plies numbered with the mover (extra moves visible) and the result; no score while it goes on', () => {
    const text = engine.exportRecord?.({
      id: 'g1',
      options: { seeds: 4, houses: 6, emptyCapture: false },
      first: 0,
      moves: ['3', '6', '1'],
      players: ['alice', 'bob'],
      startedAt: '2026-11-22T10:00:00Z',
    });
    expect(text).toBe(
      [
        '[Game "kalah"]',
        '[Options "{\\"seeds\\":4,\\"houses\\":6,\\"emptyCapture\\":false}"]',
        '[Date "2026.11.22"]',
        '[South "alice"]',
        '[North "bob"]',
        '[First "South"]',
        '[Result "*"]',
        '',
        '1. S3 2. S6 3. N1 *',
        '',
      ].join('\n'),
    );
  });

  it('exports a finished game with its result, termination and final score', () => {
    const text = engine.exportRecord?.({
      id: 'g2',
      options: { houses: 1, seeds: 1 },
      first: 1,
      moves: ['1'],
      players: ['alice', 'bob'],
      startedAt: '2026-11-22T10:00:00Z',
      outcome: undefined,
    });
    // Kalah(1,1), North first: N1 sows into North's store, North's row is empty, South sweeps 1.
    expect(text).toContain('[Result "1/2-1/2"]');
    expect(text).toContain('[Termination "row-empty"]');
    expect(text).toContain('[Score "1-1"]');
    expect(text).toContain('1. N1 1/2-1/2');
  });
});
