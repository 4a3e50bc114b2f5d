// The layers of `npm run bench -- api-cost`, in one process of their own (PORT, REDIS_URL,
// REDIS_KEY_PREFIX from the environment): the express ceiling's route (bench/ceiling-server.ts: the
// JSON body parsed, one EVALSHA, a small JSON answer) at POST /cost/<layer>, each behind one of the
// app's own middlewares alone (`bare`: none; `all`: every one of them, in the app's order), so that
// the CPU time each costs per request can be read off against `bare`.
import express, { type RequestHandler } from 'express';
import Redis from 'ioredis';
import pino from 'pino';
import { corsMiddleware, requestLogger, securityHeaders } from '../src/edge';
import { createMetrics } from '../src/operations';
import { RateGate, rateLimitMiddleware } from '../src/transport/rate-limit';
import { sendProblem } from '../src/transport/rest/problem';
import { createLimiter } from '../src/store/limiter';
import type { Storage } from '../src/store/store';

interface CostRedis extends Redis {
  benchIncr(key: string): Promise<number>;
}

/** The layers, by name: each the app's own middleware, as src/app.ts mounts it. */
export const LAYERS = ['bare', 'log', 'helmet', 'cors', 'metrics', 'ratelimit', 'all'] as const;
export type Layer = (typeof LAYERS)[number];

/** The app's middlewares in src/app.ts's order (the `all` layer; the api bench's `ceiling-app`). */
export const APP_ORDER = ['log', 'helmet', 'cors', 'metrics', 'ratelimit'] as const;

/**
 * The app's own middlewares, each as src/app.ts mounts it: request logs at info to /dev/null
 * (asynchronously, as in production), the limiter on this Redis with limits no bench reaches (as the
 * api bench's server), and the others with the app's defaults.
 */
export function appMiddlewares(
  redis: Redis,
  prefix: string,
): Record<(typeof APP_ORDER)[number], RequestHandler> {
  const logger = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: false }));
  const storage = {
    limiter: (options: Parameters<Storage['limiter']>[0]) =>
      createLimiter(options, { client: redis, prefix }),
  } as unknown as Storage;
  const gate = new RateGate(storage, { perToken: 1e9, perIp: 1e9, windowSeconds: 60 });
  return {
    log: requestLogger(logger),
    helmet: securityHeaders(false),
    cors: corsMiddleware(['*'])!,
    metrics: createMetrics().middleware,
    ratelimit: rateLimitMiddleware(gate, sendProblem),
  };
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 0);
  const prefix = process.env.REDIS_KEY_PREFIX ?? 'bench:cost:';
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
    lazyConnect: true,
  }) as CostRedis;
  await redis.connect();
  redis.defineCommand('benchIncr', { numberOfKeys: 1, lua: "return redis.call('INCR', KEYS[1])" });
  const key = `${prefix}cost`;

  const middlewares = appMiddlewares(redis, prefix);
  const json = express.json({ limit: '64kb' });
  const handler: RequestHandler = async (_req, res) => {
    const n = await redis.benchIncr(key);
    res.json({ ok: true, n });
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  for (const layer of LAYERS) {
    const before =
      layer === 'bare'
        ? []
        : layer === 'all'
          ? APP_ORDER.map((name) => middlewares[name])
          : [middlewares[layer]];
    app.post(`/cost/${layer}`, ...before, json, handler);
  }
  app.get('/readyz', (_req, res) => {
    res.json({ ok: true });
  });
  const server = app.listen(port, '127.0.0.1');
  const stop = () => {
    server.close();
    server.closeAllConnections();
    redis.disconnect();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`cost server failed: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
