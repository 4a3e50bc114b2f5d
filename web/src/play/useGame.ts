// A game, live: loaded once, then followed over its Server-Sent Events stream until it is over.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, type Game } from '../api/client';
import { describeProblem, type ShownProblem } from './problems';
import { openGameStream, type AuthorizedEventSource } from './authorized-stream';
import type { ChatMessage } from './Chat';
import { applyGame, applyUpdate, type StreamUpdate } from './state';

export interface LiveGame {
  readonly game: Game | undefined;
  readonly error: ShownProblem | undefined;
  /** True while the stream is open. */
  readonly live: boolean;
  /**
   * Shows what a write of this page answered: the whole game, or (Prefer: return=minimal) the new
   * head and the move, applied as a stream update. Ignored if the stream is already past it.
   */
  readonly accept: (answer: Game | StreamUpdate) => void;
  /** Listens to the stream's chat messages (play/Chat.tsx); returns the way to stop. */
  readonly onChat: (listener: (message: ChatMessage) => void) => () => void;
}

/** `token`: a seat's, to follow the game as that seat (its stream then carries the chat too). */
export function useGame(id: string, token?: string): LiveGame {
  const [game, setGame] = useState<Game>();
  const [error, setError] = useState<ShownProblem>();
  const [live, setLive] = useState(false);
  const current = useRef<Game | undefined>(undefined);
  const [stale, setStale] = useState(0);
  const chatListeners = useRef(new Set<(message: ChatMessage) => void>());
  const onChat = useCallback((listener: (message: ChatMessage) => void) => {
    chatListeners.current.add(listener);
    return () => void chatListeners.current.delete(listener);
  }, []);
  const accept = useCallback((answer: Game | StreamUpdate) => {
    if ('moves' in answer) {
      current.current = applyGame(current.current, answer);
    } else {
      const applied = applyUpdate(current.current, answer);
      // A version in between not seen yet (the stream is behind): reload the whole game.
      if (applied.stale) setStale((n) => n + 1);
      current.current = applied.game;
    }
    setGame(current.current);
  }, []);
  useEffect(() => {
    if (stale === 0) return;
    api
      .GET('/api/v1/games/{id}', { params: { path: { id } } })
      .then(({ data }) => data && accept(data))
      .catch(() => undefined);
  }, [stale, id, accept]);

  useEffect(() => {
    let stopped = false;
    let source: EventSource | AuthorizedEventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const reload = async () => {
      const { data, error: problem } = await api.GET('/api/v1/games/{id}', { params: { path: { id } } });
      if (stopped) return;
      if (data) accept(data);
      else setError(describeProblem(problem));
      return data;
    };
    const open = () => {
      if (stopped) return;
      source = openGameStream(`/api/v1/games/${encodeURIComponent(id)}/stream`, token);
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
      source.addEventListener('chat', (event) => {
        const message = JSON.parse((event as MessageEvent<string>).data) as ChatMessage;
        for (const listener of chatListeners.current) listener(message);
      });
      // The game is over. A spectator's page stops following it; a seat's stays, since the finished
      // game's versions still come (a rematch offered or declined, its link) and so does its chat.
      source.addEventListener('end', () => {
        if (!token) close();
      });
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
      .catch((e: unknown) => setError(describeProblem(e)));
    return () => {
      stopped = true;
      clearTimeout(retry);
      close();
    };
  }, [id, accept, token]);

  return { game, error, live, accept, onChat };
}
