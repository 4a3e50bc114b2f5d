import { Arg, Ctx, Float, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { DEFAULT_CHALLENGE_PAGE, type ChallengeView } from '../../service/challenges/service';
import type { SeekView } from '../../service/challenges/seeks';
import type { TimeControlInput as TimeControlInputView } from '../../service/time/control';
import {
  Challenge,
  CreateChallengeInput,
  CreateSeekInput,
  Seek,
  type TimeControlInput,
} from './account-types';
import {
  credentialOf,
  IDEMPOTENCY_KEY_DESCRIPTION,
  keyOf,
  withoutNulls,
  type GraphQLContext,
} from './context';
import { kindInput } from './enums';

/** Challenges and seeks. Thin: each field is one service call. */
@Resolver(() => Challenge)
export class ChallengeResolver {
  @Query(() => Challenge, { description: 'One challenge by id (anyone with the id may read it).' })
  challenge(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<ChallengeView> {
    return ctx.services.challenges.get(id, credentialOf(ctx));
  }

  @Query(() => [Challenge], {
    description:
      'Open challenges the caller made or received, newest first: `limit` (1–100, default 50) of them ' +
      "created before `before` (ms since the epoch: the last one's createdAt for the next page).",
  })
  async myChallenges(
    @Ctx() ctx: GraphQLContext,
    @Arg('limit', () => Int, { nullable: true }) limit?: number | null,
    @Arg('before', () => Float, { nullable: true }) before?: number | null,
  ): Promise<ChallengeView[]> {
    const page = await ctx.services.challenges.listOpen(
      credentialOf(ctx),
      limit ?? DEFAULT_CHALLENGE_PAGE,
      before ?? undefined,
    );
    return page.items;
  }

  @Mutation(() => Challenge, {
    description: 'Challenge an account (`to`) or post an open challenge (scope challenge:write).',
  })
  createChallenge(
    @Arg('input', () => CreateChallengeInput) input: CreateChallengeInput,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DESCRIPTION })
    idempotencyKey?: string | null,
  ): Promise<ChallengeView> {
    const { timeControl, ...rest } = withoutNulls(input);
    return ctx.services.challenges.create(
      credentialOf(ctx),
      { ...rest, kind: kindInput(rest.kind), ...timeControlOf(timeControl) },
      keyOf(idempotencyKey),
    );
  }

  @Mutation(() => Challenge, {
    description: 'Accept a challenge; once it has its two players the game starts (event game.started).',
  })
  acceptChallenge(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<ChallengeView> {
    return ctx.services.challenges.accept(credentialOf(ctx), id);
  }

  @Mutation(() => Challenge, { description: 'Decline a challenge addressed to the caller.' })
  declineChallenge(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('reason', () => String, {
      nullable: true,
      description: 'generic (default), later, kind, options, timeControl or tooManyGames',
    })
    reason?: string | null,
  ): Promise<ChallengeView> {
    return ctx.services.challenges.decline(credentialOf(ctx), id, reason ?? undefined);
  }

  @Mutation(() => Challenge, { description: 'The challenger withdraws a challenge.' })
  cancelChallenge(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<ChallengeView> {
    return ctx.services.challenges.cancel(credentialOf(ctx), id);
  }

  @Mutation(() => Seek, {
    description: 'Seek a game: matched at once with a compatible waiting seek, or left waiting.',
  })
  createSeek(
    @Arg('input', () => CreateSeekInput) input: CreateSeekInput,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DESCRIPTION })
    idempotencyKey?: string | null,
  ): Promise<SeekView> {
    const { timeControl, ...rest } = withoutNulls(input);
    return ctx.services.seeks.createSeek(
      credentialOf(ctx),
      { ...rest, kind: kindInput(rest.kind), ...timeControlOf(timeControl) },
      keyOf(idempotencyKey),
    );
  }

  @Mutation(() => Boolean, { description: "Withdraw one's own waiting seek." })
  async cancelSeek(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.seeks.cancelSeek(credentialOf(ctx), id);
    return true;
  }
}

/** The nested time control without its null fields. */
function timeControlOf(input: TimeControlInput | undefined): { timeControl?: TimeControlInputView } {
  return input ? { timeControl: withoutNulls(input) } : {};
}
