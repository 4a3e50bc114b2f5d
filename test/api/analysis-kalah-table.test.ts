// Analysis answers `solved` honestly for every Kalah board of the bench's table (issue #28, item
// 22): the exact solver takes at most 20 seeds; beyond, the ordinary search may prove a win or a
// loss, and its line's margin is only a bound. Every board of `npm run bench -- ai kalah` (bench/
// ai.ts: Kalah(m,n) solved from the start by solveKalah with 20 000 000 nodes, a solver
// test/ai/kalah-solved.test.ts checks against plain minimax) is analysed through the endpoint:
// - solved.exact true: the result and the score are South's final margin with perfect play;
// - solved.exact false: the result is right and the score a bound (a win by at least, a loss by at
//   least that much);
// - null: nothing claimed.
import { appHarness, type Running } from '../support/app';

const harness = appHarness();
afterAll(() => harness.stopAll());

/** houses, seeds, emptyCapture, South's margin with perfect play (the bench's table). */
const TABLE: ReadonlyArray<readonly [number, number, boolean, number]> = [
  [1, 1, false, 0],
  [1, 2, false, -2],
  [1, 3, false, 6],
  [1, 4, false, -2],
  [1, 5, false, 2],
  [1, 6, false, 0],
  [2, 1, false, 2],
  [2, 2, false, -2],
  [2, 3, false, -2],
  [2, 4, false, -10],
  [2, 5, false, 6],
  [2, 6, false, 8],
  [3, 1, false, 0],
  [3, 2, false, 4],
  [3, 3, false, 2],
  [3, 4, false, 2],
  [3, 5, false, 6],
  [4, 1, false, 2],
  [4, 2, false, 6],
  [4, 3, false, 6],
  [4, 4, false, 2],
  [5, 1, false, 0],
  [5, 2, false, 2],
  [5, 3, false, 6],
  [6, 1, false, 2],
  [6, 2, false, 6],
  [1, 1, true, 0],
  [1, 2, true, -2],
  [1, 3, true, 6],
  [1, 4, true, -2],
  [1, 5, true, 2],
  [1, 6, true, 0],
  [2, 1, true, 2],
  [2, 2, true, -2],
  [2, 3, true, -2],
  [2, 4, true, -12],
  [2, 5, true, 6],
  [2, 6, true, 8],
  [3, 1, true, 0],
  [3, 2, true, 4],
  [3, 3, true, 2],
  [3, 4, true, 2],
  [3, 5, true, 6],
  [4, 1, true, 2],
  [4, 2, true, 6],
  [4, 3, true, 8],
  [4, 4, true, 2],
  [5, 1, true, 0],
  [5, 2, true, 0],
  [5, 3, true, 8],
  [6, 1, true, 2],
  [6, 2, true, 10],
];

describe('Kalah analysis from the start, every board of the bench table', () => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start('memory', { app: { ai: { analysis: { maxTimeMs: 5000, perMinute: 1000 } } } });
  });

  it.each(TABLE)('Kalah(%i,%i) emptyCapture %s: margin %i', async (houses, seeds, emptyCapture, margin) => {
    const res = await fetch(`${run.url}/api/v1/analysis`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'kalah', options: { houses, seeds, emptyCapture }, timeMs: 200 }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { score: number; solved: { result: string; exact?: boolean } | null };
    if (body.solved === null) return;
    const result = margin > 0 ? 'win' : margin < 0 ? 'loss' : 'draw';
    expect(body.solved.result).toBe(result);
    if (body.solved.exact !== false) {
      expect(body.solved.exact).toBe(true);
      expect(body.score).toBe(100 * margin);
    } else if (result === 'win') {
      expect(body.score).toBeLessThanOrEqual(100 * margin);
    } else if (result === 'loss') {
      expect(body.score).toBeGreaterThanOrEqual(100 * margin);
    }
  });
});
