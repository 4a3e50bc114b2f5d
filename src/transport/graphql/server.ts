import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { GraphQLError, parse, specifiedRules, validate, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { IncomingMessage, Server } from 'node:http';
import { buildSchema } from 'type-graphql';
import { WebSocketServer } from 'ws';
import type { RequestHandler } from 'express';
import type { Services } from '../../service';
import { RETRY_AFTER_SECONDS, toGameError, type GameError } from '../../service/errors';
import { rateLimitedError, type RateGate } from '../rate-limit';
import { bearerFrom, type GraphQLContext } from './context';
import { formatGraphQLError } from './errors';
// Import order is schema order: games first.
import { GameResolver } from './game.resolver';
import { AccountResolver } from './account.resolver';
import { ChallengeResolver } from './challenge.resolver';
import { FeedResolver } from './feed.resolver';
import { WebhookResolver } from './webhook.resolver';
import { ClockResolver } from './clock.resolver';

export interface GraphQLLimits {
  readonly maxDepth: number;
  readonly maxCost: number;
}

/** The executable schema, built from the type-graphql classes (also what `npm run schema` prints). */
export function buildGameSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [
      GameResolver,
      AccountResolver,
      ChallengeResolver,
      FeedResolver,
      WebhookResolver,
      ClockResolver,
    ],
    validate: false,
    // Every subscription feeds from the service (`subscribe` option), not from topics; type-graphql
    // still wants a PubSub, so this one refuses topic use loudly instead of dropping events.
    pubSub: {
      publish: () => {
        throw new Error('GraphQL topics are not used: publish through the GameStore');
      },
      subscribe: () => {
        throw new Error('GraphQL topics are not used: subscriptions use the service feed');
      },
    },
  });
}

/** STORE_UNAVAILABLE answers get HTTP 503 and Retry-After, like REST. */
const storeOutageStatus: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        const body = response.body;
        const errors = body.kind === 'single' ? body.singleResult.errors : undefined;
        if (errors?.some((e) => e.extensions?.code === 'STORE_UNAVAILABLE')) {
          response.http.status = 503;
          response.http.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
        }
      },
    };
  },
};

/** Apollo over HTTP at /graphql and graphql-ws subscriptions on the same server and path. */
export async function createGraphQL(options: {
  httpServer: Server;
  services: Services;
  limits: GraphQLLimits;
  /** Counts each WebSocket subscription like an HTTP request. */
  gate?: RateGate;
  /** The client address of a WebSocket upgrade (as `TRUST_PROXY` resolves it; default: the socket's peer). */
  clientIp?: (request: IncomingMessage) => string | undefined;
}): Promise<{ middleware: RequestHandler; stop: () => Promise<void> }> {
  const { httpServer, services, limits, gate } = options;
  const clientIp = options.clientIp ?? ((request: IncomingMessage) => request.socket.remoteAddress);
  const schema = await buildGameSchema();
  const armor = new ApolloArmor({
    maxDepth: { n: limits.maxDepth, ignoreIntrospection: false },
    costLimit: { maxCost: limits.maxCost },
    maxAliases: { n: 20 },
    maxTokens: { n: 4000 },
  }).protect();

  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql' });
  const tokenOf = (params: Record<string, unknown>) =>
    bearerFrom(params.authorization ?? params.Authorization) ?? stringOrUndefined(params.seatToken);
  const wsCleanup = useServer<Record<string, unknown>, { request: IncomingMessage }>(
    {
      schema,
      context: (ctx): GraphQLContext => {
        const token = tokenOf(ctx.connectionParams ?? {});
        const ip = clientIp(ctx.extra.request);
        return { services, ...(token ? { bearerToken: token } : {}), ...(ip ? { ip } : {}) };
      },
      // graphql-ws bypasses Apollo's validation rules and the HTTP rate limit: apply both here.
      onSubscribe: async (ctx, _id, payload) => {
        if (gate) {
          try {
            const decision = await gate.check(
              tokenOf(ctx.connectionParams ?? {}),
              clientIp(ctx.extra.request) ?? 'unknown',
            );
            if (!decision.allowed) return [gameErrorAsGraphQL(rateLimitedError(decision))];
          } catch (error) {
            return [gameErrorAsGraphQL(toGameError(error))];
          }
        }
        let document;
        try {
          document = parse(payload.query);
        } catch (error) {
          return [error instanceof GraphQLError ? error : new GraphQLError('Syntax error')];
        }
        const errors = validate(schema, document, [...specifiedRules, ...armor.validationRules]);
        return errors.length > 0 ? errors : undefined;
      },
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors
          ? { ...result, errors: result.errors.map((e) => formatGraphQLError(e.toJSON(), e)) }
          : undefined,
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => formatGraphQLError(e.toJSON(), e)),
    },
    wsServer,
  );

  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    plugins: [
      ...armor.plugins,
      storeOutageStatus,
      ApolloServerPluginDrainHttpServer({ httpServer }),
      { serverWillStart: async () => ({ drainServer: async () => wsCleanup.dispose() }) },
      ApolloServerPluginLandingPageDisabled(),
    ],
    validationRules: armor.validationRules,
    formatError: formatGraphQLError,
    includeStacktraceInErrorResponses: false,
    // We stop Apollo ourselves on SIGTERM, then close Redis (see main.ts).
    stopOnTerminationSignals: false,
  });
  await apollo.start();
  const middleware = expressMiddleware(apollo, {
    context: async ({ req }) => {
      const token = bearerFrom(req.headers.authorization);
      return { services, ...(token ? { bearerToken: token } : {}), ...(req.ip ? { ip: req.ip } : {}) };
    },
  });
  return {
    middleware,
    stop: async () => {
      await apollo.stop();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}

/** A GameError as a GraphQL error with its code, for refusals made outside resolvers. */
function gameErrorAsGraphQL(error: GameError): GraphQLError {
  return new GraphQLError(error.message, { extensions: { ...error.details, code: error.code } });
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
