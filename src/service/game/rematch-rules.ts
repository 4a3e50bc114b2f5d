// The pure part of rematches (./rematch.ts does the reads and writes): what a change of a finished
// game's rematch record tells its players, and how the new game is seated.
import { other, type Side } from '../../engines/types';
import type { Notice, RematchRecord, StoredGame } from '../../store/store';
import type { GameHeadView } from './view';

/** No offer, no refusal, no new game: a finished game's rematch before anyone asks. */
export const NO_REMATCH: RematchRecord = { offeredBy: null, declinedBy: null, game: null };

/** The rematch record of a game (NO_REMATCH when it has none). */
export function rematchOf(game: Pick<StoredGame, 'rematch'>): RematchRecord {
  return game.rematch ?? NO_REMATCH;
}

/**
 * The feed notices a write of a finished game's rematch record causes: `rematch.offered` to the
 * opponent's account (`by`: the offering seat), `rematch.declined` to the offerer's (`by`: the seat
 * that declined). The accepted rematch is told by the new game's `game.started` (its `rematchOf`);
 * the old game's new version then is a plain `game.updated`.
 */
export function rematchNotices(
  before: Pick<StoredGame, 'rematch'>,
  after: Pick<StoredGame, 'rematch' | 'seats'>,
  game: GameHeadView,
  at: string,
): Notice[] {
  const was = rematchOf(before);
  const now = rematchOf(after);
  const accountOf = (seat: Side) => after.seats[seat]?.account ?? null;
  const notices: Notice[] = [];
  const tell = (seat: Side, type: Notice['type'], by: Side) => {
    const account = accountOf(seat);
    if (account !== null) notices.push({ to: [account], type, at, data: { game, by } });
  };
  if (now.offeredBy !== null && now.offeredBy !== was.offeredBy) {
    tell(other(now.offeredBy), 'rematch.offered', now.offeredBy);
  }
  if (now.declinedBy !== null && now.declinedBy !== was.declinedBy) {
    tell(other(now.declinedBy), 'rematch.declined', now.declinedBy);
  }
  return notices;
}

/**
 * Where each old seat sits in the rematch: the other seat (colours swapped). The new game keeps the
 * seat that moves first (and a start position's side to move), so who moved second moves first.
 */
export function rematchSeatOf(oldSeat: Side): Side {
  return other(oldSeat);
}
