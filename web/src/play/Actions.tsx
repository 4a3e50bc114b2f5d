// A seat's actions besides moves: resign (confirmed), draw offers, claims in unlimited games.
import { useState } from 'preact/hooks';
import { api, auth, type Game, type GameStreamUpdate } from '../api/client';
import { Claims } from './Claims';
import { describeProblem, type ShownProblem } from './problems';

type ActionPath =
  | '/api/v1/games/{id}/resign'
  | '/api/v1/games/{id}/draw/offer'
  | '/api/v1/games/{id}/draw/accept'
  | '/api/v1/games/{id}/draw/decline'
  | '/api/v1/games/{id}/victory/claim'
  | '/api/v1/games/{id}/draw/claim';

/** A fresh Idempotency-Key (getRandomValues works on plain http too, unlike randomUUID). */
export function idempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

export function Actions(props: {
  game: Game;
  seat: number;
  token: string;
  onGame: (answer: Game | GameStreamUpdate) => void;
  onError: (problem: ShownProblem | undefined) => void;
}) {
  const { game, seat, token, onGame, onError } = props;
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  if (game.status !== 'ongoing') return null;
  const act = async (path: ActionPath) => {
    setBusy(true);
    onError(undefined);
    try {
      const { data, error } = await api.POST(path, {
        params: {
          path: { id: game.id },
          header: { 'idempotency-key': idempotencyKey(), prefer: 'return=minimal' },
        },
        body: {},
        headers: auth(token),
      });
      if (data) onGame(data);
      else onError(describeProblem(error));
    } catch (e) {
      onError(describeProblem(e));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  const other = 1 - seat;
  const unlimited = game.timeControl.type === 'unlimited';
  return (
    <div class="actions" role="group" aria-label="Game actions">
      {confirming ? (
        <>
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() => act('/api/v1/games/{id}/resign')}
          >
            Confirm resignation
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
            Keep playing
          </button>
        </>
      ) : (
        <button type="button" disabled={busy} onClick={() => setConfirming(true)}>
          Resign
        </button>
      )}
      {game.drawOffer === other ? (
        <>
          <button type="button" disabled={busy} onClick={() => act('/api/v1/games/{id}/draw/accept')}>
            Accept draw
          </button>
          <button type="button" disabled={busy} onClick={() => act('/api/v1/games/{id}/draw/decline')}>
            Decline draw
          </button>
        </>
      ) : (
        <button
          type="button"
          disabled={busy || game.drawOffer === seat}
          onClick={() => act('/api/v1/games/{id}/draw/offer')}
        >
          {game.drawOffer === seat ? 'Draw offered' : 'Offer draw'}
        </button>
      )}
      {unlimited ? (
        <Claims
          game={game}
          seat={seat}
          busy={busy}
          onClaim={(what) =>
            act(what === 'victory' ? '/api/v1/games/{id}/victory/claim' : '/api/v1/games/{id}/draw/claim')
          }
        />
      ) : null}
    </div>
  );
}
