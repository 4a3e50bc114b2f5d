import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { DeliveryAttempt as DeliveryAttemptView } from '../../service/types';
import type { CreatedWebhook as CreatedWebhookView, WebhookView } from '../../service/delivery/webhooks';
import {
  credentialOf,
  IDEMPOTENCY_KEY_DESCRIPTION,
  keyOf,
  withoutNulls,
  type GraphQLContext,
} from './context';
import { CreatedWebhook, CreateWebhookInput, DeliveryAttempt, DeliveryLog, Webhook } from './webhook-types';

/** Webhook endpoints of the caller's account (scope game:read). Thin: each field is one service call. */
@Resolver(() => Webhook)
export class WebhookResolver {
  @Query(() => [Webhook], { description: "The caller's webhook endpoints, oldest first (scope game:read)." })
  webhooks(@Ctx() ctx: GraphQLContext): Promise<WebhookView[]> {
    return ctx.services.webhooks.list(credentialOf(ctx));
  }

  @Query(() => Webhook, { description: 'One of the caller’s webhook endpoints.' })
  webhook(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<WebhookView> {
    return ctx.services.webhooks.get(credentialOf(ctx), id);
  }

  @Query(() => DeliveryLog, { description: "An endpoint's delivery attempts, newest first." })
  webhookDeliveries(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('after', () => Int, { nullable: true, description: '`next` of the previous page.' })
    after?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: 'Page size, 1–100 (default 50).' })
    limit?: number | null,
  ): Promise<{ items: DeliveryAttemptView[]; next: number | null }> {
    return ctx.services.webhooks.deliveries(
      credentialOf(ctx),
      id,
      withoutNulls({ after, limit }) as { after?: number; limit?: number },
    );
  }

  @Mutation(() => CreatedWebhook, {
    description:
      "Register an endpoint for the caller's feed events from now on; the secret is shown only here (scope game:read).",
  })
  createWebhook(
    @Arg('input', () => CreateWebhookInput) input: CreateWebhookInput,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DESCRIPTION })
    idempotencyKey?: string | null,
  ): Promise<CreatedWebhookView> {
    return ctx.services.webhooks.create(credentialOf(ctx), withoutNulls(input), keyOf(idempotencyKey));
  }

  @Mutation(() => Webhook, { description: 'Remove an endpoint and its log; answers what it was.' })
  deleteWebhook(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<WebhookView> {
    return ctx.services.webhooks.delete(credentialOf(ctx), id);
  }

  @Mutation(() => DeliveryAttempt, {
    description:
      "Send a delivery's event again, now and once, outside the ordered stream, with the same delivery id.",
  })
  redeliverWebhook(
    @Arg('id', () => ID) id: string,
    @Arg('deliveryId', () => ID) deliveryId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<DeliveryAttemptView> {
    return ctx.services.webhooks.redeliver(credentialOf(ctx), id, deliveryId);
  }
}
