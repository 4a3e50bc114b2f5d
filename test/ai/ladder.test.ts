// The strength ladder's machinery (bench/ladder.ts, bench/ladder-game.ts): the openings book, one
// game, and the interval. No strength assertions here (the ladder itself is a bench).
import { search } from '../../src/ai';
import { openings, replay, run, setup } from '../../bench/ladder-game';
import { interval } from '../../bench/ladder';

describe('openings', () => {
  it.each(['kalah', 'congo', 'russian-draughts'] as const)(
    '%s: distinct, legal, unfinished, the same on every call',
    (kind) => {
      const book = openings(kind, 12, 4);
      expect(book).toHaveLength(12);
      expect(new Set(book.map((o) => o.join(' '))).size).toBe(12);
      const { engine, options } = setup(kind);
      for (const line of book) {
        expect(line).toHaveLength(4);
        expect(engine.outcome(replay(engine, options, line))).toBeUndefined(); // replay throws if illegal
      }
      expect(openings(kind, 12, 4)).toEqual(book);
      expect(openings(kind, 12, 4, 0, 2)).not.toEqual(book); // another seed, another book
    },
  );

  it('a balanced book keeps only openings its analysis scores within the bound', () => {
    const kind = 'kalah';
    const { options, start } = setup(kind);
    const book = openings(kind, 2, 2, 150);
    expect(book).toHaveLength(2);
    for (const moves of book) {
      const score = search({ kind, options, start, moves, seed: 1 }, { nodes: 20_000, timeMs: 1e9 }).score;
      expect(Math.abs(score)).toBeLessThanOrEqual(150);
    }
    const plain = openings(kind, 8, 2);
    const scores = plain.map(
      (moves) => search({ kind, options, start, moves, seed: 1 }, { nodes: 20_000, timeMs: 1e9 }).score,
    );
    expect(scores.some((s) => Math.abs(s) > 150)).toBe(true); // the filter has something to remove
  });

  it('the balancing analysis can be given another node budget', () => {
    const kind = 'kalah';
    const { options, start } = setup(kind);
    const book = openings(kind, 2, 2, 150, 1, 3_000);
    expect(book).toHaveLength(2);
    for (const moves of book) {
      const score = search({ kind, options, start, moves, seed: 1 }, { nodes: 3_000, timeMs: 1e9 }).score;
      expect(Math.abs(score)).toBeLessThanOrEqual(150);
    }
    expect(openings(kind, 2, 2, 150, 1, 3_000)).toEqual(book);
  });
});

describe('a ladder game', () => {
  const base = {
    kind: 'kalah' as const,
    a: 3 as const,
    b: 2 as const,
    index: 0,
    nodeCap: 2_000,
    maxPlies: 300,
  };

  it('replays exactly, and the swapped colours play another game', () => {
    const opening = openings('kalah', 1, 2)[0] as string[];
    const first = run({ ...base, opening, aFirst: true });
    expect(run({ ...base, opening, aFirst: true })).toEqual({ ...first, ms: expect.any(Number) });
    expect([0, 0.5, 1]).toContain(first.points);
    const swapped = run({ ...base, opening, aFirst: false });
    expect(swapped.line).not.toBe(first.line);
    expect(first.plies).toBeGreaterThan(opening.length);
  });

  it('counts an unfinished game as a draw at the ply limit', () => {
    const opening = openings('congo', 1, 4)[0] as string[];
    const result = run({ ...base, kind: 'congo', opening, aFirst: true, maxPlies: 8 });
    expect(result).toMatchObject({ points: 0.5, plies: 8 });
  });
});

describe('interval', () => {
  it('is the mean with a 95% normal interval, draws counting half', () => {
    const r = interval([1, 1, 0.5, 0, 1, 1, 0.5, 1]);
    expect(r.mean).toBeCloseTo(0.75);
    expect(r.low).toBeLessThan(0.75);
    expect(r.high).toBeGreaterThan(0.75);
    expect(r.high).toBeLessThanOrEqual(1);
  });

  it('uses the rule of three when every game went one way', () => {
    expect(interval(new Array(100).fill(1))).toEqual({ mean: 1, low: 0.97, high: 1 });
  });
});
