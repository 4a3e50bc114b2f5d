import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { RETRY_AFTER_SECONDS } from '../../service/errors';
import { SEEK_REMOVAL_REASONS } from '../../vocabulary';
import { problems, type RestRoute } from './route';
import {
  FeedEpochChanged,
  FeedEvent,
  FeedEventType,
  FeedReady,
  StreamRevoked,
  StreamShutdown,
} from './accounts.schemas';
import * as S from './schemas';
import { WEBHOOK_DELIVERY } from './webhooks.routes';

type Responses = RouteConfig['responses'];

const ref = (kind: 'schemas' | 'headers' | 'responses', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

const problemContent = { 'application/problem+json': { schema: ref('schemas', 'Problem') } };

/** Response headers every /api/v1 answer carries (rate-limit state), by reference. */
const RATE_LIMIT_HEADERS = {
  RateLimit: ref('headers', 'RateLimit'),
  'RateLimit-Policy': ref('headers', 'RateLimitPolicy'),
};

/**
 * What every /api/v1 operation may answer besides its own responses: 429 and 503 (the rate limiter
 * and the store are in front of every route), 400/413/415 where a JSON body is read; and the
 * RateLimit headers on every answer.
 */
function withCommonResponses(route: RestRoute['spec']): Responses {
  const readsBody = route.request?.body?.content['application/json'] !== undefined;
  const responses: Responses = { ...(readsBody ? problems(400, 413, 415) : {}), ...route.responses };
  responses[429] = ref('responses', 'RateLimited');
  responses[503] = ref('responses', 'StoreUnavailable');
  for (const [status, response] of Object.entries(responses)) {
    if ('$ref' in response) continue;
    const own = response as ResponseConfig;
    responses[status] = { ...own, headers: { ...RATE_LIMIT_HEADERS, ...(own.headers as object) } };
  }
  return responses;
}

/**
 * The items of the streamed media types: an NDJSON line, or one Server-Sent Event as an object
 * (its `data` parsed as JSON), in the way OpenAPI 3.2 `itemSchema` describes them.
 */
function registerStreamItems(registry: OpenAPIRegistry): void {
  // Written out as JSON Schema: zod-to-openapi would inline every FeedEvent variant into a union.
  const schema = (name: string, json: object) => registry.registerComponent('schemas', name, json as never);
  const sse = (event: object, data: object, id?: string) => ({
    type: 'object',
    properties: { event, ...(id ? { id: { type: 'string', description: id } } : {}), data },
    required: ['event', ...(id ? ['id'] : []), 'data'],
    additionalProperties: false,
  });
  const empty = { type: 'object' as const, maxProperties: 0 };
  const shutdown = sse({ const: 'shutdown' }, empty);
  const error = sse({ const: 'error' }, ref('schemas', 'Problem'));
  schema('GameStreamEvent', {
    description:
      'One Server-Sent Event of a game stream, its `data` parsed as JSON: `game` (the whole game) first and, ' +
      'with ?full=1 or after a takeback, per version; `update` (the head and the move) per later version; `end` once the game is ' +
      'finished, `shutdown` when the server stops, `error` (a problem, e.g. UPDATES_LOST) when it fails: reconnect; ' +
      '`chat` (no id) per chat message, when the caller may read the chat',
    oneOf: [
      sse({ const: 'game' }, ref('schemas', 'Game'), 'The game version'),
      sse({ const: 'update' }, ref('schemas', 'GameStreamUpdate'), 'The game version'),
      sse({ const: 'chat' }, ref('schemas', 'ChatMessage')),
      sse({ const: 'end' }, empty),
      shutdown,
      error,
    ],
  });
  schema('GameStreamLine', {
    description:
      'One line of an NDJSON game stream: `game` (the whole game) first and, with ?full=1 or after a takeback, per version; ' +
      '`update` (the head and the move) per later version; `chat` per chat message, when the caller may read the chat',
    oneOf: [
      {
        type: 'object',
        properties: { type: { const: 'game' }, game: ref('schemas', 'Game') },
        required: ['type', 'game'],
        additionalProperties: false,
      },
      {
        type: 'object',
        description: 'A later version: its head and the move that made it (see GameStreamUpdate)',
        properties: {
          type: { const: 'update' },
          game: ref('schemas', 'GameHead'),
          move: { oneOf: [ref('schemas', 'Move'), { type: 'null' }] },
        },
        required: ['type', 'game', 'move'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { type: { const: 'chat' }, message: ref('schemas', 'ChatMessage') },
        required: ['type', 'message'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { type: { const: 'end' } },
        required: ['type'],
        additionalProperties: false,
      },
      ref('schemas', 'StreamShutdown'),
      {
        type: 'object',
        properties: { type: { const: 'error' }, problem: ref('schemas', 'Problem') },
        required: ['type', 'problem'],
        additionalProperties: false,
      },
    ],
  });
  schema('TvStreamEvent', {
    description:
      'One Server-Sent Event of a TV stream, its `data` parsed as JSON: `featured` (the whole game) when a game ' +
      'becomes the featured one, `update` (the head and the move) per later version, `shutdown` when the server stops',
    oneOf: [
      sse({ const: 'featured' }, ref('schemas', 'Game')),
      sse({ const: 'update' }, ref('schemas', 'GameStreamUpdate')),
      shutdown,
    ],
  });
  const removed = {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The seek' },
      reason: { enum: [...SEEK_REMOVAL_REASONS] },
    },
    required: ['id', 'reason'],
    additionalProperties: false,
  };
  const ready = {
    type: 'object',
    properties: {
      listed: { type: 'integer', description: 'How many waiting seeks were sent before it' },
      more: { type: 'boolean', description: 'More seeks wait than were sent' },
    },
    required: ['listed', 'more'],
    additionalProperties: false,
  };
  schema('LobbyStreamEvent', {
    description:
      'One Server-Sent Event of the live lobby, its `data` parsed as JSON: `seek.added` (a LobbySeek) for each ' +
      'waiting seek, `ready` once those waiting at the start were sent, `seek.removed` (matched, canceled, ' +
      'expired), `shutdown` when the server stops, `error` (a problem, e.g. UPDATES_LOST): reconnect',
    oneOf: [
      sse({ const: 'seek.added' }, ref('schemas', 'LobbySeek')),
      sse({ const: 'seek.removed' }, removed),
      sse({ const: 'ready' }, ready),
      shutdown,
      error,
    ],
  });
  schema('LobbyStreamLine', {
    description: 'One line of the NDJSON live lobby (see LobbyStreamEvent)',
    oneOf: [
      {
        type: 'object',
        properties: { type: { const: 'seek.added' }, seek: ref('schemas', 'LobbySeek') },
        required: ['type', 'seek'],
        additionalProperties: false,
      },
      {
        ...removed,
        properties: { type: { const: 'seek.removed' }, ...removed.properties },
        required: ['type', ...removed.required],
      },
      {
        ...ready,
        properties: { type: { const: 'ready' }, ...ready.properties },
        required: ['type', ...ready.required],
      },
      ref('schemas', 'StreamShutdown'),
      {
        type: 'object',
        properties: { type: { const: 'error' }, problem: ref('schemas', 'Problem') },
        required: ['type', 'problem'],
        additionalProperties: false,
      },
    ],
  });
  schema('AccountGamesEvent', {
    description:
      'One Server-Sent Event of the games of chosen accounts, its `data` parsed as JSON: `game.started` or ' +
      '`game.finished` with the game head; `shutdown` when the server stops',
    oneOf: [
      sse({ const: 'game.started' }, ref('schemas', 'GameHead')),
      sse({ const: 'game.finished' }, ref('schemas', 'GameHead')),
      shutdown,
    ],
  });
  schema('AccountGamesLine', {
    description: 'One line of the NDJSON games of chosen accounts: a game of theirs started or ended',
    oneOf: [
      {
        type: 'object',
        properties: { type: { enum: ['game.started', 'game.finished'] }, game: ref('schemas', 'GameHead') },
        required: ['type', 'game'],
        additionalProperties: false,
      },
      ref('schemas', 'StreamShutdown'),
    ],
  });
  schema('TvStreamLine', {
    description:
      'One line of an NDJSON TV stream: `featured` (the whole game) when a game becomes the featured one, ' +
      '`update` (the head and the move) per later version',
    oneOf: [
      {
        type: 'object',
        properties: { type: { const: 'featured' }, game: ref('schemas', 'Game') },
        required: ['type', 'game'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: {
          type: { const: 'update' },
          game: ref('schemas', 'GameHead'),
          move: { oneOf: [ref('schemas', 'Move'), { type: 'null' }] },
        },
        required: ['type', 'game', 'move'],
        additionalProperties: false,
      },
      ref('schemas', 'StreamShutdown'),
    ],
  });
  schema('FeedStreamEvent', {
    description:
      'One Server-Sent Event of the account feed, its `data` parsed as JSON: `ready` first, then one event per ' +
      'FeedEvent (named after its type), `shutdown` when the server stops, `revoked` when the token is ' +
      'revoked, `epoch_changed` when the feed begins a new epoch. Ids are `<epoch>:<seq>`',
    oneOf: [
      sse(
        { const: 'ready' },
        {
          type: 'object',
          properties: {
            last: { type: 'integer', description: 'The stream continues after this seq' },
            epoch: { type: 'string', description: 'The feed’s epoch' },
          },
          required: ['last', 'epoch'],
          additionalProperties: false,
        },
        'The epoch and seq the stream starts after',
      ),
      sse(ref('schemas', 'FeedEventType'), ref('schemas', 'FeedEvent'), 'The epoch and seq: <epoch>:<seq>'),
      shutdown,
      sse({ const: 'revoked' }, empty),
      sse(
        { const: 'epoch_changed' },
        {
          type: 'object',
          properties: {
            epoch: { type: 'string' },
            after: { type: 'integer' },
            last: { type: 'integer' },
            message: { type: 'string' },
          },
          required: ['epoch', 'after', 'last', 'message'],
          additionalProperties: false,
        },
      ),
    ],
  });
  schema('FeedStreamLine', {
    description:
      'One line of an NDJSON feed: FeedReady first, then one FeedEvent per line; StreamShutdown, StreamRevoked ' +
      'or FeedEpochChanged last',
    oneOf: [
      ref('schemas', 'FeedReady'),
      ref('schemas', 'FeedEvent'),
      ref('schemas', 'StreamShutdown'),
      ref('schemas', 'StreamRevoked'),
      ref('schemas', 'FeedEpochChanged'),
    ],
  });
}

/** Headers and shared responses, referred to from the operations. */
function registerCommonComponents(registry: OpenAPIRegistry): void {
  const header = (name: string, description: string, example: string) =>
    registry.registerComponent('headers', name, {
      description,
      required: true,
      schema: { type: 'string' },
      example,
    });
  header(
    'RateLimit',
    'The window with the fewest requests left: r requests left, t seconds to its reset ' +
      '(IETF draft RateLimit header fields for HTTP)',
    '"token";r=597;t=41',
  );
  header(
    'RateLimitPolicy',
    'The limits: q requests per w seconds, per token and per IP',
    '"token";q=600;w=60, "ip";q=1200;w=60',
  );
  header('RetryAfter', 'Seconds to wait before retrying', String(RETRY_AFTER_SECONDS));
  header(
    'ETag',
    "The game's version, quoted: send it back in If-Match (writes) or If-None-Match (reads)",
    '"3"',
  );
  header('Location', 'The URL of the new resource', '/api/v1/games/Xq3v9Lk2aB0c');
  registry.registerComponent('responses', 'RateLimited', {
    description: 'Over a rate limit (RATE_LIMITED): retry after Retry-After seconds',
    headers: { 'Retry-After': ref('headers', 'RetryAfter'), ...RATE_LIMIT_HEADERS },
    content: problemContent,
  });
  registry.registerComponent('responses', 'StoreUnavailable', {
    description:
      'The store cannot be reached (STORE_UNAVAILABLE): retry after Retry-After seconds. RateLimit headers only ' +
      'when the rate limiter could still count the request',
    headers: {
      'Retry-After': ref('headers', 'RetryAfter'),
      // Not required: absent when the limiter itself could not reach the store.
      RateLimit: { description: 'As in other answers', schema: { type: 'string' } },
      'RateLimit-Policy': { description: 'As in other answers', schema: { type: 'string' } },
    },
    content: problemContent,
  });
}

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
  registry.registerComponent('securitySchemes', 'appKey', {
    type: 'http',
    scheme: 'bearer',
    description:
      'An app key (bha_…) of an app’s backend, with scopes: the account scopes it lends to the app’s accounts ' +
      '(with the Boardhost-Account header naming one) and app:accounts, app:sessions, app:webhooks, ' +
      'app:moderate for the app’s own operations (without Boardhost-Account).',
  });
  registry.registerComponent('securitySchemes', 'operatorKey', {
    type: 'http',
    scheme: 'bearer',
    description:
      'The operator key (the server’s OPERATOR_KEY setting): the operator API under /api/v1/admin. Without ' +
      'OPERATOR_KEY set the operator API is off and answers 403 OPERATOR_ONLY.',
  });
  registerCommonComponents(registry);
  // Named even though each FeedEvent variant spells its own type: clients switch on this list.
  registry.register('FeedEventType', FeedEventType);
  // The streams refer to these by name.
  registry.register('FeedReady', FeedReady);
  registry.register('FeedEvent', FeedEvent);
  registry.register('StreamShutdown', StreamShutdown);
  registry.register('StreamRevoked', StreamRevoked);
  registry.register('FeedEpochChanged', FeedEpochChanged);
  registry.register('Problem', S.Problem);
  registry.register('GameStreamUpdate', S.GameStreamUpdate);
  registerStreamItems(registry);
  // What Boardhost sends to webhook endpoints (OpenAPI 3.1 `webhooks`).
  registry.registerWebhook(WEBHOOK_DELIVERY);
  for (const route of routes) {
    const body = route.spec.request?.body;
    registry.registerPath({
      ...route.spec,
      // A body is required unless the route says otherwise.
      ...(body ? { request: { ...route.spec.request, body: { required: true, ...body } } } : {}),
      path: `/api/v1${route.spec.path}`,
      tags: route.spec.tags ?? ['games'],
      responses: withCommonResponses(route.spec),
    });
  }
  for (const [path, operationId] of [
    ['/livez', 'getLiveness'],
    ['/healthz', 'getHealth'],
    ['/readyz', 'getReadiness'],
  ] as const) {
    registry.registerPath({
      method: 'get',
      path,
      operationId,
      tags: ['operations'],
      security: [],
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
    operationId: 'getMetrics',
    tags: ['operations'],
    security: [],
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
        'with a stable `code`, the same as GraphQL `extensions.code`, and `type` urn:boardhost:problem:<code>.\n\n' +
        'Paging: a paged list takes `after` (the `next` of the previous page) and `limit`, and answers `next` ' +
        '(null on the last page).\n\n' +
        'Every /api/v1 answer carries RateLimit and RateLimit-Policy headers; 429 and 503 carry Retry-After.\n\n' +
        'Streamed media types (text/event-stream, application/x-ndjson) describe one item, as OpenAPI 3.2 ' +
        '`itemSchema` does: an NDJSON line, or one Server-Sent Event as `{event, id, data}` with `data` parsed ' +
        'as JSON.',
    },
    servers: [{ url: '/' }],
  });
}
