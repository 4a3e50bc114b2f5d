import { Arg, Ctx, Field, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { PushEndpointView } from '../../service/bots/push-bots';
import { credentialOf, withoutNulls, type GraphQLContext } from './context';

// Push-mode bots: the account's move endpoint (REST: /account/push-endpoint, whose description says
// what each turn's request holds and what the answer must be). Thin: one service call per field.

@ObjectType({
  description:
    "A push-mode bot's move endpoint: on each of the account's turns the server POSTs the turn (signed like " +
    'webhooks) and plays the move the answer names.',
})
export class PushEndpoint {
  @Field(() => String) url!: string;
  @Field(() => String) createdAt!: string;
}

@ObjectType({ description: 'A registered move endpoint: the only answer that shows its secret.' })
export class CreatedPushEndpoint extends PushEndpoint {
  @Field(() => String, { description: 'Signs every request (pbsec_… when the server made it).' })
  secret!: string;
}

@InputType()
export class PushEndpointInput {
  @Field(() => String, { description: 'https URL whose host resolves to public addresses only.' })
  url!: string;
  @Field(() => String, {
    nullable: true,
    description: '16–200 visible ASCII characters; default: a new one.',
  })
  secret?: string | null;
}

@Resolver(() => PushEndpoint)
export class PushResolver {
  @Query(() => PushEndpoint, { nullable: true, description: "The caller's move endpoint; null: none." })
  async pushEndpoint(@Ctx() ctx: GraphQLContext): Promise<PushEndpointView | null> {
    return (await ctx.services.push.find(credentialOf(ctx))).endpoint;
  }

  @Mutation(() => CreatedPushEndpoint, {
    description: "Register (or replace) the caller's move endpoint (the account's play scope).",
  })
  setPushEndpoint(
    @Arg('input', () => PushEndpointInput) input: PushEndpointInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<CreatedPushEndpoint> {
    return ctx.services.push.register(credentialOf(ctx), withoutNulls(input));
  }

  @Mutation(() => Boolean, {
    description: 'Remove the move endpoint: the account plays its turns itself again (NOT_FOUND: none).',
  })
  async deletePushEndpoint(@Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.push.remove(credentialOf(ctx));
    return true;
  }
}
