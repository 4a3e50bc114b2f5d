// A game, live: loaded once, then followed over its Server-Sent Events stream until it is over.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, problemText, type Game } from '../api/client';
import { applyGame, applyUpdate, type StreamUpdate } from './state';

export interface LiveGame {
  readonly game: Game | undefined;
  readonly error: string | undefined;
  /** True while the stream is open. */
  readonly live: boolean;
  /** Shows a whole game this page got from a write (ignored if the stream is already past it). */
  readonly accept: (game: Game) => void;
}

export function useGame(id: string): LiveGame {
  const [game, setGame] = useState<Game>();
  const [error, setError] = useState<string>();
  const [live, setLive] = useState(false);
  const current = useRef<Game | undefined>(undefined);
  const accept = useCallback((next: Game) => {
    current.current = applyGame(current.current, next);
    setGame(current.current);
  }, []);

  useEffect(() => {
    let stopped = false;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const reload = async () => {
      const { data, error: problem } = await api.GET('/api/v1/games/{id}', { params: { path: { id } } });
      if (stopped) return;
      if (data) accept(data);
      else setError(problemText(problem));
      return data;
    };
    const open = () => {
      if (stopped) return;
      source = new EventSource(`/api/v1/games/${encodeURIComponent(id)}/stream`);
      source.addEventListener('open', () => setLive(true));
      source.addEventListener('game', (event) => {
        accept(JSON.parse((event as MessageEvent<string>).data) as Game);
        setError(undefined);
      });
      source.addEventListener('update', (event) => {
        const update = JSON.parse((event as MessageEvent<string>).data) as StreamUpdate;
        const { game: next, stale } = applyUpdate(current.current, update);
        if (stale) void reload();
        else if (next) {
          current.current = next;
          setGame(next);
        }
      });
      // The game is over: the server closes the stream, which must not be reopened.
      source.addEventListener('end', () => close());
      // The server stops, or says the stream failed (a problem such as UPDATES_LOST): start afresh.
      const restart = () => {
        close();
        retry = setTimeout(open, 1000);
      };
      source.addEventListener('shutdown', restart);
      source.addEventListener('error', (event) => {
        if (event instanceof MessageEvent && event.data) restart();
        else if (source?.readyState === EventSource.CLOSED) restart();
        // Otherwise the browser reconnects by itself, resuming after the last event id.
      });
    };
    const close = () => {
      source?.close();
      source = undefined;
      setLive(false);
    };
    // Load first: a wrong id is a problem shown to the person, not a stream that fails to open.
    reload()
      .then((loaded) => {
        if (loaded) open();
      })
      .catch((e: unknown) => setError(String(e)));
    return () => {
      stopped = true;
      clearTimeout(retry);
      close();
    };
  }, [id, accept]);

  return { game, error, live, accept };
}
