// Background work as a list (issue #29 item 7): a list starts in order and stops in reverse, a
// failing stop does not keep the others running, and a loop never overlaps its runs and stops
// cleanly. Real timers, short intervals.
import { every, periodic, runWorkers, type Worker } from '../../src/service/workers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recording(name: string, log: string[], fail: { start?: boolean; stop?: boolean } = {}): Worker {
  return {
    name,
    start: async () => {
      await sleep(2);
      if (fail.start) throw new Error(`${name} cannot start`);
      log.push(`start ${name}`);
    },
    stop: async () => {
      await sleep(2);
      if (fail.stop) throw new Error(`${name} cannot stop`);
      log.push(`stop ${name}`);
    },
  };
}

describe('runWorkers', () => {
  it('starts in order, each start awaited, and stops in reverse order, each stop awaited', async () => {
    const log: string[] = [];
    const stop = await runWorkers(
      ['a', 'b', 'c'].map((n) => recording(n, log)),
      () => undefined,
    );
    expect(log).toEqual(['start a', 'start b', 'start c']);
    await stop();
    expect(log).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
    // A second stop stops nothing again.
    await stop();
    expect(log).toHaveLength(6);
  });

  it('a failing stop is reported and the others still stop; stop never rejects', async () => {
    const log: string[] = [];
    const errors: [string, string][] = [];
    const stop = await runWorkers(
      [recording('a', log), recording('b', log, { stop: true }), recording('c', log)],
      (error, worker) => errors.push([worker, (error as Error).message]),
    );
    await expect(stop()).resolves.toBeUndefined();
    expect(log).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop a']);
    expect(errors).toEqual([['b', 'b cannot stop']]);
  });

  it('a failing start stops those started, in reverse, and rejects; later ones never start', async () => {
    const log: string[] = [];
    const workers = [
      recording('a', log),
      recording('b', log),
      recording('c', log, { start: true }),
      recording('d', log),
    ];
    await expect(runWorkers(workers, () => undefined)).rejects.toThrow('c cannot start');
    expect(log).toEqual(['start a', 'start b', 'stop c', 'stop b', 'stop a']);
  });
});

describe('every', () => {
  it('never overlaps runs, reports errors and goes on, and stop awaits the run under way', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    const errors: unknown[] = [];
    // Each run outlasts several ticks (5 ms) and every other run fails.
    const loop = every(
      5,
      async () => {
        runs++;
        active++;
        most = Math.max(most, active);
        await sleep(25);
        active--;
        if (runs % 2 === 0) throw new Error(`run ${runs} failed`);
      },
      (error) => errors.push(error),
    );
    while (runs < 4) await sleep(5);
    await loop.stop();
    expect(most).toBe(1);
    // Stopped means settled: no run under way, and none starts later.
    expect(active).toBe(0);
    const after = runs;
    expect(errors.length).toBe(Math.floor(after / 2));
    await sleep(40);
    expect(runs).toBe(after);
  });

  it('as a worker: runs only between start and stop', async () => {
    let runs = 0;
    const worker = periodic(
      'counter',
      5,
      async () => {
        runs++;
      },
      () => undefined,
    );
    await sleep(20);
    expect(runs).toBe(0);
    const stop = await runWorkers([worker], () => undefined);
    while (runs < 3) await sleep(5);
    await stop();
    const after = runs;
    await sleep(30);
    expect(runs).toBe(after);
  });
});
