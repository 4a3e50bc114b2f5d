import { z } from 'zod';
import type { Services } from '../../service';
import { MAX_SPECTATORS } from '../../service/game/audience';
import { appKey, credentialOf, json, parse, problems, type RestRoute } from './route';
import * as S from './schemas';

// The app's own operations on its games (the bare app key, no Boardhost-Account): private games'
// spectators.

const SpectatorParams = z.object({
  gameId: S.GameId,
  accountId: z.string().min(1).max(200).openapi({
    description: 'An account of the app (its id)',
    example: 'app_3f9c0a7d21b84e65.9f3e2d1c0b4a5968',
  }),
});

const Spectators = z
  .object({
    gameId: S.GameId,
    spectators: z
      .array(z.string())
      .openapi({ description: 'The invited accounts (ids), in the order invited' }),
  })
  .openapi('GameSpectators');

const ABOUT =
  'A private game answers only its seats, its app’s key and the accounts the app invites as spectators ' +
  `(at most ${MAX_SPECTATORS}: past that 409 APP_LIMIT_REACHED, what spectators). The app key alone ` +
  '(no Boardhost-Account, scope game:read); a game of another app answers 404 GAME_NOT_FOUND, an account ' +
  'of another app 404 ACCOUNT_NOT_FOUND. Idempotent. A change is a new version of the game (no feed ' +
  'event; a client that sent If-Match with the version before gets 409 VERSION_CONFLICT once).';

export function appGameRoutes(services: Services): RestRoute[] {
  const spectators = services.spectators;
  return [
    {
      spec: {
        method: 'put',
        path: '/app/games/{gameId}/spectators/{accountId}',
        operationId: 'inviteSpectator',
        summary: 'Invite an account to watch a game',
        description: ABOUT,
        security: appKey('game:read'),
        request: { params: SpectatorParams },
        responses: {
          200: json(Spectators, 'The game’s spectators'),
          ...problems(400, 401, 403, 404, 409, 503),
        },
      },
      handle: async (req, res) => {
        const { gameId, accountId } = parse(SpectatorParams, req.params, 'path');
        res.json(await spectators.invite(credentialOf(req), gameId, accountId));
      },
    },
    {
      spec: {
        method: 'delete',
        path: '/app/games/{gameId}/spectators/{accountId}',
        operationId: 'uninviteSpectator',
        summary: 'Take back an invitation to watch a game',
        description: ABOUT,
        security: appKey('game:read'),
        request: { params: SpectatorParams },
        responses: {
          200: json(Spectators, 'The game’s spectators'),
          ...problems(400, 401, 403, 404, 409, 503),
        },
      },
      handle: async (req, res) => {
        const { gameId, accountId } = parse(SpectatorParams, req.params, 'path');
        res.json(await spectators.uninvite(credentialOf(req), gameId, accountId));
      },
    },
  ];
}
