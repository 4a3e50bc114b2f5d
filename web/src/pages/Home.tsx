// `/`: the five games, each with a picture of its start (POST /kinds/{kind}/start, which stores
// nothing) and links to its rules and to a new game of it; a short form to play the computer.
import { useEffect, useState } from 'preact/hooks';
import { Board } from '../board/Board';
import type { Kind } from '../api/client';
import { Link } from '../router';
import { describeStart, useKinds, type KindInfo, type KindStart } from './kinds';
import { PlayComputerForm } from './PlayComputer';
import './pages.css';

function KindCard({ kind }: { kind: KindInfo }) {
  const [start, setStart] = useState<KindStart | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void describeStart(kind.kind).then((r) => (r.start ? setStart(r.start) : setError(r.error ?? 'failed')));
  }, [kind.kind]);
  const headingId = `kind-${kind.kind}`;
  return (
    <li class="kind-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{kind.name}</h2>
      <figure class="start-picture">
        {start ? (
          <Board
            kind={kind.kind as Kind}
            board={start.board}
            seatNames={kind.seatNames}
            label={`${kind.name} start position`}
          />
        ) : (
          <p>{error ?? 'Loading the start position…'}</p>
        )}
        <figcaption>
          {kind.seatNames.join(' and ')}; {kind.seatNames[0]} moves first.
        </figcaption>
      </figure>
      <p class="actions">
        <Link class="button" href={`/new?kind=${kind.kind}`}>
          New {kind.name} game
        </Link>{' '}
        <Link href={`/kind/${kind.kind}`}>Rules of {kind.name}</Link>
      </p>
    </li>
  );
}

export function Home() {
  const { kinds, error } = useKinds();
  return (
    <>
      <h1>Boardhost playground</h1>
      <p>
        Five two-player board games, played over Boardhost’s public API. Play the computer right here, pick a
        game to read its rules, start a game and share its seat links, or{' '}
        <Link href="/account">play as an account</Link>. You can also{' '}
        <Link href="/games">watch games being played</Link>.
      </p>
      {error ? <p role="alert">Could not read the games: {error}</p> : null}
      {kinds ? <PlayComputerForm kinds={kinds} /> : null}
      {kinds ? (
        <ul class="kind-list">
          {kinds.map((k) => (
            <KindCard key={k.kind} kind={k} />
          ))}
        </ul>
      ) : (
        <p>Loading the games…</p>
      )}
    </>
  );
}
