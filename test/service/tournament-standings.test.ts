// Tournament standings (src/service/tournaments/standings.ts), pure, against hand-computed tables.
import { standings, standingsText, type StandingsInput } from '../../src/service/tournaments/standings';
import type { LegPoints, TournamentPairing } from '../../src/store/ports/tournaments';

const players = (...names: string[]) =>
  names.map((name) => ({ account: `id-${name}`, name, rating: 1500, joinedAt: '2031-01-01T00:00:00.000Z' }));
const pair = (
  round: number,
  board: number,
  first: string,
  second: string | null,
  ...games: string[]
): TournamentPairing => ({
  round,
  board,
  first: `id-${first}`,
  second: second === null ? null : `id-${second}`,
  games,
});
const WIN: LegPoints = [1, 0];
const LOSS: LegPoints = [0, 1];
const DRAW: LegPoints = [0.5, 0.5];

describe('standings', () => {
  // Round robin of 4: A–D 1-0, B–C ½-½ | D–B 1-0, C–A 1-0 | C–D ½-½, A–B 1-0.
  // Scores A 2, B ½, C 2, D 1½. SB: C = ½·½ + 1·2 + ½·1½ = 3; A = 1·1½ + 1·½ = 2; D = 1·½ + ½·2 = 1½; B = ½·2 = 1.
  const rr: StandingsInput = {
    format: 'round-robin',
    players: players('A', 'B', 'C', 'D'),
    byePoints: 1,
    microMatch: false,
    pairings: [
      pair(1, 1, 'A', 'D', 'g1'),
      pair(1, 2, 'B', 'C', 'g2'),
      pair(2, 1, 'D', 'B', 'g3'),
      pair(2, 2, 'C', 'A', 'g4'),
      pair(3, 1, 'C', 'D', 'g5'),
      pair(3, 2, 'A', 'B', 'g6'),
    ],
  };
  const rrResults = new Map<string, LegPoints>([
    ['g1', WIN],
    ['g2', DRAW],
    ['g3', WIN],
    ['g4', WIN],
    ['g5', DRAW],
    ['g6', WIN],
  ]);

  it('round robin: score, then Sonneborn–Berger', () => {
    const rows = standings(rr, rrResults);
    expect(rows.map((r) => [r.rank, r.name, r.score, r.tieBreaks.sonnebornBerger, r.tieBreaks.wins])).toEqual(
      [
        [1, 'C', 2, 3, 1],
        [2, 'A', 2, 2, 2],
        [3, 'D', 1.5, 1.5, 1],
        [4, 'B', 0.5, 1, 0],
      ],
    );
    expect(rows.every((r) => r.played === 3)).toBe(true);
  });

  it('counts only finished games (an unfinished one adds nothing)', () => {
    const partial = new Map(rrResults);
    partial.delete('g6');
    const rows = standings(rr, partial);
    expect(rows.find((r) => r.name === 'A')).toMatchObject({ score: 1, played: 2 });
    expect(rows.find((r) => r.name === 'B')).toMatchObject({ score: 0.5, played: 2 });
  });

  // Swiss of 5, 2 rounds: A–C 1-0, B–D ½-½, E bye | E–A 1-0, B–C 1-0, D bye.
  // Scores A 1, B 1½, C 0, D 1½, E 2. Buchholz A 0+2 = 2, B 1½+0 = 1½, C 1+1½ = 2½, D 1½, E 1.
  // B and D tie on score and Buchholz, drew each other (DE ½ each): B is ahead on wins.
  const swiss: StandingsInput = {
    format: 'swiss',
    players: players('A', 'B', 'C', 'D', 'E'),
    byePoints: 1,
    microMatch: false,
    pairings: [
      pair(1, 1, 'A', 'C', 's1'),
      pair(1, 2, 'B', 'D', 's2'),
      pair(1, 3, 'E', null),
      pair(2, 1, 'E', 'A', 's3'),
      pair(2, 2, 'B', 'C', 's4'),
      pair(2, 3, 'D', null),
    ],
  };
  const swissResults = new Map<string, LegPoints>([
    ['s1', WIN],
    ['s2', DRAW],
    ['s3', WIN],
    ['s4', WIN],
  ]);

  it('Swiss: score, Buchholz, median Buchholz, direct encounter, wins; byes score without an opponent', () => {
    const rows = standings(swiss, swissResults);
    expect(
      rows.map((r) => [
        r.rank,
        r.name,
        r.score,
        r.tieBreaks.buchholz,
        r.tieBreaks.directEncounter,
        r.tieBreaks.wins,
      ]),
    ).toEqual([
      [1, 'E', 2, 1, 0, 1],
      [2, 'B', 1.5, 1.5, 0.5, 1],
      [3, 'D', 1.5, 1.5, 0.5, 0],
      [4, 'A', 1, 2, 0, 1],
      [5, 'C', 0, 2.5, 0, 0],
    ]);
  });

  it('median Buchholz drops the best and the worst opponent', () => {
    const t: StandingsInput = {
      format: 'swiss',
      players: players('A', 'B', 'C', 'D'),
      byePoints: 1,
      microMatch: false,
      pairings: [
        pair(1, 1, 'A', 'B', 'm1'),
        pair(1, 2, 'C', 'D', 'm2'),
        pair(2, 1, 'A', 'C', 'm3'),
        pair(2, 2, 'B', 'D', 'm4'),
        pair(3, 1, 'A', 'D', 'm5'),
        pair(3, 2, 'B', 'C', 'm6'),
      ],
    };
    // A wins all; C beats D and B; B beats D. Scores A 3, C 2, B 1, D 0. A's opponents 1, 2, 0.
    const results = new Map<string, LegPoints>([
      ['m1', WIN],
      ['m2', WIN],
      ['m3', WIN],
      ['m4', WIN],
      ['m5', WIN],
      ['m6', LOSS],
    ]);
    const a = standings(t, results).find((r) => r.name === 'A');
    expect(a?.tieBreaks).toMatchObject({ buchholz: 3, medianBuchholz: 1 });
  });

  it('micro-matches: the pairing scores the sum of both legs; a bye scores its points per leg', () => {
    const t: StandingsInput = {
      format: 'round-robin',
      players: players('A', 'B', 'C'),
      byePoints: 1,
      microMatch: true,
      pairings: [pair(1, 1, 'A', 'B', 'x1', 'x2'), pair(1, 2, 'C', null)],
    };
    // Leg 1 (A first): A wins. Leg 2 (B first): a draw, as [A, B] = [½, ½].
    const rows = standings(
      t,
      new Map<string, LegPoints>([
        ['x1', WIN],
        ['x2', DRAW],
      ]),
    );
    expect(rows.map((r) => [r.name, r.score, r.played])).toEqual([
      ['C', 2, 0],
      ['A', 1.5, 2],
      ['B', 0.5, 2],
    ]);
  });

  it('a forfeited pairing scores every leg for the opponent and is no game played', () => {
    const t: StandingsInput = {
      ...rr,
      players: rr.players.map((p) => (p.name === 'B' ? { ...p, withdrawnAfterRound: 1 } : p)),
      pairings: rr.pairings.map((p, i) => (i === 5 ? { ...p, games: [], forfeitedBy: 'id-B' } : p)),
    };
    const rows = standings(t, rrResults);
    expect(rows.find((r) => r.name === 'A')).toMatchObject({ score: 2, played: 2 });
    expect(rows.find((r) => r.name === 'B')).toMatchObject({ withdrawn: true, played: 2 });
  });

  it('prints a plain-text table', () => {
    const text = standingsText('Spring RR', 'round-robin', standings(rr, rrResults));
    expect(text).toBe(
      [
        'Spring RR',
        '',
        '#  Player  Score   SB  DE  Wins  Games',
        '1  C           2    3   0     1      3',
        '2  A           2    2   0     2      3',
        '3  D         1.5  1.5   0     1      3',
        '4  B         0.5    1   0     0      3',
        '',
      ].join('\n'),
    );
  });
});
