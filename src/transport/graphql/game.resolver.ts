import {
  Arg,
  Args,
  ArgsType,
  Ctx,
  Field,
  FieldResolver,
  ID,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
  Subscription,
} from 'type-graphql';
import {
  lastMoveOf,
  MOVE_PAGE_MAX,
  movesOf,
  type GameView,
  type LiveGameView,
  type MoveView,
} from '../../service/game/view';
import type { KindView } from '../../service/game/kinds';
import { namesOf } from '../../service/game/names';
import type { WriteAnswer, WriteOptions } from '../../service/game/writer';
import {
  credentialOf,
  IDEMPOTENCY_KEY_DESCRIPTION,
  keyOf,
  withoutNulls,
  type GraphQLContext,
} from './context';
import { kindInput } from './enums';
import { CreatedGame, CreateGameInput, Game, GameKindInfo, GamePage, Move, MoveCheck } from './types';
import { watchGame, watchTv } from './watch';

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
  @Query(() => [GameKindInfo], {
    description:
      'The game kinds this server hosts: seat names, options as a JSON Schema, notation and rules page ' +
      '(the same as REST GET /api/v1/kinds).',
  })
  kinds(@Ctx() ctx: GraphQLContext): KindView[] {
    return ctx.services.games.describeKinds();
  }

  @Query(() => Game, { description: 'One game by id.' })
  game(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<GameView> {
    return ctx.services.games.getGame(id, credentialOf(ctx));
  }

  @Query(() => GamePage, { description: 'Games, newest first.' })
  games(
    @Ctx() ctx: GraphQLContext,
    @Arg('kind', () => String, { nullable: true }) kind?: string,
    @Arg('status', () => String, { nullable: true, description: 'ongoing or finished' }) status?: string,
    @Arg('after', () => String, { nullable: true, description: '`next` of the previous page.' })
    after?: string,
    @Arg('limit', () => Int, { nullable: true, description: 'Page size, 1–100 (default 20).' })
    limit?: number,
    @Arg('account', () => String, { nullable: true, description: 'Only games with a seat of this username.' })
    account?: string,
  ) {
    return ctx.services.games.listGames(
      {
        ...(account !== undefined && account !== null ? { account } : {}),
        ...(kind !== undefined && kind !== null ? { kind: kindInput(kind) } : {}),
        ...(status !== undefined && status !== null ? { status } : {}),
        ...(after !== undefined && after !== null ? { after } : {}),
        ...(limit !== undefined && limit !== null ? { limit } : {}),
      },
      credentialOf(ctx),
    );
  }

  @Query(() => [String], { description: 'The legal moves of the side to move, in notation.' })
  legalMoves(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<readonly string[]> {
    return ctx.services.games.legalMoves(id, credentialOf(ctx));
  }

  @Query(() => MoveCheck, { description: 'What a move would do, without playing it.' })
  async validateMove(
    @Arg('id', () => ID) id: string,
    @Arg('move', () => String) move: string,
    @Ctx() ctx: GraphQLContext,
  ) {
    const check = await ctx.services.games.validateMove(id, move, credentialOf(ctx));
    return { move: check.move, position: check.position, details: check.details, ...check.view };
  }

  @Query(() => String, { description: "The game's text record (PDN for draughts, PGN-like for the others)." })
  async exportGame(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<string> {
    return (await ctx.services.games.exportGame(id, credentialOf(ctx))).text;
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
        kind: kindInput(input.kind),
        ...(input.options ? { options: input.options } : {}),
        ...(input.first !== undefined && input.first !== null ? { first: input.first } : {}),
        ...(input.position !== undefined && input.position !== null ? { position: input.position } : {}),
        ...(input.timeControl ? { timeControl: withoutNulls(input.timeControl) } : {}),
        ...(input.visibility ? { visibility: input.visibility } : {}),
        ...(input.settings ? { settings: { ...input.settings } } : {}),
      },
      { ...keyOf(idempotencyKey), ...(ctx.ip ? { ip: ctx.ip } : {}) },
    );
  }

  @Mutation(() => Game, {
    name: namesOf('move').mutation,
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
  ): Promise<LiveGameView> {
    return live(
      ctx.services.writer.apply(
        id,
        { type: 'move', move },
        writeOptions(ctx, seatToken, expectedVersion, idempotencyKey),
      ),
    );
  }

  @Mutation(() => Game, {
    name: namesOf('resign').mutation,
    description: 'Either player resigns, at any time (also on the opponent’s turn).',
  })
  resign(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<LiveGameView> {
    return live(ctx.services.writer.apply(args.id, { type: 'resign' }, actionOptions(ctx, args)));
  }

  @Mutation(() => Game, {
    name: namesOf('abort').mutation,
    description: 'Either player ends the game without a result, while not both sides have moved.',
  })
  abortGame(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<LiveGameView> {
    return live(ctx.services.writer.apply(args.id, { type: 'abort' }, actionOptions(ctx, args)));
  }

  @Mutation(() => Game, {
    name: namesOf('claim.draw').mutation,
    description:
      'Claim a draw. Every hosted game applies its draw rules by itself; what is left to claim is an ' +
      'abandoned game without a time control: once the opponent to move has not moved for the abandon ' +
      'period (default 3 days), the player waiting may end it as a draw (reason abandoned). ' +
      'CLAIM_TOO_EARLY before (claimableAt), NO_DRAW_CLAIM otherwise.',
  })
  claimDraw(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<LiveGameView> {
    return live(ctx.services.writer.apply(args.id, { type: 'claim.draw' }, actionOptions(ctx, args)));
  }

  @Mutation(() => Game, {
    name: namesOf('claim.victory').mutation,
    description:
      'Claim victory in an abandoned game without a time control: once the opponent to move has not ' +
      'moved for the abandon period (default 3 days), the player waiting wins (reason abandoned). ' +
      'CLAIM_TOO_EARLY before (claimableAt), NO_VICTORY_CLAIM with a time control or on one’s own turn.',
  })
  claimVictory(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<LiveGameView> {
    return live(ctx.services.writer.apply(args.id, { type: 'claim.victory' }, actionOptions(ctx, args)));
  }

  @Mutation(() => Game, {
    name: namesOf('draw.offer').mutation,
    description: "Offer a draw (accepts the opponent's standing offer).",
  })
  offerDraw(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<LiveGameView> {
    return live(ctx.services.writer.apply(args.id, { type: 'draw.offer' }, actionOptions(ctx, args)));
  }

  @Mutation(() => Game, {
    name: namesOf('draw.accept').mutation,
    description: "Accept the opponent's draw offer.",
  })
  acceptDraw(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<LiveGameView> {
    return live(ctx.services.writer.apply(args.id, { type: 'draw.accept' }, actionOptions(ctx, args)));
  }

  @Mutation(() => Game, {
    name: namesOf('draw.decline').mutation,
    description: "Decline the opponent's draw offer.",
  })
  declineDraw(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<LiveGameView> {
    return live(ctx.services.writer.apply(args.id, { type: 'draw.decline' }, actionOptions(ctx, args)));
  }

  @Mutation(() => Game, {
    name: namesOf('takeback.offer').mutation,
    description:
      'Ask to take back your last move (and every move after it; in mancala also the extra moves chained just before). ' +
      "Accepts the opponent's standing offer; the built-in AI accepts at once. Casual games only: " +
      'TAKEBACK_NOT_ALLOWED (reason rated, forbidden, nothing or offered).',
  })
  offerTakeback(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<LiveGameView> {
    return live(ctx.services.writer.apply(args.id, { type: 'takeback.offer' }, actionOptions(ctx, args)));
  }

  @Mutation(() => Game, {
    name: namesOf('takeback.accept').mutation,
    description:
      "Accept the opponent's takeback offer: its moves leave the game and the opponent is to move again. " +
      'NO_TAKEBACK_OFFER when none is pending (a move clears it).',
  })
  acceptTakeback(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<LiveGameView> {
    return live(ctx.services.writer.apply(args.id, { type: 'takeback.accept' }, actionOptions(ctx, args)));
  }

  @Mutation(() => Game, {
    name: namesOf('takeback.decline').mutation,
    description: "Decline the opponent's takeback offer (NO_TAKEBACK_OFFER when none is pending).",
  })
  declineTakeback(@Args() args: GameActionArgs, @Ctx() ctx: GraphQLContext): Promise<LiveGameView> {
    return live(ctx.services.writer.apply(args.id, { type: 'takeback.decline' }, actionOptions(ctx, args)));
  }

  @Subscription(() => Game, {
    description:
      'The game now, then every change, in order, from any server node. No version is skipped silently: if ' +
      'some were lost on the way to this server, the subscription ends with the error UPDATES_LOST; subscribe ' +
      'again for the game as it is now. Every field but `moves` costs the same however long the game is: select ' +
      '`lastMove`, or `moves(after: <the ply you have>)`, to follow the moves.',
    subscribe: ({ args, context }) =>
      watchGame(
        (context as GraphQLContext).services.games,
        String(args.id),
        credentialOf(context as GraphQLContext),
      ),
  })
  gameUpdated(@Arg('id', () => ID) _id: string, @Root() game: LiveGameView): LiveGameView {
    return game;
  }

  @Subscription(() => Game, {
    name: 'tv',
    description:
      "A kind's TV, public: the featured game (the highest-rated ongoing game, by the average of the seats' " +
      'ratings at its start; then the most recently active) now, then each of its versions; when it ends, the ' +
      'next featured game (another id) whole, then its versions. Nothing comes while no game of the kind is ' +
      'ongoing. An unknown kind: UNKNOWN_GAME_KIND.',
    subscribe: ({ args, context }) => watchTv((context as GraphQLContext).services.tv, String(args.kind)),
  })
  tvGame(@Arg('kind', () => String) _kind: string, @Root() game: LiveGameView): LiveGameView {
    return game;
  }

  @FieldResolver(() => [Move], {
    description:
      'The moves, oldest first: those after ply `after` (default 0), at most `limit` (default all). In ' +
      'gameUpdated, selecting every move costs as much as the game is long on each update: select ' +
      '`lastMove`, or `moves(after: <the ply you have>)`, to follow a game.',
  })
  moves(
    @Root() game: GameView | LiveGameView,
    @Arg('after', () => Int, {
      nullable: true,
      description: 'Only moves after this ply (0: from the first).',
    })
    after?: number | null,
    @Arg('limit', () => Int, { nullable: true, description: `At most this many (1–${MOVE_PAGE_MAX}).` })
    limit?: number | null,
  ): readonly MoveView[] {
    return movesOf(game, after ?? undefined, limit ?? undefined);
  }

  @FieldResolver(() => Move, {
    nullable: true,
    description:
      'The last move played (null before the first); a version no move made (a draw offer, a resignation…) ' +
      'has the same lastMove as the one before it (compare `ply`).',
  })
  lastMove(@Root() game: GameView | LiveGameView): MoveView | null {
    return lastMoveOf(game);
  }
}

/**
 * A write's game as GraphQL resolves it: the head, with `moves` and `lastMove` built only if the
 * selection asks for them (a mutation answer costs O(1) in the length of the game otherwise).
 */
async function live(answer: Promise<WriteAnswer>): Promise<LiveGameView> {
  return (await answer).live;
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
