// What clients see of a tournament, and the notices the director sends.
import type { Notice, StoredTournament, TournamentStatus } from '../../store/store';
import type { GameHeadView } from '../game/view';
import type { StandingRow } from './standings';
import { slimNotice } from '../delivery/feed-events';

/** `game.started` for a tournament game, as a matched seek sends it. */
export function gameNotice(accounts: readonly string[], at: string, game: GameHeadView): Notice {
  return slimNotice({ to: accounts, type: 'game.started', at, data: { game } });
}

export interface TournamentPlayerView {
  readonly account: string;
  readonly name: string;
  /** The seeding rating. */
  readonly rating: number;
  readonly joinedAt: string;
  /** The round after which the player withdrew; null while in. */
  readonly withdrawnAfterRound: number | null;
}

export interface TournamentPairingView {
  readonly round: number;
  readonly board: number;
  readonly first: string;
  /** null: `first` has a bye. */
  readonly second: string | null;
  readonly games: readonly string[];
  /** The player who withdrew before the pairing was played (its opponent scores every leg); null otherwise. */
  readonly forfeitedBy: string | null;
  /** Players who lost a game of this pairing on time without moving (forfeits). */
  readonly noShows: readonly string[];
  /** [first, second] points once every game of the pairing is over (byes and forfeits at once); null before. */
  readonly points: readonly [number, number] | null;
}

/** What clients see of a tournament: its settings and state as stored, its players and begun pairings. */
export interface TournamentView extends Pick<
  StoredTournament,
  | 'id'
  | 'name'
  | 'kind'
  | 'options'
  | 'timeControl'
  | 'format'
  | 'rounds'
  | 'microMatch'
  | 'byePoints'
  | 'rated'
  | 'minPlayers'
  | 'maxPlayers'
  | 'startsAt'
  | 'createdBy'
  | 'status'
  | 'round'
  | 'version'
  | 'createdAt'
> {
  readonly players: readonly TournamentPlayerView[];
  readonly pairings: readonly TournamentPairingView[];
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
}

export interface StandingsView {
  readonly tournament: string;
  readonly status: TournamentStatus;
  readonly round: number;
  readonly rounds: number;
  readonly rows: readonly StandingRow[];
}

export function tournamentView(t: StoredTournament): TournamentView {
  const legs = t.microMatch ? 2 : 1;
  return {
    id: t.id,
    name: t.name,
    kind: t.kind,
    options: t.options,
    timeControl: t.timeControl,
    format: t.format,
    rounds: t.rounds,
    microMatch: t.microMatch,
    byePoints: t.byePoints,
    rated: t.rated,
    minPlayers: t.minPlayers,
    maxPlayers: t.maxPlayers,
    startsAt: t.startsAt,
    createdBy: t.createdBy,
    status: t.status,
    round: t.round,
    players: t.players.map((p) => ({
      account: p.account,
      name: p.name,
      rating: p.rating,
      joinedAt: p.joinedAt,
      withdrawnAfterRound: p.withdrawnAfterRound ?? null,
    })),
    pairings: t.pairings
      .filter((p) => p.round <= t.round)
      .map((p) => {
        let points: [number, number] | null = null;
        if (p.second === null) points = [t.byePoints * legs, 0];
        else if (p.forfeitedBy !== undefined) points = p.forfeitedBy === p.first ? [0, legs] : [legs, 0];
        else if (p.games.every((g) => t.results[g])) {
          points = p.games.reduce<[number, number]>(
            (sum, g) => [sum[0] + (t.results[g]?.[0] ?? 0), sum[1] + (t.results[g]?.[1] ?? 0)],
            [0, 0],
          );
        }
        return {
          round: p.round,
          board: p.board,
          first: p.first,
          second: p.second,
          games: p.games,
          forfeitedBy: p.forfeitedBy ?? null,
          noShows: p.games.flatMap((g) => (t.noShows?.[g] === undefined ? [] : [t.noShows[g]])),
          points,
        };
      }),
    version: t.version,
    createdAt: t.createdAt,
    startedAt: t.startedAt ?? null,
    finishedAt: t.finishedAt ?? null,
  };
}

/** A pairing's line of the export: `  3. alice 1½–½ bob  [g1, g2]` (a bye, a forfeit said as such). */
function pairingLine(p: TournamentPairingView, name: (account: string) => string): string {
  const pts = (x: number) => (Number.isInteger(x) ? String(x) : `${Math.floor(x) || ''}½`);
  const head = `${String(p.board).padStart(3)}. ${name(p.first)}`;
  if (p.second === null) return `${head} — bye${p.points ? ` (${pts(p.points[0])})` : ''}`;
  const score = p.points ? `${pts(p.points[0])}–${pts(p.points[1])}` : 'vs';
  const notes = [
    ...(p.forfeitedBy ? [`forfeited by ${name(p.forfeitedBy)}`] : []),
    ...p.noShows.map((a) => `no-show: ${name(a)}`),
  ];
  return `${head} ${score} ${name(p.second)}${p.games.length > 0 ? `  [${p.games.join(', ')}]` : ''}${notes.length > 0 ? `  (${notes.join('; ')})` : ''}`;
}

/** The plain-text record of a tournament: its settings, every round's pairings and results, then the standings table. */
export function tournamentText(t: TournamentView, standingsTable: string): string {
  const names = new Map(t.players.map((p) => [p.account, p.name]));
  const name = (account: string) => names.get(account) ?? account;
  const lines = [
    `${t.name} (${t.id})`,
    `${t.format === 'swiss' ? 'Swiss' : 'Round robin'} · ${t.kind} ${JSON.stringify(t.options)} · ${t.status} · round ${t.round} of ${t.rounds}` +
      `${t.microMatch ? ' · micro-matches' : ''}${t.rated ? ' · rated' : ''}`,
    '',
  ];
  for (let round = 1; round <= t.round; round++) {
    lines.push(`Round ${round}`);
    for (const p of t.pairings.filter((x) => x.round === round)) lines.push(pairingLine(p, name));
    lines.push('');
  }
  return `${lines.join('\n')}\n${standingsTable}`;
}
