// The game page (first version: the board and the game's state, as a spectator).
import { useEffect, useState } from 'preact/hooks';
import { api, problemText, type Game } from '../api/client';
import { Board, Legend } from '../board/Board';
import { KIND_NAMES } from '../board/types';

export function Play({ id }: { id: string }) {
  const [game, setGame] = useState<Game>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    api
      .GET('/api/v1/games/{id}', { params: { path: { id } } })
      .then(({ data, error: problem }) => (data ? setGame(data) : setError(problemText(problem))))
      .catch((e: unknown) => setError(String(e)));
  }, [id]);
  if (error) return <p role="alert">{error}</p>;
  if (!game) return <p>Loading game {id}…</p>;
  return (
    <section class="play">
      <h1>{KIND_NAMES[game.kind]}</h1>
      <div class="board-wrap">
        <Board kind={game.kind} board={game.board} seatNames={game.seats.map((s) => s.name)} />
      </div>
      <Legend kind={game.kind} seatNames={game.seats.map((s) => s.name)} />
    </section>
  );
}
