// Following a game from its stream (GET /games/{id}/stream): the first message is the whole game,
// each later one a new version's head and the move that made it. A page keeps the moves of the
// first message and appends each move; answers to its own writes (whole games) may arrive before the
// stream's update for the same version, so nothing older than what is shown is ever applied.
// Pure functions, no DOM (test/web/state.test.ts).
import type { components } from '../../../packages/client/src/generated/openapi';

type Schemas = components['schemas'];
type Game = Schemas['Game'];
type GameStreamEvent = Schemas['GameStreamEvent'];
export type StreamUpdate = Extract<GameStreamEvent, { event: 'update' }>['data'];

/** A whole game (stream `game`, or the answer to a write) replaces an older one. */
export function applyGame(current: Game | undefined, next: Game): Game {
  return current && next.version < current.version ? current : next;
}

/**
 * An `update`: the new head with the moves so far plus its move. `stale` when a move is missing in
 * between (the page then reloads the whole game).
 */
export function applyUpdate(
  current: Game | undefined,
  update: StreamUpdate,
): { game: Game | undefined; stale: boolean } {
  if (!current || update.game.version <= current.version) return { game: current, stale: !current };
  const { move } = update;
  let moves = current.moves;
  if (move) {
    if (move.ply === moves.length + 1) moves = [...moves, move];
    else if (move.ply > moves.length + 1) return { game: current, stale: true };
  }
  return { game: { ...update.game, moves }, stale: false };
}

/** Milliseconds left per seat at `now` (the running clock counts down from runningSince). */
export function clockRemaining(clock: Game['clock'], now: number): number[] {
  if (!clock) return [];
  return clock.remainingMs.map((ms, seat) => {
    if (seat !== clock.runningSeat || !clock.runningSince) return ms;
    return Math.max(0, ms - (now - Date.parse(clock.runningSince)));
  });
}

/** `m:ss`, or `s.t` under ten seconds. */
export function formatClock(ms: number): string {
  if (ms < 10_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}`;
  const total = Math.floor(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

const REASONS: Record<NonNullable<Game['result']>['reason'], string> = {
  'lion-captured': 'the lion was captured',
  'no-moves': 'no moves left',
  'bare-lions': 'only the lions are left',
  'threefold-repetition': 'threefold repetition',
  'kings-only-15': '15 moves with kings only',
  'three-kings-vs-one': 'three kings against one',
  'endgame-30-60': 'the endgame move count',
  'long-diagonal': 'king on the long diagonal',
  'small-material': 'too little material',
  majority: 'a majority of the seeds',
  'cannot-feed': 'the opponent cannot be fed',
  'row-empty': 'a row is empty',
  resignation: 'resignation',
  agreement: 'agreement',
  timeout: 'time ran out',
  aborted: 'aborted',
  abandoned: 'abandoned',
  banned: 'forfeit (account banned)',
  'move-limit': 'the move limit',
};

/** "white wins: the lion was captured", "Draw: agreement", with the score when there is one. */
export function resultText(result: NonNullable<Game['result']>): string {
  const who = result.winner === null ? 'Draw' : `${result.winnerName ?? `Seat ${result.winner}`} wins`;
  const score = result.score ? ` (${result.score.join('–')})` : '';
  return `${who}: ${REASONS[result.reason] ?? result.reason}${score}`;
}
