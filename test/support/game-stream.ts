// A client of GET /api/v1/games/{id}/stream for tests: reads the Server-Sent Events as they arrive.
import { sseParser, type FeedMessage } from './feed-client';

export interface GameStream {
  /** Every message so far, in order (`game` events, `end`, `error`). */
  readonly messages: FeedMessage[];
  /** The versions of the `game` events so far, in order. */
  versions(): number[];
  /** Resolves once a message matches (or rejects after `timeoutMs`). */
  until(match: (message: FeedMessage) => boolean, timeoutMs?: number): Promise<FeedMessage>;
  /** Resolves when the server has ended the response. */
  readonly ended: Promise<void>;
  close(): void;
}

export async function openGameStream(url: string, id: string): Promise<GameStream> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/v1/games/${id}/stream`, {
    headers: { accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (response.status !== 200 || !response.body) {
    throw new Error(`the game stream answered ${response.status}: ${await response.text()}`);
  }
  const messages: FeedMessage[] = [];
  const waiters = new Set<() => void>();
  const parse = sseParser(
    (message) => {
      messages.push(message);
      for (const wake of [...waiters]) wake();
    },
    () => undefined,
  );
  let done = false;
  const ended = (async () => {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        parse(decoder.decode(value, { stream: true }));
      }
    } catch {
      // aborted by close()
    } finally {
      done = true;
      for (const wake of [...waiters]) wake();
    }
  })();
  return {
    messages,
    versions: () => messages.filter((m) => m.type === 'game').map((m) => m.data.version as number),
    async until(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        if (done) throw new Error('the game stream ended');
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching message within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    ended,
    close: () => controller.abort(),
  };
}
