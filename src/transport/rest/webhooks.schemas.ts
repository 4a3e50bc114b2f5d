import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { DELIVERY_OUTCOMES, FEED_EVENT_TYPES, SKIP_REASONS } from '../../vocabulary';
import { FeedEpochId, FeedEvent, FeedEventType } from './accounts.schemas';
import { orNull } from './schemas';

// Request and response shapes of webhook endpoints and their delivery logs.
extendZodWithOpenApi(z);

const DateTime = z.string().openapi({ format: 'date-time' });

export const WebhookId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{12}$/)
  .openapi({ description: 'Webhook id (12 characters)', example: 'Qw3rTy9_aB-x' });

export const DeliveryId = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  .openapi({
    description: 'Delivery id (a UUID; the Boardhost-Delivery header)',
    example: '6f1c2a9e-3b4d-4c5e-9f70-8a1b2c3d4e5f',
  });

export const CreateWebhookBody = z
  .object({
    url: z
      .string()
      .max(2000)
      .openapi({
        description:
          'http or https URL that receives a POST per event. Its host must resolve to public addresses only ' +
          '(unless the server allows private ones); no credentials, no #fragment. Redirects are not followed.',
        example: 'https://bot.example.com/boardhost/events',
      }),
    events: z
      .array(z.enum(FEED_EVENT_TYPES))
      .min(1)
      .optional()
      .openapi({ description: 'The event types to deliver; omitted: every type' }),
    secret: z.string().optional().openapi({
      description:
        'The signing secret, 16–200 visible ASCII characters; omitted: the server makes one (whsec_…)',
    }),
  })
  .strict()
  .openapi('CreateWebhookBody', {
    example: {
      url: 'https://bot.example.com/boardhost/events',
      events: ['challenge.received', 'game.started', 'game.moved', 'game.finished'],
    },
  });

export const PendingDelivery = z
  .object({
    seq: z.number().int().openapi({ description: 'The event being retried' }),
    deliveryId: DeliveryId,
    attempts: z.number().int().openapi({ description: 'Failed attempts so far' }),
    nextAttemptAt: DateTime,
  })
  .openapi('PendingDelivery');

export const Webhook = z
  .object({
    id: WebhookId,
    url: z.string(),
    events: z
      .array(FeedEventType)
      .nullable()
      .openapi({ description: 'The event types delivered; null: every type' }),
    createdAt: DateTime,
    createdBy: z.string().openapi({ description: 'The id of the API token that registered it' }),
    cursor: z.number().int().openapi({
      description:
        'The newest seq of the account feed the endpoint is done with (delivered, filtered out or given up)',
    }),
    epoch: orNull(FeedEpochId).openapi({ description: 'The feed epoch of `cursor`' }),
    pending: orNull(PendingDelivery).openapi({ description: 'The event being retried, if any' }),
  })
  .openapi('Webhook');

export const CreatedWebhook = Webhook.extend({
  secret: z.string().openapi({ description: 'The signing secret, shown only in this answer' }),
}).openapi('CreatedWebhook');

export const WebhookList = z.object({ items: z.array(Webhook) }).openapi('WebhookList');

export const DeliveryAttempt = z
  .object({
    n: z.number().int().openapi({ description: 'Place in the endpoint’s log (1, 2, 3…)' }),
    deliveryId: DeliveryId,
    seq: z.number().int().openapi({
      description: 'The event’s seq in the account feed; skipped entries: the first passed over',
    }),
    epoch: FeedEpochId.nullable().openapi({ description: 'The event’s feed epoch (null in older entries)' }),
    lastSeq: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Skipped entries: the last seq passed over' }),
    reason: z
      .enum(SKIP_REASONS)
      .nullable()
      .openapi({
        description:
          'Skipped entries: trimmed (the events left the feed before they could be sent) or epoch (the event store ' +
          'came back older and lost events the endpoint had been sent; the endpoint goes on after seq − 1 in the ' +
          'new epoch)',
      }),
    type: FeedEventType.nullable().openapi({ description: 'The event type; null for skipped entries' }),
    attempt: z
      .number()
      .int()
      .openapi({ description: '1, 2, 3… within the delivery (0 for skipped entries)' }),
    at: DateTime,
    durationMs: z.number().int(),
    statusCode: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'The receiver’s HTTP status; null when no answer came' }),
    error: z.string().nullable().openapi({ description: 'Why the attempt failed; null when delivered' }),
    outcome: z.enum(DELIVERY_OUTCOMES).openapi({
      description:
        'delivered (a 2xx); retrying (failed; again at nextAttemptAt); failed (failed and given up 24 h after the ' +
        'event, or a failed redelivery); skipped (events passed over without an attempt: see reason)',
    }),
    nextAttemptAt: DateTime.nullable(),
    redelivery: z.boolean().openapi({ description: 'Asked for with the redeliver operation' }),
  })
  .openapi('DeliveryAttempt');

export const DeliveryLog = z
  .object({
    items: z.array(DeliveryAttempt).openapi({ description: 'Newest first' }),
    next: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Pass as `after` for the next (older) page; null: this is the last page' }),
  })
  .openapi('DeliveryLog');

export const DeliveriesQuery = z
  .object({
    after: z.coerce.number().int().min(1).optional().openapi({
      type: 'integer',
      description: '`next` of the previous page',
    }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .openapi({ type: 'integer', description: 'Attempts per page, 1–100 (default 50)' }),
  })
  .strict();

/** The body of a delivery: a feed event and the account whose feed it is. */
export const WebhookPayload = z
  .intersection(
    z.object({
      account: z.string().openapi({
        description: "The account whose feed the event is in (an app's endpoints: each event's own account)",
      }),
    }),
    FeedEvent,
  )
  .openapi('WebhookPayload', {
    description:
      'The FeedEvent (`epoch`, `seq`, `type`, `at`, `data` as in the feed) and the account whose feed it is. ' +
      '`seq` is 1, 2, 3… per account: deliveries come in this order. An app endpoint gets the app feed: `seq` ' +
      'and `epoch` are the app feed’s (1, 2, 3… per app, in each account’s order), `account` names the account',
  });
