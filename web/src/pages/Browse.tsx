// `/games`: open a game by its id, and the public listings of ongoing and finished games
// (GET /games?status=…, a page at a time).
import { useEffect, useState } from 'preact/hooks';
import { api, problemText, type Game } from '../api/client';
import { kindName } from './kinds';
import { accountSeatLink, gameLink } from '../links';
import { Link, navigate } from '../router';
import './pages.css';

const GAME_ID = /^[A-Za-z0-9_-]{12}$/;

/** One line about a game: kind, players, where it stands. */
export function GameSummary({
  game,
  me,
}: {
  game: Pick<Game, 'id' | 'kind' | 'seats' | 'status' | 'result' | 'ply' | 'toMove' | 'toMoveName'>;
  me?: string;
}) {
  const mySeat = me ? game.seats.findIndex((s) => s.account === me) : -1;
  const players = game.seats.map((s) => `${s.name}: ${s.account ?? 'seat link'}`).join(' · ');
  const where =
    game.status === 'finished'
      ? game.result?.winnerName
        ? `${game.result.winnerName} won (${game.result.reason})`
        : `drawn (${game.result?.reason ?? 'over'})`
      : game.toMove !== null && me && game.seats[game.toMove]?.account === me
        ? 'your turn'
        : `${game.toMoveName ?? '—'} to move`;
  return (
    <>
      <Link href={mySeat >= 0 ? accountSeatLink(game.id, mySeat) : gameLink(game.id)}>
        {kindName(game.kind)} {game.id}
      </Link>{' '}
      <span class="players">{players}</span> —{' '}
      <span class="state">
        {where}, ply {game.ply}
      </span>
    </>
  );
}

function Listing({ status, title }: { status: 'ongoing' | 'finished'; title: string }) {
  const [games, setGames] = useState<Game[]>([]);
  const [next, setNext] = useState<string | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const load = async (after?: string) => {
    const { data, error: e } = await api.GET('/api/v1/games', {
      params: { query: { status, limit: 20, ...(after ? { after } : {}) } },
    });
    if (!data) return setError(problemText(e));
    setGames((old) => (after ? [...old, ...data.items] : data.items));
    setNext(data.next);
  };
  useEffect(() => {
    void load();
  }, [status]);
  const id = `list-${status}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {error ? <p role="alert">{error}</p> : null}
      {next === undefined && !error ? <p>Loading…</p> : null}
      {next !== undefined && games.length === 0 ? <p>None yet.</p> : null}
      <ul class="game-list" data-status={status}>
        {games.map((g) => (
          <li key={g.id}>
            <GameSummary game={g} />
          </li>
        ))}
      </ul>
      {next ? (
        <button type="button" onClick={() => void load(next)}>
          More {status} games
        </button>
      ) : null}
      <button type="button" class="secondary" onClick={() => void load()}>
        Refresh
      </button>
    </section>
  );
}

export function BrowsePage() {
  const [id, setId] = useState('');
  const [problem, setProblem] = useState('');
  const open = (event: Event) => {
    event.preventDefault();
    const wanted = id
      .trim()
      .replace(/^.*\/play\//, '')
      .replace(/#.*$/, '');
    if (!GAME_ID.test(wanted)) {
      setProblem('A game id is 12 letters, digits, _ or -.');
      return;
    }
    navigate(gameLink(wanted));
  };
  return (
    <>
      <h1>Games</h1>
      <form onSubmit={open} class="open-game" aria-describedby="open-game-problem">
        <div class="field">
          <label for="game-id">Watch a game by its id (or its link)</label>
          <div class="row">
            <input
              id="game-id"
              type="text"
              autoComplete="off"
              spellcheck={false}
              value={id}
              onInput={(e) => {
                setId((e.currentTarget as HTMLInputElement).value);
                setProblem('');
              }}
            />
            <button type="submit">Open</button>
          </div>
          <small id="open-game-problem" role="alert">
            {problem}
          </small>
        </div>
      </form>
      <Listing status="ongoing" title="Ongoing games" />
      <Listing status="finished" title="Finished games" />
    </>
  );
}
