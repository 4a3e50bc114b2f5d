import 'reflect-metadata';
import { pino } from 'pino';
import { createApp } from './app';
import { loadConfig, metricsAccess } from './config';
import { setServerKey } from './service/server-key';
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
  setServerKey(config.SECRET_KEY);
  if (!config.SECRET_KEY) {
    logger.warn(
      'SECRET_KEY is not set: stored webhook secrets are encrypted with a development key anyone can know',
    );
  }
  const metrics = metricsAccess(config);
  const feed = {
    retentionMs: config.FEED_RETENTION_DAYS * 24 * 60 * 60 * 1000,
    maxEvents: config.FEED_MAX_EVENTS,
  };
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
      ...(config.WEBHOOK_ALLOWED_PORTS ? { ports: config.WEBHOOK_ALLOWED_PORTS } : {}),
      timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
      intervalMs: config.WEBHOOK_INTERVAL_SECONDS * 1000,
      concurrency: config.WEBHOOK_CONCURRENCY,
      perAccount: config.WEBHOOK_MAX_CONCURRENT_PER_ACCOUNT,
      demoteAfter: config.WEBHOOK_DEMOTE_AFTER,
    },
    trustProxy: config.TRUST_PROXY,
    corsOrigins: config.CORS_ORIGINS,
    readyGraceMs: config.READY_GRACE_SECONDS * 1000,
    ...(metrics.token ? { metricsToken: metrics.token } : {}),
    metricsOpen: metrics.open,
    ...(config.OPERATOR_KEY ? { operatorKey: config.OPERATOR_KEY } : {}),
    openSignup: config.OPEN_SIGNUP,
    chat: config.CHAT,
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
      aiGamesPerIpPerDay: config.MAX_AI_GAMES_PER_IP_PER_DAY,
      ongoingAiGamesPerIp: config.MAX_ANON_AI_GAMES_PER_IP,
      challengesPerAccount: config.MAX_OPEN_CHALLENGES_PER_ACCOUNT,
      challengesPerPair: config.MAX_OPEN_CHALLENGES_PER_PAIR,
      blocksPerAccount: config.MAX_BLOCKS_PER_ACCOUNT,
    },
    tournaments: {
      openPerAccount: config.MAX_OPEN_TOURNAMENTS_PER_ACCOUNT,
      openExpiryMs: config.TOURNAMENT_OPEN_HOURS * 60 * 60 * 1000,
    },
    streams: {
      perIp: config.MAX_STREAMS_PER_IP,
      perToken: config.MAX_STREAMS_PER_TOKEN,
      maxBufferBytes: config.STREAM_MAX_BUFFER_BYTES,
    },
    ai: {
      pool: {
        ...(config.AI_WORKERS === undefined ? {} : { workers: config.AI_WORKERS }),
        queueMax: config.AI_QUEUE_MAX,
        perAccount: config.AI_MAX_PER_ACCOUNT,
        turnsPerOwner: config.AI_MAX_TURNS_PER_OWNER,
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
