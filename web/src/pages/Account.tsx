// `/account`: play as an account. Sign up or paste a personal API token (kept in this browser's
// localStorage, with a "forget" button), then everything a bot sees: the event feed live, incoming
// and outgoing challenges, seeks, and my games with "my turn" first.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, auth, problemText, type Game, type Schemas } from '../api/client';
import { followFeed, type FeedEvent } from '../account/feed';
import {
  accountToken,
  dropSeek,
  forgetAccountToken,
  keepSeek,
  keptSeeks,
  rememberAccountToken,
} from '../account/storage';
import { KIND_NAMES } from '../board/types';
import { accountSeatLink, gameLink } from '../links';
import { Link } from '../router';
import { GameSummary } from './Browse';
import { useKinds } from './kinds';
import './pages.css';

type Account = Schemas['Account'];
type Challenge = Schemas['Challenge'];

const RESUME_KEY = 'boardhost.account.feed';

function SignIn({ onToken }: { onToken: (token: string) => void }) {
  const [username, setUsername] = useState('');
  const [kind, setKind] = useState<'human' | 'bot'>('human');
  const [pasted, setPasted] = useState('');
  const [error, setError] = useState('');
  const signUp = async (event: Event) => {
    event.preventDefault();
    setError('');
    const { data, error: e } = await api.POST('/api/v1/accounts', {
      body: { username: username.trim(), kind },
    });
    if (!data) return setError(problemText(e));
    onToken(data.token.token);
  };
  const usePasted = async (event: Event) => {
    event.preventDefault();
    setError('');
    const token = pasted.trim();
    const { data, error: e } = await api.GET('/api/v1/account', { headers: auth(token) });
    if (!data) return setError(problemText(e));
    onToken(token);
  };
  return (
    <>
      <h1>Account</h1>
      <p>
        An account plays under its name: it can challenge others, seek opponents and follow all its games from
        one feed. Its API token is kept in this browser only (localStorage) and sent only to this server.
      </p>
      <p role="alert" class="problem">
        {error}
      </p>
      <form onSubmit={(e) => void signUp(e)} aria-labelledby="signup-heading">
        <h2 id="signup-heading">Create an account</h2>
        <div class="field">
          <label for="signup-username">Username</label>
          <input
            id="signup-username"
            type="text"
            autoComplete="username"
            required
            pattern="[A-Za-z0-9][A-Za-z0-9_\-]{1,29}"
            aria-describedby="signup-hint"
            value={username}
            onInput={(e) => setUsername((e.currentTarget as HTMLInputElement).value)}
          />
          <small id="signup-hint">2–30 letters, digits, _ or -, starting with a letter or digit.</small>
        </div>
        <div class="field">
          <label for="signup-kind">Kind</label>
          <select
            id="signup-kind"
            value={kind}
            onChange={(e) => setKind((e.currentTarget as HTMLSelectElement).value as 'human' | 'bot')}
          >
            <option value="human">human</option>
            <option value="bot">bot</option>
          </select>
        </div>
        <button type="submit">Create account</button>
      </form>
      <form onSubmit={(e) => void usePasted(e)} aria-labelledby="paste-heading">
        <h2 id="paste-heading">Use an existing token</h2>
        <div class="field">
          <label for="paste-token">API token (bhp_…)</label>
          <input
            id="paste-token"
            type="password"
            autoComplete="off"
            required
            value={pasted}
            onInput={(e) => setPasted((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
        <button type="submit">Use this token</button>
      </form>
    </>
  );
}

function eventText(event: FeedEvent, me: string): string {
  const data = event.data as Record<string, unknown>;
  const challenge = data.challenge as Challenge | undefined;
  const game = data.game as Game | undefined;
  if (challenge) {
    const from = challenge.challenger === me ? 'your' : `${challenge.challenger}’s`;
    return `${event.type}: ${from} ${KIND_NAMES[challenge.kind]} challenge ${challenge.id}`;
  }
  if (game) {
    const extra = typeof data.move === 'string' ? ` ${data.move}` : '';
    return `${event.type}: ${KIND_NAMES[game.kind]} ${game.id}${extra}`;
  }
  return event.type;
}

function ChallengeLine(props: {
  challenge: Challenge;
  me: string;
  token: string;
  onChange: () => void;
  onStarted: (gameId: string, what: string) => void;
}) {
  const { challenge: c, me, token, onChange, onStarted } = props;
  const [problem, setProblem] = useState('');
  const incoming = c.challenger !== me;
  const act = async (what: 'accept' | 'decline' | 'cancel') => {
    setProblem('');
    const { data, error } = await api.POST(`/api/v1/challenges/{id}/${what}`, {
      params: { path: { id: c.id } },
      headers: auth(token),
      ...(what === 'decline' ? { body: {} } : {}),
    });
    if (!data) return setProblem(problemText(error));
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
  const label = `${KIND_NAMES[c.kind]} ${incoming ? `from ${c.challenger}` : `to ${c.destination ?? 'anyone'}`}`;
  return (
    <li data-challenge={c.id}>
      <strong>{label}</strong>{' '}
      <span>
        {time}
        {options ? `, ${options}` : ''}, starts: {c.starts}
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
      {problem ? <span role="alert"> {problem}</span> : null}
    </li>
  );
}

function Seeks({ token }: { token: string }) {
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
              {KIND_NAMES[s.kind as keyof typeof KIND_NAMES] ?? s.kind} seek {s.id}, until{' '}
              {new Date(s.expiresAt).toLocaleTimeString()}{' '}
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

function MyGames({ token, me, version }: { token: string; me: string; version: number }) {
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

function AccountView({ token, onForget }: { token: string; onForget: () => void }) {
  const [me, setMe] = useState<Account | null>(null);
  const [error, setError] = useState('');
  const [events, setEvents] = useState<FeedEvent[]>([]);
  const [feedStatus, setFeedStatus] = useState('connecting');
  const [challenges, setChallenges] = useState<Challenge[] | null>(null);
  const [version, setVersion] = useState(0);
  const refresh = useRef(() => setVersion((v) => v + 1));
  const [started, setStarted] = useState<{ gameId: string; what: string; seat: number | null } | null>(null);
  const onStarted = (gameId: string, what: string) => {
    void api.GET('/api/v1/games/{id}', { params: { path: { id: gameId } } }).then(({ data }) => {
      const seat = data?.seats.findIndex((s) => s.account === me?.id) ?? -1;
      setStarted({ gameId, what, seat: seat >= 0 ? seat : null });
    });
  };

  useEffect(() => {
    void api.GET('/api/v1/account', { headers: auth(token) }).then(({ data, error: e }) => {
      if (data) setMe(data);
      else setError(problemText(e));
    });
    let from: { after: number; epoch: string } | undefined;
    try {
      const kept = JSON.parse(sessionStorage.getItem(RESUME_KEY) ?? 'null') as {
        token?: string;
        after: number;
        epoch: string;
      } | null;
      if (kept && kept.token === token.slice(-8)) from = { after: kept.after, epoch: kept.epoch };
    } catch {
      from = undefined;
    }
    const remember = (after: number, epoch: string) =>
      sessionStorage.setItem(RESUME_KEY, JSON.stringify({ token: token.slice(-8), after, epoch }));
    return followFeed(
      token,
      {
        ready: (after, epoch) => {
          remember(after, epoch);
          refresh.current();
        },
        event: (event) => {
          remember(event.seq, event.epoch);
          setEvents((old) => [event, ...old].slice(0, 50));
          refresh.current();
        },
        status: setFeedStatus,
      },
      from,
    );
  }, [token]);

  useEffect(() => {
    void api.GET('/api/v1/challenges', { headers: auth(token) }).then(({ data, error: e }) => {
      if (data) setChallenges(data.items.filter((c) => c.status === 'open'));
      else setError(problemText(e));
    });
  }, [token, version]);

  if (!me) {
    return (
      <>
        <h1>Account</h1>
        <p role="alert">{error || 'Loading…'}</p>
        <button type="button" onClick={onForget}>
          Forget this token
        </button>
      </>
    );
  }
  const incoming = (challenges ?? []).filter((c) => c.challenger !== me.id && !c.accepted.includes(me.id));
  const outgoing = (challenges ?? []).filter((c) => c.challenger === me.id);
  return (
    <>
      <h1>{me.username}</h1>
      <p>
        A {me.kind} account. This browser keeps its token.{' '}
        <button type="button" class="secondary" onClick={onForget}>
          Forget this account in this browser
        </button>{' '}
        <Link href="/new">New game or challenge</Link>
      </p>
      <details class="token">
        <summary>API token</summary>
        <p>
          Keep it secret: it acts as {me.username}. Copy it to use it elsewhere (a bot, curl, another
          browser).
        </p>
        <label for="account-token">Token</label>{' '}
        <input
          id="account-token"
          type="text"
          readOnly
          value={token}
          onFocus={(e) => e.currentTarget.select()}
        />
      </details>
      {error ? <p role="alert">{error}</p> : null}
      <p role="status">
        {started ? (
          <>
            Accepted the challenge ({started.what}).{' '}
            <Link
              href={
                started.seat === null
                  ? gameLink(started.gameId)
                  : accountSeatLink(started.gameId, started.seat)
              }
            >
              Open the game {started.gameId}
            </Link>
          </>
        ) : null}
      </p>
      <section aria-labelledby="incoming-heading">
        <h2 id="incoming-heading">Challenges to me</h2>
        {incoming.length === 0 ? (
          <p>None open.</p>
        ) : (
          <ul class="challenges" data-list="incoming">
            {incoming.map((c) => (
              <ChallengeLine
                key={c.id}
                challenge={c}
                me={me.id}
                token={token}
                onChange={refresh.current}
                onStarted={onStarted}
              />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="outgoing-heading">
        <h2 id="outgoing-heading">My challenges</h2>
        {outgoing.length === 0 ? (
          <p>None open.</p>
        ) : (
          <ul class="challenges" data-list="outgoing">
            {outgoing.map((c) => (
              <ChallengeLine
                key={c.id}
                challenge={c}
                me={me.id}
                token={token}
                onChange={refresh.current}
                onStarted={onStarted}
              />
            ))}
          </ul>
        )}
      </section>
      <MyGames token={token} me={me.id} version={version} />
      <Seeks token={token} />
      <section aria-labelledby="feed-heading">
        <h2 id="feed-heading">Event feed</h2>
        <p>
          Feed: <span data-feed-status={feedStatus}>{feedStatus}</span>
        </p>
        <ol class="feed" aria-live="polite" aria-relevant="additions">
          {events.map((e) => (
            <li key={`${e.epoch}:${e.seq}`} data-type={e.type}>
              <time dateTime={e.at}>{new Date(e.at).toLocaleTimeString()}</time> #{e.seq}{' '}
              {eventText(e, me.id)}
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

export function AccountPage() {
  const [token, setToken] = useState<string | null>(accountToken());
  useEffect(() => {
    const sync = () => setToken(accountToken());
    window.addEventListener('boardhost-account', sync);
    window.addEventListener('storage', sync);
    return () => {
      window.removeEventListener('boardhost-account', sync);
      window.removeEventListener('storage', sync);
    };
  }, []);
  if (!token) return <SignIn onToken={rememberAccountToken} />;
  return (
    <AccountView
      token={token}
      onForget={() => {
        sessionStorage.removeItem(RESUME_KEY);
        forgetAccountToken();
      }}
    />
  );
}
