import 'reflect-metadata';
import { pino } from 'pino';
import { createApp } from './app';
import { loadConfig, metricsAccess } from './config';
import { createMemoryStorage } from './store/memory';
import { createRedisStorage } from './store/redis';

// The only file that reads the environment and listens on a port.
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
  const logger = pino({ level: config.LOG_LEVEL });
  const metrics = metricsAccess(config);
  const feed = { retentionMs: config.FEED_RETENTION_DAYS * 24 * 60 * 60 * 1000 };
  // One Redis, a Redis Cluster (never both: the configuration refuses it), or none: in memory.
  const redis = config.REDIS_CLUSTER_NODES ? { clusterNodes: config.REDIS_CLUSTER_NODES } : config.REDIS_URL;
  const storage = redis
    ? await createRedisStorage(redis, config.REDIS_KEY_PREFIX, {
        commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
        waitReplicas: config.REDIS_WAIT_REPLICAS,
        feed,
        onMigrated: (report) => {
          if (report.outcome === 'done') logger.info({ migration: report }, 'v1 data moved to the v2 layout');
        },
      })
    : createMemoryStorage(undefined, { feed });
  const app = await createApp({
    storage,
    logger,
    graphql: {
      maxDepth: config.GRAPHQL_MAX_DEPTH,
      maxCost: config.GRAPHQL_MAX_COMPLEXITY,
      maxAliases: config.GRAPHQL_MAX_ALIASES,
      maxTokens: config.GRAPHQL_MAX_TOKENS,
      maxResponseBytes: config.GRAPHQL_MAX_RESPONSE_BYTES,
      maxOperationMs: config.GRAPHQL_MAX_OPERATION_MS,
    },
    websocket: {
      maxMessageBytes: config.GRAPHQL_WS_MAX_MESSAGE_BYTES,
      maxConnectionsPerIp: config.GRAPHQL_WS_MAX_CONNECTIONS_PER_IP,
      maxConnectionsPerAccount: config.GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT,
      maxSubscriptionsPerIp: config.GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_IP,
      maxSubscriptionsPerAccount: config.GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT,
    },
    rateLimits: {
      perToken: config.RATE_LIMIT_PER_TOKEN,
      perIp: config.RATE_LIMIT_PER_IP,
      windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    },
    sweepIntervalMs: config.SWEEP_INTERVAL_SECONDS * 1000,
    bulks: { sweepMs: config.BULK_SWEEP_SECONDS * 1000, leaseMs: config.BULK_LEASE_SECONDS * 1000 },
    tournamentSweepMs: config.TOURNAMENT_SWEEP_SECONDS * 1000,
    abandonClaimMs: config.ABANDON_CLAIM_DAYS * 24 * 60 * 60 * 1000,
    engineCacheBytes: Math.round(config.ENGINE_CACHE_MB * 1024 * 1024),
    webhooks: {
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
      intervalMs: config.WEBHOOK_INTERVAL_SECONDS * 1000,
      concurrency: config.WEBHOOK_CONCURRENCY,
    },
    trustProxy: config.TRUST_PROXY,
    corsOrigins: config.CORS_ORIGINS,
    readyGraceMs: config.READY_GRACE_SECONDS * 1000,
    ...(metrics.token ? { metricsToken: metrics.token } : {}),
    metricsOpen: metrics.open,
    http: {
      headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
      maxConnections: config.HTTP_MAX_CONNECTIONS,
    },
    quotas: {
      ongoingGamesPerAccount: config.MAX_ONGOING_GAMES_PER_ACCOUNT,
      tokensPerAccount: config.MAX_TOKENS_PER_ACCOUNT,
      accountsPerIpPerDay: config.MAX_ACCOUNTS_PER_IP_PER_DAY,
      gamesPerIpPerDay: config.MAX_GAMES_PER_IP_PER_DAY,
    },
    ai: {
      pool: {
        ...(config.AI_WORKERS === undefined ? {} : { workers: config.AI_WORKERS }),
        queueMax: config.AI_QUEUE_MAX,
        perAccount: config.AI_MAX_PER_ACCOUNT,
      },
      analysis: { maxTimeMs: config.AI_ANALYSIS_MAX_MS, perMinute: config.AI_ANALYSIS_PER_MINUTE },
      driver: config.AI_DRIVER,
    },
  });
  const port = await app.listen(config.PORT, config.HOST);
  logger.info(
    { port, store: storage.name },
    `Boardhost listening on http://localhost:${port} (GraphQL /graphql, REST /api/v1, docs /docs)`,
  );

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down: draining connections');
    const force = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_SECONDS * 1000);
    force.unref();
    app.stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Boardhost failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
