// Takebacks in a casual game (docs/takeback.md): a seat asks to take back its last move (and the
// opponent's reply, if any); the other accepts or declines. The offer and the shortened game arrive
// over the game's stream like any other version; the answers here are whole games, since a
// takeback shortens the move list.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, auth, type Game } from '../api/client';
import { idempotencyKey } from './Actions';
import { socialProblem } from './social';

type TakebackPath =
  | '/api/v1/games/{id}/takeback/offer'
  | '/api/v1/games/{id}/takeback/accept'
  | '/api/v1/games/{id}/takeback/decline';

/** "1 move", "2 moves": plies as the move list shows them. */
const plies = (n: number) => (n === 1 ? '1 move' : `${n} moves`);

export function Takeback(props: { game: Game; seat: number; token: string; onGame: (game: Game) => void }) {
  const { game, seat, token, onGame } = props;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const [declined, setDeclined] = useState(false);
  // The view keeps no "declined": an own offer gone while the moves stayed is one.
  const before = useRef(game);
  useEffect(() => {
    const was = before.current;
    before.current = game;
    if (was.takebackOffer?.seat === seat && !game.takebackOffer && game.ply === was.ply) setDeclined(true);
    else if (game.takebackOffer || game.ply !== was.ply) setDeclined(false);
  }, [game.version]);
  if (game.status !== 'ongoing' || !game.settings.takeback) return null;
  const other = 1 - seat;
  const otherName = game.seats[other]?.name ?? 'The opponent';
  const offer = game.takebackOffer;
  const moved = game.moves.some((m) => m.seat === seat);

  const act = async (path: TakebackPath) => {
    setBusy(true);
    setProblem('');
    try {
      const { data, error } = await api.POST(path, {
        params: {
          path: { id: game.id },
          header: { 'if-match': `"${game.version}"`, 'idempotency-key': idempotencyKey() },
        },
        headers: auth(token),
      });
      if (data) onGame(data as Game);
      else setProblem(socialProblem(error));
    } catch (e) {
      setProblem(String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="takeback actions" role="group" aria-label="Takeback">
      {offer?.seat === other ? (
        <>
          <span>{`${otherName} asks to take back ${plies(offer.plies)}.`}</span>{' '}
          <button
            type="button"
            disabled={busy}
            onClick={() => void act('/api/v1/games/{id}/takeback/accept')}
          >
            Accept takeback
          </button>{' '}
          <button
            type="button"
            disabled={busy}
            onClick={() => void act('/api/v1/games/{id}/takeback/decline')}
          >
            Decline takeback
          </button>
        </>
      ) : offer?.seat === seat ? (
        <button type="button" disabled>
          {`Takeback requested (${plies(offer.plies)})`}
        </button>
      ) : (
        <button
          type="button"
          disabled={busy || !moved}
          onClick={() => void act('/api/v1/games/{id}/takeback/offer')}
        >
          Ask to take back
        </button>
      )}
      {declined && !offer ? <span>{`${otherName} declined the takeback.`}</span> : null}
      {problem ? (
        <p role="alert" class="error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
