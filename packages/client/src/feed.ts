// The account event feed as an async iterator that never ends by itself: it reads the NDJSON
// stream, and when the connection drops, the server restarts or answers 429/5xx, it reconnects and
// resumes after the last event it yielded (`after` + `epoch`), so every event arrives once, in order.
// When events the client saw or missed are gone (EVENTS_EXPIRED, FEED_EPOCH_CHANGED, or an
// `epoch_changed` line), it resumes where the server says and yields `ready` with `resync: true`:
// re-read your games and challenges then.
import type { Client } from 'openapi-fetch';
import { BoardhostError, toError } from './errors';
import type { components, paths } from './generated/openapi';
import { retryAfterMs, sleep } from './http';
import type { Credentials } from './session';

export type FeedEvent = components['schemas']['FeedEvent'];

/** Yielded on every (re)connection, once the stream is open. */
export interface FeedReady {
  readonly type: 'ready';
  /** The seq the stream continues after, and the feed's epoch. */
  readonly last: number;
  readonly epoch: string;
  /**
   * True on a first start without `after`, and after events were lost or expired: what happened
   * before may not have reached you, so read your ongoing games and open challenges now (the events
   * after this point will follow).
   */
  readonly resync: boolean;
}

export type FeedItem = FeedEvent | FeedReady;

export interface FeedOptions {
  /** Resume after this event (the seq and epoch of the last event handled); omitted: from now. */
  readonly after?: number;
  readonly epoch?: string;
  /** Ends the iteration. */
  readonly signal?: AbortSignal;
  /** Wait before reconnecting, in ms (default 1000; doubles up to 5 s while failing). */
  readonly reconnectDelayMs?: number;
  /** Called on each reconnect with the reason (to log it). */
  readonly onReconnect?: (reason: unknown) => void;
}

type Line = components['schemas']['FeedStreamLine'];

/** Splits a byte stream into parsed NDJSON lines (empty keep-alive lines skipped). */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<Line> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line !== '') yield JSON.parse(line) as Line;
    }
  }
}

/** True for a failure that trying again may cure: a lost connection, 429 or 5xx. */
export function isTransient(error: unknown): boolean {
  if (error instanceof BoardhostError) return error.status >= 500 || error.status === 429;
  return error instanceof TypeError && /fetch failed|terminated|network/i.test(error.message);
}

export interface ConsumeOptions extends FeedOptions {
  /** Called when `handle` failed on a transient error, before the item is handed over again. */
  readonly onRetry?: (error: unknown) => void;
}

/**
 * Runs `handle` on every feed item in order, until it returns true. When `handle` fails on a
 * transient error (a lost connection, 429, 5xx), the feed is reopened after the last item handled
 * and the failed item is handed over again (a failed `ready` with `resync`, too): at least once, in
 * order. Any other error ends it.
 */
export async function consume(
  api: Client<paths>,
  handle: (item: FeedItem) => Promise<boolean | void> | boolean | void,
  options: ConsumeOptions = {},
  credentials?: Credentials,
): Promise<void> {
  let after = options.after;
  let epoch = options.epoch;
  for (;;) {
    try {
      for await (const item of follow(
        api,
        { ...options, ...(after === undefined ? {} : { after, epoch }) },
        credentials,
      )) {
        const done = await handle(item);
        if (item.type !== 'ready') [after, epoch] = [item.seq, item.epoch];
        else if (after === undefined || item.resync) [after, epoch] = [item.last, item.epoch];
        if (done === true) return;
      }
      return; // aborted
    } catch (error) {
      if (!isTransient(error) || options.signal?.aborted) throw error;
      options.onRetry?.(error);
      await sleep(options.reconnectDelayMs ?? 1000, options.signal);
    }
  }
}

const tokenEnded = (type: 'revoked' | 'expired') =>
  new BoardhostError({
    type: `urn:boardhost:problem:${type === 'revoked' ? 'unauthenticated' : 'token-expired'}`,
    title: 'Unauthorized',
    status: 401,
    code: type === 'revoked' ? 'UNAUTHENTICATED' : 'TOKEN_EXPIRED',
    detail: `The API token of the feed ${type === 'revoked' ? 'was revoked' : 'expired'}`,
  });

/**
 * The feed. With `credentials`, the stream is opened with their bearer, and when that token ends
 * (a 401, or the stream's last line `revoked` or `expired`) and the credentials renew it (a session
 * refreshed), the feed reconnects at once with the new token.
 */
export async function* follow(
  api: Client<paths>,
  options: FeedOptions = {},
  credentials?: Credentials,
): AsyncGenerator<FeedItem> {
  let after = options.after;
  let epoch = options.epoch;
  let resync = after === undefined;
  const base = options.reconnectDelayMs ?? 1000;
  let failures = 0;
  // Renewals since the last stream opened: a server that refuses each new token too (its clock far
  // ahead) must not make the feed refresh forever.
  let renewals = 0;
  const signal = options.signal;
  while (!signal?.aborted) {
    const stream = new AbortController();
    const stop = () => stream.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    // A token that ended under the stream and was renewed: reconnect now, not after a delay.
    let renewed = false;
    try {
      const query = after === undefined ? {} : { after, ...(epoch ? { epoch } : {}) };
      const used = await credentials?.bearer();
      const renew = async (code: string) =>
        used !== undefined &&
        credentials?.renew !== undefined &&
        renewals++ < 3 &&
        (await credentials.renew(used, code));
      const { response, error } = await api.GET('/api/v1/account/events', {
        params: { query },
        headers: { accept: 'application/x-ndjson', ...(used ? { authorization: `Bearer ${used}` } : {}) },
        parseAs: 'stream',
        signal: stream.signal,
      });
      if (!response.ok || !response.body) {
        const refusal = toError(error, response);
        if (response.status === 401 && (await renew(refusal.code))) {
          renewed = true;
          continue;
        }
        if (response.status === 429 || response.status === 503) {
          // Overloaded or rate limited: wait as the server says (at most 30 s), then reconnect.
          options.onReconnect?.(refusal);
          await sleep(Math.min(30_000, retryAfterMs(response, base)), signal);
          continue;
        }
        if (refusal.code === 'EVENTS_EXPIRED') {
          after = undefined; // start from now, and tell the caller to read its state again
          resync = true;
          continue;
        }
        if (refusal.code === 'FEED_EPOCH_CHANGED') {
          ({ after, epoch } = refusal.problem as unknown as { after: number; epoch: string });
          resync = true;
          continue;
        }
        throw refusal;
      }
      for await (const line of lines(response.body)) {
        if (line.type === 'ready') {
          failures = 0;
          renewals = 0;
          epoch = line.epoch;
          if (after === undefined) after = line.last;
          yield { type: 'ready', last: line.last, epoch: line.epoch, resync };
          resync = false;
        } else if (line.type === 'epoch_changed') {
          ({ after, epoch } = line);
          resync = true;
          break;
        } else if (line.type === 'revoked' || (line.type as string) === 'expired') {
          // A session's token ends when it is refreshed (revoked) or at its expiry (expired).
          const type = line.type as 'revoked' | 'expired';
          if (!(await renew(type === 'revoked' ? 'UNAUTHENTICATED' : 'TOKEN_EXPIRED')))
            throw tokenEnded(type);
          renewed = true;
          break;
        } else if (line.type === 'shutdown') {
          break; // the server is restarting: resume below
        } else {
          yield line;
          after = line.seq;
          epoch = line.epoch;
        }
      }
      if (!renewed) options.onReconnect?.(new Error('feed: the stream ended'));
    } catch (error) {
      if (signal?.aborted) return;
      // A refusal of ours (4xx but 429) cannot be fixed by trying again.
      if (error instanceof BoardhostError && error.status < 500 && error.status !== 429) throw error;
      options.onReconnect?.(error);
    } finally {
      signal?.removeEventListener('abort', stop);
      stream.abort();
    }
    if (renewed) continue;
    try {
      await sleep(Math.min(5_000, base * 2 ** failures++), signal);
    } catch {
      return;
    }
  }
}
