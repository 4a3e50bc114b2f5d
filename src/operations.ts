import type { Express, RequestHandler } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { GameError } from './service/errors';
import type { Storage } from './store/store';
import { sendProblem } from './transport/rest/problem';

/** Prometheus metrics on a private registry (no global state shared between app instances). */
export function createMetrics(): {
  registry: Registry;
  middleware: RequestHandler;
  /** Errors of the store's background work (the outbox relay), by source. */
  storeErrors: Counter<'source'>;
  /** Apps' requests, games created and accounts created (this node's counts), by app. */
  apps: Record<'requests' | 'games' | 'accounts', Counter<'app'>>;
} {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      // The matched route pattern, not the URL, keeps label cardinality bounded.
      const route = (req.route as { path?: string } | undefined)?.path;
      end({
        method: req.method,
        route: route ? `${req.baseUrl}${route}` : 'unmatched',
        status: res.statusCode,
      });
    });
    next();
  };
  const storeErrors = new Counter({
    name: 'boardhost_store_background_errors_total',
    help: "Errors of the store's background work (Redis: the outbox relay, which retries), by source",
    labelNames: ['source'],
    registers: [registry],
  });
  const appCounter = (name: string, help: string) =>
    new Counter({ name, help, labelNames: ['app'], registers: [registry] });
  const apps = {
    requests: appCounter('boardhost_app_requests_total', "Requests of an app's keys and sessions, by app"),
    games: appCounter('boardhost_app_games_created_total', "Games started by an app's accounts, by app"),
    accounts: appCounter('boardhost_app_accounts_created_total', 'Accounts an app made, by app'),
  };
  return { registry, middleware, storeErrors, apps };
}

export interface OperationsOptions {
  /**
   * /readyz stays ready while the store has failed for less than this (a blip); a store that never
   * answered yet is not ready. 0: not ready at the first failure.
   */
  readonly readyGraceMs: number;
  /** Set: /metrics needs `Authorization: Bearer <this>`. */
  readonly metricsToken?: string;
  /** Without metricsToken: true (default) serves /metrics to anyone; false does not serve it (404). */
  readonly metricsOpen?: boolean;
}

/** How long /readyz waits for the store's answer. */
const PING_TIMEOUT_MS = 1000;

/**
 * /livez (alias /healthz): the process answers; for container health checks, which restart it.
 * /readyz: the store answers (within the grace window); for load balancers, which route around it.
 * /metrics: Prometheus metrics, behind a bearer token when one is set; without one, open or not
 * served at all (metricsOpen false: production, see config.ts metricsAccess).
 */
export function mountOperations(
  app: Express,
  storage: Storage,
  registry: Registry,
  options: OperationsOptions = { readyGraceMs: 0 },
): void {
  const live: RequestHandler = (_req, res) => {
    res.json({ status: 'ok' });
  };
  app.get('/livez', live);
  app.get('/healthz', live);
  let lastOk: number | undefined;
  let failingSince: number | undefined;
  app.get('/readyz', async (_req, res) => {
    let failure: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        storage.games.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS).unref();
        }),
      ]);
    } catch (error) {
      failure = (error as Error).message;
    } finally {
      clearTimeout(timer);
    }
    const now = Date.now();
    if (failure === undefined) {
      lastOk = now;
      failingSince = undefined;
      res.json({ status: 'ready', store: storage.name });
      return;
    }
    failingSince ??= now;
    const withinGrace = lastOk !== undefined && now - failingSince < options.readyGraceMs;
    if (withinGrace) {
      // Still routed to: a short blip must not take every node out of the load balancer at once.
      res.json({ status: 'degraded', store: storage.name, failingForMs: now - failingSince });
      return;
    }
    res.status(503).setHeader('Retry-After', '2').json({ status: 'unavailable', store: storage.name });
  });
  const expected = options.metricsToken ? Buffer.from(`Bearer ${options.metricsToken}`) : undefined;
  if (!expected && options.metricsOpen === false) return;
  app.get('/metrics', async (req, res) => {
    if (expected) {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        sendProblem(
          res,
          new GameError('UNAUTHENTICATED', '/metrics needs Authorization: Bearer <METRICS_TOKEN>'),
        );
        return;
      }
    }
    res.type(registry.contentType).send(await registry.metrics());
  });
}
