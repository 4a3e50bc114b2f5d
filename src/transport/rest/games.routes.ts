import { z } from 'zod';
import { GameError } from '../../service/errors';
import { recordMediaTypes } from '../../vocabulary';
import type { Services } from '../../service';
import { gameWriteRoutes, idParams, sendGame } from './game-writes.routes';
import {
  credentialOf,
  idempotencyHeader,
  idempotencyKeyOf,
  json,
  parse,
  problems,
  PUBLIC,
  type RestRoute,
} from './route';
import * as S from './schemas';
import {
  lastEventIdHeader,
  NDJSON_MEDIA,
  resumeAfter,
  SSE_MEDIA,
  streamFormatOf,
  holdStreamSlot,
  streamGame,
  type OpenStreams,
} from './stream';

const kindParams = z.object({
  kind: z.string().openapi({ example: 'kalah', description: 'A hosted kind (GET /kinds)' }),
});

const readHeaders = z.object({
  'if-none-match': z
    .string()
    .optional()
    .openapi({ description: 'An ETag of the game (its version, e.g. "3"): 304 while it is still current' }),
});

/** 304: the game is still at the version in If-None-Match. */
const NOT_MODIFIED = {
  description: 'Not modified: the game is still at the version in If-None-Match',
  headers: { ETag: { $ref: '#/components/headers/ETag' } },
};

const StreamQuery = z
  .object({
    after: z.coerce.number().int().min(0).optional().openapi({
      type: 'integer',
      description: 'Resume: only versions after this one (the last one seen). SSE: Last-Event-ID wins',
    }),
    full: z
      .enum(['0', '1', 'true', 'false'])
      .optional()
      .openapi({
        description:
          '1 (or true): every message is the whole game (`game`), moves included, for clients that want whole ' +
          'documents; default: the first message is the whole game, later ones (`update`) its head and the move',
      }),
  })
  .strict();

const GAME_STREAM_DESCRIPTION = `The game now, then every change in order, until the game is over. The first message is the whole
game (\`game\`, a Game); every later one (\`update\`) is the new version's head (a GameHead: the Game without \`moves\`)
and \`move\`, the move that made it (a Move; null for a version no move made: a draw offer, a resignation, a timeout…).
Its moves are those of the previous version plus \`move\`, so a message costs the same however long the game is. A
version whose moves were taken back (a takeback: its \`ply\` below the previous one's) comes whole (\`game\`): its
move list replaces the one the client holds. With
\`?full=1\` every message is the whole game (\`game\`), as for clients that want whole documents. The Accept header
chooses the form (the default is SSE):

- \`${SSE_MEDIA}\` (also for \`*/*\` or no Accept): Server-Sent Events. Event \`game\` (id = version, data = the Game)
  first, then \`update\` per version (id = version, data = \`{"game":{…head},"move":{…}}\`), then \`end\` (data \`{}\`)
  once the game is finished; a \`: keep-alive\` comment every 15 s, and \`shutdown\` when the server stops. Resume
  with the \`Last-Event-ID\` header (browsers send it on reconnect) or \`?after=\`.
- \`${NDJSON_MEDIA}\`: one JSON document per line: \`{"type":"game","game":{…}}\` first, then
  \`{"type":"update","game":{…head},"move":{…}}\` per version, \`{"type":"end"}\` once the game is finished,
  \`{"type":"shutdown"}\` when the server stops; an empty line every 15 s. Resume with \`?after=\`.

A resumed stream (\`after\`, \`Last-Event-ID\`) also starts with the whole game, at its current version.

When the caller may read the game's chat (GET /games/{id}/chat), its messages from now on come between the versions:
SSE event \`chat\` (no id, data = a ChatMessage), NDJSON \`{"type":"chat","message":{…}}\` (a seat that muted the chat gets
only its own). Messages sent while disconnected: read them with GET /games/{id}/chat?after=<the last message id>.

No version is ever skipped silently: if versions were lost on the way to this server (its connection to the store
dropped), the stream ends with an error frame (SSE \`event: error\`, NDJSON \`{"type":"error","problem":…}\`) whose
problem has code UPDATES_LOST; reconnect to get the game as it is now.

Errors (unknown game, bad \`after\`) come before the stream starts, as problems.`;

/** The records' own media types (draughts' PDN) beside text/plain, from the kinds' descriptors. */
const RECORD_TYPES = recordMediaTypes();

/** The game routes under /api/v1; live streams register in `streams` so that shutdown can end them. */
export function gameRoutes(services: Services, streams: OpenStreams = new Set()): RestRoute[] {
  const service = services.games;
  return [
    {
      spec: {
        method: 'get',
        path: '/kinds',
        operationId: 'listKinds',
        summary: 'The hosted game kinds',
        security: PUBLIC,
        description:
          'Each kind with its seat names, its options as a JSON Schema, a summary of its move and position ' +
          'notation, and its rules page (served as text/markdown at rules.url).',
        responses: { 200: json(S.KindList, 'Every hosted kind') },
      },
      handle: async (_req, res) => {
        res.json({ items: service.describeKinds() });
      },
    },
    {
      spec: {
        method: 'post',
        path: '/kinds/{kind}/start',
        operationId: 'describeStart',
        summary: 'Where a game would start',
        security: PUBLIC,
        description:
          'The start of a game of this kind with these options, `first` or `position` (checked as ' +
          'POST /games checks them): the position, its structured board and the first legal moves. ' +
          'Nothing is stored and no quota is used: for previews and pictures of a start.',
        request: {
          params: kindParams,
          body: { content: { 'application/json': { schema: S.StartBody } } },
        },
        responses: { 200: json(S.KindStart, 'The start position'), ...problems(400, 503) },
      },
      handle: async (req, res) => {
        const { kind } = parse(kindParams, req.params, 'path');
        const body = parse(S.StartBody, req.body ?? {}, 'body');
        res.json(service.describeStart({ kind, ...body }));
      },
    },
    {
      spec: {
        method: 'post',
        path: '/games',
        operationId: 'createGame',
        summary: 'Create a game',
        description:
          'Returns the game and one secret token per seat (shown only here). Counts against the client ' +
          'address’s daily games quota (429 QUOTA_EXCEEDED). Idempotency-Key retries are scoped to the address.',
        security: PUBLIC,
        request: {
          headers: idempotencyHeader,
          body: { content: { 'application/json': { schema: S.CreateGameBody } } },
        },
        responses: {
          201: json(S.CreatedGame, 'The new game and its seat tokens', 'Location'),
          ...problems(400, 409, 422, 503),
        },
      },
      handle: async (req, res) => {
        const body = parse(S.CreateGameBody, req.body, 'body');
        const created = await service.createGame(body, {
          ...idempotencyKeyOf(req),
          ...(req.ip ? { ip: req.ip } : {}),
        });
        res.status(201).setHeader('Location', `/api/v1/games/${created.game.id}`).json(created);
      },
    },
    {
      spec: {
        method: 'get',
        path: '/games',
        operationId: 'listGames',
        summary: 'List games, newest first',
        description: 'Filter by kind, status and `account` (a username holding a seat).',
        security: PUBLIC,
        request: { query: S.ListQuery },
        responses: { 200: json(S.GamePage, 'A page of games'), ...problems(400, 503) },
      },
      handle: async (req, res) => {
        const query = parse(S.ListQuery, req.query, 'query');
        res.json(await service.listGames(query, credentialOf(req)));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/games/{id}',
        operationId: 'getGame',
        summary: 'Read a game',
        description:
          "With If-None-Match: the game's ETag (its version), 304 while the game is still at that version.",
        security: PUBLIC,
        request: { params: idParams, headers: readHeaders },
        responses: {
          200: json(S.Game, 'The game', 'ETag'),
          304: NOT_MODIFIED,
          ...problems(400, 404, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        sendGame(res, await service.getGame(id, credentialOf(req)));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/games/{id}/legal-moves',
        operationId: 'listLegalMoves',
        summary: 'Legal moves of the side to move',
        security: PUBLIC,
        request: { params: idParams },
        responses: { 200: json(S.LegalMoves, 'The legal moves in notation'), ...problems(400, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        const game = await service.getGame(id, credentialOf(req));
        res.json({ id, version: game.version, toMove: game.toMove, moves: game.legalMoves });
      },
    },
    {
      spec: {
        method: 'post',
        path: '/games/{id}/validate',
        operationId: 'validateMove',
        summary: 'Check a move without playing it',
        security: PUBLIC,
        request: { params: idParams, body: { content: { 'application/json': { schema: S.ValidateBody } } } },
        responses: { 200: json(S.MoveCheck, 'What the move would do'), ...problems(400, 404, 409, 422, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        const { move } = parse(S.ValidateBody, req.body, 'body');
        const check = await service.validateMove(id, move, credentialOf(req));
        res.json({ move: check.move, position: check.position, details: check.details, ...check.view });
      },
    },
    ...gameWriteRoutes(services),
    {
      spec: {
        method: 'get',
        path: '/games/{id}/moves',
        operationId: 'listMoves',
        summary: "A page of the game's moves, oldest first",
        description:
          'Moves after ply `after` (default 0: from the first), at most `limit` (default 100); `next` is the ' +
          '`after` of the next page, null on the last one. A page costs the same however long the game is. ' +
          '(POST on the same path plays a move.)',
        security: PUBLIC,
        request: { params: idParams, query: S.MovesQuery },
        responses: { 200: json(S.MovePage, 'A page of moves'), ...problems(400, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        const query = parse(S.MovesQuery, req.query, 'query');
        res.json(await service.moves(id, query, credentialOf(req)));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/games/{id}/export',
        operationId: 'exportGame',
        summary: "The game's record",
        description:
          `Accept: ${RECORD_TYPES.join(', ')} (draughts only; 400 for the other games) or text/plain for the standard text record ` +
          '(PDN for draughts, PGN-like otherwise); application/json for the game document. Anything else ' +
          'gets the text record.',
        security: PUBLIC,
        request: { params: idParams, headers: readHeaders },
        responses: {
          200: {
            description: 'The record',
            headers: {
              ETag: {
                description: "application/json only: the game's version, as GET /games/{id} sends it",
                required: false,
                schema: { type: 'string' },
              },
            },
            content: {
              'text/plain': { schema: z.string() },
              ...Object.fromEntries(RECORD_TYPES.map((type) => [type, { schema: z.string() }])),
              'application/json': { schema: S.Game },
            },
          },
          304: NOT_MODIFIED,
          ...problems(400, 404, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        res.setHeader('Vary', 'Accept');
        const wanted = req.accepts(['text/plain', ...RECORD_TYPES, 'application/json']);
        if (wanted === 'application/json') return sendGame(res, await service.getGame(id, credentialOf(req)));
        const { text, kind, mediaType } = await service.exportGame(id, credentialOf(req));
        // A kind's own record type, or text/plain; one that cannot be given gets the kind's own.
        if (wanted && wanted !== 'text/plain' && wanted !== mediaType) {
          throw new GameError(
            'INVALID_INPUT',
            `${wanted} is not a record type of ${kind}; ask for text/plain`,
          );
        }
        res.type(wanted === 'text/plain' ? 'text/plain' : mediaType).send(text);
      },
    },
    {
      spec: {
        method: 'get',
        path: '/games/{id}/stream',
        operationId: 'streamGame',
        summary: 'Live updates (Server-Sent Events or NDJSON)',
        description: GAME_STREAM_DESCRIPTION,
        security: PUBLIC,
        request: { params: idParams, query: StreamQuery, headers: lastEventIdHeader },
        responses: {
          200: {
            description: 'The game now, then every change (each item as described)',
            content: {
              [SSE_MEDIA]: { schema: { $ref: '#/components/schemas/GameStreamEvent' } },
              [NDJSON_MEDIA]: { schema: { $ref: '#/components/schemas/GameStreamLine' } },
            },
          },
          ...problems(400, 404, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        const query = parse(StreamQuery, req.query, 'query');
        const format = streamFormatOf(req, res);
        const after = resumeAfter(req, format, query.after);
        const full = query.full === '1' || query.full === 'true';
        await holdStreamSlot(services.streamSlots, req, res);
        await streamGame(
          service,
          id,
          { after, full },
          res,
          streams,
          format,
          credentialOf(req),
          services.chat,
        );
      },
    },
  ];
}
