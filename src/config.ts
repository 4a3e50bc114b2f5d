import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_STREAM_LIMITS } from './service/delivery/stream-slots';
import { parsePorts } from './service/delivery/webhook-address';
import { parseClusterNode } from './store/redis/cluster-nodes';
import { DEFAULT_GRAPHQL_LIMITS } from './transport/graphql/limits';
import { DEFAULT_WEBSOCKET_LIMITS } from './transport/graphql/websocket';

// Configuration comes from the environment only through here, validated once at start.
const ConfigSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(4000),
    HOST: z.string().min(1).default('0.0.0.0'),
    /** Unset: the embedded in-memory store. */
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\/\S+$/, 'must look like redis://host:6379 or rediss://…')
      .optional(),
    /** A Redis Cluster instead (seed nodes `host:port,host:port`; the others are discovered). */
    REDIS_CLUSTER_NODES: z
      .string()
      .transform((v, ctx) => {
        const nodes = v
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n !== '');
        for (const node of nodes) {
          try {
            parseClusterNode(node);
          } catch {
            ctx.addIssue({ code: 'custom', message: `"${node}" is not host:port` });
          }
        }
        if (nodes.length === 0) ctx.addIssue({ code: 'custom', message: 'must list host:port nodes' });
        return nodes;
      })
      .optional(),
    /** After a write, wait until this many replicas have it (WAIT); 0: do not wait. */
    REDIS_WAIT_REPLICAS: z.coerce.number().int().min(0).default(0),
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_-]*$/, 'letters, digits, : _ - only')
      .default('boardhost:'),
    /** Milliseconds a Redis command may take before the request answers 503 STORE_UNAVAILABLE. */
    REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).max(60000).default(2000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** GraphQL limits on every operation, over HTTP and WebSocket (see transport/graphql/limits.ts). */
    GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).max(50).default(DEFAULT_GRAPHQL_LIMITS.maxDepth),
    GRAPHQL_MAX_COMPLEXITY: z.coerce
      .number()
      .int()
      .min(10)
      .max(10_000_000)
      .default(DEFAULT_GRAPHQL_LIMITS.maxCost),
    GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(1).max(1000).default(DEFAULT_GRAPHQL_LIMITS.maxAliases),
    GRAPHQL_MAX_TOKENS: z.coerce
      .number()
      .int()
      .min(100)
      .max(100_000)
      .default(DEFAULT_GRAPHQL_LIMITS.maxTokens),
    /** A query's budgets: the largest answer (bytes of JSON) and the longest run (ms). */
    GRAPHQL_MAX_RESPONSE_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024 * 1024)
      .default(DEFAULT_GRAPHQL_LIMITS.maxResponseBytes),
    GRAPHQL_MAX_OPERATION_MS: z.coerce
      .number()
      .int()
      .min(10)
      .max(600_000)
      .default(DEFAULT_GRAPHQL_LIMITS.maxOperationMs),
    /** graphql-ws: largest message, and open connections / subscriptions per IP and per account (per node). */
    GRAPHQL_WS_MAX_MESSAGE_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(16 * 1024 * 1024)
      .default(DEFAULT_WEBSOCKET_LIMITS.maxMessageBytes),
    GRAPHQL_WS_MAX_CONNECTIONS_PER_IP: z.coerce
      .number()
      .int()
      .min(1)
      .default(DEFAULT_WEBSOCKET_LIMITS.maxConnectionsPerIp),
    GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT: z.coerce
      .number()
      .int()
      .min(1)
      .default(DEFAULT_WEBSOCKET_LIMITS.maxConnectionsPerAccount),
    GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_IP: z.coerce
      .number()
      .int()
      .min(1)
      .default(DEFAULT_WEBSOCKET_LIMITS.maxSubscriptionsPerIp),
    GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: z.coerce
      .number()
      .int()
      .min(1)
      .default(DEFAULT_WEBSOCKET_LIMITS.maxSubscriptionsPerAccount),
    /** Rate limits: requests per window per API/seat token and per client IP. */
    RATE_LIMIT_PER_TOKEN: z.coerce.number().int().min(1).default(600),
    RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(1200),
    RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86400).default(60),
    /**
     * Days the account feeds keep events (trimmed by age only). At least 15: the longest
     * correspondence period (14 days per move) and a day, so that a player who comes back at the
     * deadline, or a receiver down that long, still finds every event.
     */
    FEED_RETENTION_DAYS: z.coerce.number().int().min(15).max(3650).default(21),
    /** The most events an account's feed keeps (the oldest trimmed first, like those past the retention). */
    FEED_MAX_EVENTS: z.coerce.number().int().min(100).max(10_000_000).default(10_000),
    /** Seconds between sweeps that expire unanswered challenges. */
    SWEEP_INTERVAL_SECONDS: z.coerce.number().min(0.1).max(3600).default(5),
    /** Seconds between this node's sweeps for due bulk pairings (scheduled ones, a dead node's); 0: none. */
    BULK_SWEEP_SECONDS: z.coerce.number().min(0).max(60).default(1),
    /** Seconds a node may take over one step of a bulk pairing before another node's sweep takes it over. */
    BULK_LEASE_SECONDS: z.coerce.number().min(1).max(600).default(30),
    /** Seconds between the tournament director's sweeps (start, pair, finish tournaments). */
    TOURNAMENT_SWEEP_SECONDS: z.coerce.number().min(0.1).max(3600).default(2),
    /** Deliver webhooks to loopback and private addresses too (never on a public server). */
    WEBHOOK_ALLOW_PRIVATE: z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .default('false')
      .transform((v) => v === 'true'),
    /**
     * Ports webhooks and push bots may use (`80,443,8000-8999`). Unset: 80, 443, 8080 and 8443, or
     * any port when WEBHOOK_ALLOW_PRIVATE=true.
     */
    WEBHOOK_ALLOWED_PORTS: z
      .string()
      .transform((v, ctx) => {
        try {
          return parsePorts(v);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      })
      .optional(),
    /** Seconds a webhook receiver has to answer 2xx. */
    WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(1).max(60).default(10),
    /** Seconds between this node's looks for due webhook deliveries; 0: this node delivers none. */
    WEBHOOK_INTERVAL_SECONDS: z.coerce.number().min(0).max(60).default(1),
    /** Unlimited games: days the player to move may stay away before the other may claim the game. */
    ABANDON_CLAIM_DAYS: z.coerce.number().positive().max(365).default(3),
    /** Megabytes of engine states a node keeps so that moves need not replay games (estimated size). */
    ENGINE_CACHE_MB: z.coerce.number().min(0).max(65536).default(64),
    /** Webhook endpoints this node delivers to at once (each endpoint's events stay in order). */
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
    /** Of those, endpoints of one account at once (the slots are shared round-robin by account). */
    WEBHOOK_MAX_CONCURRENT_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(4),
    /** Consecutive slow attempts (half the timeout or more) that demote an endpoint to the slow lane. */
    WEBHOOK_DEMOTE_AFTER: z.coerce.number().int().min(1).max(1000).default(3),
    /** Seconds to wait for open connections on SIGTERM before exiting anyway. */
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0).max(300).default(10),
    /**
     * Which proxies' X-Forwarded-For to believe for the client address (express `trust proxy`):
     * false (default), true (any: only when clients cannot reach the server directly), a hop count,
     * or a comma-separated list of addresses/subnets (`loopback`, `10.0.0.0/8`, …).
     */
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((v, ctx): boolean | number | string => {
        if (v === 'false') return false;
        if (v === 'true') return true;
        if (/^\d{1,2}$/.test(v)) return Number(v);
        const names = /^(loopback|linklocal|uniquelocal)$/;
        const parts = v.split(',').map((p) => p.trim());
        if (parts.every((p) => names.test(p) || isIP(p.split('/')[0] ?? '') !== 0)) return parts.join(',');
        ctx.addIssue({ code: 'custom', message: 'must be true, false, a hop count, or addresses/subnets' });
        return z.NEVER;
      }),
    /** Origins browsers may call from (comma-separated `https://app.example.com`, or `*`); empty: none. */
    CORS_ORIGINS: z
      .string()
      .default('')
      .transform((v, ctx) => {
        const origins = v
          .split(',')
          .map((o) => o.trim())
          .filter((o) => o !== '');
        for (const origin of origins) {
          if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
            ctx.addIssue({ code: 'custom', message: `"${origin}" is not an origin (scheme://host[:port])` });
          }
        }
        return origins;
      }),
    /** /readyz stays ready through store failures shorter than this (a blip). */
    READY_GRACE_SECONDS: z.coerce.number().min(0).max(300).default(5),
    /**
     * The server key (at least 32 characters): webhook and push-bot secrets are stored encrypted
     * with it, idempotency records sealed with it. Required when NODE_ENV=production.
     */
    SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    /** Set: /metrics needs `Authorization: Bearer <METRICS_TOKEN>`; unset in production: no /metrics. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Set: the operator API (/api/v1/admin) and its bearer key; unset: every admin route answers 403 OPERATOR_ONLY. */
    OPERATOR_KEY: z.string().min(24, 'must be at least 24 characters').optional(),
    /** false: POST /accounts and GraphQL createAccount answer 403 SIGNUP_CLOSED (accounts are made by apps). */
    OPEN_SIGNUP: z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .default('true')
      .transform((v) => v === 'true'),
    /** off: chat is off on this server (every chat call answers 403 CHAT_DISABLED, `by` server). */
    CHAT: z
      .enum(['on', 'off'], { message: 'must be on or off' })
      .default('on')
      .transform((v) => v === 'on'),
    /** `production` (the Docker image's): SECRET_KEY required; /metrics served only behind METRICS_TOKEN. */
    NODE_ENV: z.string().optional(),
    /** Server limits: time to receive headers / a whole request, idle keep-alive, open connections. */
    HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(20),
    HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(60),
    HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(65),
    HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(0).default(10000),
    /** Quotas: ongoing games and active tokens per account; accounts and seat-token games per address per day. */
    MAX_ONGOING_GAMES_PER_ACCOUNT: z.coerce.number().int().min(1).default(200),
    MAX_TOKENS_PER_ACCOUNT: z.coerce.number().int().min(1).default(50),
    MAX_ACCOUNTS_PER_IP_PER_DAY: z.coerce.number().int().min(1).default(50),
    MAX_GAMES_PER_IP_PER_DAY: z.coerce.number().int().min(1).default(1000),
    /**
     * Open streams (SSE/NDJSON responses and graphql-ws subscriptions together, per node) per client
     * address (IPv6: /64) and per account or seat token; a stream whose unsent output passes
     * STREAM_MAX_BUFFER_BYTES (a reader that stopped reading) is cut.
     */
    MAX_STREAMS_PER_IP: z.coerce.number().int().min(1).default(DEFAULT_STREAM_LIMITS.perIp),
    MAX_STREAMS_PER_TOKEN: z.coerce.number().int().min(1).default(DEFAULT_STREAM_LIMITS.perToken),
    STREAM_MAX_BUFFER_BYTES: z.coerce
      .number()
      .int()
      .min(16 * 1024)
      .max(1024 * 1024 * 1024)
      .default(DEFAULT_STREAM_LIMITS.maxBufferBytes),
    /** Open or ongoing tournaments one account may have created. */
    MAX_OPEN_TOURNAMENTS_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
    /** Hours an open tournament without a start time may wait to fill before it is cancelled. */
    TOURNAMENT_OPEN_HOURS: z.coerce
      .number()
      .min(0.01)
      .max(24 * 60)
      .default(48),
    /** Open challenges one account may have made (unanswered, unexpired). */
    MAX_OPEN_CHALLENGES_PER_ACCOUNT: z.coerce.number().int().min(1).default(50),
    /** Open challenges one account may have made to one other account. */
    MAX_OPEN_CHALLENGES_PER_PAIR: z.coerce.number().int().min(1).default(3),
    /** Accounts one account may block. */
    MAX_BLOCKS_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(1000),
    /** Of those, games against the AI per address per day, and ongoing ones per address at once. */
    MAX_AI_GAMES_PER_IP_PER_DAY: z.coerce.number().int().min(1).default(100),
    MAX_ANON_AI_GAMES_PER_IP: z.coerce.number().int().min(1).max(1000).default(5),
    /** The AI: search threads of this node (default: cores - 1, at least 1). */
    AI_WORKERS: z.coerce.number().int().min(1).max(256).optional(),
    /** Analyses waiting for a thread at most on this node; more answer 503 AI_BUSY. */
    AI_QUEUE_MAX: z.coerce.number().int().min(0).max(100_000).default(64),
    /** Analyses of one account (or address) running or waiting at once on this node; more answer 429. */
    AI_MAX_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(2),
    /** AI turns of one owner (account or address) waiting or running in this node's pool at once. */
    AI_MAX_TURNS_PER_OWNER: z.coerce.number().int().min(1).max(1000).default(2),
    /** Analyses per minute per account (or address), apart from the request rate limits. */
    AI_ANALYSIS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
    /** The longest analysis a request may ask for (timeMs), in milliseconds. */
    AI_ANALYSIS_MAX_MS: z.coerce.number().int().min(10).max(60_000).default(5000),
    /** false: this node does not play the AI's turns (others do). */
    AI_DRIVER: z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .default('true')
      .transform((v) => v === 'true'),
  })
  .superRefine((config, ctx) => {
    if (config.NODE_ENV === 'production' && !config.SECRET_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['SECRET_KEY'],
        message: 'required when NODE_ENV=production (e.g. openssl rand -base64 48)',
      });
    }
    if (config.REDIS_URL && config.REDIS_CLUSTER_NODES) {
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_CLUSTER_NODES'],
        message: 'set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both',
      });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

/**
 * Who may read /metrics: anyone (`open`, outside production without a token), bearers of `token`,
 * or, in production without METRICS_TOKEN, nobody (the route is not served: 404).
 */
export function metricsAccess(config: Pick<Config, 'METRICS_TOKEN' | 'NODE_ENV'>): {
  open: boolean;
  token?: string;
} {
  const open = config.NODE_ENV !== 'production' && !config.METRICS_TOKEN;
  return config.METRICS_TOKEN ? { open, token: config.METRICS_TOKEN } : { open };
}

/** Reads the configuration; throws one readable message that lists every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
