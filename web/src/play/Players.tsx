// Who plays: each seat with its player — the account's name, "Computer, level N" for the built-in AI
// (its seat is held by the account ai-level-N, docs/bots.md), "Guest" for a seat link — the rating
// the seat had when a rated game began, and "(you)" for the viewer's seat.
import { useEffect, useState } from 'preact/hooks';
import { api, type Game } from '../api/client';

type Seat = Game['seats'][number];

/** The built-in AI's level from its account id (`ai-level-3` → 3), else undefined. */
export function aiLevel(account: string | null): number | undefined {
  const match = /^ai-level-([1-8])$/.exec(account ?? '');
  return match ? Number(match[1]) : undefined;
}

/** Names of accounts by id (displayName, else username), fetched once per page load. */
const names = new Map<string, Promise<string>>();
function accountName(id: string): Promise<string> {
  let name = names.get(id);
  if (!name) {
    name = api
      .GET('/api/v1/accounts/{username}', { params: { path: { username: id } } })
      .then(({ data }) => (data ? (data.displayName ?? data.username) : id))
      .catch(() => id);
    names.set(id, name);
  }
  return name;
}

function useAccountNames(ids: readonly string[]): ReadonlyMap<string, string> {
  const [known, setKnown] = useState<ReadonlyMap<string, string>>(new Map());
  const key = ids.join(' ');
  useEffect(() => {
    let live = true;
    void Promise.all(ids.map(async (id) => [id, await accountName(id)] as const)).then(
      (pairs) => live && setKnown(new Map(pairs)),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return known;
}

/** The player of a seat in words: "ann", "Computer, level 3" or "Guest". */
export function playerName(seat: Seat, known: ReadonlyMap<string, string>): string {
  const level = aiLevel(seat.account);
  if (level !== undefined) return `Computer, level ${level}`;
  if (seat.account) return known.get(seat.account) ?? seat.account;
  return 'Guest';
}

export function Players({ game, mySeat }: { readonly game: Game; readonly mySeat: number | undefined }) {
  const accounts = game.seats.flatMap((s) =>
    s.account && aiLevel(s.account) === undefined ? [s.account] : [],
  );
  const known = useAccountNames(accounts);
  return (
    <ul class="players" aria-label="Players">
      {game.seats.map((seat) => {
        const rating =
          game.rated && seat.rating !== null ? ` (${seat.rating}${seat.provisional ? '?' : ''})` : '';
        return (
          <li key={seat.seat} data-seat={seat.seat} class={game.toMove === seat.seat ? 'to-move' : undefined}>
            <span class="seat-name">{seat.name}</span>:{' '}
            <span class="player">
              {playerName(seat, known)}
              {rating}
            </span>
            {seat.seat === mySeat ? ' (you)' : ''}
          </li>
        );
      })}
      {game.rated ? <li class="rated">Rated game</li> : null}
    </ul>
  );
}
