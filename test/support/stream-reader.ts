// Reads a streamed REST response (Server-Sent Events or NDJSON) one item at a time, as it arrives.
// The one reader of the test helpers: feed-client.ts and game-stream.ts build on `openStream`.

/** One item: an NDJSON line (parsed), or an SSE event as { event, id?, data (parsed JSON) }. */
export type StreamItem = Record<string, any>;

/** Turns the decoded text of a body, chunk by chunk, into items handed to `push`. */
export type StreamParser = (text: string) => void;

/** How a stream is named in the errors its reader throws. */
export interface StreamNames {
  /** Who answered a status other than 200 ("feed" → "feed answered 401: …"). */
  readonly source: string;
  /** The error of `next`/`until` once the stream has ended. */
  readonly ended: string;
  /** What did not come in time ("feed message" → "no feed message within 100 ms"). */
  readonly item: string;
}

/** A streamed body read as it arrives. */
export interface ItemStream<T> {
  readonly response: Response;
  /** Every item so far, in order (also those taken by `next`). */
  readonly items: readonly T[];
  /** The next item not yet taken; rejects when none comes within `timeoutMs` or the stream ends first. */
  next(timeoutMs?: number): Promise<T>;
  /** Items received and not yet taken by `next`. */
  readonly buffered: number;
  /** The first item so far (or to come) that matches; rejects after `timeoutMs` or once the stream ends. */
  until(match: (item: T) => boolean, timeoutMs?: number): Promise<T>;
  /** Resolves when the server has ended the response (or `close` has). */
  readonly ended: Promise<void>;
  /** Disconnects (as a client going away). */
  close(): void;
}

/**
 * GETs `url` with `headers` and reads its body with the parser `parserFor` makes (it sees the
 * response, e.g. its Content-Type); fails unless the answer is 200 with a body.
 */
export async function openStream<T>(
  url: string,
  headers: Record<string, string>,
  parserFor: (push: (item: T) => void, response: Response) => StreamParser,
  names: StreamNames,
): Promise<ItemStream<T>> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  if (response.status !== 200 || !response.body) {
    throw new Error(`${names.source} answered ${response.status}: ${await response.text()}`);
  }
  const items: T[] = [];
  let taken = 0;
  let done = false;
  const waiters = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of [...waiters]) wake();
  };
  const parse = parserFor((item) => {
    items.push(item);
    wakeAll();
  }, response);
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
      wakeAll();
    }
  })();
  /** Resolves with what `find` finds, waiting for items as they come. */
  const waitFor = async <R>(find: () => R | undefined, timeoutMs: number): Promise<R> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (done) throw new Error(names.ended);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${names.item} within ${timeoutMs} ms`);
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
  };
  return {
    response,
    items,
    next: (timeoutMs = 10_000) =>
      waitFor(() => (taken < items.length ? { item: items[taken++] as T } : undefined), timeoutMs).then(
        (found) => found.item,
      ),
    get buffered() {
      return items.length - taken;
    },
    until: (match, timeoutMs = 10_000) => waitFor(() => items.find(match), timeoutMs),
    ended,
    close: () => controller.abort(),
  };
}

export interface StreamReader {
  readonly response: Response;
  /** The next item; rejects when none comes within `timeoutMs` or the stream ends first. */
  next(timeoutMs?: number): Promise<StreamItem>;
  /** Disconnects (as a client going away). */
  close(): void;
}

/** GETs `url` and reads its body as SSE or NDJSON, as its Content-Type says. */
export async function readStream(url: string, headers: Record<string, string> = {}): Promise<StreamReader> {
  return openStream<StreamItem>(
    url,
    headers,
    (push, response) =>
      (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
        ? sseItems(push)
        : ndjsonItems(push),
    { source: url, ended: 'the stream ended', item: 'stream item' },
  );
}

/**
 * Server-Sent Events (WHATWG): fields until a blank line (lines end in CRLF, LF or CR); comments
 * and `retry:` are no events (`onRetry` gets the hint, when it is all digits); an event without
 * `data:` is none, nor is one the stream ends inside. `id` is the event's own `id:` field.
 */
export function sseItems(
  push: (item: StreamItem) => void,
  onRetry: (ms: number) => void = () => undefined,
): (text: string) => void {
  let buffer = '';
  let fields: { event?: string; id?: string; data: string[] } = { data: [] };
  // A CR that ended the last text: an LF beginning the next is the rest of that CRLF.
  let afterCR = false;
  return (text) => {
    buffer += afterCR && text.startsWith('\n') ? text.slice(1) : text;
    if (text !== '') afterCR = false;
    let cut;
    while ((cut = buffer.search(/\r\n|\n|\r/)) >= 0) {
      if (cut === buffer.length - 1 && buffer.endsWith('\r')) afterCR = true;
      const line = buffer.slice(0, cut);
      buffer = buffer.slice(cut + (buffer.startsWith('\r\n', cut) ? 2 : 1));
      if (line === '') {
        if (fields.data.length > 0) {
          push({
            event: fields.event ?? 'message',
            ...(fields.id === undefined ? {} : { id: fields.id }),
            data: JSON.parse(fields.data.join('\n')),
          });
        }
        fields = { data: [] };
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const name = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (name === 'event') fields.event = value;
      else if (name === 'id' && !value.includes('\0')) fields.id = value;
      else if (name === 'data') fields.data.push(value);
      else if (name === 'retry' && /^[0-9]+$/.test(value)) onRetry(Number(value));
    }
  };
}

/** NDJSON: one document per line; empty lines are keep-alives. */
export function ndjsonItems(push: (item: StreamItem) => void): (text: string) => void {
  let buffer = '';
  return (text) => {
    buffer += text;
    let cut;
    while ((cut = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 1);
      if (line.trim() !== '') push(JSON.parse(line));
    }
  };
}
