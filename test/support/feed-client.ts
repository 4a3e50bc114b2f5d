// A small client of GET /api/v1/account/events for tests: opens the feed with fetch, parses the
// Server-Sent Events or NDJSON body as it arrives, and hands out one message at a time.
import { ndjsonItems, openStream, sseItems } from './stream-reader';

export type FeedFormat = 'sse' | 'ndjson';

/** One message of a feed stream. */
export interface FeedMessage {
  /** 'ready', 'shutdown', or the event type (challenge.received, game.moved, …). */
  readonly type: string;
  /** ready: { last }; an event: the whole event { seq, type, at, data }; shutdown: {}. */
  readonly data: any;
  /** SSE only: the `id:` field of the message. */
  readonly id?: string;
}

export interface FeedConnection {
  readonly response: Response;
  /** The `ready` message's starting seq. */
  readonly last: number;
  /** The `ready` message's feed epoch. */
  readonly epoch: string;
  /** SSE only: the `retry:` hint. */
  readonly retry: number | undefined;
  /** The next message after `ready`; rejects when none comes within `timeoutMs` or the stream ends. */
  next(timeoutMs?: number): Promise<FeedMessage>;
  /** Messages received and not yet taken by `next`. */
  readonly buffered: number;
  /** Resolves when the server has ended the response. */
  readonly ended: Promise<void>;
  /** Disconnects (as a client going away). */
  close(): void;
}

export interface OpenFeedOptions {
  readonly format: FeedFormat;
  /** `?after=` */
  readonly after?: number;
  /** `&epoch=` (with `after`) */
  readonly epoch?: string;
  /** SSE `Last-Event-ID` header: `<epoch>:<seq>`, or a bare seq. */
  readonly lastEventId?: number | string;
  /** The feed's path (default /api/v1/account/events; an app's: /api/v1/app/events). */
  readonly path?: string;
  /** More request headers (e.g. Boardhost-Account, for an app key acting for one of its accounts). */
  readonly headers?: Record<string, string>;
}

/** Opens the feed of the account behind `token`; fails unless it answers 200 and a `ready` message. */
export async function openFeed(
  url: string,
  token: string,
  options: OpenFeedOptions,
): Promise<FeedConnection> {
  const query =
    options.after === undefined
      ? ''
      : `?after=${options.after}${options.epoch === undefined ? '' : `&epoch=${options.epoch}`}`;
  let retry: number | undefined;
  const stream = await openStream<FeedMessage>(
    `${url}${options.path ?? '/api/v1/account/events'}${query}`,
    {
      authorization: `Bearer ${token}`,
      accept: options.format === 'sse' ? 'text/event-stream' : 'application/x-ndjson',
      ...(options.lastEventId === undefined ? {} : { 'last-event-id': String(options.lastEventId) }),
      ...options.headers,
    },
    (push) => (options.format === 'sse' ? sseParser(push, (ms) => (retry = ms)) : ndjsonParser(push)),
    { source: 'feed', ended: 'the feed stream ended', item: 'feed message' },
  );
  const ready = await stream.next();
  if (ready.type !== 'ready') throw new Error(`the feed began with ${ready.type}, not ready`);
  return {
    response: stream.response,
    last: ready.data.last,
    epoch: ready.data.epoch,
    get retry() {
      return retry;
    },
    next: stream.next,
    get buffered() {
      return stream.buffered;
    },
    ended: stream.ended,
    close: stream.close,
  };
}

/** Feed messages from SSE: the event name is the message type. */
export function sseParser(
  push: (m: FeedMessage) => void,
  onRetry: (ms: number) => void,
): (text: string) => void {
  return sseItems(
    (item) => push({ type: item.event, data: item.data, ...(item.id === undefined ? {} : { id: item.id }) }),
    onRetry,
  );
}

/** Feed messages from NDJSON: an event is its own data; ready and shutdown lose their `type`. */
function ndjsonParser(push: (m: FeedMessage) => void): (text: string) => void {
  return ndjsonItems((doc) => {
    if (typeof doc.seq === 'number') push({ type: doc.type, data: doc });
    else {
      const { type, ...rest } = doc;
      push({ type, data: rest });
    }
  });
}
