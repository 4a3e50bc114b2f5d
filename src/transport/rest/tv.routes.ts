import type { Response } from 'express';
import { z } from 'zod';
import type { Services } from '../../service';
import type { GameUpdate } from '../../service/game/watch';
import { MAX_WATCHED_ACCOUNTS, type AccountGameMessage } from '../../service/game/account-games';
import type { TvMessage, TvService } from '../../service/game/tv';
import { json, parse, problems, PUBLIC, readerCredentialOf, type RestRoute } from './route';
import * as S from './schemas';
import { SharedChunk } from './shared-chunk';
import {
  NDJSON,
  NDJSON_MEDIA,
  holdStreamSlot,
  openStream,
  SSE,
  SSE_MEDIA,
  streamFormatOf,
  type OpenStreams,
  type StreamFormat,
  type StreamFormatName,
} from './stream';

const tvParams = z.object({
  kind: z.string().openapi({ example: 'kalah', description: 'A hosted kind (GET /kinds)' }),
});

const TvChannel = z
  .object({
    kind: z.string().openapi({ example: 'kalah' }),
    game: S.Game.nullable().openapi({
      description: 'The featured game; null while no game of the kind is ongoing',
    }),
  })
  .openapi('TvChannel');

const TV_STREAM_DESCRIPTION = `The TV of a kind: the featured game (the highest-rated ongoing game, by the average of the seats'
ratings at its start, unrated seats counting 0; then the most recently active), followed live. The first message is
\`featured\` with the whole game (a Game); then its changes as the game stream sends them (\`update\`: the new version's
head and the move that made it). When the featured game ends (its last \`update\` says finished), the next one is
picked and sent whole as \`featured\`. While no game of the kind is ongoing, nothing is sent but keep-alives. The
Accept header chooses the form (the default is SSE):

- \`${SSE_MEDIA}\`: event \`featured\` (data = the Game), \`update\` (data = \`{"game":{…head},"move":{…}}\`), a
  \`: keep-alive\` comment every 15 s and \`shutdown\` when the server stops.
- \`${NDJSON_MEDIA}\`: \`{"type":"featured","game":{…}}\`, \`{"type":"update","game":{…head},"move":{…}}\`, an empty
  line every 15 s and \`{"type":"shutdown"}\` when the server stops.

An unknown kind is refused before the stream starts (UNKNOWN_GAME_KIND).`;

const TV_FRAMES: Record<
  StreamFormatName,
  {
    stream: StreamFormat;
    featured: (update: GameUpdate) => SharedChunk;
    update: (update: GameUpdate) => SharedChunk;
  }
> = {
  sse: {
    stream: SSE,
    featured: (update) => new SharedChunk(`event: featured\ndata: ${JSON.stringify(update.view)}\n\n`),
    update: (update) =>
      new SharedChunk(`event: update\ndata: ${JSON.stringify({ game: update.head, move: update.move })}\n\n`),
  },
  ndjson: {
    stream: NDJSON,
    featured: (update) => new SharedChunk(`${JSON.stringify({ type: 'featured', game: update.view })}\n`),
    update: (update) =>
      new SharedChunk(`${JSON.stringify({ type: 'update', game: update.head, move: update.move })}\n`),
  },
};

/** A kind's TV as a stream; each message encoded once per node, version and format (SharedChunk). */
function streamTv(
  tv: TvService,
  kind: string,
  res: Response,
  open: OpenStreams,
  format: StreamFormatName,
): void {
  const frames = TV_FRAMES[format];
  const pending: SharedChunk[] = [];
  let send: (chunk: SharedChunk) => void = (chunk) => pending.push(chunk);
  // watch() refuses an unknown kind before any byte is written.
  const stop = tv.watch(kind, (message: TvMessage) =>
    send(
      message.type === 'featured'
        ? message.update.encoded(`tv:${format}:featured`, frames.featured)
        : message.update.encoded(`tv:${format}:update`, frames.update),
    ),
  );
  const stream = openStream(res, open, frames.stream, () => void stop());
  for (const chunk of pending) stream.write(chunk);
  send = (chunk) => stream.write(chunk);
}

const accountsQuery = z.object({
  accounts: z.string().openapi({
    example: 'ada,grace',
    description: `Comma-separated usernames (1–${MAX_WATCHED_ACCOUNTS})`,
  }),
});

const ACCOUNT_GAMES_FRAMES: Record<
  StreamFormatName,
  { stream: StreamFormat; frame: (m: AccountGameMessage) => string }
> = {
  sse: { stream: SSE, frame: (m) => `event: ${m.type}\ndata: ${JSON.stringify(m.game)}\n\n` },
  ndjson: { stream: NDJSON, frame: (m) => `${JSON.stringify(m)}\n` },
};

/** Spectating routes under /api/v1 (TV, the games of chosen accounts); live streams register in `streams` so that shutdown can end them. */
export function tvRoutes(services: Services, streams: OpenStreams = new Set()): RestRoute[] {
  const tv = services.tv;
  return [
    {
      spec: {
        method: 'get',
        path: '/tv/{kind}',
        operationId: 'getTv',
        summary: "A kind's featured game now",
        security: PUBLIC,
        description:
          'The game the TV of this kind shows now: the highest-rated ongoing game (average of the seats’ ' +
          'ratings at its start), then the most recently active; `game` is null while none is ongoing.',
        request: { params: tvParams },
        responses: { 200: json(TvChannel, 'The featured game'), ...problems(400, 503) },
      },
      handle: async (req, res) => {
        const { kind } = parse(tvParams, req.params, 'path');
        const game = await tv.featured(kind);
        res.json({ kind, game });
      },
    },
    {
      spec: {
        method: 'get',
        path: '/tv/{kind}/stream',
        operationId: 'streamTv',
        summary: "A kind's TV, live (Server-Sent Events or NDJSON)",
        description: TV_STREAM_DESCRIPTION,
        security: PUBLIC,
        request: { params: tvParams },
        responses: {
          200: {
            description: 'The featured game, its changes, and each next featured game',
            content: {
              [SSE_MEDIA]: { schema: { $ref: '#/components/schemas/TvStreamEvent' } },
              [NDJSON_MEDIA]: { schema: { $ref: '#/components/schemas/TvStreamLine' } },
            },
          },
          ...problems(400, 503),
        },
      },
      handle: async (req, res) => {
        const { kind } = parse(tvParams, req.params, 'path');
        const format = streamFormatOf(req, res);
        await holdStreamSlot(services.streamSlots, req, res);
        streamTv(tv, kind, res, streams, format);
      },
    },
    {
      spec: {
        method: 'get',
        path: '/streams/games',
        operationId: 'streamAccountGames',
        summary: 'The games of chosen accounts, live (Server-Sent Events or NDJSON)',
        description:
          'Each game of any of `accounts` that starts or ends from now on, with its head (public: what ' +
          'GET /games/{id} shows), once per game even when both players are named; nothing else of their ' +
          'feeds. SSE: events `game.started` / `game.finished` (data = the GameHead), keep-alive comments, ' +
          '`shutdown`. NDJSON: `{"type":"game.started","game":{…}}` lines, empty keep-alive lines, ' +
          '`{"type":"shutdown"}`. Too many or no usernames: INVALID_INPUT; an unknown one: ACCOUNT_NOT_FOUND ' +
          '(before anything streams).',
        security: PUBLIC,
        request: { query: accountsQuery },
        responses: {
          200: {
            description: 'The games of those accounts as they start and end',
            content: {
              [SSE_MEDIA]: { schema: { $ref: '#/components/schemas/AccountGamesEvent' } },
              [NDJSON_MEDIA]: { schema: { $ref: '#/components/schemas/AccountGamesLine' } },
            },
          },
          ...problems(400, 404, 503),
        },
      },
      handle: async (req, res) => {
        const { accounts } = parse(accountsQuery, req.query, 'query');
        // Counted before the accounts are looked up: a client over its cap costs no store reads.
        await holdStreamSlot(services.streamSlots, req, res);
        const ids = await services.accountGames.resolve(accounts, readerCredentialOf(req));
        const format = streamFormatOf(req, res);
        const frames = ACCOUNT_GAMES_FRAMES[format];
        const pending: string[] = [];
        let send: (chunk: string) => void = (chunk) => pending.push(chunk);
        const stop = await services.accountGames.watch(ids, (m) => send(frames.frame(m)));
        // The client left while its feeds were being followed: nothing to stream.
        if (res.destroyed || req.socket.destroyed) return void (await stop());
        const stream = openStream(res, streams, frames.stream, () => void stop());
        for (const chunk of pending) stream.write(chunk);
        send = (chunk) => stream.write(chunk);
      },
    },
  ];
}
