import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { RestRoute } from './games.routes';
import * as S from './schemas';

/** The REST API's OpenAPI 3.1 document, generated from the same route table the server runs. */
export function buildOpenApiDocument(
  routes: readonly RestRoute[],
): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'seatToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The secret seat token returned when the game was created',
  });
  for (const route of routes) {
    registry.registerPath({ ...route.spec, path: `/api/v1${route.spec.path}`, tags: ['games'] });
  }
  for (const path of ['/healthz', '/readyz']) {
    registry.registerPath({
      method: 'get',
      path,
      tags: ['operations'],
      summary: path === '/healthz' ? 'The process is up' : 'The store answers (503 when it does not)',
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
    responses: {
      200: { description: 'Prometheus text format', content: { 'text/plain': { schema: z.string() } } },
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
