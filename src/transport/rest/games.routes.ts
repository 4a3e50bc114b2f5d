import type { Request, Response } from 'express';
import { z } from 'zod';
import { GameError } from '../../service/errors';
import type { GameView } from '../../service/game-view';
import type { Services } from '../../service';
import type { WriteOptions } from '../../service/games';
import {
  credentialOf,
  idempotencyHeader,
  idempotencyKeyOf,
  json,
  parse,
  problems,
  seatSecurity,
  type RestRoute,
} from './route';
import * as S from './schemas';
import { streamGame, type OpenStreams } from './stream';

const idParams = z.object({ id: S.GameId });
const writeHeaders = z.object({
  authorization: z
    .string()
    .optional()
    .openapi({
      description:
        'Bearer <seat token> (bhs_…, games created without accounts), or Bearer <API token> (bhp_…) of the ' +
        'account holding the seat, with the scope game:play (humans) or bot:play (bots)',
    }),
  'if-match': z.string().optional().openapi({ description: 'The version the client expects, e.g. "3"' }),
  'idempotency-key': z
    .string()
    .optional()
    .openapi({ description: 'Retries with the same key act once (24 h)' }),
});

/** Who acts for a seat: a seat token, or an API token of the account holding it. */
const SEAT_AUTH =
  'Needs the seat token of that seat, or an API token of the account holding the seat with the scope ' +
  'game:play (human accounts) or bot:play (bot accounts).';

/** Bearer token, If-Match and Idempotency-Key of a write request. */
function writeOptions(req: Request, bodyVersion?: number): WriteOptions {
  const credential = credentialOf(req);
  const ifMatch = req.headers['if-match'];
  let expectedVersion = bodyVersion;
  if (ifMatch !== undefined) {
    const match = /^(?:W\/)?"?(\d{1,12})"?$/.exec(ifMatch.trim());
    if (!match) throw new GameError('INVALID_INPUT', 'If-Match must be a game version, e.g. "3"');
    const fromHeader = Number(match[1]);
    if (bodyVersion !== undefined && bodyVersion !== fromHeader) {
      throw new GameError('INVALID_INPUT', 'If-Match and expectedVersion disagree');
    }
    expectedVersion = fromHeader;
  }
  const key = req.headers['idempotency-key'];
  return {
    credential,
    ...(expectedVersion !== undefined ? { expectedVersion } : {}),
    ...(typeof key === 'string' ? { idempotencyKey: key } : {}),
  };
}

function sendGame(res: Response, game: GameView, status = 200): void {
  res.status(status).setHeader('ETag', `"${game.version}"`).json(game);
}

const PDN = 'application/x-draughts-pdn';

/** The game routes under /api/v1; live streams register in `streams` so that shutdown can end them. */
export function gameRoutes(services: Services, streams: OpenStreams = new Set()): RestRoute[] {
  const service = services.games;
  const action = (
    path: string,
    summary: string,
    run: (id: string, write: WriteOptions) => Promise<GameView>,
    description = '',
  ): RestRoute => ({
    spec: {
      method: 'post',
      path,
      summary,
      description: `${description}${description ? ' ' : ''}${SEAT_AUTH}`,
      security: seatSecurity,
      request: {
        params: idParams,
        headers: writeHeaders,
        body: { content: { 'application/json': { schema: S.ActionBody } }, required: false },
      },
      responses: {
        200: json(S.Game, 'The game after the action'),
        ...problems(400, 401, 403, 404, 409, 503),
      },
    },
    handle: async (req, res) => {
      const { id } = parse(idParams, req.params, 'path');
      const body = parse(S.ActionBody, req.body, 'body');
      sendGame(res, await run(id, writeOptions(req, body.expectedVersion)));
    },
  });

  return [
    {
      spec: {
        method: 'post',
        path: '/games',
        summary: 'Create a game',
        description:
          'Returns the game and one secret token per seat (shown only here). Counts against the client ' +
          'address’s daily games quota (429 QUOTA_EXCEEDED). Idempotency-Key retries are scoped to the address.',
        request: {
          headers: idempotencyHeader,
          body: { content: { 'application/json': { schema: S.CreateGameBody } } },
        },
        responses: {
          201: json(S.CreatedGame, 'The new game and its seat tokens'),
          ...problems(400, 409, 422, 429, 503),
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
        summary: 'List games, newest first',
        description: 'Filter by kind, status and `account` (a username holding a seat).',
        request: { query: S.ListQuery },
        responses: { 200: json(S.GamePage, 'A page of games'), ...problems(400, 503) },
      },
      handle: async (req, res) => {
        const query = parse(S.ListQuery, req.query, 'query');
        res.json(await service.listGames(query));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/games/{id}',
        summary: 'Read a game',
        request: { params: idParams },
        responses: { 200: json(S.Game, 'The game'), ...problems(400, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        sendGame(res, await service.getGame(id));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/games/{id}/legal-moves',
        summary: 'Legal moves of the side to move',
        request: { params: idParams },
        responses: { 200: json(S.LegalMoves, 'The legal moves in notation'), ...problems(400, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        const game = await service.getGame(id);
        res.json({ id, version: game.version, toMove: game.toMove, moves: game.legalMoves });
      },
    },
    {
      spec: {
        method: 'post',
        path: '/games/{id}/validate',
        summary: 'Check a move without playing it',
        request: { params: idParams, body: { content: { 'application/json': { schema: S.ValidateBody } } } },
        responses: { 200: json(S.MoveCheck, 'What the move would do'), ...problems(400, 404, 409, 422, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        const { move } = parse(S.ValidateBody, req.body, 'body');
        const check = await service.validateMove(id, move);
        res.json({ move: check.move, position: check.position, details: check.details, ...check.view });
      },
    },
    {
      spec: {
        method: 'post',
        path: '/games/{id}/moves',
        summary: 'Play a move',
        description:
          `The side to move plays. ${SEAT_AUTH} If-Match (or expectedVersion) guards against stale ` +
          'state; Idempotency-Key makes retries safe.',
        security: seatSecurity,
        request: {
          params: idParams,
          headers: writeHeaders,
          body: { content: { 'application/json': { schema: S.MoveBody } } },
        },
        responses: {
          200: json(S.Game, 'The game after the move'),
          ...problems(400, 401, 403, 404, 409, 422, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        const body = parse(S.MoveBody, req.body, 'body');
        sendGame(res, await service.submitMove(id, body.move, writeOptions(req, body.expectedVersion)));
      },
    },
    action('/games/{id}/resign', 'Resign (the player to move)', (id, w) => service.resign(id, w)),
    action('/games/{id}/draw/offer', "Offer a draw (accepts the opponent's offer)", (id, w) =>
      service.offerDraw(id, w),
    ),
    action('/games/{id}/draw/accept', "Accept the opponent's draw offer", (id, w) =>
      service.acceptDraw(id, w),
    ),
    action('/games/{id}/draw/decline', "Decline the opponent's draw offer", (id, w) =>
      service.declineDraw(id, w),
    ),
    action(
      '/games/{id}/draw/claim',
      'Claim a draw the rules allow',
      (id, w) => service.claimDraw(id, w),
      'Every draw rule of the hosted games ends the game by itself as soon as it applies, so a claim ' +
        'is refused with 409 NO_DRAW_CLAIM (offer a draw instead).',
    ),
    action(
      '/games/{id}/abort',
      'Abort the game (no result)',
      (id, w) => service.abort(id, w),
      'Either seat, while not both sides have moved; afterwards 409 TOO_LATE_TO_ABORT (resign instead).',
    ),
    {
      spec: {
        method: 'get',
        path: '/games/{id}/export',
        summary: "The game's record",
        description: `Accept: ${PDN} (draughts) or text/plain for the standard text record (PDN for draughts, PGN-like otherwise); application/json for the game document.`,
        request: { params: idParams },
        responses: {
          200: {
            description: 'The record',
            content: {
              'text/plain': { schema: z.string() },
              [PDN]: { schema: z.string() },
              'application/json': { schema: S.Game },
            },
          },
          ...problems(400, 404, 406, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        const wanted = req.accepts(['text/plain', PDN, 'application/json']);
        if (wanted === 'application/json') return sendGame(res, await service.getGame(id));
        const { text, kind } = await service.exportGame(id);
        if (wanted === PDN && kind !== 'russian-draughts') {
          throw new GameError('INVALID_INPUT', `${PDN} is for draughts; ask for text/plain`);
        }
        res.type(kind === 'russian-draughts' && wanted !== 'text/plain' ? PDN : 'text/plain').send(text);
      },
    },
    {
      spec: {
        method: 'get',
        path: '/games/{id}/stream',
        summary: 'Live updates (Server-Sent Events)',
        description:
          'Sends the game now (event `game`, id = version), then every change in order; a comment every ' +
          '15 s keeps the connection open. Reconnect with Last-Event-ID to skip versions already seen.',
        request: { params: idParams },
        responses: {
          200: { description: 'text/event-stream of Game documents' },
          ...problems(400, 404, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        await streamGame(service, id, req, res, streams);
      },
    },
  ];
}
