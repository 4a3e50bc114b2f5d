// The ceilings for `npm run bench -- api`, in one process of their own (PORT, REDIS_URL,
// REDIS_KEY_PREFIX from the environment) so that they get an event loop to themselves, like the real
// server. Each does one EVALSHA round trip on Redis per request and nothing else:
// - POST /ceiling: a bare express 5 route (the ceiling of REST submitMove);
// - POST /ceiling-app: the same route behind the app's own middlewares, in the app's order (request
//   log, security headers, CORS, metrics, rate limit: bench/cost-server.ts), which every REST request
//   of the real server passes (shown beside the target, not a target);
// - POST /graphql: a bare Apollo Server (the app's @apollo/server, mounted with the app's
//   @as-integrations/express5) whose one mutation, `submitMove`, has the arguments and answer fields
//   of the real one (the ceiling of GraphQL submitMove).
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import Redis from 'ioredis';
import { APP_ORDER, appMiddlewares } from './cost-server';

interface CeilingRedis extends Redis {
  benchIncr(key: string): Promise<number>;
}

const TYPE_DEFS = `#graphql
  type Query { ok: Boolean! }
  type Moved { status: String! toMove: Int legalMoves: [String!]! }
  type Mutation { submitMove(id: ID!, move: String!, seatToken: String): Moved! }
`;

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

  const apollo = new ApolloServer({
    typeDefs: TYPE_DEFS,
    resolvers: {
      Query: { ok: () => true },
      Mutation: {
        submitMove: async () => {
          const n = await redis.benchIncr(key);
          return { status: 'ongoing', toMove: n % 2, legalMoves: ['1', '2', '3', '4', '5', '6'] };
        },
      },
    },
    plugins: [ApolloServerPluginLandingPageDisabled()],
    stopOnTerminationSignals: false,
  });
  await apollo.start();

  const app = express();
  app.disable('x-powered-by');
  // Parse the JSON body as the real app does (express.json), so the ceilings pay that cost too.
  const json = express.json({ limit: '64kb' });
  const ceiling: express.RequestHandler = async (_req, res) => {
    const n = await redis.benchIncr(key);
    res.json({ ok: true, n });
  };
  app.post('/ceiling', json, ceiling);
  const middlewares = appMiddlewares(redis, prefix);
  app.post('/ceiling-app', ...APP_ORDER.map((name) => middlewares[name]), json, ceiling);
  app.use('/graphql', json, expressMiddleware(apollo));
  app.get('/readyz', (_req, res) => {
    res.json({ ok: true });
  });
  const server = app.listen(port, '127.0.0.1');
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void apollo.stop();
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
