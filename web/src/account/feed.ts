// The account's event feed, live: GET /api/v1/account/events as Server-Sent Events. EventSource
// cannot send an Authorization header, so the stream is read with fetch and parsed here. The feed
// resumes where it left off (after=<last seq>&epoch=<its epoch>) whenever the connection drops or
// the server restarts; an epoch change (the store came back older) starts again from its new seq.
import type { Schemas } from '../api/client';

export type FeedEvent = Schemas['FeedEvent'];

export interface FeedListener {
  /** The stream is open; `last` is the seq it continues after. */
  readonly ready?: (last: number, epoch: string) => void;
  readonly event: (event: FeedEvent) => void;
  /** A state worth showing: connecting, live, reconnecting, or why the feed stopped for good. */
  readonly status?: (status: string) => void;
}

interface SseMessage {
  readonly event: string;
  readonly data: string;
}

/** Splits an SSE byte stream into messages (comments and keep-alives are dropped). */
export async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
      }
      if (data.length > 0) yield { event, data: data.join('\n') };
    }
  }
}

/**
 * Follows the feed of the account whose token this is until the returned function is called.
 * Starts from now (`after` omitted) or after a seq already handled.
 */
export function followFeed(token: string, listener: FeedListener, from?: { after: number; epoch: string }) {
  const abort = new AbortController();
  let after = from?.after;
  let epoch = from?.epoch;
  let delay = 500;
  const status = (s: string) => listener.status?.(s);

  const run = async () => {
    while (!abort.signal.aborted) {
      status(after === undefined ? 'connecting' : 'reconnecting');
      const query = new URLSearchParams();
      if (after !== undefined) query.set('after', String(after));
      if (after !== undefined && epoch !== undefined) query.set('epoch', epoch);
      try {
        const res = await fetch(`/api/v1/account/events?${query.toString()}`, {
          headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
          signal: abort.signal,
        });
        if (res.status === 409) {
          // FEED_EPOCH_CHANGED: the store came back older; go on from where the new epoch stands.
          const problem = (await res.json()) as { epoch?: string; after?: number };
          epoch = problem.epoch;
          after = problem.after;
          continue;
        }
        if (res.status === 401 || res.status === 403) {
          status(`stopped: the token was refused (${res.status})`);
          return;
        }
        if (!res.ok || !res.body) throw new Error(`feed answered ${res.status}`);
        for await (const message of sseMessages(res.body)) {
          const data = JSON.parse(message.data) as Record<string, unknown>;
          if (message.event === 'ready') {
            after = data.last as number;
            epoch = data.epoch as string;
            delay = 500;
            status('live');
            listener.ready?.(after, epoch);
          } else if (message.event === 'revoked') {
            status('stopped: the token was revoked');
            return;
          } else if (message.event === 'epoch_changed') {
            epoch = data.epoch as string;
            after = data.after as number;
            break;
          } else if (message.event === 'shutdown') {
            break;
          } else if (typeof data.seq === 'number') {
            after = data.seq;
            epoch = (data.epoch as string | undefined) ?? epoch;
            listener.event(data as unknown as FeedEvent);
          }
        }
      } catch (error) {
        if (abort.signal.aborted) return;
        void error;
      }
      if (abort.signal.aborted) return;
      status('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 10_000);
    }
  };
  void run();
  return () => abort.abort();
}
