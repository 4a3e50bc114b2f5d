import cors from 'cors';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

// The HTTP edge: what every request meets before the routes (security headers, CORS, request logs
// without secrets) and the server's connection limits. Configured from main.ts (see config.ts).

export interface HttpLimits {
  /** Time to receive a request's headers (slowloris). */
  readonly headersTimeoutMs: number;
  /** Time to receive a whole request (headers and body); responses such as streams are not limited. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this; keep it above the load balancer's idle timeout. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections at most (0: no limit); more are refused at once. */
  readonly maxConnections: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 65_000,
  maxConnections: 10_000,
};

export function applyHttpLimits(server: Server, limits: HttpLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
}

/** Response headers exposed to cross-origin scripts (what clients of the API read). */
const EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Preference-Applied',
];

/** What CORS per app asks of the apps (service/apps/origins.ts: a per-node cache of their corsOrigins). */
export interface AppCors {
  /** Some app lists the origin (preflights, which carry no credential, and requests without a bearer). */
  anyApp(origin: string): Promise<boolean>;
  /** The app of this bearer (a session token or an app key) lists the origin. */
  ofBearer(origin: string, token: string): Promise<boolean>;
}

const CORS_OPTIONS = {
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
  allowedHeaders: [
    'Authorization',
    'Content-Type',
    'Accept',
    'If-Match',
    'Idempotency-Key',
    'Prefer',
    'Last-Event-ID',
    // Apollo's CSRF prevention asks browsers for one of these on simple GraphQL requests.
    'Apollo-Require-Preflight',
    'X-Apollo-Operation-Name',
  ],
  exposedHeaders: EXPOSED_HEADERS,
  maxAge: 600,
};

/**
 * CORS for the listed origins (exact `scheme://host[:port]`, or `*` for any): preflights answered
 * (204), and the allowed origin echoed on every response, streams included. With `apps`, an origin
 * an app lists (settings.corsOrigins) is allowed too: for a request whose bearer is that app's
 * session token or key, for a request without a bearer (public operations, such as refreshing a
 * session), and for preflights. A request without an Origin header costs nothing more. No list and
 * no apps: no CORS headers, so browsers keep other origins out. Credentials are bearer tokens,
 * never cookies.
 */
export function corsMiddleware(origins: readonly string[], apps?: AppCors): RequestHandler | undefined {
  const configured =
    origins.length === 0
      ? undefined
      : cors({ ...CORS_OPTIONS, origin: origins.includes('*') ? '*' : [...origins] });
  if (!apps) return configured;
  const listed = (origin: string) => origins.includes('*') || origins.includes(origin);
  // The request's origin echoed: it was checked against the apps first.
  const forApp = cors({ ...CORS_OPTIONS, origin: true });
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined || listed(origin)) return configured ? configured(req, res, next) : next();
    res.vary('Origin');
    allowedByApp(apps, req.method, req.headers, origin).then(
      (allowed) => (allowed ? forApp : (configured ?? skip))(req, res, next),
      // The apps could not be read (store down): no CORS for this one; the request itself goes on.
      () => next(),
    );
  };
}

const skip: RequestHandler = (_req, _res, next) => next();

async function allowedByApp(
  apps: AppCors,
  method: string,
  headers: Record<string, string | string[] | undefined>,
  origin: string,
): Promise<boolean> {
  const preflight = method === 'OPTIONS' && headers['access-control-request-method'] !== undefined;
  const auth = headers.authorization;
  const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] : undefined;
  if (preflight || bearer === undefined) return apps.anyApp(origin);
  return apps.ofBearer(origin, bearer);
}

/**
 * Security headers (helmet): nosniff, frame-ancestors 'none', a CSP that lets pages load scripts and
 * styles from this origin only (Swagger UI at /docs is all same-origin files), no referrer. With
 * CORS origins set, resources may be read cross-origin (Cross-Origin-Resource-Policy).
 */
export function securityHeaders(crossOrigin: boolean): RequestHandler {
  return precomputed(helmetFor(crossOrigin));
}

/**
 * The headers a middleware that sets the same headers on every request sets, worked out once: it
 * runs against a response that records them, and each request then gets them from a list (helmet
 * builds its CSP and checks its options on every request otherwise).
 */
function precomputed(middleware: RequestHandler): RequestHandler {
  const set: Array<[string, string]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.push([name, String(value)]);
      return recorder;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let called = false;
  middleware(
    {} as Parameters<RequestHandler>[0],
    recorder as unknown as Parameters<RequestHandler>[1],
    () => {
      called = true;
    },
  );
  if (!called) throw new Error('the header middleware did not pass the request on');
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    next();
  };
}

function helmetFor(crossOrigin: boolean): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        // Swagger UI sets inline style attributes.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'frame-ancestors': ["'none'"],
        'object-src': ["'none'"],
        // Would send http://localhost pages' own files to https.
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginResourcePolicy: { policy: crossOrigin ? 'cross-origin' : 'same-origin' },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
}

/**
 * Query parameters whose values are secrets (tokens), or may hold one: GraphQL GET's `variables` and
 * `extensions` (a seatToken argument, say); logged as [REDACTED].
 */
const SECRET_PARAMS =
  /^(token|access_token|accesstoken|seattoken|seat_token|apitoken|api_key|apikey|key|secret|authorization|auth|variables|extensions)$/i;
const REDACTED = '[REDACTED]';

/** The URL with the values of secret-looking query parameters replaced (what request logs hold). */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed name is logged as sent
      }
      return eq >= 0 && SECRET_PARAMS.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/** Paths polled by probes and scrapers: not logged per request. */
const QUIET = new Set(['/healthz', '/livez', '/readyz', '/metrics']);

/** What a request's log line holds of it (no headers: they hold credentials, and cost the most). */
interface LoggedRequest {
  readonly id?: unknown;
  readonly method?: string;
  readonly url?: string;
  readonly headers?: Record<string, unknown>;
  readonly remoteAddress?: string;
}

/**
 * pino-http request logs, one compact line per request: id, method, URL (secret query values
 * redacted), client address and user agent; the answer's status and the time taken. No header but
 * the user agent is logged, so no Authorization or Cookie value can reach a log, and a line costs
 * about a third of pino-http's default (which serializes every request and response header).
 */
export function requestLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    autoLogging: { ignore: (req) => QUIET.has((req.url ?? '').split('?')[0] ?? '') },
    serializers: {
      req: (req: LoggedRequest) => ({
        id: req.id,
        method: req.method,
        url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
        remoteAddress: req.remoteAddress,
        userAgent: req.headers?.['user-agent'],
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
