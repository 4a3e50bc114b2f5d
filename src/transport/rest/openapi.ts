import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { RestRoute } from './route';
import { FeedEvent, FeedEventType, FeedReady } from './accounts.schemas';
import * as S from './schemas';
import { WEBHOOK_DELIVERY } from './webhooks.routes';

/** The REST API's OpenAPI 3.1 document, generated from the same route table the server runs. */
export function buildOpenApiDocument(
  routes: readonly RestRoute[],
): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'seatToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      'A secret seat token (bhs_…) returned when a game was created without accounts: it acts for one seat',
  });
  registry.registerComponent('securitySchemes', 'apiToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      'A personal API token (bhp_…) of an account, with scopes: game:read (the account and its event feed), ' +
      'game:play (humans: act in their games), bot:play (bots: act in their games, declare what they accept), ' +
      'challenge:write (challenges and seeks). Each operation lists the scopes that will do as alternatives.',
  });
  // Named even though each FeedEvent variant spells its own type: clients switch on this list.
  registry.register('FeedEventType', FeedEventType);
  // The NDJSON feed refers to these two by name.
  registry.register('FeedReady', FeedReady);
  registry.register('FeedEvent', FeedEvent);
  // What Boardhost sends to webhook endpoints (OpenAPI 3.1 `webhooks`).
  registry.registerWebhook(WEBHOOK_DELIVERY);
  for (const route of routes) {
    registry.registerPath({
      ...route.spec,
      path: `/api/v1${route.spec.path}`,
      tags: route.spec.tags ?? ['games'],
    });
  }
  for (const path of ['/livez', '/healthz', '/readyz']) {
    registry.registerPath({
      method: 'get',
      path,
      tags: ['operations'],
      summary:
        path === '/readyz'
          ? 'The store answers (503 once it has failed for longer than READY_GRACE_SECONDS): for load balancers'
          : `The process is up: for container health checks${path === '/healthz' ? ' (an alias of /livez)' : ''}`,
      responses: {
        200: { description: 'OK', content: { 'application/json': { schema: S.Health } } },
        ...(path === '/readyz'
          ? { 503: { description: 'Not ready', content: { 'application/json': { schema: S.Health } } } }
          : {}),
      },
    });
  }
  registry.registerPath({
    method: 'get',
    path: '/metrics',
    tags: ['operations'],
    summary: 'Prometheus metrics',
    description: 'With METRICS_TOKEN set, needs `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise).',
    responses: {
      200: { description: 'Prometheus text format', content: { 'text/plain': { schema: z.string() } } },
      401: {
        description: 'Missing or wrong metrics token',
        content: { 'application/problem+json': { schema: S.Problem } },
      },
    },
  });
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Boardhost REST API',
      version: '1.0.0',
      description:
        'Congo, Russian draughts, Kalah, Oware and Congkak as a service. Errors are application/problem+json ' +
        'with a stable `code`, the same as GraphQL `extensions.code`.',
    },
    servers: [{ url: '/' }],
  });
}
