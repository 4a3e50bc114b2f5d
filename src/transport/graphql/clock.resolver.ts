import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { VacationView } from '../../service/time/clocks';
import type { GameView } from '../../service/game/view';
import { Vacation } from './clock-types';
import { credentialOf, type GraphQLContext } from './context';
import { GamePage } from './types';

/** An account's own games and its vacations. Thin: each field is one service call. */
@Resolver()
export class ClockResolver {
  @Query(() => GamePage, {
    description:
      "The caller's games (scope game:read). my-turn: ongoing games where it is to move, earliest deadline " +
      'first (no deadline last); ongoing, finished, all (default): newest first. Keyset cursors: a game that ' +
      'changes between pages never makes another one be skipped or repeated.',
  })
  myGames(
    @Ctx() ctx: GraphQLContext,
    @Arg('filter', () => String, {
      nullable: true,
      description: 'my-turn, ongoing, finished or all (default)',
    })
    filter?: string | null,
    @Arg('kind', () => String, { nullable: true }) kind?: string | null,
    @Arg('limit', () => Int, { nullable: true, description: 'Page size, 1–100 (default 20).' })
    limit?: number | null,
    @Arg('after', () => String, { nullable: true, description: '`next` of the previous page.' })
    after?: string | null,
  ): Promise<{ items: GameView[]; next: string | null }> {
    return ctx.services.lists.myGames(credentialOf(ctx), {
      ...(filter != null ? { filter } : {}),
      ...(kind != null ? { kind } : {}),
      ...(limit != null ? { limit } : {}),
      ...(after != null ? { after } : {}),
    });
  }

  @Query(() => Vacation, { description: "The caller's vacation days (scope game:read)." })
  myVacation(@Ctx() ctx: GraphQLContext): Promise<VacationView> {
    return ctx.services.clocks.vacation(credentialOf(ctx));
  }

  @Mutation(() => Vacation, {
    description:
      'Start a vacation of `days` whole days now (scope game:play or bot:play): VACATION_ACTIVE while one ' +
      'lasts, VACATION_ALLOWANCE_EXCEEDED beyond the days left this year.',
  })
  startVacation(@Arg('days', () => Int) days: number, @Ctx() ctx: GraphQLContext): Promise<VacationView> {
    return ctx.services.clocks.startVacation(credentialOf(ctx), days);
  }

  @Mutation(() => Vacation, {
    description:
      'End the vacation in progress now, giving back the whole days not yet begun (scope game:play or ' +
      'bot:play); without one, changes nothing.',
  })
  endVacation(@Ctx() ctx: GraphQLContext): Promise<VacationView> {
    return ctx.services.clocks.endVacation(credentialOf(ctx));
  }
}
