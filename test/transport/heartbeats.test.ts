import { Heartbeats } from '../../src/transport/heartbeats';

// The one timer behind every stream's keep-alive and every graphql-ws socket's ping
// (transport/heartbeats.ts): each connection's beat comes every period from when it joined, give
// or take the one-second step; a removed beat never comes again; the timer stops with the last one.

describe('Heartbeats', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('beats each connection every period from when it joined, one second at most early', () => {
    const beats = new Heartbeats(15_000);
    const times: Record<string, number[]> = { a: [], b: [] };
    const start = Date.now();
    beats.add(() => times.a!.push(Date.now() - start));
    jest.advanceTimersByTime(7_400);
    beats.add(() => times.b!.push(Date.now() - start));
    jest.advanceTimersByTime(60_000);
    expect(times.a).toEqual([15_000, 30_000, 45_000, 60_000]);
    // b joined 7.4 s in, during the slot of second 7: its beats come 14.6 s after it joined, then
    // every 15 s.
    expect(times.b).toEqual([22_000, 37_000, 52_000, 67_000]);
  });

  it('stops a removed beat, even one removed by another beat of the same slot, and its timer with the last', () => {
    const beats = new Heartbeats(3_000);
    let a = 0;
    let b = 0;
    let stopB: () => void = () => undefined;
    const stopA = beats.add(() => {
      a++;
      stopB();
    });
    stopB = beats.add(() => b++);
    jest.advanceTimersByTime(3_000);
    expect([a, b]).toEqual([1, 0]);
    jest.advanceTimersByTime(3_000);
    expect([a, b]).toEqual([2, 0]);
    expect(jest.getTimerCount()).toBe(1);
    stopA();
    stopA();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(10_000);
    expect(a).toBe(2);
  });
});
