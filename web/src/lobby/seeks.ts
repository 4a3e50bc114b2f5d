// The lobby's open seeks, live: the first page of GET /seeks, then GET /seeks/stream's `seek.added`
// and `seek.removed` events. The stream opens first and the list is read once it is open, so a seek
// added or removed in between is neither lost nor shown twice: events win over the listing.
// The stream is read with fetch (an account sees its pool's seeks, which needs its token in a
// header, which EventSource cannot send) and reopened after a drop, re-reading the list.
import { useEffect, useState } from 'preact/hooks';
import { api, auth, problemText, type Schemas } from '../api/client';
import { sseMessages } from '../account/feed';
import { EMPTY_BOARD, seekAdded, seekOrder, seekRemoved, seeksListed, type SeekBoard } from './board';

export type ListedSeek = Schemas['ListedSeek'];

export interface SeekFilter {
  readonly kind?: string;
  readonly timeControl?: 'unlimited' | 'realtime' | 'correspondence';
  readonly rated?: boolean;
}

/** How many seeks the lobby shows (the first page of the listing, then what arrives live). */
export const LOBBY_PAGE = 100;

function query(filter: SeekFilter): Record<string, string> {
  const out: Record<string, string> = {};
  if (filter.kind) out.kind = filter.kind;
  if (filter.timeControl) out.timeControl = filter.timeControl;
  if (filter.rated !== undefined) out.rated = String(filter.rated);
  return out;
}

/** The open seeks matching `filter`, kept live; `status` is connecting, live or reconnecting. */
export function useSeeks(
  filter: SeekFilter,
  token: string | null,
): { seeks: ListedSeek[]; status: string; error: string } {
  const [board, setBoard] = useState<SeekBoard>(EMPTY_BOARD);
  const [status, setStatus] = useState('connecting');
  const [error, setError] = useState('');
  const key = JSON.stringify([filter, token]);
  useEffect(() => {
    const abort = new AbortController();
    let delay = 500;
    const list = async () => {
      const { data, error: e } = await api.GET('/api/v1/seeks', {
        params: { query: { ...query(filter), limit: LOBBY_PAGE } as never },
        headers: auth(token ?? undefined),
      });
      if (abort.signal.aborted) return;
      if (data) setBoard((b) => seeksListed(b, data.items));
      else setError(problemText(e));
    };
    const run = async () => {
      while (!abort.signal.aborted) {
        setBoard(EMPTY_BOARD);
        try {
          const res = await fetch(`/api/v1/seeks/stream?${new URLSearchParams(query(filter)).toString()}`, {
            headers: { ...auth(token ?? undefined), Accept: 'text/event-stream' },
            signal: abort.signal,
          });
          if (!res.ok || !res.body) {
            const problem: unknown = await res.json().catch(() => res.status);
            setError(problemText(problem));
          } else {
            setError('');
            void list();
            setStatus('live');
            delay = 500;
            for await (const message of sseMessages(res.body)) {
              if (message.event === 'shutdown') break;
              const data = JSON.parse(message.data) as Record<string, unknown>;
              if (message.event === 'seek.added') {
                setBoard((b) => seekAdded(b, (data.seek ?? data) as ListedSeek));
              } else if (message.event === 'seek.removed') {
                const id = (data.id ?? (data.seek as { id?: string } | undefined)?.id) as string;
                setBoard((b) => seekRemoved(b, id));
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
  return { seeks: seekOrder(board), status, error };
}
