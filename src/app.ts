import 'reflect-metadata';
import express, { type Express } from 'express';
import { createServer, type Server } from 'node:http';
import proxyaddr from 'proxy-addr';
import type { Logger } from 'pino';
import { getAbsoluteFSPath } from 'swagger-ui-dist';
import {
  applyHttpLimits,
  corsMiddleware,
  DEFAULT_HTTP_LIMITS,
  requestLogger,
  securityHeaders,
  type HttpLimits,
} from './edge';
import { GameError } from './service/errors';
import { createServices, type Services } from './service';
import type { GameService } from './service/games';
import type { Quotas } from './service/quotas';
import type { WebhookOptions } from './service/webhooks';
import type { Storage } from './store/store';
import { createMetrics, mountOperations } from './operations';
import { sendGraphQLError } from './transport/graphql/errors';
import { createGraphQL } from './transport/graphql/server';
import { buildOpenApiDocument } from './transport/rest/openapi';
import { DEFAULT_RATE_LIMITS, RateGate, rateLimitMiddleware, type RateLimits } from './transport/rate-limit';
import { problemHandler, sendProblem } from './transport/rest/problem';
import { restRoutes } from './transport/rest/routes';

export interface AppOptions {
  readonly storage: Storage;
  readonly logger?: Logger;
  readonly graphql?: { readonly maxDepth: number; readonly maxCost: number };
  readonly now?: () => Date;
  /** Requests per window per token and per IP (default: DEFAULT_RATE_LIMITS). */
  readonly rateLimits?: RateLimits;
  /**
   * Milliseconds between sweeps that expire unanswered challenges and end games whose time ran out
   * (the clock sweeper also wakes at each deadline it knows of); 0 = no sweeping (tests call it).
   */
  readonly sweepIntervalMs?: number;
  /**
   * Webhook delivery: private targets, timeout, and the milliseconds between this node's looks for
   * due endpoints (default 1000; 0 = this node delivers only when `deliverWebhooks` is called).
   */
  readonly webhooks?: WebhookOptions & { readonly intervalMs?: number };
  /**
   * Express `trust proxy` (TRUST_PROXY): which X-Forwarded-For hops decide the client address that
   * rate limits and quotas count. Default false: the socket's peer.
   */
  readonly trustProxy?: boolean | number | string;
  /** Origins a browser may call from (CORS_ORIGINS; `*` any). Default: none. */
  readonly corsOrigins?: readonly string[];
  /** Server timeouts and connection cap (default DEFAULT_HTTP_LIMITS). */
  readonly http?: HttpLimits;
  /** /readyz stays ready through store failures shorter than this (default 5000; see operations.ts). */
  readonly readyGraceMs?: number;
  /** Set: /metrics needs this bearer token. */
  readonly metricsToken?: string;
  /** Per-account and per-address quotas (default DEFAULT_QUOTAS). */
  readonly quotas?: Quotas;
}

export interface App {
  readonly express: Express;
  readonly server: Server;
  readonly service: GameService;
  readonly services: Services;
  /** Listen on `port` (0 = any free port); resolves with the port. */
  listen(port: number, host?: string): Promise<number>;
  /** Delivers every webhook event due now (what the interval does); resolves with the attempts made. */
  deliverWebhooks(): Promise<number>;
  /** Drain HTTP and WebSocket connections, then close the store. */
  stop(): Promise<void>;
}

/** The composition root: one service over the given storage, with GraphQL, REST and operations. */
export async function createApp(options: AppOptions): Promise<App> {
  const { storage, logger } = options;
  const services = createServices(storage, options.now, {
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    ...(options.quotas ? { quotas: options.quotas } : {}),
    onBackgroundError: (error) => logger?.warn({ err: error }, 'background write failed'),
  });
  const service = services.games;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? false);
  const limits = options.http ?? DEFAULT_HTTP_LIMITS;
  // Timeouts are enforced by a periodic check (Node's default: every 30 s): check often enough.
  const server = createServer({ connectionsCheckingInterval: Math.min(5000, limits.headersTimeoutMs) }, app);
  applyHttpLimits(server, limits);
  const metrics = createMetrics();

  // Request logging costs ~5% of a move even when every line is dropped: skip it when silent.
  if (logger && logger.level !== 'silent') app.use(requestLogger(logger));
  const corsOrigins = options.corsOrigins ?? [];
  app.use(securityHeaders(corsOrigins.length > 0));
  const allowCors = corsMiddleware(corsOrigins);
  if (allowCors) app.use(allowCors);
  app.use(metrics.middleware);
  app.use(express.json({ limit: '64kb' }));
  mountOperations(app, storage, metrics.registry, {
    readyGraceMs: options.readyGraceMs ?? 5000,
    ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
  });

  const streams = new Set<() => void>();
  const routes = restRoutes(services, streams);
  const openapi = buildOpenApiDocument(routes);
  const api = express.Router();
  for (const route of routes) {
    const path = route.spec.path.replace(/\{(\w+)\}/g, ':$1');
    api[route.spec.method as 'get' | 'post' | 'put' | 'delete'](path, (req, res) => route.handle(req, res));
  }
  api.use((req, res) =>
    sendProblem(res, new GameError('NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}`)),
  );
  const gate = new RateGate(storage, options.rateLimits ?? DEFAULT_RATE_LIMITS);
  app.use('/api/v1', rateLimitMiddleware(gate, sendProblem), api);
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.get('/docs/swagger-initializer.js', (_req, res) => {
    res
      .type('application/javascript')
      .send(
        'window.onload = () => { window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", ' +
          'presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: "StandaloneLayout" }); };',
      );
  });
  app.use('/docs', express.static(getAbsoluteFSPath(), { index: 'index.html' }));

  const graphql = await createGraphQL({
    httpServer: server,
    services,
    gate,
    // WebSocket upgrades bypass express: resolve their client address with the same trust.
    clientIp: (request) =>
      proxyaddr(request, app.get('trust proxy fn') as (addr: string, i: number) => boolean),
    limits: options.graphql ?? { maxDepth: 10, maxCost: 1000 },
  });
  app.use('/graphql', rateLimitMiddleware(gate, sendGraphQLError), graphql.middleware);
  app.get('/', (_req, res) => {
    res.json({
      name: 'boardhost',
      graphql: '/graphql',
      rest: '/api/v1',
      docs: '/docs',
      openapi: '/openapi.json',
    });
  });
  app.use((req, res) => sendProblem(res, new GameError('NOT_FOUND', `No route ${req.method} ${req.path}`)));
  app.use(problemHandler((error) => logger?.error({ err: error }, 'unhandled error')));

  // Every node sweeps; the store's compare-and-set makes each expiry happen once.
  const sweepMs = options.sweepIntervalMs ?? 5000;
  const sweeper =
    sweepMs > 0
      ? setInterval(() => {
          services.challenges
            .expireDue()
            .catch((error: unknown) => logger?.warn({ err: error }, 'sweep failed'));
        }, sweepMs).unref()
      : undefined;
  const stopClocks =
    sweepMs > 0
      ? services.clocks.run(sweepMs, (error: unknown) => logger?.warn({ err: error }, 'clock sweep failed'))
      : undefined;

  // Every node delivers; leases in the store keep each endpoint to one node at a time.
  const webhookMs = options.webhooks?.intervalMs ?? 1000;
  const webhookWorker = services.webhooks.worker;
  const deliverer =
    webhookMs > 0
      ? setInterval(() => {
          webhookWorker
            .deliverDue()
            .catch((error: unknown) => logger?.warn({ err: error }, 'webhook delivery failed'));
        }, webhookMs).unref()
      : undefined;

  let stopped: Promise<void> | undefined;
  return {
    express: app,
    server,
    service,
    services,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      }),
    deliverWebhooks: () => webhookWorker.deliverDue(),
    stop: () =>
      (stopped ??= (async () => {
        clearInterval(sweeper);
        clearInterval(deliverer);
        await webhookWorker.stop();
        stopClocks?.();
        for (const end of [...streams]) end();
        await graphql.stop();
        if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
        await storage.events.close();
        await storage.games.close();
      })()),
  };
}
