import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { DELIVERY_OUTCOMES, FEED_EVENT_TYPES, SKIP_REASONS } from '../../vocabulary';

// GraphQL shapes of webhook endpoints and their delivery logs (the services' plain objects).

@ObjectType({ description: 'The event an endpoint is retrying.' })
export class PendingDelivery {
  @Field(() => Int) seq!: number;
  @Field(() => ID, { description: 'The Boardhost-Delivery header of its attempts.' }) deliveryId!: string;
  @Field(() => Int, { description: 'Failed attempts so far.' }) attempts!: number;
  @Field(() => String) nextAttemptAt!: string;
}

@ObjectType({
  description:
    "An endpoint that receives the account's feed events as signed POSTs (see the REST API's feedEvent webhook).",
})
export class Webhook {
  @Field(() => ID) id!: string;
  @Field(() => String) url!: string;
  @Field(() => [String], {
    nullable: true,
    description: `The event types delivered (among ${FEED_EVENT_TYPES.join(', ')}); null: every type.`,
  })
  events!: string[] | null;
  @Field(() => String) createdAt!: string;
  @Field(() => String, { description: 'The id of the API token that registered it.' }) createdBy!: string;
  @Field(() => Int, {
    description:
      'The newest seq of the account feed the endpoint is done with (delivered, filtered out or given up).',
  })
  cursor!: number;
  @Field(() => String, { nullable: true, description: 'The feed epoch of `cursor`.' })
  epoch!: string | null;
  @Field(() => PendingDelivery, { nullable: true, description: 'The event being retried, if any.' })
  pending!: PendingDelivery | null;
}

@ObjectType({ description: 'A new endpoint: the only answer that shows its secret.' })
export class CreatedWebhook extends Webhook {
  @Field(() => String, { description: 'The signing secret (whsec_… when the server made it).' })
  secret!: string;
}

@InputType()
export class CreateWebhookInput {
  @Field(() => String, {
    description:
      'http(s) URL whose host resolves to public addresses only (unless the server allows private ones).',
  })
  url!: string;
  @Field(() => [String], { nullable: true, description: 'Event types to deliver; omitted: every type.' })
  events?: string[] | null;
  @Field(() => String, {
    nullable: true,
    description: '16–200 visible ASCII characters; omitted: the server makes one.',
  })
  secret?: string | null;
}

@ObjectType({
  description:
    'One attempt to deliver one event to one endpoint; or (outcome skipped) events passed over without one.',
})
export class DeliveryAttempt {
  @Field(() => Int, { description: "Place in the endpoint's log (1, 2, 3…)." })
  n!: number;
  @Field(() => ID, { description: 'The same for every retry and redelivery of the event to the endpoint.' })
  deliveryId!: string;
  @Field(() => Int, { description: 'The event; skipped entries: the first seq passed over.' }) seq!: number;
  @Field(() => String, { nullable: true, description: 'The epoch of the event (null in older entries).' })
  epoch!: string | null;
  @Field(() => Int, { nullable: true, description: 'Skipped entries: the last seq passed over.' })
  lastSeq!: number | null;
  @Field(() => String, {
    nullable: true,
    description: `Skipped entries: why (${SKIP_REASONS.join(', ')}).`,
  })
  reason!: string | null;
  @Field(() => String, { nullable: true, description: 'The event type; null for skipped entries.' })
  type!: string | null;
  @Field(() => Int, { description: '1, 2, 3… within the delivery (0 for skipped entries).' })
  attempt!: number;
  @Field(() => String) at!: string;
  @Field(() => Int) durationMs!: number;
  @Field(() => Int, { nullable: true, description: "The receiver's HTTP status; null when no answer came." })
  statusCode!: number | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => String, { description: DELIVERY_OUTCOMES.join(', ') }) outcome!: string;
  @Field(() => String, { nullable: true }) nextAttemptAt!: string | null;
  @Field(() => Boolean) redelivery!: boolean;
}

@ObjectType()
export class DeliveryLog {
  @Field(() => [DeliveryAttempt], { description: 'Newest first.' }) items!: DeliveryAttempt[];
  @Field(() => Int, {
    nullable: true,
    description: 'Pass as `after` for the next (older) page; null: this is the last page.',
  })
  next!: number | null;
}
