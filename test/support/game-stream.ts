// A client of GET /api/v1/games/{id}/stream for tests: reads the Server-Sent Events as they arrive.
import { sseParser, type FeedMessage } from './feed-client';
import { openStream } from './stream-reader';

export interface GameStream {
  /** Every message so far, in order (`game` first, `update` events, `end`, `error`). */
  readonly messages: FeedMessage[];
  /** The versions of the `game` and `update` events so far, in order. */
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
    versions: () => messages.flatMap((m) => versionOf(m) ?? []),
    until: stream.until,
    ended: stream.ended,
    close: stream.close,
  };
}

/**
 * The game version a message carries: a `game` event's (the whole game, the first message) or an
 * `update` event's (`{game: head, move}`); undefined for other messages.
 */
export function versionOf(message: FeedMessage): number | undefined {
  if (message.type === 'game') return message.data.version as number;
  if (message.type === 'update') return message.data.game.version as number;
  return undefined;
}
