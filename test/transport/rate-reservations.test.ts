import Redis from 'ioredis';
import { createLimiter } from '../../src/store/limiter';
import type { RateLimiter } from '../../src/store/store';
import { MAX_AHEAD, Reservations } from '../../src/transport/rate-limit';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';

// Rate limit reservations (transport/rate-limit.ts): a node takes requests of a window from the
// store ahead of their use. One node sees exactly the limit, with the count left going down by
// the points of each request; several nodes together never admit more than the limit, and lose
// at most MAX_AHEAD per node to reservations they did not use.

/** Sends `n` requests of `points` through `node`, answering each verdict. */
async function send(node: Reservations, n: number, points = 1) {
  const verdicts = [];
  for (let i = 0; i < n; i++) verdicts.push(await node.consume('k', points));
  return verdicts;
}

function stores(): Array<
  [string, () => Promise<{ limiter: (points: number) => RateLimiter; close: () => Promise<void> }>]
> {
  return [
    [
      'memory',
      async () => ({
        limiter: (points) => createLimiter({ name: 'token', points, windowSeconds: 60 }),
        close: async () => undefined,
      }),
    ],
    [
      'redis',
      async () => {
        const prefix = uniquePrefix('reservations');
        const client = new Redis(REDIS_URL, { enableAutoPipelining: true });
        return {
          limiter: (points) =>
            createLimiter({ name: 'token', points, windowSeconds: 60 }, { client, prefix }),
          close: async () => {
            await deletePrefix(prefix);
            client.disconnect();
          },
        };
      },
    ],
  ];
}

describe.each(stores())('rate limit reservations on %s', (_name, open) => {
  let store: Awaited<ReturnType<typeof open>>;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  it('admits exactly the limit on one node, the count left going down by one per request', async () => {
    const node = new Reservations(store.limiter(2000));
    const verdicts = await send(node, 2100);
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(2000);
    expect(verdicts.slice(0, 2000).map((v) => v.remaining)).toEqual(
      Array.from({ length: 2000 }, (_, i) => 1999 - i),
    );
    expect(verdicts.slice(2000).every((v) => !v.allowed && v.remaining === 0)).toBe(true);
  });

  it('counts requests of several points, and refuses one that does not fit', async () => {
    const node = new Reservations(store.limiter(1000));
    const verdicts = await send(node, 340, 3);
    // 333 × 3 = 999: the 334th request of 3 does not fit, nor any after it.
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(333);
    expect(verdicts[332]?.remaining).toBe(1);
    expect(verdicts.slice(333).some((v) => v.allowed)).toBe(false);
    // As the store counts: a refused request counts too (the window is over its limit now).
    expect((await node.consume('k', 1)).allowed).toBe(false);
  });

  it('never admits more than the limit across nodes, and loses at most MAX_AHEAD per node', async () => {
    const limiter = store.limiter(3000);
    const nodes = [new Reservations(limiter), new Reservations(limiter), new Reservations(limiter)];
    let allowed = 0;
    // The nodes take turns unevenly (node i sends i + 1 requests per turn), some concurrently.
    for (let turn = 0; turn < 700; turn++) {
      const answers = await Promise.all(nodes.map((node, i) => send(node, i + 1)));
      allowed += answers.flat().filter((v) => v.allowed).length;
    }
    expect(allowed).toBeLessThanOrEqual(3000);
    expect(allowed).toBeGreaterThanOrEqual(3000 - nodes.length * MAX_AHEAD);
  });

  it('asks the store for fewer requests than it admits while the window has plenty left', async () => {
    const limiter = store.limiter(100_000);
    let calls = 0;
    const counting: RateLimiter = {
      options: limiter.options,
      consume: (key, points) => {
        calls++;
        return limiter.consume(key, points);
      },
    };
    const verdicts = await send(new Reservations(counting), 160);
    expect(verdicts.every((v) => v.allowed)).toBe(true);
    expect(calls).toBeLessThanOrEqual(1 + Math.ceil(159 / (MAX_AHEAD + 1)));
  });
});
