import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { AccountStatusView, LifecycleTarget } from '../../service/apps/lifecycle';
import type { AccountExport } from '../../service/apps/export';
import { credentialOf, type GraphQLContext } from './context';

// The app's moderation of its own accounts (by external id, an app key with app:moderate, no
// Boardhost-Account): suspend, ban, erase, export. The operator's are REST only (/api/v1/admin).

@ObjectType({ description: 'An account’s moderation state.' })
export class ModeratedAccount {
  @Field(() => String) id!: string;
  @Field(() => String, { description: 'The account’s app.' }) app!: string;
  @Field(() => String, { nullable: true }) externalId!: string | null;
  @Field(() => String) username!: string;
  @Field(() => String, { nullable: true }) displayName!: string | null;
  @Field(() => String, { description: 'human or bot.' }) kind!: string;
  @Field(() => String, { description: 'active, suspended or banned.' }) status!: string;
  @Field(() => String, { nullable: true, description: 'Why, shown to the account.' }) statusReason!:
    string | null;
  @Field(() => String) createdAt!: string;
}

const WHO = 'The app’s own account, by external id; an app key with the scope app:moderate.';

@Resolver()
export class LifecycleResolver {
  @Mutation(() => ModeratedAccount, {
    description:
      'Suspend: no new games, challenges, seeks, bulk pairings or tournament entries (ACCOUNT_RESTRICTED); ' +
      `ongoing games go on. ${WHO}`,
  })
  async suspendAccount(
    @Arg('externalId', () => String) externalId: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('reason', () => String, { nullable: true }) reason?: string | null,
  ): Promise<AccountStatusView> {
    return ctx.services.lifecycle.suspend(target(ctx, externalId), reason ?? undefined);
  }

  @Mutation(() => ModeratedAccount, { description: `Lift a suspension. ${WHO}` })
  async unsuspendAccount(
    @Arg('externalId', () => String) externalId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AccountStatusView> {
    return ctx.services.lifecycle.unsuspend(target(ctx, externalId));
  }

  @Mutation(() => ModeratedAccount, {
    description:
      'Ban: every credential refused, tokens and sessions revoked (streams end), open challenges closed, ' +
      `ongoing games lost by forfeit (reason banned). ${WHO}`,
  })
  async banAccount(
    @Arg('externalId', () => String) externalId: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('reason', () => String, { nullable: true }) reason?: string | null,
  ): Promise<AccountStatusView> {
    return ctx.services.lifecycle.ban(target(ctx, externalId), reason ?? undefined);
  }

  @Mutation(() => ModeratedAccount, { description: `Lift a ban (revoked tokens stay revoked). ${WHO}` })
  async unbanAccount(
    @Arg('externalId', () => String) externalId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AccountStatusView> {
    return ctx.services.lifecycle.unban(target(ctx, externalId));
  }

  @Mutation(() => Boolean, {
    description:
      'Erase the account’s personal data (ongoing games forfeited first); finished games stay as they are, ' +
      'leaderboards and standings show `deleted-<n>`; the username is held for 30 days; afterwards ' +
      'ACCOUNT_NOT_FOUND. ' +
      WHO,
  })
  async eraseAccount(
    @Arg('externalId', () => String) externalId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    await ctx.services.lifecycle.erase(target(ctx, externalId));
    return true;
  }

  @Query(() => GraphQLJSONObject, {
    description:
      'Every datum of the account, one JSON document (the REST export’s AccountExport): the account, ' +
      `tokens (no secrets), sessions, webhooks, blocks, ratings and histories, games, challenges, feed. ${WHO}`,
  })
  async exportAccount(
    @Arg('externalId', () => String) externalId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AccountExport> {
    return ctx.services.lifecycle.export(target(ctx, externalId));
  }
}

function target(ctx: GraphQLContext, externalId: string): LifecycleTarget {
  return { credential: credentialOf(ctx), externalId };
}
