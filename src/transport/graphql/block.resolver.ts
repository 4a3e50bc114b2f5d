import { Arg, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { DEFAULT_BLOCK_PAGE, type BlockView } from '../../service/accounts/blocks';
import { credentialOf, type GraphQLContext } from './context';

@ObjectType({ description: 'An account the caller blocks.' })
export class Block {
  @Field(() => String) username!: string;
  @Field(() => String, { description: 'Blocked since.' }) createdAt!: string;
}

/**
 * Blocks: a blocked account's challenges to the blocker are refused (BLOCKED), and so is its accepting
 * the blocker's open challenges; seeks never pair the two. Thin: each field is one service call.
 */
@Resolver(() => Block)
export class BlockResolver {
  @Query(() => [Block], {
    description:
      'The accounts the caller blocks, by username: `limit` (1–100, default 50) of them after `after` ' +
      "(the last one's username for the next page). Scope game:read or challenge:write.",
  })
  async myBlocks(
    @Ctx() ctx: GraphQLContext,
    @Arg('limit', () => Int, { nullable: true }) limit?: number | null,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ): Promise<BlockView[]> {
    const page = await ctx.services.blocks.list(
      credentialOf(ctx),
      limit ?? DEFAULT_BLOCK_PAGE,
      after ?? undefined,
    );
    return page.items;
  }

  @Mutation(() => Boolean, {
    description:
      'Block an account (idempotent; scope challenge:write): its open challenges to the caller are declined. ' +
      'INVALID_INPUT for oneself, ACCOUNT_NOT_FOUND, TOO_MANY_BLOCKS past MAX_BLOCKS_PER_ACCOUNT.',
  })
  async blockAccount(
    @Arg('username', () => String) username: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    await ctx.services.blocks.block(credentialOf(ctx), username);
    return true;
  }

  @Mutation(() => Boolean, { description: 'Unblock an account (idempotent; scope challenge:write).' })
  async unblockAccount(
    @Arg('username', () => String) username: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    await ctx.services.blocks.unblock(credentialOf(ctx), username);
    return true;
  }
}
