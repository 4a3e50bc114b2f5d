import 'reflect-metadata';
import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { HttpLimits } from './edge';
import type { AiPoolOptions } from './ai/pool';
import type { AnalysisLimits } from './service/bots/analysis';
import { createServices, type Services } from './service';
import type { GameService } from './service/game/service';
import type { PushOptions } from './service/bots/push-bots';
import type { Quotas } from './service/accounts/quotas';
import type { StreamLimits } from './service/delivery/stream-slots';
import type { DirectorOptions } from './service/tournaments/director';
import { onTargetRefused } from './service/delivery/webhook-address';
import type { WebhookOptions } from './service/delivery/webhook-worker';
import { runWorkers } from './service/workers';
import type { Storage } from './store/store';
import { createMetrics } from './operations';
import type { GraphQLLimits } from './transport/graphql/limits';
import type { WebSocketLimits } from './transport/graphql/websocket';
import type { RateLimits } from './transport/rate-limit';
import { createSurface } from './surface';
import { backgroundWorkers } from './workers';

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
  /** Set: the operator API (/api/v1/admin) answers bearers of this key; unset: it is off (403 OPERATOR_ONLY). */
  readonly operatorKey?: string;
  /** false: open sign-up is closed (403 SIGNUP_CLOSED); accounts are made by apps. Default true. */
  readonly openSignup?: boolean;
  /** false: chat is off on this server (CHAT=off); default true. */
  readonly chat?: boolean;
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
    ...(options.openSignup === undefined ? {} : { openSignup: options.openSignup }),
    ...(options.chat === undefined ? {} : { chat: options.chat }),
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
  // The store's background errors (the Redis outbox relay): logged and counted, never swallowed.
  const metrics = createMetrics();
  const stopStoreErrors = storage.onBackgroundError?.((error, source) => {
    metrics.storeErrors.inc({ source });
    logger?.error({ err: error, source }, 'store background work failed; it retries');
  });
  const stopAppMetrics = services.appUsage.onUsage((app, what, count) =>
    metrics.apps[what].inc({ app }, count),
  );
  const stopWorkers = await runWorkers(backgroundWorkers(services, options), (error, worker) =>
    logger?.error({ err: error, worker }, 'a background worker failed to stop'),
  );
  const surface = await createSurface(services, metrics, options).catch(async (error: unknown) => {
    await stopWorkers();
    throw error;
  });
  const { server } = surface;

  let stopped: Promise<void> | undefined;
  return {
    express: surface.express,
    server,
    service: services.games,
    services,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      }),
    deliverWebhooks: () => services.webhooks.worker.deliverDue(),
    // Streams and subscriptions end first; the workers stop in reverse order of their start (the
    // token revocations last), then the server stops listening and the store closes.
    stop: () =>
      (stopped ??= (async () => {
        await surface.close();
        await stopWorkers();
        if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
        await storage.events.close();
        await storage.games.close();
        stopStoreErrors?.();
        stopAppMetrics();
      })()),
  };
}
