// A finished game's rematch (docs/rematch.md): a seat offers it, the other accepts or declines; the
// new game has the same settings with the colours swapped. The offer, the refusal and the link come
// over the finished game's stream, which a seat's page keeps open (without it, the page reads the
// game again every few seconds). Once the rematch exists, each seat opens it: an account's seat by
// its account, a seat-token seat with the new seat token the server answers to whoever presents
// the old one.
import { useState } from 'preact/hooks';
import { api, auth, type Game, type Schemas } from '../api/client';
import { accountSeatLink, gameLink, seatLink } from '../links';
import { Link, navigate } from '../router';
import { SOCIAL_POLL_MS, socialProblem, usePoll } from './social';

type Answer = Schemas['RematchAnswer'];

/** Where a seat of the finished game plays the rematch: its new seat (colours swapped). */
function rematchLink(old: Game, seat: number, answer: Answer | undefined, next: string): string {
  const account = old.seats[seat]?.account;
  const newGame = answer?.game;
  if (account) {
    const mine = newGame?.seats.find((s) => s.account === account)?.seat ?? 1 - seat;
    return accountSeatLink(next, mine);
  }
  return answer?.seatToken ? seatLink(next, answer.seatToken.seat, answer.seatToken.token) : gameLink(next);
}

/** "Rematch of …" for any viewer of a game that is one. */
export function RematchOf({ game }: { game: Game }) {
  return game.rematchOf ? (
    <p class="rematch-of">
      A rematch of <Link href={gameLink(game.rematchOf)}>game {game.rematchOf}</Link>.
    </p>
  ) : null;
}

export function Rematch(props: {
  game: Game;
  /** The seat this page acts for; undefined for a spectator. */
  me: { seat: number; token: string } | undefined;
  /** The game's stream is open (a seat's stays open after the end and brings the rematch's changes). */
  live: boolean;
  onGame: (game: Game) => void;
}) {
  const { game, me, live, onGame } = props;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const [answer, setAnswer] = useState<Answer>();
  const rematch = game.rematch;
  const finished = game.status === 'finished';
  // Without the stream, a seat waiting for the other's offer or answer reads the game again.
  usePoll(
    async () => {
      const { data } = await api.GET('/api/v1/games/{id}', { params: { path: { id: game.id } } });
      if (data) onGame(data);
    },
    SOCIAL_POLL_MS,
    finished && me !== undefined && !rematch.game && !live,
  );
  if (!finished) return null;
  if (!me) {
    return rematch.game ? (
      <p class="rematch">
        Rematch: <Link href={gameLink(rematch.game)}>game {rematch.game}</Link>
      </p>
    ) : null;
  }
  const other = 1 - me.seat;
  const otherName = game.seats[other]?.name ?? 'The opponent';

  const act = async (what: 'offer' | 'accept' | 'decline') => {
    setBusy(true);
    setProblem('');
    try {
      const params = { params: { path: { id: game.id } }, headers: auth(me.token) };
      const { data, error } =
        what === 'offer'
          ? await api.POST('/api/v1/games/{id}/rematch', params)
          : what === 'accept'
            ? await api.POST('/api/v1/games/{id}/rematch/accept', params)
            : await api.POST('/api/v1/games/{id}/rematch/decline', params);
      if (!data) return setProblem(socialProblem(error));
      setAnswer(data);
      if (data.status === 'accepted' && data.game)
        return navigate(rematchLink(game, me.seat, data, data.game.id));
      // The answer says what happened, not the finished game's new version: show it now (the
      // stream brings it too, a moment later).
      const { data: fresh } = await api.GET('/api/v1/games/{id}', { params: { path: { id: game.id } } });
      if (fresh) onGame(fresh);
    } catch (e) {
      setProblem(String(e));
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (rematch.game) {
    const seatTokens = !game.seats[me.seat]?.account;
    body =
      seatTokens && !answer?.seatToken ? (
        // The seat's new token is answered to whoever presents the old one: ask for it.
        <button type="button" disabled={busy} onClick={() => void act('accept')}>
          Play the rematch
        </button>
      ) : (
        <Link href={rematchLink(game, me.seat, answer, rematch.game)} class="button">
          Play the rematch
        </Link>
      );
  } else if (rematch.offeredBy === other) {
    body = (
      <>
        <span>{`${otherName} offers a rematch.`}</span>{' '}
        <button type="button" disabled={busy} onClick={() => void act('accept')}>
          Accept rematch
        </button>{' '}
        <button type="button" disabled={busy} onClick={() => void act('decline')}>
          Decline rematch
        </button>
      </>
    );
  } else if (rematch.offeredBy === me.seat) {
    body = (
      <>
        <button type="button" disabled>
          Rematch offered
        </button>{' '}
        <span>{`Waiting for ${otherName}…`}</span>
      </>
    );
  } else {
    body = (
      <>
        <button type="button" disabled={busy} onClick={() => void act('offer')}>
          Offer a rematch
        </button>
        {rematch.declinedBy === other ? <span>{` ${otherName} declined the rematch.`}</span> : null}
      </>
    );
  }
  return (
    <div class="rematch actions" role="group" aria-label="Rematch">
      {body}
      {problem ? (
        <p role="alert" class="error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
