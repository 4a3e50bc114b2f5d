import { Arg, Ctx, Field, ID, Mutation, ObjectType, Resolver } from 'type-graphql';
import { MAX_SPECTATORS } from '../../service/game/audience';
import type { SpectatorsView } from '../../service/game/spectators';
import { credentialOf, type GraphQLContext } from './context';

@ObjectType({ description: 'The accounts a private game’s app invited to read and watch it.' })
export class GameSpectators {
  @Field(() => ID) gameId!: string;
  @Field(() => [String], { description: 'Account ids, in the order invited.' }) spectators!: string[];
}

const ABOUT =
  'The app key alone (no Boardhost-Account; scope game:read), for a game of its app and an account of ' +
  `its app (else GAME_NOT_FOUND / ACCOUNT_NOT_FOUND); at most ${MAX_SPECTATORS} spectators ` +
  '(APP_LIMIT_REACHED, what spectators). Idempotent. A change is a new version of the game (no feed event).';

/** A private game's spectators (see service/game/spectators.ts). Thin: each field is one service call. */
@Resolver(() => GameSpectators)
export class SpectatorResolver {
  @Mutation(() => GameSpectators, { description: `Invite an account to watch a private game. ${ABOUT}` })
  inviteSpectator(
    @Arg('gameId', () => ID) gameId: string,
    @Arg('accountId', () => String) accountId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<SpectatorsView> {
    return ctx.services.spectators.invite(credentialOf(ctx), gameId, accountId);
  }

  @Mutation(() => GameSpectators, { description: `Take back an invitation to watch a game. ${ABOUT}` })
  uninviteSpectator(
    @Arg('gameId', () => ID) gameId: string,
    @Arg('accountId', () => String) accountId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<SpectatorsView> {
    return ctx.services.spectators.uninvite(credentialOf(ctx), gameId, accountId);
  }
}
