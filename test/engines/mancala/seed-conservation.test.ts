import fc from 'fast-check';
import type { AnyEngine } from '../../../src/engines/engine';
import { congkakEngine } from '../../../src/engines/mancala/congkak';
import { kalahEngine } from '../../../src/engines/mancala/kalah';
import { owareEngine } from '../../../src/engines/mancala/oware';

const CASES: Array<[AnyEngine, Record<string, unknown>]> = [
  ...[{}, { seeds: 6 }, { emptyCapture: true }, { houses: 3, seeds: 2 }, { houses: 1, seeds: 1 }].map(
    (o) => [kalahEngine as AnyEngine, o] as [AnyEngine, Record<string, unknown>],
  ),
  ...[{}, { seeds: 5 }, { seeds: 6 }, { grandSlam: 'capture' }].map(
    (o) => [owareEngine as AnyEngine, o] as [AnyEngine, Record<string, unknown>],
  ),
  ...[{}, { houses: 5 }, { houses: 6 }, { houses: 9 }, { houses: 7, seeds: 3 }].map(
    (o) => [congkakEngine as AnyEngine, o] as [AnyEngine, Record<string, unknown>],
  ),
];

/** Seeds in the houses and the stores of a position. */
function seedsOf(engine: AnyEngine, state: unknown): number {
  const board = engine.board(state);
  if (board.type !== 'mancala') throw new Error('not a mancala board');
  return [...board.houses[0], ...board.houses[1], ...board.stores].reduce((a, b) => a + b, 0);
}

describe('seed conservation', () => {
  it.each(CASES.map(([engine, options]) => [engine.kind, JSON.stringify(options), engine, options] as const))(
    '%s %s: houses plus stores always hold the starting seeds, in random playouts',
    (_kind, _label, engine, raw) => {
      const options = engine.parseOptions(raw);
      if (!options.ok) throw new Error(options.error.message);
      const start = engine.setup(options.value);
      const total = seedsOf(engine, start);
      const view = engine.board(start);
      const perSide = view.type === 'mancala' ? view.houses[0].length : 0;
      expect(total).toBe(2 * perSide * Number(options.value.seeds));
      fc.assert(
        fc.property(
          fc.boolean(),
          fc.array(fc.nat(), { minLength: 1, maxLength: 600 }),
          (northFirst, picks) => {
            let state = engine.setup(options.value, northFirst ? 1 : 0);
            for (const pick of picks) {
              const moves = engine.moves(state);
              if (moves.length === 0) break;
              const next = engine.play(state, moves[pick % moves.length]);
              if (!next.ok) throw new Error(next.error.message);
              state = next.value;
              expect(seedsOf(engine, state)).toBe(total);
            }
            const outcome = engine.outcome(state);
            if (outcome && outcome.reason !== 'majority') {
              // Every other ending hands each remaining seed to a player: the score adds up.
              expect((outcome.score?.[0] ?? 0) + (outcome.score?.[1] ?? 0)).toBe(total);
            }
          },
        ),
        { numRuns: 60 },
      );
    },
  );
});
