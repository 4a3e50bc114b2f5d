// The HTTP surface of a node: express with REST, GraphQL (HTTP and WebSocket), MCP, operations,
// docs and the web playground, over the services. Assembled apart from the background workers.
import express, { type Express } from 'express';
import { createServer, type Server } from 'node:http';
import { dirname } from 'node:path';
import proxyaddr from 'proxy-addr';
import type { AppOptions } from './app';
import { applyHttpLimits, corsMiddleware, DEFAULT_HTTP_LIMITS, requestLogger, securityHeaders } from './edge';
import { GameError } from './service/errors';
import type { Services } from './service';
import { type createMetrics, mountOperations } from './operations';
import { sendGraphQLError } from './transport/graphql/errors';
import { graphiqlRouter } from './transport/graphql/ide';
import { DEFAULT_GRAPHQL_LIMITS } from './transport/graphql/limits';
import { mcpRouter } from './transport/mcp/server';
import { createGraphQL } from './transport/graphql/server';
import { DEFAULT_WEBSOCKET_LIMITS } from './transport/graphql/websocket';
import { buildOpenApiDocument } from './transport/rest/openapi';
import { DEFAULT_RATE_LIMITS, RateGate, rateLimitMiddleware } from './transport/rate-limit';
import { OPERATOR_KEY_LOCAL } from './transport/rest/admin';
import { problemHandler, sendProblem } from './transport/rest/problem';
import { MAX_BODY_BYTES, restRouter, restRoutes } from './transport/rest/routes';
import { mountRules } from './transport/rest/rules';
import { playgroundRouter } from './transport/web';

export interface Surface {
  readonly express: Express;
  readonly server: Server;
  /** Ends every open HTTP stream and closes GraphQL (its WebSocket server with it). */
  close(): Promise<void>;
}

export async function createSurface(
  services: Services,
  metrics: ReturnType<typeof createMetrics>,
  options: AppOptions,
): Promise<Surface> {
  const { storage, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  // ETags only where documented: a game's is its version (If-Match / If-None-Match).
  app.set('etag', false);
  app.set('trust proxy', options.trustProxy ?? false);
  // The operator API's key (transport/rest/admin.ts requireOperator reads it here).
  if (options.operatorKey) app.locals[OPERATOR_KEY_LOCAL] = options.operatorKey;
  const limits = options.http ?? DEFAULT_HTTP_LIMITS;
  // Timeouts are enforced by a periodic check (Node's default: every 30 s): check often enough.
  const server = createServer({ connectionsCheckingInterval: Math.min(5000, limits.headersTimeoutMs) }, app);
  applyHttpLimits(server, limits);

  // Request logging costs ~5% of a move even when every line is dropped: skip it when silent.
  if (logger && logger.level !== 'silent') app.use(requestLogger(logger));
  const corsOrigins = options.corsOrigins ?? [];
  app.use(securityHeaders(corsOrigins.length > 0));
  const allowCors = corsMiddleware(corsOrigins, services.appOrigins);
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
  const gate = new RateGate(storage, options.rateLimits ?? DEFAULT_RATE_LIMITS, services.appUsage);
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

  return {
    express: app,
    server,
    close: async () => {
      for (const end of [...streams]) end();
      await graphql.stop();
    },
  };
}
