import 'reflect-metadata';
import express, { type Express } from 'express';
import { createServer, type Server } from 'node:http';
import { dirname } from 'node:path';
import proxyaddr from 'proxy-addr';
import type { Logger } from 'pino';
import {
  applyHttpLimits,
  corsMiddleware,
  DEFAULT_HTTP_LIMITS,
  requestLogger,
  securityHeaders,
  type HttpLimits,
} from './edge';
import type { AiPoolOptions } from './ai/pool';
import type { AnalysisLimits } from './service/analysis';
import { GameError } from './service/errors';
import { createServices, type Services } from './service';
import type { GameService } from './service/games';
import type { PushOptions } from './service/push-bots';
import type { Quotas } from './service/quotas';
import type { StreamLimits } from './service/stream-slots';
import type { DirectorOptions } from './service/tournaments/director';
import { onTargetRefused } from './service/webhook-address';
import type { WebhookOptions } from './service/webhook-worker';
import type { Storage } from './store/store';
import { createMetrics, mountOperations } from './operations';
import { sendGraphQLError } from './transport/graphql/errors';
import { graphiqlRouter } from './transport/graphql/ide';
import { DEFAULT_GRAPHQL_LIMITS, type GraphQLLimits } from './transport/graphql/limits';
import { mcpRouter } from './transport/mcp/server';
import { createGraphQL } from './transport/graphql/server';
import { DEFAULT_WEBSOCKET_LIMITS, type WebSocketLimits } from './transport/graphql/websocket';
import { buildOpenApiDocument } from './transport/rest/openapi';
import { DEFAULT_RATE_LIMITS, RateGate, rateLimitMiddleware, type RateLimits } from './transport/rate-limit';
import { problemHandler, sendProblem } from './transport/rest/problem';
import { MAX_BODY_BYTES, restRouter, restRoutes } from './transport/rest/routes';
import { mountRules } from './transport/rest/rules';
import { playgroundRouter } from './transport/web';

export interface AppOptions {
  readonly storage: Storage;
  readonly logger?: Logger;
  /** GraphQL limits (default DEFAULT_GRAPHQL_LIMITS), over HTTP and WebSocket. */
  readonly graphql?: Partial<GraphQLLimits>;
  /** graphql-ws message size and connection/subscription caps (default DEFAULT_WEBSOCKET_LIMITS). */
  readonly websocket?: Partial<WebSocketLimits>;
  readonly now?: () => Date;
  /** Requests per window per token and per IP (default: DEFAULT_RATE_LIMITS). */
  readonly rateLimits?: RateLimits;
  /**
   * Milliseconds between sweeps that expire unanswered challenges and end games whose time ran out
   * (the clock sweeper also wakes at each deadline it knows of); 0 = no sweeping (tests call it).
   */
  readonly sweepIntervalMs?: number;
  /** Milliseconds between the tournament director's sweeps (default 2000, 0 when sweepIntervalMs is 0; 0 = none). */
  readonly tournamentSweepMs?: number;
  /**
   * Webhook delivery: private targets, timeout, and the milliseconds between this node's looks for
   * due endpoints (default 1000; 0 = this node delivers only when `deliverWebhooks` is called).
   */
  readonly webhooks?: WebhookOptions & { readonly intervalMs?: number };
  /** Where the rules pages served at /rules/<kind>.md are read from (default: the repository's docs/rules). */
  readonly rulesDir?: string;
  /**
   * Unlimited games: milliseconds the player to move may stay away before the other may claim the
   * win or a draw (default 3 days; tests pass less).
   */
  readonly abandonClaimMs?: number;
  /** The engine-state cache budget in bytes (ENGINE_CACHE_MB; default 64 MiB). */
  readonly engineCacheBytes?: number;
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
  /** Without metricsToken: true (default) serves /metrics to anyone, false does not serve it (404). */
  readonly metricsOpen?: boolean;
  /** Per-account and per-address quotas (default DEFAULT_QUOTAS). */
  readonly quotas?: Quotas;
  /** Open streams per address and per account/token, and the stalled-reader bound (default DEFAULT_STREAM_LIMITS). */
  readonly streams?: StreamLimits;
  /** The tournament director: open tournaments per account, expiry of those never started. */
  readonly tournaments?: DirectorOptions;
  /** The built-in AI: threads, queue, per-caller cap, analysis limits, and its turn driver. */
  readonly ai?: AiOptions;
  /** The built browser playground (default dist/web; see scripts/build-web.mjs). */
  readonly webDir?: string;
  /** Push-mode bots' requests: timeout, attempts, delay (private targets as `webhooks`). */
  readonly push?: PushOptions;
  /** Bulk pairings: ms between this node's sweeps (default 1000; 0 none) and a step's lease (default 30 s). */
  readonly bulks?: { readonly sweepMs?: number; readonly leaseMs?: number };
}

export interface AiOptions {
  readonly pool?: AiPoolOptions;
  readonly analysis?: AnalysisLimits;
  /**
   * False: this node does not play the AI's turns (another node's driver does). Default true.
   */
  readonly driver?: boolean;
  /** Milliseconds between the driver's sweeps (default: sweepIntervalMs; 0 none). */
  readonly sweepMs?: number;
  /** How long a node's claim on an AI turn keeps other nodes off it (default 30 s). */
  readonly leaseMs?: number;
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
  // What a refused webhook target resolved to goes to the log only (one logger per process).
  if (logger) onTargetRefused((refusal) => logger.warn({ refusal }, 'webhook target refused'));
  const services = createServices(storage, options.now, {
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    ...(options.abandonClaimMs !== undefined ? { abandonClaimMs: options.abandonClaimMs } : {}),
    ...(options.engineCacheBytes !== undefined ? { engineCacheBytes: options.engineCacheBytes } : {}),
    ...(options.quotas ? { quotas: options.quotas } : {}),
    ...(options.streams ? { streams: options.streams } : {}),
    ...(options.tournaments ? { tournaments: options.tournaments } : {}),
    onBackgroundError: (error) => logger?.warn({ err: error }, 'background write failed'),
    ...(options.ai?.pool ? { aiPool: options.ai.pool } : {}),
    ...(options.ai?.analysis ? { analysis: options.ai.analysis } : {}),
    ...(options.push ? { push: options.push } : {}),
    ...(options.bulks ? { bulks: options.bulks } : {}),
    turns: {
      sweepMs: options.ai?.sweepMs ?? options.sweepIntervalMs ?? 5000,
      ...(options.ai?.leaseMs !== undefined ? { leaseMs: options.ai.leaseMs } : {}),
    },
  });
  const service = services.games;
  // Before any stream opens: every stream of a token ends when it is revoked on any node.
  await services.tokenStreams.start();
  // Every node sweeps bulk pairings: scheduled ones, and the steps of a node that died.
  if (options.bulks?.sweepMs !== 0) services.bulks.start();
  // The AI accounts exist on every store; this node plays their turns unless told not to.
  const driver = options.ai?.driver === false ? undefined : services.turns;
  const stopAi = await services.ai.start(driver, (error) =>
    logger?.warn({ err: error }, 'AI start-up failed; retrying'),
  );
  // Push-mode bots: every account with a move endpoint, and those registered on other nodes since.
  if (driver) await services.push.drive();
  const pushMs = driver ? (options.ai?.sweepMs ?? options.sweepIntervalMs ?? 5000) : 0;
  const pushRefresh =
    pushMs > 0
      ? setInterval(() => {
          services.push
            .refresh()
            .catch((error: unknown) => logger?.warn({ err: error }, 'push refresh failed'));
        }, pushMs).unref()
      : undefined;
  const app = express();
  app.disable('x-powered-by');
  // ETags only where documented: a game's is its version (If-Match / If-None-Match).
  app.set('etag', false);
  app.set('trust proxy', options.trustProxy ?? false);
  const limits = options.http ?? DEFAULT_HTTP_LIMITS;
  // Timeouts are enforced by a periodic check (Node's default: every 30 s): check often enough.
  const server = createServer({ connectionsCheckingInterval: Math.min(5000, limits.headersTimeoutMs) }, app);
  applyHttpLimits(server, limits);
  const metrics = createMetrics();
  // The store's background errors (the Redis outbox relay): logged and counted, never swallowed.
  const stopStoreErrors = storage.onBackgroundError?.((error, source) => {
    metrics.storeErrors.inc({ source });
    logger?.error({ err: error, source }, 'store background work failed; it retries');
  });

  // Request logging costs ~5% of a move even when every line is dropped: skip it when silent.
  if (logger && logger.level !== 'silent') app.use(requestLogger(logger));
  const corsOrigins = options.corsOrigins ?? [];
  app.use(securityHeaders(corsOrigins.length > 0));
  const allowCors = corsMiddleware(corsOrigins);
  if (allowCors) app.use(allowCors);
  app.use(metrics.middleware);
  mountOperations(app, storage, metrics.registry, {
    readyGraceMs: options.readyGraceMs ?? 5000,
    ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
    metricsOpen: options.metricsOpen ?? true,
  });

  const streams = new Set<() => void>();
  const routes = restRoutes(services, streams);
  const openapi = buildOpenApiDocument(routes);
  const api = restRouter(routes);
  const gate = new RateGate(storage, options.rateLimits ?? DEFAULT_RATE_LIMITS);
  // Bodies are read after the rate limit: a refused request costs no parsing, and a refused body
  // (413, 415, unparsable) still carries the RateLimit headers.
  const json = express.json({ limit: MAX_BODY_BYTES });
  app.use('/api/v1', rateLimitMiddleware(gate, sendProblem), json, api);
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
  // Swagger UI's files, found without loading its package's index (which requires its 1.5 MB
  // bundle: ~135 ms and ~40 MB of a node's memory for files only browsers run).
  const swaggerUi = dirname(require.resolve('swagger-ui-dist/package.json'));
  app.use('/docs', express.static(swaggerUi, { index: 'index.html' }));
  mountRules(app, options.rulesDir);
  // Agents: the Model Context Protocol (Streamable HTTP), counted like REST, with an API token.
  app.use(
    '/mcp',
    rateLimitMiddleware(gate, sendProblem),
    json,
    mcpRouter(services, options.rulesDir ? { rulesDir: options.rulesDir } : {}),
  );

  const graphql = await createGraphQL({
    httpServer: server,
    services,
    gate,
    // WebSocket upgrades bypass express: resolve their client address with the same trust.
    wsClientIp: (request) =>
      proxyaddr(request, app.get('trust proxy fn') as (addr: string, i: number) => boolean),
    limits: { ...DEFAULT_GRAPHQL_LIMITS, ...options.graphql },
    websocket: { ...DEFAULT_WEBSOCKET_LIMITS, ...options.websocket },
    ...(logger ? { logger } : {}),
  });
  // Browsers get GraphiQL on GET /graphql (and its files), served from this server, not rate limited.
  app.use(graphiqlRouter());
  // The body is read first here: each operation of a batch counts (Apollo refuses batches, but they
  // are counted first).
  const operations = (req: express.Request) => (Array.isArray(req.body) ? Math.max(1, req.body.length) : 1);
  app.use('/graphql', json, rateLimitMiddleware(gate, sendGraphQLError, operations), graphql.middleware);
  // Browsers navigating to / or a playground page get the page; API clients the JSON index below.
  app.use(playgroundRouter(options.webDir));
  app.get('/', (_req, res) => {
    res.setHeader('Vary', 'Accept');
    res.json({
      name: 'boardhost',
      graphql: '/graphql',
      rest: '/api/v1',
      docs: '/docs',
      openapi: '/openapi.json',
      rules: '/rules',
      mcp: '/mcp',
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

  // Every node directs tournaments; a lease per tournament and compare-and-set make each step once.
  const tournamentMs = options.tournamentSweepMs ?? (sweepMs > 0 ? 2000 : 0);
  const stopDirector =
    tournamentMs > 0
      ? services.tournaments.director.run(tournamentMs, (error: unknown) =>
          logger?.warn({ err: error }, 'tournament sweep failed'),
        )
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
        stopDirector?.();
        for (const end of [...streams]) end();
        await graphql.stop();
        await services.tokenStreams.stop();
        stopAi();
        clearInterval(pushRefresh);
        services.push.stop();
        // Closing the pool ends the searches the driver waits for.
        await services.bulks.stop();
        const turns = services.turns.stop();
        await services.aiPool.close();
        await turns;
        if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
        await storage.events.close();
        await storage.games.close();
        stopStoreErrors?.();
      })()),
  };
}
