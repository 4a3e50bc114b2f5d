import { z } from 'zod';
import { REMATCH_STATUSES } from '../../vocabulary';
import type { Services } from '../../service';
import type { RematchAnswer as Answer } from '../../service/game/rematch';
import { credentialOf, json, parse, problems, seatSecurity, type RestRoute } from './route';
import { idParams } from './game-writes.routes';
import * as S from './schemas';

// Rematches of finished games under /api/v1 (docs/rematch.md): offer, accept, decline.

export const RematchAnswer = z
  .object({
    status: z.enum(REMATCH_STATUSES).openapi({
      description:
        '`offered`: your offer stands (the opponent hears rematch.offered); `accepted`: the new game ' +
        'started (both hear its game.started); `declined`: the opponent’s offer is declined',
    }),
    game: S.orNull(S.Game).openapi({ description: 'The new game once accepted; null otherwise' }),
    seatToken: z
      .object({ seat: z.number().int(), name: z.string(), token: z.string() })
      .optional()
      .openapi({
        description:
          'A seat held by a seat token: your seat in the new game and its secret token (each player ' +
          'receives its own by asking with its old token: offer or accept again)',
      }),
  })
  .openapi('RematchAnswer');

const RULES =
  'Only on a finished game (else 409 REMATCH_NOT_ALLOWED `ongoing`), by one of its seats, not for ' +
  'tournament or bulk games (`source`) nor between players of whom one blocked the other (`blocked`). ' +
  'The rematch has the same kind, options, start, time control, rated flag, visibility and app, each ' +
  'player in the other seat (who moved second moves first), and counts as a game start (ongoing-games ' +
  'caps, daily quotas, restricted accounts). At most one rematch per game, whatever the races: a ' +
  'repeated offer or accept answers the same new game. Needs the seat token of a seat or an API token ' +
  'of the account holding it (game:play or bot:play).';

function send(res: Parameters<RestRoute['handle']>[1], answer: Answer, status: number): void {
  if (answer.game) res.setHeader('Location', `/api/v1/games/${answer.game.id}`);
  res.status(status).json(answer);
}

export function rematchRoutes(services: Services): RestRoute[] {
  const rematch = services.rematch;
  return [
    {
      spec: {
        method: 'post',
        path: '/games/{id}/rematch',
        operationId: 'offerRematch',
        summary: 'Offer a rematch (accepts the opponent’s offer; against the AI: at once)',
        description:
          'Offers a rematch of the finished game: 201 `{"status":"offered","game":null}`. When the ' +
          'opponent’s offer stands, or the opponent is the built-in AI, it is accepted at once: 201 ' +
          `\`{"status":"accepted","game":<the new Game>}\`. ${RULES}`,
        security: seatSecurity,
        request: { params: idParams },
        responses: {
          201: json(RematchAnswer, 'Offered, or accepted with the new game'),
          ...problems(400, 401, 403, 404, 409, 429, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        send(res, await rematch.offer(credentialOf(req), id), 201);
      },
    },
    {
      spec: {
        method: 'post',
        path: '/games/{id}/rematch/accept',
        operationId: 'acceptRematch',
        summary: 'Accept the opponent’s rematch offer',
        description:
          'Starts the rematch: 201 `{"status":"accepted","game":<the new Game>}`; again, the same game. ' +
          `409 NO_REMATCH_OFFER without the opponent’s offer. ${RULES}`,
        security: seatSecurity,
        request: { params: idParams },
        responses: {
          201: json(RematchAnswer, 'Accepted: the new game'),
          ...problems(400, 401, 403, 404, 409, 429, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        send(res, await rematch.accept(credentialOf(req), id), 201);
      },
    },
    {
      spec: {
        method: 'post',
        path: '/games/{id}/rematch/decline',
        operationId: 'declineRematch',
        summary: 'Decline the opponent’s rematch offer',
        description:
          'The offer is withdrawn and the offerer hears rematch.declined; it may not offer again in this ' +
          '(409 REMATCH_NOT_ALLOWED `declined`), you still may. 409 NO_REMATCH_OFFER without the ' +
          `opponent’s offer. ${RULES}`,
        security: seatSecurity,
        request: { params: idParams },
        responses: {
          200: json(RematchAnswer, 'Declined'),
          ...problems(400, 401, 403, 404, 409, 503),
        },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        send(res, await rematch.decline(credentialOf(req), id), 200);
      },
    },
  ];
}
