import { Arg, Ctx, Field, ID, Mutation, ObjectType, Resolver } from 'type-graphql';
import type { RematchAnswer as Answer } from '../../service/game/rematch';
import type { GameView } from '../../service/game/view';
import type { RematchStatus } from '../../vocabulary';
import { credentialOf, type GraphQLContext } from './context';
import { RematchStatusEnum } from './enums';
import { Game, SeatToken } from './types';

// Rematches of finished games (docs/rematch.md): the same service calls as REST's
// POST /games/{id}/rematch, /rematch/accept and /rematch/decline.

@ObjectType({ description: 'What a rematch request answers.' })
export class RematchAnswer {
  @Field(() => RematchStatusEnum, {
    description:
      'offered: your offer stands (the opponent hears rematch.offered); accepted: the new game started ' +
      '(both hear its game.started); declined: the opponent’s offer is declined.',
  })
  status!: RematchStatus;
  @Field(() => Game, { nullable: true, description: 'The new game once accepted; null otherwise.' })
  game!: GameView | null;
  @Field(() => SeatToken, {
    nullable: true,
    description:
      'A seat held by a seat token: your seat in the new game and its secret token (each player receives ' +
      'its own by asking with its old token).',
  })
  seatToken?: SeatToken | null;
}

const RULES =
  'Only on a finished game (REMATCH_NOT_ALLOWED `ongoing`), by one of its seats, not for tournament or ' +
  'bulk games (`source`) nor between blocked players (`blocked`). Same kind, options, time control, rated ' +
  'flag, visibility and app, each player in the other seat; counts as a game start. At most one rematch ' +
  'per game: a repeated offer or accept answers the same new game.';

@Resolver()
export class RematchResolver {
  @Mutation(() => RematchAnswer, {
    description: `Offer a rematch; accepts the opponent’s standing offer, and against the AI at once. ${RULES}`,
  })
  offerRematch(
    @Arg('gameId', () => ID) gameId: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('seatToken', () => String, { nullable: true, description: 'Or send Authorization: Bearer.' })
    seatToken?: string | null,
  ): Promise<Answer> {
    return ctx.services.rematch.offer(credentialOf(ctx, seatToken), gameId);
  }

  @Mutation(() => RematchAnswer, {
    description: `Accept the opponent’s rematch offer (NO_REMATCH_OFFER without one). ${RULES}`,
  })
  acceptRematch(
    @Arg('gameId', () => ID) gameId: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('seatToken', () => String, { nullable: true, description: 'Or send Authorization: Bearer.' })
    seatToken?: string | null,
  ): Promise<Answer> {
    return ctx.services.rematch.accept(credentialOf(ctx, seatToken), gameId);
  }

  @Mutation(() => RematchAnswer, {
    description:
      'Decline the opponent’s rematch offer (NO_REMATCH_OFFER without one); the offerer may not offer ' +
      'again in this game (REMATCH_NOT_ALLOWED `declined`).',
  })
  declineRematch(
    @Arg('gameId', () => ID) gameId: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('seatToken', () => String, { nullable: true, description: 'Or send Authorization: Bearer.' })
    seatToken?: string | null,
  ): Promise<Answer> {
    return ctx.services.rematch.decline(credentialOf(ctx, seatToken), gameId);
  }
}
