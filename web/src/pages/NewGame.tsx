// `/new`: create a game of any kind with any of its options (fields generated from the kind's JSON
// Schema), a time control and optionally who moves first or a start position. Without an account
// it creates a seat-token game (POST /games) and shows the two seat links, the token only in the
// URL fragment (never sent to a server); with one it challenges another account or posts a seek,
// rated or casual. Either way it can start a game against the computer (PlayComputer.tsx).
import { useEffect, useState } from 'preact/hooks';
import { api, auth, type Kind, type Schemas } from '../api/client';
import { Board } from '../board/Board';
import { accountToken, keepSeek } from '../account/storage';
import { gameLink, seatLink } from '../links';
import { ProblemMessage } from '../play/ProblemMessage';
import { describeProblem, type ShownProblem } from '../play/problems';
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
import { describeStart, useKinds, type KindStart } from './kinds';
import { AiFields, startAiGame } from './PlayComputer';
import './pages.css';

type Mode = 'seats' | 'computer' | 'challenge' | 'seek';

type Created =
  | { readonly type: 'seats'; readonly game: Schemas['CreatedGame'] }
  | { readonly type: 'challenge'; readonly challenge: Schemas['Challenge'] }
  | { readonly type: 'seek'; readonly seek: Schemas['Seek'] };

function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied.');
    } catch {
      (document.getElementById(id) as HTMLInputElement | null)?.select();
      setCopied('Selected: press Ctrl+C (⌘C) to copy.');
    }
  };
  return (
    <div class="field copy">
      <label for={id}>{label}</label>
      <div class="row">
        <input id={id} type="text" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void copy()} aria-describedby={`${id}-status`}>
          Copy
        </button>
        <a class="button" href={value} target="_blank" rel="noopener">
          Open
        </a>
      </div>
      <small id={`${id}-status`} role="status">
        {copied}
      </small>
    </div>
  );
}

function Result({ created }: { created: Created }) {
  if (created.type === 'seats') {
    const { game, seatTokens } = created.game;
    return (
      <section aria-labelledby="created-heading" class="created">
        <h2 id="created-heading" tabIndex={-1}>
          Game created
        </h2>
        <p>
          Each link below holds one seat’s secret; it is shown only now. Keep yours, send the other to your
          opponent. Anyone can watch at <Link href={gameLink(game.id)}>{gameLink(game.id)}</Link>.
        </p>
        {seatTokens.map((t) => (
          <CopyField
            key={t.seat}
            id={`seat-link-${t.seat}`}
            label={`Seat link for ${t.name}`}
            value={`${window.location.origin}${seatLink(game.id, t.seat, t.token)}`}
          />
        ))}
      </section>
    );
  }
  if (created.type === 'challenge') {
    return (
      <section aria-labelledby="created-heading" class="created">
        <h2 id="created-heading" tabIndex={-1}>
          Challenge sent
        </h2>
        <p>
          Challenge {created.challenge.id} to {created.challenge.destination ?? 'anyone'} is{' '}
          {created.challenge.status}; it expires {new Date(created.challenge.expiresAt).toLocaleString()}.
          Follow it on <Link href="/account">your account page</Link>.
        </p>
      </section>
    );
  }
  const { seek } = created;
  return (
    <section aria-labelledby="created-heading" class="created">
      <h2 id="created-heading" tabIndex={-1}>
        {seek.status === 'matched' ? 'Seek matched' : 'Seek posted'}
      </h2>
      {seek.game ? (
        <p>
          Your game has started: <Link href={gameLink(seek.game.id)}>play it</Link>.
        </p>
      ) : (
        <p>
          Waiting for another account to seek the same game until{' '}
          {new Date(seek.expiresAt).toLocaleTimeString()}. <Link href="/account">Your account page</Link>{' '}
          shows the game when it starts.
        </p>
      )}
    </section>
  );
}

const SUBMIT: Record<Mode, string> = {
  seats: 'Create game',
  computer: 'Play the computer',
  challenge: 'Send challenge',
  seek: 'Post seek',
};

export function NewGamePage({ initialKind }: { initialKind?: string | null }) {
  const { kinds, error: kindsError } = useKinds();
  const [kind, setKind] = useState<string>(initialKind ?? 'kalah');
  const [values, setValues] = useState<OptionValues>({});
  const [time, setTime] = useState<TimeValues>(DEFAULT_TIME);
  const [first, setFirst] = useState('');
  const [position, setPosition] = useState('');
  const token = accountToken();
  const [mode, setMode] = useState<Mode>('seats');
  const [opponent, setOpponent] = useState('');
  const [starts, setStarts] = useState<'' | 'challenger' | 'destination'>('');
  const [level, setLevel] = useState(1);
  const [color, setColor] = useState('random');
  const [rated, setRated] = useState(false);
  const [preview, setPreview] = useState<{ start?: KindStart; error?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownProblem | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const info = kinds?.find((k) => k.kind === kind);

  const options = info ? optionsFor(info, values) : {};
  const start = {
    ...(Object.keys(options).length > 0 ? { options } : {}),
    ...(first && mode === 'seats' ? { first } : {}),
    ...(position.trim() ? { position: position.trim() } : {}),
  };
  const startKey = JSON.stringify([kind, start]);
  useEffect(() => {
    if (!info) return;
    let live = true;
    const timer = setTimeout(() => {
      void describeStart(info.kind, start).then((r) => live && setPreview(r));
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [startKey, info?.kind]);

  useEffect(() => {
    if (created) document.getElementById('created-heading')?.focus();
  }, [created]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!info) return;
    setBusy(true);
    setError(null);
    const timeControl = timeControlFor(time);
    const common = {
      kind: info.kind,
      ...(Object.keys(options).length > 0 ? { options } : {}),
      ...(position.trim() ? { position: position.trim() } : {}),
      timeControl,
    };
    // Rated only where an account plays an account (the server refuses it with a position).
    const rating = rated ? { rated: true } : {};
    try {
      if (mode === 'computer') {
        const started = await startAiGame({ ...common, level, color });
        if ('problem' in started) return setError(started.problem);
        navigate(started.link);
      } else if (mode === 'seats' || !token) {
        const { data, error: e } = await api.POST('/api/v1/games', {
          body: { ...common, ...(first ? { first } : {}) },
        });
        if (!data) return setError(describeProblem(e));
        setCreated({ type: 'seats', game: data });
      } else if (mode === 'challenge') {
        const { data, error: e } = await api.POST('/api/v1/challenges', {
          headers: auth(token),
          body: {
            ...common,
            ...rating,
            ...(opponent.trim() ? { to: opponent.trim() } : {}),
            ...(starts && opponent.trim() ? { starts } : {}),
          },
        });
        if (!data) return setError(describeProblem(e));
        setCreated({ type: 'challenge', challenge: data });
      } else {
        const { data, error: e } = await api.POST('/api/v1/seeks', {
          headers: auth(token),
          body: { ...common, ...rating },
        });
        if (!data) return setError(describeProblem(e));
        if (data.status === 'waiting') keepSeek({ id: data.id, kind: data.kind, expiresAt: data.expiresAt });
        setCreated({ type: 'seek', seek: data });
      }
    } catch (e) {
      setError(describeProblem(e));
    } finally {
      setBusy(false);
    }
  };

  if (kindsError) return <p role="alert">Could not read the games: {kindsError}</p>;
  if (!kinds || !info) return <p>Loading…</p>;
  return (
    <>
      <h1>New game</h1>
      <form onSubmit={(e) => void submit(e)} class="new-game" aria-describedby="new-game-error">
        <div class="field">
          <label for="kind">Game</label>
          <select
            id="kind"
            value={kind}
            onChange={(e) => {
              setKind((e.currentTarget as HTMLSelectElement).value);
              setValues({});
              setFirst('');
              setColor('random');
              setPosition('');
              setCreated(null);
            }}
          >
            {kinds.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.name}
              </option>
            ))}
          </select>
          <small>
            <Link href={`/kind/${info.kind}`}>Rules of {info.name}</Link>
          </small>
        </div>
        <OptionFields kind={info} values={values} onChange={setValues} />
        <TimeFields value={time} onChange={setTime} />
        <fieldset>
          <legend>Start</legend>
          {mode === 'seats' ? (
            <div class="field">
              <label for="first">Who moves first</label>
              <select
                id="first"
                value={first}
                onChange={(e) => setFirst((e.currentTarget as HTMLSelectElement).value)}
              >
                <option value="">{info.seatNames[0]} (standard)</option>
                <option value={info.seatNames[1]}>{info.seatNames[1]}</option>
                <option value="random">random</option>
              </select>
            </div>
          ) : null}
          {mode === 'challenge' && opponent.trim() ? (
            <div class="field">
              <label for="starts">Who moves first</label>
              <select
                id="starts"
                value={starts}
                onChange={(e) => setStarts((e.currentTarget as HTMLSelectElement).value as typeof starts)}
              >
                <option value="">random</option>
                <option value="challenger">me</option>
                <option value="destination">{opponent.trim()}</option>
              </select>
            </div>
          ) : null}
          <div class="field">
            <label for="position">Start position (optional)</label>
            <input
              id="position"
              type="text"
              spellcheck={false}
              autoComplete="off"
              placeholder={info.notation.start}
              value={position}
              aria-describedby="position-hint"
              onInput={(e) => setPosition((e.currentTarget as HTMLInputElement).value)}
            />
            <small id="position-hint">{info.notation.position}</small>
          </div>
        </fieldset>
        <fieldset>
          <legend>Play</legend>
          <div class="field check">
            <input
              id="mode-seats"
              type="radio"
              name="mode"
              checked={mode === 'seats'}
              onChange={() => setMode('seats')}
            />
            <label for="mode-seats">With seat links (no account needed)</label>
          </div>
          <div class="field check">
            <input
              id="mode-computer"
              type="radio"
              name="mode"
              checked={mode === 'computer'}
              onChange={() => setMode('computer')}
            />
            <label for="mode-computer">Play the computer</label>
          </div>
          <div class="field check">
            <input
              id="mode-challenge"
              type="radio"
              name="mode"
              disabled={!token}
              checked={mode === 'challenge'}
              onChange={() => setMode('challenge')}
            />
            <label for="mode-challenge">Challenge an account</label>
          </div>
          <div class="field check">
            <input
              id="mode-seek"
              type="radio"
              name="mode"
              disabled={!token}
              checked={mode === 'seek'}
              onChange={() => setMode('seek')}
            />
            <label for="mode-seek">Seek an opponent</label>
          </div>
          {!token ? (
            <small>
              <Link href="/account">Sign in with an account</Link> to challenge someone or seek an opponent.
            </small>
          ) : null}
          {mode === 'computer' ? (
            <AiFields
              prefix="ai"
              seatNames={info.seatNames}
              level={level}
              color={color}
              onLevel={setLevel}
              onColor={setColor}
            />
          ) : null}
          {(mode === 'challenge' || mode === 'seek') && token ? (
            <div class="field check">
              <input
                id="rated"
                type="checkbox"
                checked={rated}
                aria-describedby="rated-hint"
                onChange={(e) => setRated((e.currentTarget as HTMLInputElement).checked)}
              />
              <label for="rated">Rated game</label>
              <small id="rated-hint">
                Counts for both players’ ratings; rated games start from the usual position (no start
                position) and a rated seek meets only rated seeks.
              </small>
            </div>
          ) : null}
          {mode === 'challenge' ? (
            <div class="field">
              <label for="opponent">Username to challenge (empty: an open challenge anyone may accept)</label>
              <input
                id="opponent"
                type="text"
                autoComplete="off"
                value={opponent}
                onInput={(e) => setOpponent((e.currentTarget as HTMLInputElement).value)}
              />
            </div>
          ) : null}
        </fieldset>
        <section aria-label="Start preview" class="preview">
          {preview?.start ? (
            <Board
              kind={info.kind as Kind}
              board={preview.start.board}
              seatNames={info.seatNames}
              label={`${info.name} start with these options`}
            />
          ) : null}
          {preview?.error ? (
            <p class="problem" role="status">
              {preview.error}
            </p>
          ) : null}
        </section>
        <div id="new-game-error">{error ? <ProblemMessage problem={error} /> : null}</div>
        <button type="submit" disabled={busy}>
          {SUBMIT[mode]}
        </button>
      </form>
      {created ? <Result created={created} /> : null}
    </>
  );
}
