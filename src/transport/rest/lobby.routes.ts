import { z } from 'zod';
import type { Services } from '../../service';
import { LOBBY_PAGE_MAX, LOBBY_SNAPSHOT_MAX, type LobbyEvent } from '../../service/challenges/lobby';
import { RATING_RANGE_BOUNDS } from '../../service/challenges/rating-range';
import { GameError } from '../../service/errors';
import { TIME_CONTROL_TYPES } from '../../vocabulary';
import * as A from './accounts.schemas';
import {
  apiToken,
  credentialOf,
  idempotencyHeader,
  idempotencyKeyOf,
  json,
  parse,
  problems,
  PUBLIC,
  readerCredentialOf,
  type RestRoute,
} from './route';
import {
  holdStreamSlot,
  NDJSON,
  NDJSON_MEDIA,
  openStream,
  SSE,
  SSE_MEDIA,
  streamFormatOf,
  type OpenStreams,
  type StreamFormat,
  type StreamFormatName,
} from './stream';

// The lobby (service/challenges/lobby.ts): the waiting seeks listed, live, and taken.

const seekParams = z.object({ id: A.SeekId });

export const LobbySeek = A.Seek.extend({
  username: z.string().openapi({ description: "The seeker's username" }),
  rating: z
    .number()
    .int()
    .openapi({ description: "The seeker's rating in the seek's perf (kind and speed), now" }),
  provisional: z.boolean().openapi({ description: 'The rating is provisional (few or old rated games)' }),
}).openapi('LobbySeek');

export const LobbyPage = z
  .object({
    items: z.array(LobbySeek),
    next: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `after` for the next page; null on the last page' }),
  })
  .openapi('LobbyPage');

const { lowest, highest } = RATING_RANGE_BOUNDS;

const LobbyFilter = z.object({
  kind: z.string().optional().openapi({ description: 'Only seeks of this kind', example: 'kalah' }),
  timeControl: z
    .enum(TIME_CONTROL_TYPES)
    .optional()
    .openapi({ description: 'Only seeks of this time control type' }),
  rated: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ description: 'true: only rated seeks; false: only casual ones' }),
  rating: z.coerce
    .number()
    .int()
    .min(lowest)
    .max(highest)
    .optional()
    .openapi({ type: 'integer', description: 'Only seeks whose rating range admits this rating' }),
});

const LobbyQuery = LobbyFilter.extend({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(LOBBY_PAGE_MAX)
    .optional()
    .openapi({ type: 'integer', description: `1–${LOBBY_PAGE_MAX}, default 20` }),
  after: z.string().optional().openapi({ description: "A previous page's `next`" }),
}).strict();

const StreamQuery = LobbyFilter.strict();

function filterOf(q: z.infer<typeof LobbyFilter>) {
  return {
    ...(q.kind === undefined ? {} : { kind: q.kind }),
    ...(q.timeControl === undefined ? {} : { timeControl: q.timeControl }),
    ...(q.rated === undefined ? {} : { rated: q.rated === 'true' }),
    ...(q.rating === undefined ? {} : { rating: q.rating }),
  };
}

const LOBBY_FRAMES: Record<StreamFormatName, { stream: StreamFormat; frame: (event: LobbyEvent) => string }> =
  {
    sse: {
      stream: SSE,
      frame: (event) => {
        const { type, ...data } = event;
        return `event: ${type}\ndata: ${JSON.stringify(type === 'seek.added' ? event.seek : data)}\n\n`;
      },
    },
    ndjson: { stream: NDJSON, frame: (event) => `${JSON.stringify(event)}\n` },
  };

const STREAM_DESCRIPTION = `The lobby live: the waiting seeks of the caller's pool (up to ${LOBBY_SNAPSHOT_MAX}, oldest first) as
\`seek.added\`, then \`ready\` (\`listed\`: how many, \`more\`: whether more wait than were sent), then each seek added and each
one sent that is removed (\`reason\`: matched, canceled, or expired at its expiresAt). Filters as GET /seeks. Counted in
the open-stream caps (TOO_MANY_STREAMS). The Accept header chooses the form (the default is SSE):

- \`${SSE_MEDIA}\`: event \`seek.added\` (data = the LobbySeek), \`seek.removed\` (data = \`{"id":…,"reason":…}\`),
  \`ready\` (data = \`{"listed":n,"more":false}\`), a \`: keep-alive\` comment every 15 s, \`shutdown\`, and \`error\` (a
  problem; UPDATES_LOST when changes were lost on the way: open it again).
- \`${NDJSON_MEDIA}\`: \`{"type":"seek.added","seek":{…}}\`, \`{"type":"seek.removed","id":…,"reason":…}\`,
  \`{"type":"ready","listed":n,"more":false}\`, empty keep-alive lines, \`{"type":"shutdown"}\`.`;

/** The lobby under /api/v1: GET /seeks, GET /seeks/stream, POST /seeks/{id}/accept. */
export function lobbyRoutes(services: Services, streams: OpenStreams = new Set()): RestRoute[] {
  const lobby = services.lobby;
  return [
    {
      spec: {
        method: 'get',
        path: '/seeks',
        operationId: 'listSeeks',
        tags: ['challenges'],
        summary: 'The lobby: waiting seeks',
        description:
          "The waiting, unexpired seeks of the caller's pool (an account's or app's; anonymous: the open pool), " +
          'oldest first, a page at a time, each with its seeker’s username and rating in the seek’s perf. ' +
          'Seeks of accounts the caller blocks, or that block it, are left out. Public.',
        security: PUBLIC,
        request: { query: LobbyQuery },
        responses: { 200: json(LobbyPage, 'A page of waiting seeks'), ...problems(400, 503) },
      },
      handle: async (req, res) => {
        const q = parse(LobbyQuery, req.query, 'query');
        res.json(
          await lobby.list(readerCredentialOf(req), filterOf(q), {
            ...(q.limit === undefined ? {} : { limit: q.limit }),
            ...(q.after === undefined ? {} : { after: q.after }),
          }),
        );
      },
    },
    {
      spec: {
        method: 'get',
        path: '/seeks/stream',
        operationId: 'streamSeeks',
        tags: ['challenges'],
        summary: 'The lobby, live (Server-Sent Events or NDJSON)',
        description: STREAM_DESCRIPTION,
        security: PUBLIC,
        request: { query: StreamQuery },
        responses: {
          200: {
            description: 'The waiting seeks, then each change',
            content: {
              [SSE_MEDIA]: { schema: { $ref: '#/components/schemas/LobbyStreamEvent' } },
              [NDJSON_MEDIA]: { schema: { $ref: '#/components/schemas/LobbyStreamLine' } },
            },
          },
          ...problems(400, 503),
        },
      },
      handle: async (req, res) => {
        const q = parse(StreamQuery, req.query, 'query');
        const format = streamFormatOf(req, res);
        await holdStreamSlot(services.streamSlots, req, res);
        const frames = LOBBY_FRAMES[format];
        // Until the headers are out, messages wait here, and a failure is remembered.
        const pending: string[] = [];
        let failure: { error: unknown } | undefined;
        let send: (chunk: string) => void = (chunk) => pending.push(chunk);
        let fail: (error: unknown) => void = (error) => (failure = { error });
        const stop = await lobby.watch(
          readerCredentialOf(req),
          filterOf(q),
          (event) => send(frames.frame(event)),
          (error) => fail(error),
        );
        if (res.destroyed || req.socket.destroyed) return void (await stop());
        const stream = openStream(res, streams, frames.stream, () => void stop());
        for (const chunk of pending) stream.write(chunk);
        const end = (error: unknown) =>
          stream.end(error instanceof GameError ? frames.stream.error(error) : undefined);
        if (failure) return end(failure.error);
        send = (chunk) => stream.write(chunk);
        fail = end;
      },
    },
    {
      spec: {
        method: 'post',
        path: '/seeks/{id}/accept',
        operationId: 'acceptSeek',
        tags: ['challenges'],
        summary: 'Take a listed seek',
        description:
          'Another account takes a waiting seek: the game starts at once (`game.started` in both feeds) and the ' +
          'answer is the seek, matched, with its game. Of two accepters one gets the game, the other 404 ' +
          'SEEK_NOT_FOUND (as for a seek matched, withdrawn or expired). 403 FORBIDDEN for one’s own seek, ' +
          'BLOCKED when either account blocks the other, RATING_OUT_OF_RANGE when the caller’s rating in the ' +
          "seek's perf is outside its range; 409 TOO_MANY_GAMES. Needs an API token with the scope challenge:write.",
        security: apiToken('challenge:write'),
        request: { params: seekParams, headers: idempotencyHeader },
        responses: {
          200: json(A.Seek, 'The seek, matched, and its game'),
          ...problems(400, 401, 403, 404, 409, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(seekParams, req.params, 'path');
        res.json(await lobby.accept(credentialOf(req), id, idempotencyKeyOf(req)));
      },
    },
  ];
}
