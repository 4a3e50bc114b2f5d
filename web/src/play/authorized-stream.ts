// A Server-Sent Events stream read with fetch, so that it can carry a seat's token in an
// Authorization header (EventSource cannot): the game page's stream then brings what only a seat
// may read, such as the game's chat (`chat` events). It behaves as much like an EventSource as the
// page needs: `open`, one MessageEvent per server event (named as the server names it), and, once
// the connection drops or is refused, readyState CLOSED and a plain `error` event (the page then
// opens a new one, as it does for an EventSource that gave up).
import { sseMessages } from '../account/feed';

export class AuthorizedEventSource extends EventTarget {
  readyState: number = EventSource.CONNECTING;
  private readonly abort = new AbortController();

  constructor(url: string, token: string) {
    super();
    void this.run(url, token);
  }

  private async run(url: string, token: string): Promise<void> {
    try {
      const res = await fetch(url, {
        headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
        signal: this.abort.signal,
      });
      if (!res.ok || !res.body) throw new Error(`the stream answered ${res.status}`);
      this.readyState = EventSource.OPEN;
      this.dispatchEvent(new Event('open'));
      for await (const message of sseMessages(res.body)) {
        if (this.abort.signal.aborted) return;
        this.dispatchEvent(new MessageEvent(message.event, { data: message.data }));
      }
    } catch {
      // Dropped or refused: said below, unless the page closed it.
    }
    if (this.abort.signal.aborted) return;
    this.readyState = EventSource.CLOSED;
    this.dispatchEvent(new Event('error'));
  }

  close(): void {
    this.readyState = EventSource.CLOSED;
    this.abort.abort();
  }
}

/** The game's stream: as the seat whose token this is, or (no token) anonymously. */
export function openGameStream(url: string, token: string | undefined): EventSource | AuthorizedEventSource {
  return token ? new AuthorizedEventSource(url, token) : new EventSource(url);
}
