// Once, after upgrading a Redis deployment to the release that caps ongoing games (bots' maxGames,
// MAX_ONGOING_GAMES_PER_ACCOUNT): index the games that were already ongoing, which the caps count.
//   REDIS_URL=redis://… REDIS_KEY_PREFIX=boardhost: node -r @swc-node/register scripts/backfill-ongoing-games.ts
import { loadConfig } from '../src/config';
import { connectRedis, RedisGameStore } from '../src/store/redis';

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.REDIS_URL) throw new Error('REDIS_URL is not set: the memory store needs no backfill');
  const redis = await connectRedis(config.REDIS_URL);
  try {
    const indexed = await new RedisGameStore(redis, config.REDIS_KEY_PREFIX).backfillOngoing();
    console.log(`indexed ${indexed} ongoing games`);
  } finally {
    redis.disconnect();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
