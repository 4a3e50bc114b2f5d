import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import {
  guardedLookup,
  hostOf,
  nonPublicRange,
  portRefusal,
  UNSAFE_ADDRESS_MESSAGE,
  unsafeAddress,
  type PortRanges,
} from './webhook-address';

// The HTTP side of webhook delivery: one POST per attempt, on connections kept alive between
// attempts (a fresh TCP and TLS handshake per event would cap an endpoint at a few deliveries per
// second), every new connection made through the SSRF guard's lookup.

/** Idle kept-alive connections close after this (sooner when the receiver's Keep-Alive hint says so). */
const IDLE_MS = 30_000;
/** Network errors that mean a kept-alive connection was closed by the receiver before it was reused. */
const STALE_SOCKET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** What one POST to an endpoint gave. */
export interface SendResult {
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  /** The sender was stopped mid-attempt: not an attempt to record. */
  readonly aborted?: boolean;
  /** With `readBody`: the answer's body (its first `readBody` bytes). */
  readonly body?: string;
}

/** One POST's own settings. */
export interface PostOptions {
  /** Keep the answer's body, up to this many bytes (webhooks drop it: the status is what counts). */
  readonly readBody?: number;
  /** This attempt's deadline instead of the sender's. */
  readonly timeoutMs?: number;
}

export interface SenderOptions {
  /** Deliver to loopback and private addresses too. */
  readonly allowPrivate: boolean;
  /** An attempt without a whole answer within this fails. */
  readonly timeoutMs: number;
  /** Ports allowed (undefined: the defaults, or any when private targets are allowed). */
  readonly ports?: PortRanges;
}

/** POSTs to webhook receivers over kept-alive connections; `stop` abandons attempts under way. */
export class WebhookSender {
  private readonly agents: { readonly http: HttpAgent; readonly https: HttpsAgent };
  private readonly aborts = new Set<AbortController>();

  constructor(private readonly options: SenderOptions) {
    // The lookup is the agents' too, so that every connection they open is checked.
    const agentOptions = {
      keepAlive: true,
      timeout: IDLE_MS,
      lookup: guardedLookup(options.allowPrivate),
    };
    this.agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };
  }

  /** One POST with a deadline; never rejects. Redirects are not followed. */
  post(
    target: string,
    body: string,
    headers: Record<string, string>,
    options: PostOptions = {},
  ): Promise<SendResult> {
    const started = performance.now();
    const url = new URL(target);
    const host = hostOf(url);
    const policy = {
      allowPrivate: this.options.allowPrivate,
      ...(this.options.ports ? { ports: this.options.ports } : {}),
    };
    const refused = portRefusal(url, policy);
    if (refused)
      return Promise.resolve({ statusCode: null, error: `refused: ${refused.message}`, durationMs: 0 });
    // Literal addresses skip DNS (and so the guarded lookup): check them here.
    const range = !this.options.allowPrivate && isIP(host) !== 0 ? nonPublicRange(host) : undefined;
    if (range) {
      unsafeAddress(host, host, range);
      return Promise.resolve({
        statusCode: null,
        error: `refused: ${UNSAFE_ADDRESS_MESSAGE}`,
        durationMs: 0,
      });
    }
    return this.attempt(url, host, body, headers, started, true, options);
  }

  /** Abandons the attempts under way (they resolve as aborted) and closes idle connections. */
  stop(): void {
    for (const abort of this.aborts) abort.abort();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private attempt(
    url: URL,
    host: string,
    body: string,
    headers: Record<string, string>,
    started: number,
    mayRetry: boolean,
    options: PostOptions = {},
  ): Promise<SendResult> {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const readBody = options.readBody;
    const chunks: Buffer[] = [];
    let kept = 0;
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      const abort = new AbortController();
      this.aborts.add(abort);
      let status: number | null = null;
      let settled = false;
      const settle = () => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        this.aborts.delete(abort);
        return true;
      };
      /** Ends the attempt; the connection goes back to the pool only after a whole answer. */
      const finish = (error: string | null, options: { keep?: boolean; aborted?: boolean } = {}) => {
        if (!settle()) return;
        if (!options.keep) req.destroy();
        resolve({
          statusCode: status,
          error,
          durationMs: elapsed(),
          ...(options.aborted ? { aborted: true } : {}),
          ...(readBody === undefined ? {} : { body: Buffer.concat(chunks).toString('utf8') }),
        });
      };
      const verdict = () =>
        status !== null && status >= 200 && status < 300
          ? null
          : status !== null && status >= 300 && status < 400
            ? `HTTP ${status} (redirects are not followed)`
            : `HTTP ${status}`;
      const https = url.protocol === 'https:';
      const req = (https ? httpsRequest : httpRequest)(
        {
          protocol: url.protocol,
          hostname: host,
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          lookup: guardedLookup(this.options.allowPrivate),
          agent: https ? this.agents.https : this.agents.http,
          signal: abort.signal,
        },
        (res: IncomingMessage) => {
          status = res.statusCode ?? null;
          // The answer's body is read and dropped (the status is what counts), or kept up to readBody bytes.
          if (readBody === undefined) res.resume();
          else
            res.on('data', (chunk: Buffer) => {
              if (kept >= readBody) return;
              chunks.push(chunk.subarray(0, readBody - kept));
              kept += chunk.length;
            });
          res.on('end', () => finish(verdict(), { keep: true }));
          res.on('error', () => finish(verdict()));
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (abort.signal.aborted) return finish('the server stopped during the attempt', { aborted: true });
        // A kept-alive connection the receiver had just closed: once more on a new one (as Node's
        // documentation advises); the receiver may or may not have seen it (at least once either way).
        if (status === null && mayRetry && req.reusedSocket && STALE_SOCKET.has(error.code ?? '')) {
          if (settle()) resolve(this.attempt(url, host, body, headers, started, false, options));
          return;
        }
        finish(status !== null ? verdict() : error.message || String(error));
      });
      const timer = setTimeout(
        () => finish(status !== null ? verdict() : `no answer within ${timeoutMs} ms`),
        Math.max(0, timeoutMs - elapsed()),
      );
      req.end(body);
    });
  }
}
