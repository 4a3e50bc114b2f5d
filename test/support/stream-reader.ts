// Reads a streamed REST response (Server-Sent Events or NDJSON) one item at a time, as it arrives.

/** One item: an NDJSON line (parsed), or an SSE event as { event, id?, data (parsed JSON) }. */
export type StreamItem = Record<string, any>;

export interface StreamReader {
  readonly response: Response;
  /** The next item; rejects when none comes within `timeoutMs` or the stream ends first. */
  next(timeoutMs?: number): Promise<StreamItem>;
  /** Disconnects (as a client going away). */
  close(): void;
}

/** GETs `url` and reads its body as SSE or NDJSON, as its Content-Type says. */
export async function readStream(url: string, headers: Record<string, string> = {}): Promise<StreamReader> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !response.body) {
    throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  }
  const queue: StreamItem[] = [];
  const waiters: Array<() => void> = [];
  let done = false;
  const push = (item: StreamItem) => {
    queue.push(item);
    waiters.splice(0).forEach((wake) => wake());
  };
  const parse = type.startsWith('text/event-stream') ? sseItems(push) : ndjsonItems(push);
  void (async () => {
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
      waiters.splice(0).forEach((wake) => wake());
    }
  })();
  return {
    response,
    async next(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0) {
        if (done) throw new Error('the stream ended');
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no stream item within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return queue.shift() as StreamItem;
    },
    close: () => controller.abort(),
  };
}

/**
 * Server-Sent Events (WHATWG): fields until a blank line; comments and `retry:` are no events
 * (`onRetry` gets the hint).
 */
export function sseItems(
  push: (item: StreamItem) => void,
  onRetry: (ms: number) => void = () => undefined,
): (text: string) => void {
  let buffer = '';
  let fields: { event?: string; id?: string; data: string[] } = { data: [] };
  return (text) => {
    buffer += text;
    let cut;
    while ((cut = buffer.search(/\r\n|\n|\r/)) >= 0) {
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
      else if (name === 'id') fields.id = value;
      else if (name === 'data') fields.data.push(value);
      else if (name === 'retry') onRetry(Number(value));
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
