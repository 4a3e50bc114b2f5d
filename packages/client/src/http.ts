// The fetch under every call: one Idempotency-Key per logical write (kept across its retries), and
// bounded retries after 429 / 503 (waiting as Retry-After says) and, for writes that carry a key or
// reads, after a lost connection.
import { randomUUID } from 'node:crypto';
import type { Credentials } from './session';

export interface RetryOptions {
  /** Retries of one request at most (default 5). */
  readonly retries?: number;
  /** The longest wait before a retry, in ms, whatever Retry-After says (default 30 s). */
  readonly maxDelayMs?: number;
}

const RETRIED_STATUSES = new Set([429, 503]);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The wait a response asks for (Retry-After: seconds or an HTTP date), or `fallback` ms. */
export function retryAfterMs(response: Response, fallback: number): number {
  const header = response.headers.get('retry-after');
  if (header === null) return fallback;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? fallback : Math.max(0, date - Date.now());
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });

/** The `code` of a problem+json answer, if it is one. */
async function codeOf(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body?.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A fetch that adds the credentials and an Idempotency-Key to writes, and retries as above; a 401
 * that the credentials can cure (a session's expired access token, refreshed) is sent once more.
 */
export function retryingFetch(
  credentials: Credentials,
  options: RetryOptions = {},
  base: typeof fetch = globalThis.fetch,
): (request: Request) => Promise<Response> {
  const retries = options.retries ?? 5;
  const maxDelay = options.maxDelayMs ?? 30_000;
  return async (request: Request) => {
    for (const [name, value] of Object.entries(credentials.headers ?? {})) {
      if (!request.headers.has(name)) request.headers.set(name, value);
    }
    // A bearer the caller set itself is left alone (and not renewed).
    const own = request.headers.has('authorization');
    // A write keeps its key across every retry below: the server plays or creates it once.
    if (WRITES.has(request.method) && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', randomUUID());
    }
    const safe = !WRITES.has(request.method) || request.headers.has('idempotency-key');
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      let used: string | undefined;
      if (!own) {
        used = await credentials.bearer();
        if (used) request.headers.set('authorization', `Bearer ${used}`);
      }
      let response: Response;
      try {
        response = await base(request.clone());
      } catch (error) {
        if (!safe || attempt >= retries || request.signal.aborted) throw error;
        await sleep(Math.min(maxDelay, 100 * 2 ** attempt), request.signal);
        continue;
      }
      if (response.status === 401 && used && !renewed && credentials.renew) {
        // Refused before any work (authentication comes first): sending it again plays nothing twice.
        if (await credentials.renew(used, await codeOf(response))) {
          renewed = true;
          await response.body?.cancel();
          continue;
        }
      }
      if (!RETRIED_STATUSES.has(response.status) || attempt >= retries) return response;
      await response.body?.cancel();
      await sleep(Math.min(maxDelay, retryAfterMs(response, 100 * 2 ** attempt)), request.signal);
    }
  };
}
