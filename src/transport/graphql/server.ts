import { ApolloServer, HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { IncomingMessage, Server } from 'node:http';
import type { Logger } from 'pino';
import { buildSchema } from 'type-graphql';
import type { RequestHandler } from 'express';
import type { Services } from '../../service';
import { RETRY_AFTER_SECONDS, toGameError } from '../../service/errors';
import { ACCOUNT_HEADER, actingAccountOf } from '../acting';
import { clientIp, graphQLOperationCount, rateLimitedError, type RateGate } from '../rate-limit';
import { bearerFrom, type GraphQLContext } from './context';
import { formatGraphQLError } from './errors';
import { BUDGET_CODE, enforceTimeBudget, startBudget, withinBudget } from './budget';
import { costError, limitRules, type GraphQLLimits } from './limits';
import { asGraphQLError, createWebSocketServer, rootError, type WebSocketLimits } from './websocket';
// Import order is schema order: games first.
import { AiResolver } from './ai.resolver';
import { GameResolver } from './game.resolver';
import { RematchResolver } from './rematch.resolver';
import { AccountResolver } from './account.resolver';
import { AppResolver } from './app.resolver';
import { BlockResolver } from './block.resolver';
import { BulkResolver } from './bulk.resolver';
import { ChallengeResolver } from './challenge.resolver';
import { LobbyResolver } from './lobby.resolver';
import { FeedResolver } from './feed.resolver';
import { PushResolver } from './push.resolver';
import { WebhookResolver } from './webhook.resolver';
import { AppDeliveryResolver } from './app-delivery.resolver';
import { ClockResolver } from './clock.resolver';
import { TournamentResolver } from './tournament.resolver';
import { RatingsResolver } from './ratings.resolver';
import { LifecycleResolver } from './lifecycle.resolver';
import { SpectatorResolver } from './spectator.resolver';
import { ChatResolver } from './chat.resolver';
import { SessionResolver } from './session.resolver';
import { detailResolver } from './move-details';
import { Move, MoveCheck } from './types';

/** The executable schema, built from the type-graphql classes (also what `npm run schema` prints). */
export function buildGameSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [
      GameResolver,
      RematchResolver,
      LifecycleResolver,
      AccountResolver,
      ChallengeResolver,
      LobbyResolver,
      BlockResolver,
      BulkResolver,
      FeedResolver,
      WebhookResolver,
      AppDeliveryResolver,
      PushResolver,
      ClockResolver,
      AiResolver,
      TournamentResolver,
      RatingsResolver,
      SpectatorResolver,
      ChatResolver,
      SessionResolver,
      AppResolver,
      detailResolver(() => Move),
      detailResolver(() => MoveCheck),
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

/** STORE_UNAVAILABLE answers get HTTP 503 and Retry-After, like REST; RATE_LIMITED 429. */
const errorStatus: ApolloServerPlugin = {
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

/**
 * Subscriptions run over graphql-ws only: over HTTP one is refused with INVALID_INPUT (400); the
 * operation's cost is measured with its variables (QUERY_TOO_COMPLEX, 400); a query gets its time
 * and response-size budgets (QUERY_BUDGET_EXCEEDED, 400); and a mutation counts once per root field
 * against the rate limit (the request itself counted one).
 */
function operationPlugin(
  schema: GraphQLSchema,
  limits: GraphQLLimits,
  gate: RateGate | undefined,
): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, contextValue, response, request }) {
          if (operation?.operation === 'subscription') {
            throw new GraphQLError(
              'Subscriptions run over WebSocket (graphql-ws protocol) at /graphql, not over HTTP',
              { extensions: { code: 'INVALID_INPUT', http: { status: 400 } } },
            );
          }
          const tooCostly = costError(
            schema,
            document,
            limits.maxCost,
            request.operationName,
            request.variables,
          );
          if (tooCostly) {
            (tooCostly.extensions as Record<string, unknown>).http = { status: 400 };
            throw tooCostly;
          }
          const budget = startBudget(document, request.operationName, limits);
          if (budget) contextValue.budget = budget;
          const extra = graphQLOperationCount(operation, document) - 1;
          if (!gate || extra <= 0) return;
          let decision;
          try {
            decision = await gate.check(contextValue.bearerToken, contextValue.ip ?? 'unknown', extra);
          } catch (error) {
            throw asGraphQLError(toGameError(error));
          }
          response.http.headers.set('ratelimit', decision.rateHeader);
          if (!decision.allowed) {
            const error = asGraphQLError(rateLimitedError(decision));
            const headers = new HeaderMap([
              ['ratelimit', decision.rateHeader],
              ['retry-after', String(decision.retryAfterSeconds)],
            ]);
            (error.extensions as Record<string, unknown>).http = { status: 429, headers };
            throw error;
          }
        },
        async willSendResponse({ response, operation, contextValue }) {
          const body = response.body;
          if (operation?.operation !== 'query' || body.kind !== 'single') return;
          body.singleResult = withinBudget(body.singleResult, limits, contextValue.budget);
          if (body.singleResult.errors?.[0]?.extensions?.code === BUDGET_CODE) response.http.status = 400;
        },
      };
    },
  };
}

/** Apollo over HTTP at /graphql and graphql-ws subscriptions on the same server and path. */
export async function createGraphQL(options: {
  httpServer: Server;
  services: Services;
  limits: GraphQLLimits;
  websocket: WebSocketLimits;
  /** Counts each operation (HTTP and WebSocket) against the rate limits. */
  gate?: RateGate;
  /** Where INTERNAL errors are logged, with their stack. */
  logger?: Logger;
  /** The client address of a WebSocket upgrade (as `TRUST_PROXY` resolves it; default: the socket's peer). */
  wsClientIp?: (request: IncomingMessage) => string | undefined;
}): Promise<{ middleware: RequestHandler; stop: () => Promise<void> }> {
  const { httpServer, services, limits, gate, logger } = options;
  const wsClientIp = options.wsClientIp ?? ((request: IncomingMessage) => request.socket.remoteAddress);
  const schema = await buildGameSchema();
  enforceTimeBudget(schema);
  const rules = limitRules(limits);
  const ws = createWebSocketServer({
    httpServer,
    schema,
    services,
    limits,
    rules,
    websocket: options.websocket,
    clientIp: (request) => wsClientIp(request) ?? 'unknown',
    ...(gate ? { gate } : {}),
    ...(logger ? { logger } : {}),
  });

  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    plugins: [
      errorStatus,
      operationPlugin(schema, limits, gate),
      ApolloServerPluginDrainHttpServer({ httpServer }),
      { serverWillStart: async () => ({ drainServer: async () => ws.stop() }) },
      ApolloServerPluginLandingPageDisabled(),
    ],
    // The same limits as graphql-ws: tokens while parsing, the rest while validating.
    parseOptions: { maxTokens: limits.maxTokens },
    validationRules: rules,
    formatError: (formatted, error) => {
      const result = formatGraphQLError(formatted, error);
      if (result.extensions?.code === 'INTERNAL') logger?.error({ err: rootError(error) }, 'internal error');
      return result;
    },
    includeStacktraceInErrorResponses: false,
    // We stop Apollo ourselves on SIGTERM, then close Redis (see main.ts).
    stopOnTerminationSignals: false,
  });
  await apollo.start();
  const middleware = expressMiddleware(apollo, {
    context: async ({ req }) => {
      const token = bearerFrom(req.headers.authorization);
      const acting = actingAccountOf(req.headers[ACCOUNT_HEADER]);
      return {
        services,
        ip: clientIp(req),
        ...(token ? { bearerToken: token } : {}),
        ...(acting === undefined ? {} : { actingAccount: acting }),
      };
    },
  });
  return {
    middleware,
    stop: async () => {
      await apollo.stop();
      await ws.stop();
    },
  };
}
