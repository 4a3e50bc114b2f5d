// Standings, pure: a function of the tournament's players, its pairings and its games' results,
// so that nothing is ever counted twice. Tie-breaks: Sonneborn–Berger (round robin), Buchholz
// and median Buchholz (Swiss), then direct encounter, then wins.
import type { LegPoints, StoredTournament } from '../../store/ports/tournaments';

export type StandingsInput = Pick<
  StoredTournament,
  'format' | 'players' | 'pairings' | 'byePoints' | 'microMatch'
>;

export interface TieBreaks {
  /** Round robin: Σ over opponents of (points scored against them × their score). */
  readonly sonnebornBerger?: number;
  /** Swiss: Σ of the opponents' scores (byes and forfeits count no opponent). */
  readonly buchholz?: number;
  /** Swiss: Buchholz without the highest and the lowest opponent (with three opponents or more). */
  readonly medianBuchholz?: number;
  /** Points scored against the players tied with this one on everything before. */
  readonly directEncounter: number;
  /** Games won (not byes nor forfeits). */
  readonly wins: number;
}

export interface StandingRow {
  /** 1, 2, 3…; equal for players tied on every criterion. */
  readonly rank: number;
  readonly account: string;
  readonly name: string;
  readonly score: number;
  /** Games finished (byes and forfeits not counted). */
  readonly played: number;
  readonly withdrawn: boolean;
  readonly tieBreaks: TieBreaks;
}

interface Tally {
  score: number;
  wins: number;
  played: number;
  /** Per pairing with a game played: the opponent and the points scored against it. */
  against: Array<{ opponent: string; points: number }>;
}

/** The standings: best first. `results` maps finished games' ids to [first, second] points. */
export function standings(t: StandingsInput, results: ReadonlyMap<string, LegPoints>): StandingRow[] {
  const legs = t.microMatch ? 2 : 1;
  const tally = new Map<string, Tally>(
    t.players.map((p) => [p.account, { score: 0, wins: 0, played: 0, against: [] }]),
  );
  const of = (account: string) => tally.get(account);
  for (const pairing of t.pairings) {
    const first = of(pairing.first);
    if (pairing.second === null) {
      if (first) first.score += t.byePoints * legs;
      continue;
    }
    const second = of(pairing.second);
    if (pairing.forfeitedBy !== undefined) {
      const winner = pairing.forfeitedBy === pairing.first ? second : first;
      if (winner) winner.score += legs;
      continue;
    }
    let met = false;
    let points: [number, number] = [0, 0];
    for (const game of pairing.games) {
      const result = results.get(game);
      if (!result) continue;
      met = true;
      points = [points[0] + result[0], points[1] + result[1]];
      for (const [side, tallyOf] of [first, second].entries()) {
        if (!tallyOf) continue;
        tallyOf.played++;
        if ((result[side] ?? 0) > (result[1 - side] ?? 0)) tallyOf.wins++;
      }
    }
    if (!met) continue;
    if (first) {
      first.score += points[0];
      first.against.push({ opponent: pairing.second, points: points[0] });
    }
    if (second) {
      second.score += points[1];
      second.against.push({ opponent: pairing.first, points: points[1] });
    }
  }
  const scoreOf = (account: string) => of(account)?.score ?? 0;
  const rows = t.players.map((p, seed) => {
    const mine = of(p.account) as Tally;
    const opponentScores = mine.against.map((a) => scoreOf(a.opponent));
    const buchholz = sum(opponentScores);
    const sorted = [...opponentScores].sort((a, b) => a - b);
    const tieBreaks =
      t.format === 'round-robin'
        ? { sonnebornBerger: sum(mine.against.map((a) => a.points * scoreOf(a.opponent))) }
        : {
            buchholz,
            medianBuchholz: sorted.length >= 3 ? sum(sorted.slice(1, -1)) : buchholz,
          };
    return { p, seed, mine, tieBreaks };
  });
  const primary = (r: (typeof rows)[number]) => [
    r.mine.score,
    ...(t.format === 'round-robin'
      ? [r.tieBreaks.sonnebornBerger ?? 0]
      : [r.tieBreaks.buchholz ?? 0, r.tieBreaks.medianBuchholz ?? 0]),
  ];
  const keyOf = (r: (typeof rows)[number]) => primary(r).join('|');
  // Direct encounter: points against the others tied on score and the primary tie-breaks.
  const groups = new Map<string, Set<string>>();
  for (const r of rows) {
    const group = groups.get(keyOf(r)) ?? new Set<string>();
    group.add(r.p.account);
    groups.set(keyOf(r), group);
  }
  const full = rows.map((r) => {
    const tied = groups.get(keyOf(r)) as Set<string>;
    const directEncounter =
      tied.size > 1 ? sum(r.mine.against.filter((a) => tied.has(a.opponent)).map((a) => a.points)) : 0;
    const keys = [...primary(r), directEncounter, r.mine.wins];
    return { ...r, keys, tieBreaks: { ...r.tieBreaks, directEncounter, wins: r.mine.wins } };
  });
  full.sort((a, b) => compareKeys(b.keys, a.keys) || a.seed - b.seed);
  let rank = 0;
  return full.map((r, i) => {
    const previous = full[i - 1];
    if (!previous || compareKeys(previous.keys, r.keys) !== 0) rank = i + 1;
    return {
      rank,
      account: r.p.account,
      name: r.p.name,
      score: r.mine.score,
      played: r.mine.played,
      withdrawn: r.p.withdrawnAfterRound !== undefined,
      tieBreaks: r.tieBreaks,
    };
  });
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (Math.abs(d) > 1e-9) return d;
  }
  return 0;
}

/** The standings as a plain-text table (fixed-width columns, one line per player). */
export function standingsText(
  title: string,
  format: StandingsInput['format'],
  rows: readonly StandingRow[],
): string {
  const tb =
    format === 'round-robin'
      ? [{ head: 'SB', of: (r: StandingRow) => r.tieBreaks.sonnebornBerger ?? 0 }]
      : [
          { head: 'Buch', of: (r: StandingRow) => r.tieBreaks.buchholz ?? 0 },
          { head: 'MBuch', of: (r: StandingRow) => r.tieBreaks.medianBuchholz ?? 0 },
        ];
  const head = ['#', 'Player', 'Score', ...tb.map((c) => c.head), 'DE', 'Wins', 'Games'];
  const body = rows.map((r) => [
    String(r.rank),
    r.name + (r.withdrawn ? ' (withdrawn)' : ''),
    num(r.score),
    ...tb.map((c) => num(c.of(r))),
    num(r.tieBreaks.directEncounter),
    String(r.tieBreaks.wins),
    String(r.played),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 1 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [title, '', line(head), ...body.map(line), ''].join('\n');
}

function num(value: number): string {
  return String(Math.round(value * 100) / 100);
}
