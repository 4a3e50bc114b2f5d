// The account page's lists: a challenge with its actions, the seeks posted from this browser, and
// the account's games with "my turn" first.
import { useEffect, useState } from 'preact/hooks';
import { api, auth, problemText, type Game, type Schemas } from '../api/client';
import { ProblemMessage } from '../play/ProblemMessage';
import { describeProblem, type ShownProblem } from '../play/problems';
import { dropSeek, keepSeek, keptSeeks } from '../account/storage';
import { Link } from '../router';
import { GameSummary } from './Browse';
import { kindName, useKinds } from './kinds';

type Challenge = Schemas['Challenge'];

/** One list of open challenges (to me, or mine), each with its actions. */
export function ChallengeSection(props: {
  list: 'incoming' | 'outgoing';
  heading: string;
  challenges: readonly Challenge[];
  me: string;
  token: string;
  onChange: () => void;
  onStarted: (gameId: string, what: string) => void;
}) {
  const { list, heading, challenges, ...line } = props;
  return (
    <section aria-labelledby={`${list}-heading`}>
      <h2 id={`${list}-heading`}>{heading}</h2>
      {challenges.length === 0 ? (
        <p>None open.</p>
      ) : (
        <ul class="challenges" data-list={list}>
          {challenges.map((c) => (
            <ChallengeLine key={c.id} challenge={c} {...line} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ChallengeLine(props: {
  challenge: Challenge;
  me: string;
  token: string;
  onChange: () => void;
  onStarted: (gameId: string, what: string) => void;
}) {
  const { challenge: c, me, token, onChange, onStarted } = props;
  const [problem, setProblem] = useState<ShownProblem>();
  const incoming = c.challenger !== me;
  const act = async (what: 'accept' | 'decline' | 'cancel') => {
    setProblem(undefined);
    const { data, error } = await api.POST(`/api/v1/challenges/{id}/${what}`, {
      params: { path: { id: c.id } },
      headers: auth(token),
      ...(what === 'decline' ? { body: {} } : {}),
    });
    if (!data) return setProblem(describeProblem(error));
    if (data.gameId) onStarted(data.gameId, label);
    onChange();
  };
  const tc = c.timeControl;
  const time =
    tc.type === 'realtime'
      ? `${tc.initialSeconds / 60}+${tc.incrementSeconds}`
      : tc.type === 'correspondence'
        ? `${tc.daysPerMove} d/move`
        : 'unlimited';
  const options = Object.entries(c.options)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ');
  const label = `${kindName(c.kind)} ${incoming ? `from ${c.challenger}` : `to ${c.destination ?? 'anyone'}`}`;
  return (
    <li data-challenge={c.id}>
      <strong>{label}</strong>{' '}
      <span>
        {time}
        {options ? `, ${options}` : ''}, starts: {c.starts}
        {c.rated ? ', rated' : ', casual'}
      </span>{' '}
      {incoming ? (
        <>
          <button type="button" onClick={() => void act('accept')} aria-label={`Accept ${label}`}>
            Accept
          </button>{' '}
          <button
            type="button"
            class="secondary"
            onClick={() => void act('decline')}
            aria-label={`Decline ${label}`}
          >
            Decline
          </button>
        </>
      ) : (
        <button
          type="button"
          class="secondary"
          onClick={() => void act('cancel')}
          aria-label={`Cancel ${label}`}
        >
          Cancel
        </button>
      )}
      {problem ? <ProblemMessage problem={problem} /> : null}
    </li>
  );
}

export function Seeks({ token }: { token: string }) {
  const { kinds } = useKinds();
  const [seeks, setSeeks] = useState(keptSeeks());
  const [kind, setKind] = useState('kalah');
  const [message, setMessage] = useState('');
  const post = async (event: Event) => {
    event.preventDefault();
    const { data, error } = await api.POST('/api/v1/seeks', { headers: auth(token), body: { kind } });
    if (!data) return setMessage(problemText(error));
    if (data.status === 'waiting') keepSeek({ id: data.id, kind: data.kind, expiresAt: data.expiresAt });
    setMessage(data.game ? `Matched: game ${data.game.id} started.` : `Seek ${data.id} is waiting.`);
    setSeeks(keptSeeks());
  };
  const cancel = async (id: string) => {
    const { response, error } = await api.DELETE('/api/v1/seeks/{id}', {
      params: { path: { id } },
      headers: auth(token),
    });
    if (!response.ok && response.status !== 404) return setMessage(problemText(error));
    dropSeek(id);
    setSeeks(keptSeeks());
    setMessage(`Seek ${id} withdrawn.`);
  };
  return (
    <section aria-labelledby="seeks-heading">
      <h2 id="seeks-heading">Seeks</h2>
      <form onSubmit={(e) => void post(e)} class="row">
        <div class="field">
          <label for="seek-kind">Seek a game of</label>
          <select
            id="seek-kind"
            value={kind}
            onChange={(e) => setKind((e.currentTarget as HTMLSelectElement).value)}
          >
            {(kinds ?? []).map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Post seek</button>
      </form>
      <small>
        Options and time controls: <Link href="/new">new game</Link>, “Seek an opponent”.
      </small>
      <p role="status">{message}</p>
      {seeks.length > 0 ? (
        <ul>
          {seeks.map((s) => (
            <li key={s.id}>
              {kindName(s.kind)} seek {s.id}, until {new Date(s.expiresAt).toLocaleTimeString()}{' '}
              <button type="button" class="secondary" onClick={() => void cancel(s.id)}>
                Withdraw seek {s.id}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>No seeks waiting from this browser.</p>
      )}
    </section>
  );
}

export function MyGames({ token, me, version }: { token: string; me: string; version: number }) {
  const [lists, setLists] = useState<{ turn: Game[]; other: Game[]; finished: Game[] } | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    const get = (filter: 'my-turn' | 'ongoing' | 'finished') =>
      api.GET('/api/v1/account/games', { params: { query: { filter, limit: 50 } }, headers: auth(token) });
    void Promise.all([get('my-turn'), get('ongoing'), get('finished')]).then(([turn, ongoing, finished]) => {
      if (!turn.data || !ongoing.data || !finished.data) {
        return setError(problemText(turn.error ?? ongoing.error ?? finished.error));
      }
      const mine = new Set(turn.data.items.map((g) => g.id));
      setLists({
        turn: turn.data.items,
        other: ongoing.data.items.filter((g) => !mine.has(g.id)),
        finished: finished.data.items.slice(0, 10),
      });
    });
  }, [token, version]);
  const list = (games: Game[], empty: string, name: string) =>
    games.length === 0 ? (
      <p>{empty}</p>
    ) : (
      <ul class="game-list" data-list={name}>
        {games.map((g) => (
          <li key={g.id}>
            <GameSummary game={g} me={me} />
          </li>
        ))}
      </ul>
    );
  return (
    <section aria-labelledby="games-heading">
      <h2 id="games-heading">My games</h2>
      {error ? <p role="alert">{error}</p> : null}
      {lists ? (
        <>
          <h3>My turn</h3>
          {list(lists.turn, 'Nothing to play right now.', 'my-turn')}
          <h3>Waiting for the opponent</h3>
          {list(lists.other, 'No other ongoing games.', 'waiting')}
          <h3>Recently finished</h3>
          {list(lists.finished, 'No finished games yet.', 'finished')}
        </>
      ) : (
        <p>Loading…</p>
      )}
    </section>
  );
}
