import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Services } from '../../service';
import * as W from './webhooks.schemas';
import {
  apiToken,
  credentialOf,
  idempotencyHeader,
  idempotencyKeyOf,
  json,
  parse,
  problems,
  appKey,
  type RestRoute,
  type Security,
} from './route';
import type { WebhookService } from '../../service/delivery/webhooks';

const idParams = z.object({ id: W.WebhookId });
const deliveryParams = z.object({ id: W.WebhookId, deliveryId: W.DeliveryId });

const READ = 'Needs an API token with the scope game:read (webhooks carry what the event feed carries).';
const APP_NOTE = 'Needs an app key (without Boardhost-Account) with the scope app:webhooks.';

const DELIVERY = `Each event of the account's feed (the same events, \`seq\`-numbered, as GET /account/events) is POSTed
to each endpoint that wants its type, in \`seq\` order, one at a time per endpoint. The body is a WebhookPayload
(JSON); the headers:

- \`Boardhost-Delivery\`: the delivery id (a UUID), the same for every retry and redelivery of one event to one
  endpoint: deduplicate on it (delivery is at least once).
- \`Boardhost-Event\`: the event type.
- \`Boardhost-Timestamp\`: Unix seconds when this attempt was made.
- \`Boardhost-Signature\`: \`v1=\` and the hex HMAC-SHA256, keyed with the endpoint's secret, of
  \`<timestamp>.<raw body>\`. Verify it over the raw bytes, compare in constant time, and refuse timestamps more than
  5 minutes away from your clock.

A 2xx answer within the timeout (10 s unless configured) is a delivery; anything else (another status, a redirect,
no answer, an address that is not public) is a failed attempt, retried after 10 s, 20 s, 40 s… (at most 1 h apart)
until 24 h after the event happened. Then the event is given up (\`failed\` in the log) and the endpoint goes on with the next one, so one
dead event cannot block it; redeliver it once the receiver is fixed. Later events wait while an earlier one is
retried, so a receiver that was down gets what it missed in order.`;

/** The request Boardhost sends to a webhook endpoint (OpenAPI `webhooks`). */
export const WEBHOOK_DELIVERY: RouteConfig = {
  method: 'post',
  path: 'feedEvent',
  operationId: 'receiveFeedEvent',
  tags: ['webhooks'],
  // Sent by Boardhost, authenticated by the Boardhost-Signature header rather than a token.
  security: [],
  summary: 'An event of the account feed, delivered to a webhook endpoint',
  description: DELIVERY,
  request: {
    headers: z.object({
      'boardhost-delivery': W.DeliveryId,
      'boardhost-event': z.string().openapi({ description: 'The event type' }),
      'boardhost-timestamp': z.string().openapi({ description: 'Unix seconds of the attempt' }),
      'boardhost-signature': z
        .string()
        .openapi({ description: 'v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>' }),
    }),
    body: { content: { 'application/json': { schema: W.WebhookPayload } } },
  },
  responses: {
    200: { description: 'Any 2xx within the timeout: delivered' },
  },
};

/** Whose endpoints a set of webhook routes manages, and how the routes are named and secured. */
export interface WebhookRouteSet {
  readonly service: WebhookService;
  /** The collection's path: /account/webhooks or /app/webhooks. */
  readonly base: string;
  /** Operation ids: `name` for the account's (createWebhook…), with App inserted for an app's (createAppWebhook…). */
  readonly app: boolean;
  /** Whose events: "the account's", "every account of the app's". */
  readonly whose: string;
  /** Who owns the endpoints, for descriptions: account or app. */
  readonly owner: 'account' | 'app';
  readonly security: Security;
  /** The credential note ending each description. */
  readonly note: string;
}

/** Webhook endpoints of the account, their delivery logs, and redelivery under /api/v1. */
export function webhookRoutes(services: Services): RestRoute[] {
  return webhookRouteSet({
    service: services.webhooks,
    base: '/account/webhooks',
    app: false,
    whose: "the account's",
    owner: 'account',
    security: apiToken('game:read'),
    note: READ,
  });
}

/**
 * The same routes for an app (its key, scope app:webhooks): its endpoints get the app feed, every
 * event of every account of the app, each naming its `account`.
 */
export function appWebhookRoutes(services: Services): RestRoute[] {
  return webhookRouteSet({
    service: services.appWebhooks,
    base: '/app/webhooks',
    app: true,
    whose: "every account of the app's (the app feed, GET /app/events; each event names its `account`)",
    owner: 'app',
    security: appKey('app:webhooks'),
    note: APP_NOTE,
  });
}

function webhookRouteSet(set: WebhookRouteSet): RestRoute[] {
  const webhooks = set.service;
  const READ = set.note;
  const op = (name: string) => (set.app ? name.replace(/Webhook/, 'AppWebhook') : name);
  return [
    {
      spec: {
        method: 'post',
        path: set.base,
        operationId: op('createWebhook'),
        tags: ['webhooks'],
        summary: 'Register a webhook endpoint',
        description:
          `The endpoint gets ${set.whose} events from now on (see the feedEvent webhook for what is sent and how ` +
          `it is signed). The secret is shown only in this answer; it is stored as is, because signing needs it. ` +
          `400 UNSAFE_WEBHOOK_URL when the host is or resolves to an address that is not public (loopback, ` +
          `private, link-local…); the check is made again for every delivery. At most 10 endpoints per ${set.owner} ` +
          `(409 TOO_MANY_WEBHOOKS). They belong to the ${set.owner}: revoking the credential that registered one ` +
          `does not remove it. ${READ}`,
        security: set.security,
        request: {
          headers: idempotencyHeader,
          body: { content: { 'application/json': { schema: W.CreateWebhookBody } } },
        },
        responses: {
          201: json(W.CreatedWebhook, 'The endpoint, with its secret', 'Location'),
          ...problems(400, 401, 403, 409, 422, 503),
        },
      },
      handle: async (req, res) => {
        const body = parse(W.CreateWebhookBody, req.body, 'body');
        const created = await webhooks.create(credentialOf(req), body, idempotencyKeyOf(req));
        res.status(201).setHeader('Location', `/api/v1${set.base}/${created.id}`).json(created);
      },
    },
    {
      spec: {
        method: 'get',
        path: set.base,
        operationId: op('listWebhooks'),
        tags: ['webhooks'],
        summary: `The ${set.owner}'s webhook endpoints`,
        description: `Oldest first, without secrets. ${READ}`,
        security: set.security,
        responses: { 200: json(W.WebhookList, 'The endpoints'), ...problems(401, 403, 503) },
      },
      handle: async (req, res) => {
        res.json({ items: await webhooks.list(credentialOf(req)) });
      },
    },
    {
      spec: {
        method: 'get',
        path: `${set.base}/{id}`,
        operationId: op('getWebhook'),
        tags: ['webhooks'],
        summary: 'A webhook endpoint and how far its deliveries got',
        description: `\`cursor\` is the newest seq it is done with; \`pending\` the event being retried. ${READ}`,
        security: set.security,
        request: { params: idParams },
        responses: { 200: json(W.Webhook, 'The endpoint'), ...problems(400, 401, 403, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        res.json(await webhooks.get(credentialOf(req), id));
      },
    },
    {
      spec: {
        method: 'delete',
        path: `${set.base}/{id}`,
        operationId: op('deleteWebhook'),
        tags: ['webhooks'],
        summary: 'Remove a webhook endpoint',
        description: `Nothing more is sent to it (an attempt already under way still ends); its log goes too. ${READ}`,
        security: set.security,
        request: { params: idParams },
        responses: { 204: { description: 'Removed' }, ...problems(400, 401, 403, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        await webhooks.delete(credentialOf(req), id);
        res.status(204).end();
      },
    },
    {
      spec: {
        method: 'get',
        path: `${set.base}/{id}/deliveries`,
        operationId: op('listWebhookDeliveries'),
        tags: ['webhooks'],
        summary: "A webhook endpoint's delivery log",
        description:
          `Every attempt (status code, error, duration, outcome), newest first; about the last 1000 are kept. ` +
          `${READ}`,
        security: set.security,
        request: { params: idParams, query: W.DeliveriesQuery },
        responses: { 200: json(W.DeliveryLog, 'A page of attempts'), ...problems(400, 401, 403, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        const query = parse(W.DeliveriesQuery, req.query, 'query');
        res.json(
          await webhooks.deliveries(credentialOf(req), id, {
            ...(query.limit !== undefined ? { limit: query.limit } : {}),
            ...(query.after !== undefined ? { after: query.after } : {}),
          }),
        );
      },
    },
    {
      spec: {
        method: 'post',
        path: `${set.base}/{id}/deliveries/{deliveryId}/redeliver`,
        operationId: op('redeliverWebhook'),
        tags: ['webhooks'],
        summary: 'Send a delivery again, now',
        description:
          `Sends the delivery's event once more, now, outside the ordered stream (the endpoint's cursor does not ` +
          `move, and a failure is not retried), with the same delivery id. The answer is the attempt, also added ` +
          `to the log: 200 whether or not the receiver took it (see \`outcome\`). 404 DELIVERY_NOT_FOUND when the ` +
          `log no longer holds the delivery; 410 EVENTS_EXPIRED when its event left the feed (after the retention, 21 days by default, or lost when the store came back older) or the entry records skipped events. ` +
          READ,
        security: set.security,
        request: { params: deliveryParams },
        responses: {
          200: json(W.DeliveryAttempt, 'The attempt'),
          ...problems(400, 401, 403, 404, 410, 503),
        },
      },
      handle: async (req, res) => {
        const { id, deliveryId } = parse(deliveryParams, req.params, 'path');
        res.json(await webhooks.redeliver(credentialOf(req), id, deliveryId));
      },
    },
  ];
}
