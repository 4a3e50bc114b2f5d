import { z } from 'zod';
import type { Services } from '../../service';
import { MAX_BULK_PAIRS } from '../../service/challenges/bulks';
import { BULK_STATES, kindIds } from '../../vocabulary';
import { apiToken, credentialOf, json, parse, problems, type RestRoute } from './route';
import { orNull, StartPosition, TimeControl, TimeControlInput } from './schemas';

// Bulk pairings (as lichess's POST /api/bulk-pairing): many games between pairs of accounts in one
// all-or-nothing call, each player consenting with its own API token.

const DateTime = z.string().openapi({ format: 'date-time' });
export const BulkId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{12}$/)
  .openapi({ example: 'q8Vd2kLmZ0aB' });
const idParams = z.object({ id: BulkId });

export const CreateBulkBody = z
  .object({
    pairs: z
      .array(z.array(z.string()).length(2))
      .min(1)
      .max(MAX_BULK_PAIRS)
      .openapi({
        description:
          `1 to ${MAX_BULK_PAIRS} games, each the API tokens (bhp_…) of its two players: first seat, second seat. ` +
          'Each token must be valid and hold challenge:write (its account consents to the game); an account may be ' +
          'in one pair only',
      }),
    kind: z.string().openapi({ example: 'kalah', description: `One of ${kindIds().join(', ')}` }),
    options: z.record(z.string(), z.unknown()).optional(),
    timeControl: orNull(TimeControlInput).optional().openapi({ description: 'Default: unlimited' }),
    position: StartPosition.optional(),
    rated: z
      .boolean()
      .optional()
      .openapi({ description: 'Rated games (default false; never from a position)' }),
    startAt: orNull(DateTime).optional().openapi({
      description: 'Create the games then (at most 7 days ahead); default now. Clocks start then',
    }),
  })
  .strict()
  .openapi('CreateBulkBody', {
    example: {
      pairs: [['bhp_tokenOfAdaWithChallengeWrite', 'bhp_tokenOfGraceWithChallengeWrite']],
      kind: 'kalah',
      timeControl: { type: 'correspondence', daysPerMove: 2 },
      rated: true,
    },
  });

const Refusal = z
  .object({
    code: z
      .string()
      .openapi({ description: 'The error code it was refused with (INTERRUPTED: its node stopped)' }),
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  })
  .openapi('BulkRefusal');

export const Bulk = z
  .object({
    id: BulkId,
    creator: z.string(),
    kind: z.enum(kindIds()),
    state: z.enum(BULK_STATES).openapi({
      description:
        'scheduled: every place reserved, games made at startAt; created: every game exists; canceled; refused ' +
        '(`refusal`); reserving and creating: in progress',
    }),
    rated: z.boolean(),
    timeControl: TimeControl,
    startAt: DateTime,
    createdAt: DateTime,
    updatedAt: DateTime,
    games: z.array(z.object({ id: z.string(), players: z.array(z.string()) })).openapi({
      description: 'Per pair, in order: its game id (the game exists once created) and its players',
    }),
    refusal: orNull(Refusal),
  })
  .openapi('Bulk');

export const BulkPage = z
  .object({
    items: z.array(Bulk),
    next: z.number().int().nullable().openapi({ description: 'Pass as `before` for the next page' }),
  })
  .openapi('BulkPage');

const ListQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .openapi({ type: 'integer', description: 'Default 20' }),
  before: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .openapi({ type: 'integer', description: "A page's `next`" }),
});

const BULK = 'Needs an API token with the scope challenge:bulk.';

export function bulkRoutes(services: Services): RestRoute[] {
  const bulks = services.bulks;
  return [
    {
      spec: {
        method: 'post',
        path: '/bulk-pairings',
        operationId: 'createBulkPairing',
        tags: ['challenges'],
        summary: 'Create many games between pairs of accounts, all or none',
        description:
          "Every game is created (201, state created; `game.started` in each player's feed) or scheduled for " +
          '`startAt` (201, state scheduled), or none is and the answer says which pair failed and why (`index`, ' +
          'and `seat` for a token): 422 BULK_TOKEN_INVALID (unknown, revoked or expired token), BULK_TOKEN_SCOPE ' +
          '(without challenge:write), BULK_DUPLICATE_ACCOUNT; 409 TOO_MANY_GAMES (an account would exceed its ' +
          `ongoing games); 400 UNKNOWN_GAME_KIND, INVALID_INPUT (options, more than ${MAX_BULK_PAIRS} pairs…). ${BULK}`,
        security: apiToken('challenge:bulk'),
        request: { body: { content: { 'application/json': { schema: CreateBulkBody } } } },
        responses: {
          201: json(Bulk, 'Created or scheduled'),
          ...problems(400, 401, 403, 409, 413, 415, 422, 503),
        },
      },
      handle: async (req, res) => {
        const body = parse(CreateBulkBody, req.body, 'body');
        res.status(201).json(await bulks.create(credentialOf(req), body));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/bulk-pairings',
        operationId: 'listBulkPairings',
        tags: ['challenges'],
        summary: "The caller's bulk pairings, newest first",
        description: 'Any token of the account.',
        security: apiToken(),
        request: { query: ListQuery },
        responses: { 200: json(BulkPage, 'A page'), ...problems(400, 401, 503) },
      },
      handle: async (req, res) => {
        const query = parse(ListQuery, req.query, 'query');
        res.json(await bulks.list(credentialOf(req), query));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/bulk-pairings/{id}',
        operationId: 'getBulkPairing',
        tags: ['challenges'],
        summary: 'A bulk pairing of the caller: its state and games',
        description: "Any token of its creator; 404 BULK_NOT_FOUND for another account's.",
        security: apiToken(),
        request: { params: idParams },
        responses: { 200: json(Bulk, 'The bulk pairing'), ...problems(400, 401, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        res.json(await bulks.get(credentialOf(req), id));
      },
    },
    {
      spec: {
        method: 'delete',
        path: '/bulk-pairings/{id}',
        operationId: 'cancelBulkPairing',
        tags: ['challenges'],
        summary: 'Cancel a scheduled bulk pairing before its games are created',
        description: `Its reserved places are given back. 409 BULK_NOT_CANCELABLE once it started. ${BULK}`,
        security: apiToken('challenge:bulk'),
        request: { params: idParams },
        responses: { 200: json(Bulk, 'Canceled'), ...problems(400, 401, 403, 404, 409, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        res.json(await bulks.cancel(credentialOf(req), id));
      },
    },
  ];
}
