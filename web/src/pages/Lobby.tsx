// `/lobby`: the open seeks, live (lobby/seeks.ts), filtered by game, time control and rated; an
// account posts a seek (any options, a time control, rated or not, a rating range) and takes
// another's with Accept. The account's feed says when one of its own seeks became a game.
import { useEffect, useState } from 'preact/hooks';
import { api, auth, type Game } from '../api/client';
import { followFeed } from '../account/feed';
import { accountToken, dropSeek, keepSeek } from '../account/storage';
import { accountSeatLink } from '../links';
import { useSeeks, type LobbySeek, type SeekFilter } from '../lobby/seeks';
import { socialProblem } from '../play/social';
import { Link, navigate } from '../router';
import {
  DEFAULT_TIME,
  OptionFields,
  optionsFor,
  TimeFields,
  timeControlFor,
  type OptionValues,
  type TimeValues,
} from './form-fields';
import { kindName, useKinds, type KindInfo } from './kinds';
import './pages.css';
import '../play/social.css';

function timeText(tc: LobbySeek['timeControl']): string {
  if (tc.type === 'realtime') return `${tc.initialSeconds / 60}+${tc.incrementSeconds}`;
  if (tc.type === 'correspondence') return `${tc.daysPerMove} d/move`;
  return 'unlimited';
}

/** The account's seat in a game, for its link. */
function mySeat(game: Pick<Game, 'seats'>, me: string): number {
  return game.seats.find((s) => s.account === me)?.seat ?? 0;
}

/** The options a seek sets apart from its kind's defaults, by their titles where the kind has them. */
function optionsText(seek: LobbySeek, kind: KindInfo | undefined): string {
  const properties = (kind?.options as { properties?: Record<string, { title?: string }> } | undefined)
    ?.properties;
  return Object.entries(seek.options)
    .filter(([name, value]) => kind?.defaults[name] !== value)
    .map(([name, value]) => `${properties?.[name]?.title ?? name} ${String(value)}`)
    .join(', ');
}

function SeekLine(props: {
  seek: LobbySeek;
  kind: KindInfo | undefined;
  me: string | undefined;
  token: string | null;
}) {
  const { seek, kind, me, token } = props;
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const mine = me !== undefined && seek.account === me;
  // A provisional rating is marked with "?", as rating lists do.
  const rating = ` (${Math.round(seek.rating)}${seek.provisional ? '?' : ''})`;
  const options = optionsText(seek, kind);
  const range = seek.ratingRange
    ? `, opponents rated ${seek.ratingRange.min ?? 'any'}–${seek.ratingRange.max ?? 'any'}`
    : '';
  const label = `${kindName(seek.kind)} by ${seek.username}`;
  const act = async () => {
    if (!token) return;
    setBusy(true);
    setProblem('');
    try {
      if (mine) {
        const { response, error } = await api.DELETE('/api/v1/seeks/{id}', {
          params: { path: { id: seek.id } },
          headers: auth(token),
        });
        if (!response.ok && response.status !== 404) return setProblem(socialProblem(error));
        dropSeek(seek.id);
        return;
      }
      const { data, error } = await api.POST('/api/v1/seeks/{id}/accept', {
        params: { path: { id: seek.id } },
        headers: auth(token),
      });
      if (!data) return setProblem(socialProblem(error));
      if (data.game && me) navigate(accountSeatLink(data.game.id, mySeat(data.game, me)));
    } catch (e) {
      setProblem(String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li data-seek={seek.id}>
      <strong>{label}</strong>
      {rating}{' '}
      <span class="state">
        {timeText(seek.timeControl)}, {seek.rated ? 'rated' : 'casual'}
        {options ? `, ${options}` : ''}
        {range}
      </span>{' '}
      {token ? (
        <button
          type="button"
          class={mine ? 'secondary' : undefined}
          disabled={busy}
          aria-label={`${mine ? 'Withdraw' : 'Accept'} ${label}`}
          onClick={() => void act()}
        >
          {mine ? 'Withdraw' : 'Accept'}
        </button>
      ) : null}
      {problem ? <span role="alert"> {problem}</span> : null}
    </li>
  );
}

function PostSeek({ token }: { token: string }) {
  const { kinds } = useKinds();
  const [kind, setKind] = useState('kalah');
  const [values, setValues] = useState<OptionValues>({});
  const [time, setTime] = useState<TimeValues>(DEFAULT_TIME);
  const [rated, setRated] = useState(false);
  const [min, setMin] = useState('');
  const [max, setMax] = useState('');
  const [message, setMessage] = useState<{ text: string; game?: Game; me?: string }>();
  const [busy, setBusy] = useState(false);
  const info = kinds?.find((k) => k.kind === kind);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!info) return;
    setBusy(true);
    setMessage(undefined);
    const options = optionsFor(info, values);
    const ratingRange = {
      ...(min.trim() ? { min: Number(min) } : {}),
      ...(max.trim() ? { max: Number(max) } : {}),
    };
    try {
      const { data, error } = await api.POST('/api/v1/seeks', {
        headers: auth(token),
        body: {
          kind,
          ...(Object.keys(options).length > 0 ? { options } : {}),
          timeControl: timeControlFor(time),
          rated,
          ...(Object.keys(ratingRange).length > 0 ? { ratingRange } : {}),
        },
      });
      if (!data) return setMessage({ text: socialProblem(error) });
      if (data.status === 'waiting') keepSeek({ id: data.id, kind: data.kind, expiresAt: data.expiresAt });
      setMessage(
        data.game
          ? {
              text: 'A waiting seek matched yours: your game has started.',
              game: data.game,
              me: data.account,
            }
          : { text: `Your seek is listed until ${new Date(data.expiresAt).toLocaleTimeString()}.` },
      );
    } catch (e) {
      setMessage({ text: String(e) });
    } finally {
      setBusy(false);
    }
  };
  if (!kinds || !info) return <p>Loading…</p>;
  return (
    <form class="post-seek" onSubmit={(e) => void submit(e)} aria-labelledby="post-seek-heading">
      <h2 id="post-seek-heading">Post a seek</h2>
      <div class="field">
        <label for="seek-game">Game</label>
        <select
          id="seek-game"
          value={kind}
          onChange={(e) => {
            setKind((e.currentTarget as HTMLSelectElement).value);
            setValues({});
          }}
        >
          {kinds.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.name}
            </option>
          ))}
        </select>
      </div>
      <OptionFields kind={info} values={values} onChange={setValues} />
      <TimeFields value={time} onChange={setTime} />
      <fieldset>
        <legend>Opponent</legend>
        <div class="field check">
          <input
            id="seek-rated"
            type="checkbox"
            checked={rated}
            onChange={(e) => setRated((e.currentTarget as HTMLInputElement).checked)}
          />
          <label for="seek-rated">Rated game</label>
        </div>
        <div class="row">
          <div class="field">
            <label for="seek-min">Lowest rating (optional)</label>
            <input
              id="seek-min"
              type="number"
              inputMode="numeric"
              value={min}
              onInput={(e) => setMin((e.currentTarget as HTMLInputElement).value)}
            />
          </div>
          <div class="field">
            <label for="seek-max">Highest rating (optional)</label>
            <input
              id="seek-max"
              type="number"
              inputMode="numeric"
              value={max}
              onInput={(e) => setMax((e.currentTarget as HTMLInputElement).value)}
            />
          </div>
        </div>
      </fieldset>
      <button type="submit" disabled={busy}>
        Post seek
      </button>
      <p role="status">
        {message?.text}{' '}
        {message?.game && message.me ? (
          <Link href={accountSeatLink(message.game.id, mySeat(message.game, message.me))}>Play it</Link>
        ) : null}
      </p>
    </form>
  );
}

/** Says when one of this account's seeks became a game (the feed's game.started). */
function useStartedGames(token: string | null, me: string | undefined): Game[] {
  const [started, setStarted] = useState<Game[]>([]);
  useEffect(() => {
    if (!token) return;
    return followFeed(token, {
      event: (event) => {
        const game = (event.data as { game?: Game }).game;
        if (event.type !== 'game.started' || !game) return;
        setStarted((old) => [game, ...old.filter((g) => g.id !== game.id)].slice(0, 5));
      },
    });
  }, [token, me]);
  return started;
}

export function LobbyPage() {
  const { kinds } = useKinds();
  const [token, setToken] = useState<string | null>(accountToken());
  const [me, setMe] = useState<string>();
  const [filter, setFilter] = useState<SeekFilter>({});
  const { seeks, status, more, error } = useSeeks(filter, token);
  const started = useStartedGames(token, me);
  useEffect(() => {
    const sync = () => setToken(accountToken());
    window.addEventListener('boardhost-account', sync);
    window.addEventListener('storage', sync);
    return () => {
      window.removeEventListener('boardhost-account', sync);
      window.removeEventListener('storage', sync);
    };
  }, []);
  useEffect(() => {
    setMe(undefined);
    if (!token) return;
    void api.GET('/api/v1/account', { headers: auth(token) }).then(({ data }) => setMe(data?.id));
  }, [token]);
  const select = (patch: Partial<SeekFilter>) => setFilter((f) => ({ ...f, ...patch }));

  return (
    <>
      <h1>Lobby</h1>
      <p>
        Open seeks of players looking for a game.{' '}
        {token ? (
          'Accept one to start playing, or post your own.'
        ) : (
          <>
            <Link href="/account">Sign in with an account</Link> to accept a seek or post one.
          </>
        )}
      </p>
      {started.length > 0 ? (
        <ul class="started" aria-label="Your games that started">
          {started.map((g) => (
            <li key={g.id}>
              Your {kindName(g.kind)} seek was accepted:{' '}
              <Link href={accountSeatLink(g.id, mySeat(g, me ?? ''))}>play game {g.id}</Link>
            </li>
          ))}
        </ul>
      ) : null}
      <section aria-labelledby="seeks-heading">
        <h2 id="seeks-heading">Open seeks</h2>
        <form class="row filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter seeks">
          <div class="field">
            <label for="filter-kind">Filter by game</label>
            <select
              id="filter-kind"
              value={filter.kind ?? ''}
              onChange={(e) => select({ kind: (e.currentTarget as HTMLSelectElement).value || undefined })}
            >
              <option value="">Any game</option>
              {(kinds ?? []).map((k) => (
                <option key={k.kind} value={k.kind}>
                  {k.name}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="filter-time">Filter by time control</label>
            <select
              id="filter-time"
              value={filter.timeControl ?? ''}
              onChange={(e) =>
                select({
                  timeControl:
                    ((e.currentTarget as HTMLSelectElement).value as SeekFilter['timeControl']) || undefined,
                })
              }
            >
              <option value="">Any</option>
              <option value="unlimited">Unlimited</option>
              <option value="realtime">Real time</option>
              <option value="correspondence">Correspondence</option>
            </select>
          </div>
          <div class="field">
            <label for="filter-rated">Filter rated or casual</label>
            <select
              id="filter-rated"
              value={filter.rated === undefined ? '' : String(filter.rated)}
              onChange={(e) => {
                const v = (e.currentTarget as HTMLSelectElement).value;
                select({ rated: v === '' ? undefined : v === 'true' });
              }}
            >
              <option value="">Rated or casual</option>
              <option value="true">Rated only</option>
              <option value="false">Casual only</option>
            </select>
          </div>
        </form>
        <p>
          List: <span data-lobby-status={status}>{status}</span>
        </p>
        {error ? <p role="alert">{error}</p> : null}
        {seeks.length === 0 && status === 'live' ? <p>No open seeks right now.</p> : null}
        <ul class="seeks" aria-live="polite" aria-relevant="additions removals">
          {seeks.map((s) => (
            <SeekLine
              key={s.id}
              seek={s}
              kind={kinds?.find((k) => k.kind === s.kind)}
              me={me}
              token={token}
            />
          ))}
        </ul>
        {more ? <p class="hint">More seeks wait than are shown: choose a game or a time control.</p> : null}
      </section>
      {token ? <PostSeek token={token} /> : null}
    </>
  );
}
