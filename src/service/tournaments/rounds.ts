// What the director decides, pure: a tournament's first and next rounds as pairings with their
// games' ids, and a finished game's points. Nothing here reads storage or a clock.
import { createHash } from 'node:crypto';
import type { Outcome } from '../../engines/types';
import type {
  LegPoints,
  StoredTournament,
  TournamentPairing,
  TournamentPlayer,
} from '../../store/ports/tournaments';
import { roundRobin, swissRound, type Pair, type SwissPlayer } from './pairing';
import { standings } from './standings';

/**
 * The id of a tournament game, derived from what it is (tournament, round, board, leg), so that two
 * nodes, or a retry, name the same game and create it once: 12 base64url characters like any game id.
 */
export function tournamentGameId(tournament: string, round: number, board: number, leg: number): string {
  return createHash('sha256')
    .update(`tournament:${tournament}:${round}:${board}:${leg}`)
    .digest('base64url')
    .slice(0, 12);
}

/** The game's points for the seats [0, 1]: a win 1, a draw ½, an aborted game 0 for both. */
export function seatPoints(outcome: Outcome): LegPoints {
  if (outcome.winner === 0) return [1, 0];
  if (outcome.winner === 1) return [0, 1];
  if (outcome.reason === 'aborted') return [0, 0];
  return [0.5, 0.5];
}

/** A leg's points for the pairing's [first, second]: seat 0 is `first` in leg 0, `second` in leg 1. */
export function legPoints(outcome: Outcome, leg: number): LegPoints {
  const [a, b] = seatPoints(outcome);
  return leg === 0 ? [a, b] : [b, a];
}

/** The seeds, best first: by seeding rating, then by who joined first. */
export function seedOrder(players: readonly TournamentPlayer[]): TournamentPlayer[] {
  return players
    .map((p, i) => ({ p, i }))
    .sort((a, b) => b.p.rating - a.p.rating || a.i - b.i)
    .map((x) => x.p);
}

/** Whether `player` plays in `round` (withdrawn players stop after the round they withdrew in). */
export function playsIn(player: TournamentPlayer | undefined, round: number): boolean {
  return (
    player !== undefined && (player.withdrawnAfterRound === undefined || player.withdrawnAfterRound >= round)
  );
}

function toPairings(t: StoredTournament, round: number, pairs: readonly Pair[]): TournamentPairing[] {
  const legs = t.microMatch ? 2 : 1;
  const byAccount = new Map(t.players.map((p) => [p.account, p]));
  return pairs.map((pair, i) => {
    const board = i + 1;
    const base = { round, board, first: pair.first, second: pair.second };
    if (pair.second === null) return { ...base, games: [] };
    const out = [pair.first, pair.second].find((a) => !playsIn(byAccount.get(a), round));
    if (out !== undefined) return { ...base, games: [], forfeitedBy: out };
    return {
      ...base,
      games: Array.from({ length: legs }, (_, leg) => tournamentGameId(t.id, round, board, leg)),
    };
  });
}

/** Every round of a round robin (Berger tables by seed), made at the start. */
export function roundRobinPairings(t: StoredTournament): TournamentPairing[] {
  const rounds = roundRobin(seedOrder(t.players).map((p) => p.account));
  return rounds.flatMap((pairs, r) => toPairings(t, r + 1, pairs));
}

/** Round robin: a round's pairings at its start, with the forfeits of players withdrawn by then. */
export function refreshForfeits(t: StoredTournament, round: number): TournamentPairing[] {
  const byAccount = new Map(t.players.map((p) => [p.account, p]));
  return t.pairings.map((p) => {
    if (p.round !== round || p.second === null || p.forfeitedBy !== undefined) return p;
    const out = [p.first, p.second].find((a) => !playsIn(byAccount.get(a), round));
    return out === undefined ? p : { ...p, games: [], forfeitedBy: out };
  });
}

/** The next Swiss round's pairings from the history (withdrawn players are not paired). */
export function swissPairings(
  t: StoredTournament,
  round: number,
  results: ReadonlyMap<string, LegPoints>,
): TournamentPairing[] {
  const legs = t.microMatch ? 2 : 1;
  const table = new Map(standings(t, results).map((r) => [r.account, r]));
  const players: SwissPlayer[] = seedOrder(t.players)
    .filter((p) => playsIn(p, round))
    .map((p) => {
      const mine = t.pairings.filter((x) => x.first === p.account || x.second === p.account);
      return {
        id: p.account,
        score: table.get(p.account)?.score ?? 0,
        rating: p.rating,
        opponents: mine.flatMap((x) =>
          x.second === null ? [] : [x.first === p.account ? x.second : x.first],
        ),
        // Micro-matches play both colours: only single games count for colour balance.
        colours:
          legs === 2
            ? []
            : mine.flatMap((x) =>
                x.second === null ? [] : ([x.first === p.account ? 0 : 1] as Array<0 | 1>),
              ),
        byes: mine.filter((x) => x.second === null).length,
      };
    });
  return toPairings(t, round, swissRound(players, round));
}
