// Tournament pairing (src/service/tournaments/pairing.ts), pure: Berger tables and Swiss rounds.
import { roundRobin, swissRound, type Pair, type SwissPlayer } from '../../src/service/tournaments/pairing';

const key = (a: string, b: string) => [a, b].sort().join('-');

describe('round robin (Berger tables)', () => {
  it('pairs 4 players as the hand-computed table', () => {
    expect(roundRobin(['A', 'B', 'C', 'D'])).toEqual([
      [
        { first: 'A', second: 'D' },
        { first: 'B', second: 'C' },
      ],
      [
        { first: 'D', second: 'B' },
        { first: 'C', second: 'A' },
      ],
      [
        { first: 'C', second: 'D' },
        { first: 'A', second: 'B' },
      ],
    ]);
  });

  it.each([2, 3, 4, 5, 6, 7, 8, 9, 12])(
    '%i players: everyone meets everyone once, colours within one',
    (n) => {
      const seeds = Array.from({ length: n }, (_, i) => `p${i}`);
      const rounds = roundRobin(seeds);
      expect(rounds).toHaveLength(n % 2 === 0 ? n - 1 : n);
      const met = new Map<string, number>();
      const firsts = new Map<string, number>();
      const byes = new Map<string, number>();
      for (const round of rounds) {
        const seen = round.flatMap((p) => [p.first, ...(p.second ? [p.second] : [])]);
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.sort()).toEqual([...seeds].sort());
        for (const p of round) {
          if (p.second === null) {
            byes.set(p.first, (byes.get(p.first) ?? 0) + 1);
            continue;
          }
          met.set(key(p.first, p.second), (met.get(key(p.first, p.second)) ?? 0) + 1);
          firsts.set(p.first, (firsts.get(p.first) ?? 0) + 1);
        }
      }
      expect(met.size).toBe((n * (n - 1)) / 2);
      expect([...met.values()].every((c) => c === 1)).toBe(true);
      const games = n % 2 === 0 ? n - 1 : n - 1;
      for (const s of seeds) expect(Math.abs(2 * (firsts.get(s) ?? 0) - games)).toBeLessThanOrEqual(1);
      if (n % 2 === 1) expect([...byes.values()]).toEqual(seeds.map(() => 1));
    },
  );
});

/** Plays Swiss rounds where the better-rated player always wins; returns every round's pairs. */
function playSwiss(ratings: readonly number[], rounds: number): Pair[][] {
  const players = ratings.map((rating, i) => ({
    id: `p${i + 1}`,
    rating,
    score: 0,
    opponents: [] as string[],
    colours: [] as Array<0 | 1>,
    byes: 0,
  }));
  const byId = new Map(players.map((p) => [p.id, p]));
  const played: Pair[][] = [];
  for (let r = 1; r <= rounds; r++) {
    const pairs = swissRound(players as SwissPlayer[], r);
    played.push(pairs);
    for (const pair of pairs) {
      const a = byId.get(pair.first)!;
      if (pair.second === null) {
        a.byes++;
        a.score += 1;
        continue;
      }
      const b = byId.get(pair.second)!;
      a.opponents.push(b.id);
      b.opponents.push(a.id);
      a.colours.push(0);
      b.colours.push(1);
      (a.rating > b.rating ? a : b).score += 1;
    }
  }
  return played;
}

describe('Swiss', () => {
  it('round 1: top half against bottom half by rating, the lowest has the bye', () => {
    const [round1] = playSwiss([2000, 1900, 1800, 1700, 1600, 1500, 1400], 1);
    expect(round1).toEqual([
      { first: 'p1', second: 'p4' },
      { first: 'p2', second: 'p5' },
      { first: 'p3', second: 'p6' },
      { first: 'p7', second: null },
    ]);
  });

  it('round 2 pairs within score groups (winners meet winners)', () => {
    const [, round2] = playSwiss([2000, 1900, 1800, 1700, 1600, 1500, 1400], 2);
    // After round 1: p1 p2 p3 p7 have 1, p4 p5 p6 have 0. Bye: lowest-ranked without one (p6).
    const winners = new Set(['p1', 'p2', 'p3', 'p7']);
    const games = round2!.filter((p) => p.second !== null);
    expect(round2!.find((p) => p.second === null)).toEqual({ first: 'p6', second: null });
    for (const g of games) {
      expect(winners.has(g.first)).toBe(winners.has(g.second!));
    }
  });

  it.each([
    [7, 5],
    [8, 5],
    [9, 6],
    [6, 5],
    [16, 7],
  ])(
    '%i players, %i rounds: no repeats, everyone once a round, byes to different players, colours balanced',
    (n, rounds) => {
      const ratings = Array.from({ length: n }, (_, i) => 2000 - 37 * i);
      const played = playSwiss(ratings, rounds);
      const met = new Set<string>();
      const byes: string[] = [];
      const balance = new Map<string, number>();
      for (const round of played) {
        const seen = round.flatMap((p) => [p.first, ...(p.second ? [p.second] : [])]);
        expect(new Set(seen).size).toBe(n);
        for (const p of round) {
          if (p.second === null) {
            byes.push(p.first);
            continue;
          }
          const k = key(p.first, p.second);
          expect(met.has(k)).toBe(false);
          met.add(k);
          balance.set(p.first, (balance.get(p.first) ?? 0) + 1);
          balance.set(p.second, (balance.get(p.second) ?? 0) - 1);
        }
      }
      expect(new Set(byes).size).toBe(byes.length);
      expect(byes).toHaveLength(n % 2 === 1 ? rounds : 0);
      for (const b of balance.values()) expect(Math.abs(b)).toBeLessThanOrEqual(2);
    },
  );

  it('gives a second bye only when everyone has had one', () => {
    const players: SwissPlayer[] = ['a', 'b', 'c'].map((id, i) => ({
      id,
      rating: 1500 - i,
      score: 0,
      opponents: [],
      colours: [],
      byes: 1,
    }));
    const pairs = swissRound(players, 4);
    expect(pairs.find((p) => p.second === null)).toEqual({ first: 'c', second: null });
    const fresh = players.map((p) => (p.id === 'a' ? { ...p, byes: 0 } : p));
    expect(swissRound(fresh, 4).find((p) => p.second === null)).toEqual({ first: 'a', second: null });
  });

  it('repeats a pairing only when no other pairing exists', () => {
    const players: SwissPlayer[] = [
      { id: 'a', rating: 1600, score: 1, opponents: ['b'], colours: [0], byes: 0 },
      { id: 'b', rating: 1500, score: 0, opponents: ['a'], colours: [1], byes: 0 },
    ];
    expect(swissRound(players, 2)).toEqual([{ first: 'b', second: 'a' }]);
  });
});
