import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Field, ID, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { BulkView } from '../../service/challenges/bulk-view';
import { MAX_BULK_PAIRS } from '../../service/challenges/bulks';
import { credentialOf, withoutNulls, type GraphQLContext } from './context';
import { GameKindEnum, kindInput } from './enums';
import { START_POSITION, TimeControl, TimeControlInput } from './types';

// Bulk pairings (as lichess's bulk pairing): many games between pairs of accounts in one
// all-or-nothing call. Thin: each field is one service call (src/service/challenges/bulks.ts).

@ObjectType({ description: 'Why a bulk pairing was refused: the error it was refused with.' })
export class BulkRefusal {
  @Field(() => String, { description: 'Its error code (INTERRUPTED: the node making it stopped).' })
  code!: string;
  @Field(() => String) message!: string;
  @Field(() => GraphQLJSONObject, { description: 'Its details: `index` (the failing pair), `seat`…' })
  details!: Record<string, unknown>;
}

@ObjectType()
export class BulkGame {
  @Field(() => ID, { description: 'The game id (the game exists once the bulk is created).' }) id!: string;
  @Field(() => [String], { description: 'Its players: first seat, second seat.' }) players!: string[];
}

@ObjectType({ description: 'A bulk pairing: its games are all created, or none.' })
export class BulkPairing {
  @Field(() => ID) id!: string;
  @Field(() => String) creator!: string;
  @Field(() => GameKindEnum) kind!: string;
  @Field(() => String, {
    description:
      'reserving, scheduled (games made at startAt), creating, created, refused (see refusal) or canceled.',
  })
  state!: string;
  @Field(() => Boolean) rated!: boolean;
  @Field(() => TimeControl) timeControl!: TimeControl;
  @Field(() => String) startAt!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
  @Field(() => [BulkGame]) games!: BulkGame[];
  @Field(() => BulkRefusal, { nullable: true }) refusal!: BulkRefusal | null;
}

@InputType()
export class CreateBulkPairingInput {
  @Field(() => [[String]], {
    description:
      `1 to ${MAX_BULK_PAIRS} games, each the API tokens of its two players (first seat, second seat); each token ` +
      'must hold challenge:write, and an account may be in one pair only.',
  })
  pairs!: string[][];
  @Field(() => String) kind!: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) options?: Record<string, unknown> | null;
  @Field(() => TimeControlInput, { nullable: true }) timeControl?: TimeControlInput | null;
  @Field(() => String, { nullable: true, description: START_POSITION }) position?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Rated games (default false).' }) rated?:
    boolean | null;
  @Field(() => String, {
    nullable: true,
    description: 'Create the games then (ISO date-time, at most 7 days ahead); default now.',
  })
  startAt?: string | null;
}

@Resolver(() => BulkPairing)
export class BulkResolver {
  @Query(() => BulkPairing, { description: "One of the caller's bulk pairings." })
  bulkPairing(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<BulkView> {
    return ctx.services.bulks.get(credentialOf(ctx), id);
  }

  @Query(() => [BulkPairing], { description: "The caller's bulk pairings, newest first." })
  async myBulkPairings(
    @Ctx() ctx: GraphQLContext,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100 (default 20).' }) limit?: number | null,
  ): Promise<BulkView[]> {
    return (await ctx.services.bulks.list(credentialOf(ctx), { limit: limit ?? 20 })).items;
  }

  @Mutation(() => BulkPairing, {
    description:
      'Create games between pairs of accounts, all or none (scope challenge:bulk). A refusal names the pair ' +
      '(extensions: index, seat): BULK_TOKEN_INVALID, BULK_TOKEN_SCOPE, BULK_DUPLICATE_ACCOUNT, TOO_MANY_GAMES…',
  })
  createBulkPairing(
    @Arg('input', () => CreateBulkPairingInput) input: CreateBulkPairingInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<BulkView> {
    const { timeControl, ...rest } = withoutNulls(input);
    return ctx.services.bulks.create(credentialOf(ctx), {
      ...rest,
      kind: kindInput(rest.kind),
      ...(timeControl ? { timeControl: withoutNulls(timeControl) } : {}),
    });
  }

  @Mutation(() => BulkPairing, {
    description: 'Cancel a scheduled bulk pairing before it starts (scope challenge:bulk).',
  })
  cancelBulkPairing(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<BulkView> {
    return ctx.services.bulks.cancel(credentialOf(ctx), id);
  }
}
