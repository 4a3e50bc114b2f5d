import type { RedisClient } from './redis/client';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { LimiterOptions, LimiterVerdict, RateLimiter } from './store';

/**
 * A fixed-window limiter from rate-limiter-flexible: on Redis (shared by every node; `keyPrefix`
 * keeps deployments apart) or in this process.
 */
export function createLimiter(
  options: LimiterOptions,
  redis?: { client: RedisClient; prefix: string },
): RateLimiter {
  const common = { points: options.points, duration: options.windowSeconds };
  const limiter = redis
    ? new RateLimiterRedis({
        ...common,
        storeClient: redis.client,
        keyPrefix: `${redis.prefix}rl:${options.name}`,
        // Redis errors must surface as 503s, never as "allowed" or "limited".
        insuranceLimiter: undefined,
      })
    : new RateLimiterMemory({ ...common, keyPrefix: options.name });
  return {
    options,
    async consume(key: string, points = 1): Promise<LimiterVerdict> {
      try {
        const res = await limiter.consume(key, points);
        return verdict(options, res, true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return verdict(options, rejection, false);
        throw rejection;
      }
    },
  };
}

function verdict(options: LimiterOptions, res: RateLimiterRes, allowed: boolean): LimiterVerdict {
  return {
    allowed,
    limit: options.points,
    remaining: Math.max(0, res.remainingPoints),
    consumed: res.consumedPoints,
    resetMs: Math.max(0, res.msBeforeNext),
  };
}
