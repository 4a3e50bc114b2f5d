// The lobby's open seeks, live, from GET /seeks/stream: on each connection the waiting seeks
// (`seek.added`), `ready`, then each change. It is read with fetch so that a signed-in account's
// token goes in a header (an account sees its own pool's seeks, and not those of accounts it
// blocks); after a drop it is opened again and the list starts afresh from what it sends.
import { useEffect, useState } from 'preact/hooks';
import { auth, problemText } from '../api/client';
import { sseMessages } from '../account/feed';
import { applyLobbyEvent, EMPTY_BOARD, seekOrder, type LobbyEvent, type LobbySeek } from './board';

export type { LobbySeek } from './board';

export interface SeekFilter {
  readonly kind?: string;
  readonly timeControl?: 'unlimited' | 'realtime' | 'correspondence';
  readonly rated?: boolean;
}

function query(filter: SeekFilter): string {
  const out = new URLSearchParams();
  if (filter.kind) out.set('kind', filter.kind);
  if (filter.timeControl) out.set('timeControl', filter.timeControl);
  if (filter.rated !== undefined) out.set('rated', String(filter.rated));
  return out.toString();
}

export interface LiveSeeks {
  readonly seeks: LobbySeek[];
  /** connecting, live or reconnecting. */
  readonly status: string;
  /** More seeks wait than the stream lists. */
  readonly more: boolean;
  readonly error: string;
}

/** The open seeks matching `filter`, as `token`'s account (or anonymously) sees them, kept live. */
export function useSeeks(filter: SeekFilter, token: string | null): LiveSeeks {
  const [board, setBoard] = useState(EMPTY_BOARD);
  const [status, setStatus] = useState('connecting');
  const [error, setError] = useState('');
  const key = JSON.stringify([filter, token]);
  useEffect(() => {
    const abort = new AbortController();
    let delay = 500;
    const run = async () => {
      while (!abort.signal.aborted) {
        try {
          const res = await fetch(`/api/v1/seeks/stream?${query(filter)}`, {
            headers: { ...auth(token ?? undefined), Accept: 'text/event-stream' },
            signal: abort.signal,
          });
          if (!res.ok || !res.body) {
            setError(problemText(await res.json().catch(() => `the lobby answered ${res.status}`)));
          } else {
            setError('');
            setBoard(EMPTY_BOARD);
            for await (const message of sseMessages(res.body)) {
              if (message.event === 'shutdown' || message.event === 'error') break;
              const event = { event: message.event, data: JSON.parse(message.data) as unknown } as LobbyEvent;
              setBoard((b) => applyLobbyEvent(b, event));
              if (event.event === 'ready') {
                setStatus('live');
                delay = 500;
              }
            }
          }
        } catch {
          if (abort.signal.aborted) return;
        }
        if (abort.signal.aborted) return;
        setStatus('reconnecting');
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 10_000);
      }
    };
    void run();
    return () => abort.abort();
  }, [key]);
  return { seeks: seekOrder(board), status, more: board.more, error };
}
