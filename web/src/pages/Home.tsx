// A placeholder home page (the game list and create form come next).
import { useState } from 'preact/hooks';
import { navigate } from '../router';

export function Home() {
  const [id, setId] = useState('');
  return (
    <section>
      <h1>Boardhost playground</h1>
      <p>Play and watch Congo, Russian draughts, Kalah, Oware and Congkak over Boardhost's public API.</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (id.trim()) navigate(`/play/${encodeURIComponent(id.trim())}`);
        }}
      >
        <label for="watch-id">Watch a game by its id</label>{' '}
        <input id="watch-id" value={id} onInput={(e) => setId((e.target as HTMLInputElement).value)} />{' '}
        <button type="submit">Watch</button>
      </form>
    </section>
  );
}
