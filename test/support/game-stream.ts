// A client of GET /api/v1/games/{id}/stream for tests: reads the Server-Sent Events as they arrive.
import { sseParser, type FeedMessage } from './feed-client';
import { openStream } from './stream-reader';

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
  const stream = await openStream<FeedMessage>(
    `${url}/api/v1/games/${id}/stream`,
    { accept: 'text/event-stream' },
    (push) => sseParser(push, () => undefined),
    { source: 'the game stream', ended: 'the game stream ended', item: 'matching message' },
  );
  const messages = stream.items as FeedMessage[];
  return {
    messages,
    versions: () => messages.filter((m) => m.type === 'game').map((m) => m.data.version as number),
    until: stream.until,
    ended: stream.ended,
    close: stream.close,
  };
}
