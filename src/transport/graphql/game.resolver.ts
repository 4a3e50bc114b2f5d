import {
  Arg,
  Args,
  ArgsType,
  Ctx,
  Field,
  ID,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
  Subscription,
} from 'type-graphql';
import type { GameView } from '../../service/game-view';
import type { WriteOptions } from '../../service/games';
import {
  credentialOf,
  IDEMPOTENCY_KEY_DESCRIPTION,
  keyOf,
  withoutNulls,
  type GraphQLContext,
} from './context';
import { CreatedGame, CreateGameInput, Game, GamePage, MoveCheck } from './types';
import { watchGame } from './watch';

/** The arguments every in-game action takes besides its own. */
@ArgsType()
class GameActionArgs {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true, description: 'Or send Authorization: Bearer.' })
  seatToken?: string | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Refused with VERSION_CONFLICT unless the game is at it.',
  })
  expectedVersion?: number | null;
  @Field(() => String, { nullable: true, description: 'Retries with the same key act once (24 h).' })
  idempotencyKey?: string | null;
}

/** Thin: each field is one service call; errors are GameErrors mapped in one place (errors.ts). */
@Resolver(() => Game)
export class GameResolver {
  @Query(() => [String], { description: 'The game kinds this server hosts.' })
  kinds(@Ctx() ctx: GraphQLContext): string[] {
    return ctx.services.games.kinds();
  }

  @Query(() => Game, { description: 'One game by id.' })
  game(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<GameView> {
    return ctx.services.games.getGame(id);
  }

  @Query(() => GamePage, { description: 'Games, newest first.' })
  games(
    @Ctx() ctx: GraphQLContext,
    @Arg('kind', () => String, { nullable: true }) kind?: string,
    @Arg('status', () => String, { nullable: true, description: 'ongoing or finished' }) status?: string,
    @Arg('after', () => String, { nullable: true, description: 'A nextCursor from the previous page.' })
    after?: string,
    @Arg('first', () => Int, { nullable: true, description: 'Page size, 1–100 (default 20).' })
    first?: number,
    @Arg('account', () => String, { nullable: true, description: 'Only games with a seat of this username.' })
    account?: string,
  ) {
    return ctx.services.games.listGames({
      ...(account !== undefined && account !== null ? { account } : {}),
      ...(kind !== undefined && kind !== null ? { kind } : {}),
      ...(status !== undefined && status !== null ? { status } : {}),
      ...(after !== undefined && after !== null ? { cursor: after } : {}),
      ...(first !== undefined && first !== null ? { limit: first } : {}),
    });
  }

  @Query(() => [String], { description: 'The legal moves of the side to move, in notation.' })
  legalMoves(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<readonly string[]> {
    return ctx.services.games.legalMoves(id);
  }

  @Query(() => MoveCheck, { description: 'What a move would do, without playing it.' })
  async validateMove(
    @Arg('id', () => ID) id: string,
    @Arg('move', () => String) move: string,
    @Ctx() ctx: GraphQLContext,
  ) {
    const check = await ctx.services.games.validateMove(id, move);
    return { move: check.move, position: check.position, details: check.details, ...check.view };
  }

  @Query(() => String, { description: "The game's text record (PDN for draughts, PGN-like for the others)." })
  async exportGame(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<string> {
    return (await ctx.services.games.exportGame(id)).text;
  }

  @Mutation(() => CreatedGame, { description: 'Create a game; the answer holds each seat’s secret token.' })
  createGame(
    @Arg('input', () => CreateGameInput) input: CreateGameInput,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DESCRIPTION })
    idempotencyKey?: string | null,
  ) {
    return ctx.services.games.createGame(
      {
        kind: input.kind,
        ...(input.options ? { options: input.options } : {}),
        ...(input.first !== undefined && input.first !== null ? { first: input.first } : {}),
        ...(input.timeControl ? { timeControl: withoutNulls(input.timeControl) } : {}),
      },
      { ...keyOf(idempotencyKey), ...(ctx.ip ? { ip: ctx.ip } : {}) },
    );
  }

  @Mutation(() => Game, {
    description:
      'Play a move for the seat whose token is given (or with an account token of a seated account).',
  })
  submitMove(
    @Arg('id', () => ID) id: string,
    @Arg('move', () => String) move: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('seatToken', () => String, { nullable: true, description: 'Or send Authorization: Bearer.' })
    seatToken?: string,
    @Arg('expectedVersion', () => Int, { nullable: true }) expectedVersion?: number,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey?: string,
  ): Promise<GameView> {
    return ctx.services.games.submitMove(
      id,
      move,
      writeOptions(ctx, seatToken, expectedVersion, idempotencyKey),
    );
  }

  @Mutation(() => Game, { description: 'The player to move resigns.' })
  resign(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<GameView> {
    return ctx.services.games.resign(args.id, actionOptions(ctx, args));
  }

  @Mutation(() => Game, {
    description: 'Either player ends the game without a result, while not both sides have moved.',
  })
  abortGame(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<GameView> {
    return ctx.services.games.abort(args.id, actionOptions(ctx, args));
  }

  @Mutation(() => Game, {
    description:
      'Claim a draw the rules allow on request. Every hosted game applies its draw rules by itself, ' +
      'so this answers NO_DRAW_CLAIM; offer a draw instead.',
  })
  claimDraw(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<GameView> {
    return ctx.services.games.claimDraw(args.id, actionOptions(ctx, args));
  }

  @Mutation(() => Game, { description: "Offer a draw (accepts the opponent's standing offer)." })
  offerDraw(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<GameView> {
    return ctx.services.games.offerDraw(args.id, actionOptions(ctx, args));
  }

  @Mutation(() => Game, { description: "Accept the opponent's draw offer." })
  acceptDraw(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<GameView> {
    return ctx.services.games.acceptDraw(args.id, actionOptions(ctx, args));
  }

  @Mutation(() => Game, { description: "Decline the opponent's draw offer." })
  declineDraw(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<GameView> {
    return ctx.services.games.declineDraw(args.id, actionOptions(ctx, args));
  }

  @Subscription(() => Game, {
    description: 'The game now, then every change, in order, from any server node.',
    subscribe: ({ args, context }) => watchGame((context as GraphQLContext).services.games, String(args.id)),
  })
  gameUpdated(@Arg('id', () => ID) _id: string, @Root() game: GameView): GameView {
    return game;
  }
}

function actionOptions(ctx: GraphQLContext, args: GameActionArgs): WriteOptions {
  return writeOptions(ctx, args.seatToken, args.expectedVersion, args.idempotencyKey);
}

function writeOptions(
  ctx: GraphQLContext,
  seatToken?: string | null,
  expectedVersion?: number | null,
  idempotencyKey?: string | null,
): WriteOptions {
  return {
    credential: credentialOf(ctx, seatToken),
    ...(expectedVersion !== undefined && expectedVersion !== null ? { expectedVersion } : {}),
    ...(idempotencyKey !== undefined && idempotencyKey !== null ? { idempotencyKey } : {}),
  };
}
