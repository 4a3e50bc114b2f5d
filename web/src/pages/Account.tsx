// `/account`: play as an account. Sign up or paste a personal API token (kept in this browser's
// localStorage, with a "forget" button), then everything a bot sees: the event feed live, incoming
// and outgoing challenges, seeks, and my games with "my turn" first.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, auth, problemText, type Game, type Schemas } from '../api/client';
import { followFeed, type FeedEvent } from '../account/feed';
import { accountToken, forgetAccountToken, rememberAccountToken } from '../account/storage';
import { kindName } from './kinds';
import { accountSeatLink, gameLink } from '../links';
import { Link } from '../router';
import { ChallengeSection, MyGames, Seeks } from './AccountLists';
import { SignIn } from './AccountSignIn';
import './pages.css';

type Account = Schemas['Account'];
type Challenge = Schemas['Challenge'];

const RESUME_KEY = 'boardhost.account.feed';

function eventText(event: FeedEvent, me: string): string {
  const data = event.data as Record<string, unknown>;
  const challenge = data.challenge as Challenge | undefined;
  const game = data.game as Game | undefined;
  if (challenge) {
    const from = challenge.challenger === me ? 'your' : `${challenge.challenger}’s`;
    return `${event.type}: ${from} ${kindName(challenge.kind)} challenge ${challenge.id}`;
  }
  if (game) {
    const extra = typeof data.move === 'string' ? ` ${data.move}` : '';
    return `${event.type}: ${kindName(game.kind)} ${game.id}${extra}`;
  }
  return event.type;
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
      <ChallengeSection
        list="incoming"
        heading="Challenges to me"
        challenges={incoming}
        me={me.id}
        token={token}
        onChange={refresh.current}
        onStarted={onStarted}
      />
      <ChallengeSection
        list="outgoing"
        heading="My challenges"
        challenges={outgoing}
        me={me.id}
        token={token}
        onChange={refresh.current}
        onStarted={onStarted}
      />
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
