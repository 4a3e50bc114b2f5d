import type { Services } from '../../service';
import { accountRoutes } from './accounts.routes';
import { challengeRoutes } from './challenges.routes';
import { clockRoutes } from './clocks.routes';
import { gameRoutes } from './games.routes';
import type { RestRoute } from './route';
import type { OpenStreams } from './stream';
import { webhookRoutes } from './webhooks.routes';

/**
 * Every REST route under /api/v1: the one table the server mounts and the OpenAPI document is
 * generated from. Live streams register in `streams` so that shutdown can end them.
 */
export function restRoutes(services: Services, streams: OpenStreams = new Set()): RestRoute[] {
  return [
    ...gameRoutes(services, streams),
    ...accountRoutes(services, streams),
    ...clockRoutes(services, streams),
    ...challengeRoutes(services),
    ...webhookRoutes(services),
  ];
}
