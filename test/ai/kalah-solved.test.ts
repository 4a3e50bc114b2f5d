// Kalah solved exactly from the start on small boards. The published table of Irving, Donkers and
// Uiterwijk ("Solving Kalah", ICGA Journal 2000) was not available to us to copy from, so the
// solver's value (the first player's final margin under perfect play) is checked against an
// independent plain minimax over the engine interface (no pruning, no transposition table: a
// memo keyed by the position string), with and without the empty-capture rule.
import { solveKalah } from '../../src/ai';
import type { SearchRequest } from '../../src/ai/types';
import { search } from '../../src/ai';
import type { AnyEngine } from '../../src/engines/engine';
import { engineOf, expectLegal, optionsOf, playout, startOf, stateAfter } from './helpers';

/** Final margin for the side to move of `state` with perfect play by both sides. */
function minimax(engine: AnyEngine, state: unknown, memo: Map<string, number>): number {
  const key = engine.formatState(state);
  const known = memo.get(key);
  if (known !== undefined) return known;
  const outcome = engine.outcome(state);
  let value: number;
  if (outcome) {
    const [south, north] = outcome.score ?? [0, 0];
    value = engine.turn(state) === 0 ? south - north : north - south;
  } else {
    value = -Infinity;
    for (const move of engine.moves(state)) {
      const next = engine.play(state, move);
      if (!next.ok) throw new Error(next.error.message);
      const v = minimax(engine, next.value, memo);
      // An extra move leaves the same side to move: its value counts as is.
      value = Math.max(value, engine.turn(next.value) === engine.turn(state) ? v : -v);
    }
  }
  value += 0; // no -0
  memo.set(key, value);
  return value;
}

const BOARDS: ReadonlyArray<readonly [houses: number, seeds: number]> = [
  [1, 1],
  [1, 2],
  [1, 3],
  [1, 6],
  [2, 1],
  [2, 2],
  [2, 3],
  [2, 4],
  [3, 1],
  [3, 2],
  [3, 3],
  [4, 1],
];

describe.each([false, true])('emptyCapture %s', (emptyCapture) => {
  it.each(BOARDS)('Kalah(%i,%i): the solver equals plain minimax', (houses, seeds) => {
    const engine = engineOf('kalah');
    const options = optionsOf('kalah', { houses, seeds, emptyCapture });
    const expected = minimax(engine, engine.setup(options), new Map());
    const solved = solveKalah(houses, seeds, emptyCapture, 5_000_000);
    expect(solved?.margin).toBe(expected);
  });
});

// A second, external check: the public solver github.com/jakesellison/kalah (retrograde analysis
// over every reachable position, in Python; RESULTS.md and README.md) reports Kalah(4,2) and
// Kalah(4,3) as first-player wins by 6. Its rules are our standard Kalah (capture only with seeds
// opposite, the game ends when a row is empty, each side keeps the seeds left in its row: its
// src/mancala_solver/core/rules.py), so its values must be ours.
it.each([
  [4, 2, 6],
  [4, 3, 6],
] as const)(
  'Kalah(%i,%i) is a first-player win by %i, as an independent solver reports',
  (houses, seeds, margin) => {
    expect(solveKalah(houses, seeds, false, 5_000_000)?.margin).toBe(margin);
  },
);

it('search() reports a small Kalah solved from the start, with the result the solver gives', () => {
  const options = optionsOf('kalah', { houses: 3, seeds: 3 });
  const req: SearchRequest = { kind: 'kalah', options, start: startOf('kalah', options), moves: [], seed: 1 };
  const result = search(req, { timeMs: 1e9 }); // no time cap: a loaded machine must not cut the solve short
  const margin = solveKalah(3, 3, false, 5_000_000)?.margin ?? NaN;
  expect(result.solved?.result).toBe(margin > 0 ? 'win' : margin < 0 ? 'loss' : 'draw');
  expect(result.score).toBe(100 * margin);
  expect(result.solved?.plies).toBeGreaterThan(0);
  expectLegal(req, result);
});

describe('endgames: search() solves them exactly at levels 6–8', () => {
  /** A Kalah(6,4) game played at random until at most `seeds` seeds are left in the houses. */
  function kalahEndgame(seed: number, seeds: number): string[] | undefined {
    const engine = engineOf('kalah');
    const options = optionsOf('kalah');
    const base: SearchRequest = {
      kind: 'kalah',
      options,
      start: startOf('kalah', options),
      moves: [],
      seed: 1,
    };
    for (let plies = 10; plies < 200; plies += 2) {
      const moves = playout('kalah', base, plies, seed);
      const state = stateAfter('kalah', base.start, moves, options);
      const view = engine.board(state);
      if (view.type !== 'mancala') throw new Error('not a mancala board');
      const left = [...view.houses[0], ...view.houses[1]].reduce((a, b) => a + b, 0);
      if (left <= seeds && !engine.outcome(state)) return moves;
    }
    return undefined; // this random game ended before
  }

  it('Kalah endgames from random games: the margin plain minimax finds', () => {
    const engine = engineOf('kalah');
    const options = optionsOf('kalah');
    let checked = 0;
    for (let game = 1; checked < 3 && game < 50; game++) {
      const moves = kalahEndgame(game, 9);
      if (!moves) continue;
      const req: SearchRequest = {
        kind: 'kalah',
        options,
        start: startOf('kalah', options),
        moves,
        level: 8,
        seed: 1,
      };
      const expected = minimax(engine, stateAfter('kalah', req.start, req.moves, options), new Map());
      const result = search(req, { timeMs: 1e9 });
      expectLegal(req, result);
      expect(result.score).toBe(100 * expected);
      expect(result.solved?.result).toBe(expected > 0 ? 'win' : expected < 0 ? 'loss' : 'draw');
      checked++;
    }
    expect(checked).toBe(3);
  });

  it('a Congkak endgame from docs/rules/congkak.md', () => {
    const engine = engineOf('congkak');
    const options = optionsOf('congkak');
    const start = '0,0,0,0,0,0,1/45/2,0,0,0,0,0,0/50 S';
    const req: SearchRequest = { kind: 'congkak', options, start, moves: [], level: 6, seed: 1 };
    const expected = minimax(engine, stateAfter('congkak', start, [], options), new Map());
    const result = search(req, { timeMs: 1e9 });
    expectLegal(req, result);
    expect(result.score).toBe(100 * expected);
    expect(result.solved).toBeDefined();
  });
});
