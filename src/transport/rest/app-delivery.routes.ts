import type { Services } from '../../service';
import { feedRoute } from './accounts.routes';
import { appKey, type RestRoute } from './route';
import { JSON_MEDIA, NDJSON_MEDIA, SSE_MEDIA, type OpenStreams } from './stream';
import { appWebhookRoutes } from './webhooks.routes';

// An app's delivery (#30): its feed (every event of every account of the app) and the webhook
// endpoints that follow it, for the app's key (scope app:webhooks, without Boardhost-Account).

const APP_FEED_DESCRIPTION = `Every event of every account of the app (the events each account's own feed, GET
/account/events, holds), in one feed numbered 1, 2, 3… by \`seq\`, each naming its \`account\`. Each account's events
come in that account's order; events of different accounts interleave. An event reaches the app feed at once on the
embedded store and within a moment on Redis (a background forwarder carries it across shards; nothing is lost or
doubled when a node dies midway). Kept 21 days (FEED_RETENTION_DAYS), up to 100 times an account feed's cap. Needs an
app key (without Boardhost-Account) with the scope app:webhooks.

The forms, resuming (\`after\`, \`epoch\`, SSE \`Last-Event-ID\`), \`ready\`, keep-alives and errors are those of GET
/account/events: \`${SSE_MEDIA}\`, \`${NDJSON_MEDIA}\` (the default), or \`${JSON_MEDIA}\` for one page
\`{events, next, last, epoch}\`.`;

/** The app's feed and webhook endpoints under /api/v1/app. */
export function appDeliveryRoutes(services: Services, streams: OpenStreams = new Set()): RestRoute[] {
  return [
    feedRoute(services.appFeed, services, streams, {
      path: '/app/events',
      operationId: 'listAppEvents',
      summary: "The app's event feed: every account's events (SSE, NDJSON or a JSON page)",
      description: APP_FEED_DESCRIPTION,
      security: appKey('app:webhooks'),
    }),
    ...appWebhookRoutes(services),
  ];
}
