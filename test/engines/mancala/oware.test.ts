import { owareEngine } from '../../../src/engines/mancala/oware';
import { perft } from '../../../src/engines/perft';
import { describeEngineContract } from '../contract';
import {
  anyState,
  describeMoveVectors,
  eachMove,
  legalMoves,
  type MoveVector,
  describeRejections,
} from './vectors';

const engine = owareEngine;

describeEngineContract(engine, { optionSets: [{}, { seeds: 5 }, { seeds: 6 }, { grandSlam: 'capture' }] });

const O8 = '2,1,0,0,0,0/1,1,1,1,1,1 stores 18-21 N';

// docs/rules/oware.md, Test vectors [hand-checked]
const VECTORS: MoveVector[] = [
  ...eachMove('O1', '4,4,4,4,4,4/4,4,4,4,4,4 stores 0-0 S', {
    1: '0,5,5,5,5,4/4,4,4,4,4,4 stores 0-0 N',
    2: '4,0,5,5,5,5/4,4,4,4,4,4 stores 0-0 N',
    3: '4,4,0,5,5,5/5,4,4,4,4,4 stores 0-0 N',
    4: '4,4,4,0,5,5/5,5,4,4,4,4 stores 0-0 N',
    5: '4,4,4,4,0,5/5,5,5,4,4,4 stores 0-0 N',
    6: '4,4,4,4,4,0/5,5,5,5,4,4 stores 0-0 N',
  }),
  ...eachMove('O2', '0,0,0,0,0,3/3,2,1,0,4,0 stores 15-15 S', {
    6: '0,0,0,0,0,0/4,0,0,0,4,0 stores 20-15 N',
  }),
  ...eachMove('O3', '0,0,0,0,0,2/1,1,4,4,4,4 stores 10-11 S', {
    6: '0,0,0,0,0,0/0,0,4,4,4,4 stores 14-11 N',
  }),
  ...eachMove('O4', '1,0,0,0,0,2/1,2,0,0,0,0 stores 20-22 S', {
    1: '0,1,0,0,0,2/1,2,0,0,0,0 stores 20-22 N',
    6: '1,0,0,0,0,0/2,3,0,0,0,0 stores 20-22 N',
  }),
  {
    id: 'O4b',
    options: { grandSlam: 'capture' },
    position: '1,0,0,0,0,2/1,2,0,0,0,0 stores 20-22 S',
    move: '6',
    result: '1,0,0,0,0,0/0,0,0,0,0,0 stores 25-22 N',
    over: { score: [25, 22], winner: 0, reason: 'majority' },
  },
  ...eachMove('O5', '0,0,1,0,0,1/0,0,0,0,0,0 stores 24-22 S', {
    6: '0,0,1,0,0,0/1,0,0,0,0,0 stores 24-22 N',
  }),
  ...eachMove('O7', '0,0,0,0,0,12/0,0,1,1,0,0 stores 15-19 S', {
    6: '1,1,1,1,1,0/0,1,2,2,1,1 stores 17-19 N',
  }),
  ...eachMove('O8', O8, {
    1: '2,1,0,0,0,0/0,2,1,1,1,1 stores 18-21 S',
    2: '2,1,0,0,0,0/1,0,2,1,1,1 stores 18-21 S',
    3: '2,1,0,0,0,0/1,1,0,2,1,1 stores 18-21 S',
    4: '2,1,0,0,0,0/1,1,1,0,2,1 stores 18-21 S',
    5: '2,1,0,0,0,0/1,1,1,1,0,2 stores 18-21 S',
    6: '0,1,0,0,0,0/1,1,1,1,1,0 stores 18-24 S',
  }),
  {
    id: 'O9',
    position: '0,0,0,0,0,1/1,3,0,0,0,4 stores 24-15 S',
    move: '6',
    result: '0,0,0,0,0,0/0,3,0,0,0,4 stores 26-15 N',
    over: { score: [26, 15], winner: 0, reason: 'majority' },
  },
  {
    id: 'O10',
    position: '1,2,0,2,0,0/0,0,0,0,0,4 stores 19-20 N',
    move: '6',
    // vectors.md shows 2,3,1,0,0,0/… 19-23 before South, who cannot feed, takes his seeds; the
    // final position is shown after that (docs/rules/README.md, "Finished games").
    result: '0,0,0,0,0,0/0,0,0,0,0,0 stores 25-23 S',
    over: { score: [25, 23], winner: 0, reason: 'cannot-feed' },
  },
  {
    id: 'O11',
    position: '2,1,1,0,0,0/0,0,0,0,0,15 stores 10-19 N',
    move: '6',
    result: '4,0,0,0,1,1/1,1,1,1,1,0 stores 10-27 S',
    over: { score: [10, 27], winner: 1, reason: 'majority' },
  },
];

/** A position read without the seed-total check (the vectors hold fewer seeds than a game). */
function position(text: string, options: unknown = {}) {
  return anyState(engine, text, options);
}

/** Play moves in notation, failing the test on any error. */
function playAll(state: ReturnType<typeof position>, moves: readonly string[]) {
  for (const text of moves) {
    const move = engine.parseMove(state, text);
    if (!move.ok) throw new Error(`${text}: ${move.error.message}`);
    const next = engine.play(state, move.value);
    if (!next.ok) throw new Error(`${text}: ${next.error.message}`);
    state = next.value;
  }
  return state;
}

describe('oware', () => {
  describeMoveVectors(engine, VECTORS);

  it.each([
    ['O1', '4,4,4,4,4,4/4,4,4,4,4,4 stores 0-0 S', ['1', '2', '3', '4', '5', '6']],
    ['O2', '0,0,0,0,0,3/3,2,1,0,4,0 stores 15-15 S', ['6']],
    ['O4', '1,0,0,0,0,2/1,2,0,0,0,0 stores 20-22 S', ['1', '6']],
    ['O5 (must feed: 3 does not reach North)', '0,0,1,0,0,1/0,0,0,0,0,0 stores 24-22 S', ['6']],
    ['O8', O8, ['1', '2', '3', '4', '5', '6']],
  ])('lists the legal moves of %s', (_id, text, moves) => {
    expect(legalMoves(engine, text)).toEqual(moves);
  });

  it('O6: a player who cannot feed ends the game and takes his own seeds (26–22)', () => {
    const state = position('1,1,0,0,0,0/0,0,0,0,0,0 stores 24-22 S');
    expect(engine.moves(state)).toEqual([]);
    expect(engine.outcome(state)).toEqual({ winner: 0, reason: 'cannot-feed', score: [26, 22] });
    const played = engine.play(state, 1);
    expect(played.ok || played.error.code).toBe('GAME_OVER');
  });

  it('O4: a grand slam is legal but captures nothing by default, and is described so', () => {
    const state = position('1,0,0,0,0,2/1,2,0,0,0,0 stores 20-22 S');
    expect(engine.describeMove?.(state, 6)).toEqual({
      family: 'mancala',
      legal: true,
      house: 6,
      trace: ['N1', 'N2'],
      relays: [],
      capturedFrom: [],
      captured: 0,
      extraMove: false,
      gameOver: false,
    });
  });

  it('describes a 12-seed lap that skips the origin and captures (O7)', () => {
    const facts = engine.describeMove?.(position('0,0,0,0,0,12/0,0,1,1,0,0 stores 15-19 S'), 6);
    expect(facts).toMatchObject({
      trace: ['N1', 'N2', 'N3', 'N4', 'N5', 'N6', 'S1', 'S2', 'S3', 'S4', 'S5', 'N1'],
      capturedFrom: ['N1'],
      captured: 2,
    });
  });

  it('uses the majority of the seeds option: 25 of 48 wins, 30 of 60 does not', () => {
    const text = '0,0,0,0,0,1/1,3,0,0,0,4 stores 24-15 S';
    expect(engine.outcome(playAll(position(text), ['6']))?.reason).toBe('majority');
    const five = playAll(position(text, { seeds: 5 }), ['6']);
    expect(engine.outcome(five)).toBeUndefined();
    expect(engine.outcome(position('0,0,0,0,0,1/1,3,0,0,0,4 stores 31-15 S', { seeds: 5 }))).toEqual({
      winner: 0,
      reason: 'majority',
      score: [31, 15],
    });
  });

  describe('threefold repetition (house rule)', () => {
    // One seed each, stores 24-22: every move is forced (North must feed South after S6), and the
    // position comes back every 12 plies.
    const A = '1,0,0,0,0,0/1,0,0,0,0,0 stores 24-22 S';
    const cycle = ['1', '1', '2', '2', '3', '3', '4', '4', '5', '5', '6', '6'];

    it('has a forced 12-ply cycle back to the same position', () => {
      let state = position(A);
      for (const move of cycle) {
        expect(engine.moves(state).map(String)).toEqual([move]);
        state = playAll(state, [move]);
      }
      expect(engine.formatState(state)).toBe(A);
      expect(engine.outcome(state)).toBeUndefined();
    });

    it('ends the game on the third occurrence, each player taking the seeds on his side', () => {
      const twice = playAll(position(A), cycle);
      const almost = playAll(twice, cycle.slice(0, -1));
      expect(engine.outcome(almost)).toBeUndefined();
      const third = playAll(almost, cycle.slice(-1));
      // Position A for the third time, shown after each player has taken the seeds on his side.
      expect(engine.formatState(third)).toBe('0,0,0,0,0,0/0,0,0,0,0,0 stores 25-23 S');
      expect(engine.outcome(third)).toEqual({ winner: 0, reason: 'threefold-repetition', score: [25, 23] });
      expect(engine.moves(third)).toEqual([]);
    });

    it('starts counting afresh from a parsed position (the history is not in the string)', () => {
      const twice = playAll(position(A), cycle);
      const reparsed = position(engine.formatState(twice));
      expect(engine.outcome(playAll(reparsed, cycle))).toBeUndefined();
    });

    it('is seen by the fast perft path exactly as by the generic perft', () => {
      const start = position(A);
      expect(engine.perft?.(start, 24)).toBe(1);
      expect(engine.perft?.(start, 25)).toBe(0);
      expect(perft(engine, start, 25)).toBe(0);
      const twice = playAll(start, cycle);
      expect(engine.perft?.(twice, 12)).toBe(1);
      expect(engine.perft?.(twice, 13)).toBe(0);
      expect(perft(engine, twice, 13)).toBe(0);
    });
  });

  describeRejections(
    engine,
    [{ seeds: 3 }, { seeds: 7 }, { grandSlam: 'illegal' }, { houses: 6 }, { seeds: '4' }],
    [
      ['4,4,4,4,4,4/0/4,4,4,4,4,4/0 S', 'INVALID_NOTATION'],
      ['4,4,4,4,4,4/4,4,4,4,4,4 stores 0-0', 'INVALID_NOTATION'],
      ['4,4,4,4,4/4,4,4,4,4,4 stores 0-0 S', 'INVALID_POSITION'],
      ['4,4,4,4,4,4,4/4,4,4,4,4,4,4 stores 0-0 S', 'INVALID_POSITION'],
      ['4,4,4,4,4,4/4,4,4,4,4,4 stores 30-0 S', 'INVALID_POSITION'],
    ],
  );

  it('takes the grand-slam rule of a position from the options', () => {
    const text = '1,0,0,0,0,2/1,2,0,0,0,0 stores 20-22 S';
    expect(engine.formatState(playAll(position(text, { grandSlam: 'capture' }), ['6']))).toBe(
      '1,0,0,0,0,0/0,0,0,0,0,0 stores 25-22 N',
    );
    expect(engine.formatState(playAll(position(text), ['6']))).toBe('1,0,0,0,0,0/2,3,0,0,0,0 stores 20-22 N');
  });
});
