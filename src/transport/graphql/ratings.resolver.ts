import { Arg, Ctx, Field, FieldResolver, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { AccountView } from '../../service/accounts/service';
import type { AccountRatingsView, LeaderboardView, RatingHistoryView } from '../../service/ratings/service';
import { Account } from './account-types';
import { credentialOf, type GraphQLContext } from './context';

// Ratings (README "Ratings"): an account's per perf and their histories, and the leaderboards.
// Thin: each field is one service call.

@ObjectType({ description: "An account's Glicko-2 rating in one perf (kind + speed)." })
export class PerfRating {
  @Field(() => String) kind!: string;
  @Field(() => String, { description: 'realtime or correspondence' }) speed!: string;
  @Field(() => Int) rating!: number;
  @Field(() => Int, { description: 'Rating deviation, grown with the time since the last rated game.' })
  rd!: number;
  @Field(() => Boolean, { description: 'RD ≥ 110: not yet on the leaderboards.' }) provisional!: boolean;
  @Field(() => Int, { description: 'Rated games played in the perf.' }) games!: number;
  @Field(() => String, { nullable: true, description: 'When the last rated game ended.' })
  latest!: string | null;
}

@ObjectType()
export class RatingHistoryEntry {
  @Field(() => String) at!: string;
  @Field(() => Int) rating!: number;
  @Field(() => Int) rd!: number;
  @Field(() => String, { description: 'The rated game that made this rating.' }) game!: string;
}

@ObjectType({ description: 'Newest first; the newest 500 entries are kept.' })
export class RatingHistory {
  @Field(() => [RatingHistoryEntry]) items!: RatingHistoryEntry[];
  @Field(() => Int, { nullable: true, description: 'Pass as `before` for older entries; null: no more.' })
  next!: number | null;
}

@ObjectType()
export class LeaderboardEntry {
  @Field(() => Int) rank!: number;
  @Field(() => String) username!: string;
  @Field(() => Int) rating!: number;
  @Field(() => Int) rd!: number;
}

@ObjectType({ description: 'Best first; accounts whose rating is not provisional.' })
export class Leaderboard {
  @Field(() => [LeaderboardEntry]) items!: LeaderboardEntry[];
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null: no more.' })
  next!: string | null;
}

@Resolver(() => Account)
export class RatingsResolver {
  @FieldResolver(() => [PerfRating], { description: 'The perfs the account played rated.' })
  async ratings(
    @Root() account: AccountView,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AccountRatingsView['perfs']> {
    return (await ctx.services.ratings.ratings(account.id, credentialOf(ctx))).perfs;
  }

  @FieldResolver(() => RatingHistory, {
    description: "The account's rating history in a perf, newest first.",
  })
  ratingHistory(
    @Root() account: AccountView,
    @Arg('kind', () => String) kind: string,
    @Arg('speed', () => String, { description: 'realtime or correspondence' }) speed: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('first', () => Int, { nullable: true, description: '1–100, default 50' }) first?: number | null,
    @Arg('before', () => Int, { nullable: true }) before?: number | null,
  ): Promise<RatingHistoryView> {
    return ctx.services.ratings.history(
      account.id,
      kind,
      speed,
      { ...(first == null ? {} : { limit: first }), ...(before == null ? {} : { before }) },
      credentialOf(ctx),
    );
  }

  @Query(() => Leaderboard, { description: 'The best ratings of a perf, bots and humans apart.' })
  leaderboard(
    @Arg('kind', () => String) kind: string,
    @Arg('speed', () => String, { description: 'realtime or correspondence' }) speed: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('category', () => String, { nullable: true, description: 'human (default) or bot' })
    category?: string | null,
    @Arg('first', () => Int, { nullable: true, description: '1–100, default 20' }) first?: number | null,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ): Promise<LeaderboardView> {
    return ctx.services.ratings.leaderboard(
      kind,
      speed,
      category ?? undefined,
      {
        ...(first == null ? {} : { limit: first }),
        ...(after == null ? {} : { cursor: after }),
      },
      credentialOf(ctx),
    );
  }
}
