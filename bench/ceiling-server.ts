// The ceiling for `npm run bench -- api`: a bare express 5 app whose only route does one EVALSHA round
// trip on Redis. Run as its own process (PORT, REDIS_URL, REDIS_KEY_PREFIX from the environment) so it
// gets an event loop to itself, like the real server.
import express from 'express';
import Redis from 'ioredis';

interface CeilingRedis extends Redis {
  benchIncr(key: string): Promise<number>;
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 0);
  const prefix = process.env.REDIS_KEY_PREFIX ?? 'bench:ceiling:';
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
    lazyConnect: true,
  }) as CeilingRedis;
  await redis.connect();
  // defineCommand sends EVALSHA (falling back to EVAL once if the script is not cached yet).
  redis.defineCommand('benchIncr', { numberOfKeys: 1, lua: "return redis.call('INCR', KEYS[1])" });
  const key = `${prefix}ceiling`;

  const app = express();
  app.disable('x-powered-by');
  // Parse the JSON body as the real app does (express.json), so the ceiling pays that cost too.
  app.use(express.json({ limit: '64kb' }));
  app.post('/ceiling', async (_req, res) => {
    const n = await redis.benchIncr(key);
    res.json({ ok: true, n });
  });
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

main().catch((error: unknown) => {
  process.stderr.write(`ceiling server failed: ${(error as Error).message}\n`);
  process.exit(1);
});
