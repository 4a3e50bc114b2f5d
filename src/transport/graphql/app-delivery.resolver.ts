import { Arg, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { DeliveryAttempt as DeliveryAttemptView, FeedEvent as FeedEventView } from '../../service/types';
import type { CreatedWebhook as CreatedWebhookView, WebhookView } from '../../service/delivery/webhooks';
import { FeedEvent, FeedPage } from './account-types';
import {
  credentialOf,
  IDEMPOTENCY_KEY_DESCRIPTION,
  keyOf,
  withoutNulls,
  type GraphQLContext,
} from './context';
import { cursorOf, subscribeFeed } from './feed.resolver';
import { CreatedWebhook, CreateWebhookInput, DeliveryAttempt, DeliveryLog, Webhook } from './webhook-types';

// An app's delivery (#30): its feed (every event of every account of the app, each naming its
// `account`) and its webhook endpoints, for the app's key (scope app:webhooks, no Boardhost-Account).
// Thin: each field is one service call, as the account's (feed.resolver.ts, webhook.resolver.ts).

const APP = 'App key with the scope app:webhooks, without Boardhost-Account.';

@Resolver(() => Webhook)
export class AppDeliveryResolver {
  @Query(() => FeedPage, {
    description: `The app feed's events after \`after\`, oldest first: every account's, each naming its \`account\`. ${APP}`,
  })
  appEvents(
    @Arg('after', () => Int, { description: 'The last seq seen (0: from the oldest kept).' }) after: number,
    @Ctx() ctx: GraphQLContext,
    @Arg('limit', () => Int, { nullable: true, description: 'Page size, 1–500 (default 100).' })
    limit?: number | null,
    @Arg('epoch', () => String, { nullable: true, description: 'The epoch of the last event seen.' })
    epoch?: string | null,
  ): Promise<{ events: FeedEventView[]; next: number; last: number; epoch: string }> {
    return ctx.services.appFeed.read(
      credentialOf(ctx),
      cursorOf(after, epoch) ?? { after },
      limit ?? undefined,
    );
  }

  @Subscription(() => FeedEvent, {
    name: 'appEvents',
    description: `The app feed's events, each exactly once and in order: those after \`after\` first, then live ones. ${APP}`,
    subscribe: subscribeFeed((services) => services.appFeed),
  })
  appEventsFeed(
    @Root() event: FeedEventView,
    @Arg('after', () => Int, { nullable: true, description: 'The last seq seen; omitted: from now on.' })
    _after?: number | null,
    @Arg('epoch', () => String, { nullable: true, description: 'The epoch of the last event seen.' })
    _epoch?: string | null,
  ): FeedEventView {
    return event;
  }

  @Query(() => [Webhook], { description: `The app's webhook endpoints, oldest first. ${APP}` })
  appWebhooks(@Ctx() ctx: GraphQLContext): Promise<WebhookView[]> {
    return ctx.services.appWebhooks.list(credentialOf(ctx));
  }

  @Query(() => Webhook, { description: `One of the app's webhook endpoints. ${APP}` })
  appWebhook(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<WebhookView> {
    return ctx.services.appWebhooks.get(credentialOf(ctx), id);
  }

  @Query(() => DeliveryLog, { description: `An app endpoint's delivery attempts, newest first. ${APP}` })
  appWebhookDeliveries(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('after', () => Int, { nullable: true, description: '`next` of the previous page.' })
    after?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: 'Page size, 1–100 (default 50).' })
    limit?: number | null,
  ): Promise<{ items: DeliveryAttemptView[]; next: number | null }> {
    return ctx.services.appWebhooks.deliveries(
      credentialOf(ctx),
      id,
      withoutNulls({ after, limit }) as { after?: number; limit?: number },
    );
  }

  @Mutation(() => CreatedWebhook, {
    description: `Register an endpoint for the app feed's events from now on (every account of the app; at most 10 per app); the secret is shown only here. ${APP}`,
  })
  createAppWebhook(
    @Arg('input', () => CreateWebhookInput) input: CreateWebhookInput,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DESCRIPTION })
    idempotencyKey?: string | null,
  ): Promise<CreatedWebhookView> {
    return ctx.services.appWebhooks.create(credentialOf(ctx), withoutNulls(input), keyOf(idempotencyKey));
  }

  @Mutation(() => Webhook, { description: `Remove an app endpoint and its log; answers what it was. ${APP}` })
  deleteAppWebhook(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<WebhookView> {
    return ctx.services.appWebhooks.delete(credentialOf(ctx), id);
  }

  @Mutation(() => DeliveryAttempt, {
    description: `Send an app delivery's event again, now and once, outside the ordered stream, with the same delivery id. ${APP}`,
  })
  redeliverAppWebhook(
    @Arg('id', () => ID) id: string,
    @Arg('deliveryId', () => ID) deliveryId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<DeliveryAttemptView> {
    return ctx.services.appWebhooks.redeliver(credentialOf(ctx), id, deliveryId);
  }
}
