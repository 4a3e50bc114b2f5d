// A small client of GET /api/v1/account/events for tests: opens the feed with fetch, parses the
// Server-Sent Events or NDJSON body as it arrives, and hands out one message at a time.
import { ndjsonItems, sseItems } from './stream-reader';

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
}

/** Opens the feed of the account behind `token`; fails unless it answers 200 and a `ready` message. */
export async function openFeed(
  url: string,
  token: string,
  options: OpenFeedOptions,
): Promise<FeedConnection> {
  const controller = new AbortController();
  const query =
    options.after === undefined
      ? ''
      : `?after=${options.after}${options.epoch === undefined ? '' : `&epoch=${options.epoch}`}`;
  const response = await fetch(`${url}/api/v1/account/events${query}`, {
    headers: {
      authorization: `Bearer ${token}`,
      accept: options.format === 'sse' ? 'text/event-stream' : 'application/x-ndjson',
      ...(options.lastEventId === undefined ? {} : { 'last-event-id': String(options.lastEventId) }),
    },
    signal: controller.signal,
  });
  if (response.status !== 200 || !response.body) {
    throw new Error(`feed answered ${response.status}: ${await response.text()}`);
  }
  const queue: FeedMessage[] = [];
  const waiters: Array<() => void> = [];
  let done = false;
  let retry: number | undefined;
  const push = (message: FeedMessage) => {
    queue.push(message);
    waiters.splice(0).forEach((wake) => wake());
  };
  const parser = options.format === 'sse' ? sseParser(push, (ms) => (retry = ms)) : ndjsonParser(push);
  const ended = (async () => {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        parser(decoder.decode(value, { stream: true }));
      }
    } catch {
      // aborted by close()
    } finally {
      done = true;
      waiters.splice(0).forEach((wake) => wake());
    }
  })();

  const next = async (timeoutMs = 10_000): Promise<FeedMessage> => {
    const deadline = Date.now() + timeoutMs;
    while (queue.length === 0) {
      if (done) throw new Error('the feed stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no feed message within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return queue.shift() as FeedMessage;
  };

  const ready = await next();
  if (ready.type !== 'ready') throw new Error(`the feed began with ${ready.type}, not ready`);
  return {
    response,
    last: ready.data.last,
    epoch: ready.data.epoch,
    get retry() {
      return retry;
    },
    next,
    get buffered() {
      return queue.length;
    },
    ended,
    close: () => controller.abort(),
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
