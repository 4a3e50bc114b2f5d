import express, { type Router } from 'express';
import type { Services } from '../../service';
import { GameError } from '../../service/errors';
import { accountRoutes } from './accounts.routes';
import { adminRoutes } from './admin.routes';
import { appRoutes } from './apps.routes';
import { aiRoutes } from './ai.routes';
import { appDeliveryRoutes } from './app-delivery.routes';
import { appGameRoutes } from './app-games.routes';
import { bulkRoutes } from './bulks.routes';
import { blockRoutes } from './blocks.routes';
import { challengeRoutes } from './challenges.routes';
import { chatRoutes } from './chat.routes';
import { clockRoutes } from './clocks.routes';
import { lobbyRoutes } from './lobby.routes';
import { gameRoutes } from './games.routes';
import { tvRoutes } from './tv.routes';
import { sendProblem } from './problem';
import type { RestRoute } from './route';
import type { OpenStreams } from './stream';
import { pushRoutes } from './push.routes';
import { rematchRoutes } from './rematch.routes';
import { tournamentRoutes } from './tournaments.routes';
import { ratingRoutes } from './ratings.routes';
import { lifecycleRoutes } from './lifecycle.routes';
import { verificationRoutes } from './verification.routes';
import { webhookRoutes } from './webhooks.routes';
import { sessionRoutes } from './sessions.routes';

/** The largest request body the server reads (larger: 413 PAYLOAD_TOO_LARGE). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Every REST route under /api/v1: the one table the server mounts and the OpenAPI document is
 * generated from. Live streams register in `streams` so that shutdown can end them.
 */
export function restRoutes(services: Services, streams: OpenStreams = new Set()): RestRoute[] {
  return [
    // Before the game routes: /games/ai and /challenges/ai are not ids.
    ...aiRoutes(services),
    ...gameRoutes(services, streams),
    ...rematchRoutes(services),
    ...chatRoutes(services),
    ...tvRoutes(services, streams),
    ...accountRoutes(services, streams),
    ...clockRoutes(services, streams),
    ...challengeRoutes(services),
    ...lobbyRoutes(services, streams),
    ...blockRoutes(services),
    ...bulkRoutes(services),
    ...webhookRoutes(services),
    ...appDeliveryRoutes(services, streams),
    ...verificationRoutes(services),
    ...pushRoutes(services),
    ...tournamentRoutes(services),
    ...ratingRoutes(services),
    ...appGameRoutes(services),
    ...appRoutes(services),
    ...adminRoutes(services),
    ...lifecycleRoutes(services),
    ...sessionRoutes(services),
  ];
}

/**
 * The express router of the route table. A route that takes a JSON body refuses a body of any
 * other type with 415 UNSUPPORTED_MEDIA_TYPE (an empty body is no body); unknown paths answer 404.
 */
export function restRouter(routes: readonly RestRoute[]): Router {
  const router = express.Router();
  for (const route of routes) {
    const path = route.spec.path.replace(/\{(\w+)\}/g, ':$1');
    const takesJson = route.spec.request?.body?.content['application/json'] !== undefined;
    router[route.spec.method as 'get' | 'post' | 'put' | 'delete'](path, (req, res) => {
      if (takesJson && hasBody(req) && !req.is('application/json')) {
        throw new GameError(
          'UNSUPPORTED_MEDIA_TYPE',
          `The request body must be application/json, not ${req.headers['content-type'] ?? 'untyped'}`,
        );
      }
      return route.handle(req, res);
    });
  }
  router.use((req, res) =>
    sendProblem(res, new GameError('NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}`)),
  );
  return router;
}

/** True when the request carries body bytes (Content-Length: 0 is no body). */
function hasBody(req: express.Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}
