import {
  Arg,
  Ctx,
  Field,
  ID,
  InputType,
  Int,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
  Subscription,
} from 'type-graphql';
import {
  LOBBY_PAGE_MAX,
  type LobbyEvent as LobbyEventView,
  type LobbyFilterInput,
  type LobbyPageView,
} from '../../service/challenges/lobby';
import type { SeekView } from '../../service/challenges/seeks';
import { LOBBY_EVENT_TYPES } from '../../vocabulary';
import { Seek } from './account-types';
import {
  credentialOf,
  IDEMPOTENCY_KEY_DESCRIPTION,
  keyOf,
  withoutNulls,
  type GraphQLContext,
} from './context';
import { TimeControlTypeEnum } from './enums';
import { kindInput } from './enums';
import { callbackIterator } from './watch';

// The lobby (service/challenges/lobby.ts): query seeks, subscription lobby, mutation acceptSeek.

@ObjectType({
  description: "A waiting seek as the lobby lists it: the seek, its seeker's username and rating.",
})
export class LobbySeek extends Seek {
  @Field(() => String, { description: "The seeker's username." }) username!: string;
  @Field(() => Int, { description: "The seeker's rating in the seek's perf (kind and speed), now." })
  rating!: number;
  @Field(() => Boolean, { description: 'The rating is provisional.' }) provisional!: boolean;
}

@ObjectType({ description: 'A page of the lobby, oldest first.' })
export class LobbyPage {
  @Field(() => [LobbySeek]) items!: LobbySeek[];
  @Field(() => String, {
    nullable: true,
    description: 'Pass as `after` for the next page; null on the last page.',
  })
  next!: string | null;
}

@InputType({ description: 'What the lobby shows (every field optional).' })
export class LobbyFilter {
  @Field(() => String, { nullable: true, description: 'Only seeks of this kind.' }) kind?: string | null;
  @Field(() => TimeControlTypeEnum, { nullable: true, description: 'Only seeks of this time control type.' })
  timeControl?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'true: only rated seeks; false: only casual ones.' })
  rated?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'Only seeks whose rating range admits this rating.' })
  rating?: number | null;
}

@ObjectType({
  description:
    `A live lobby message, by \`type\` (${LOBBY_EVENT_TYPES.join(', ')}, ready): seek.added carries \`seek\`; ` +
    'seek.removed `id` and `reason` (matched, canceled, expired); ready (after the seeks waiting at the start) ' +
    '`listed` and `more`.',
})
export class LobbyEvent {
  @Field(() => String) type!: string;
  @Field(() => LobbySeek, { nullable: true }) seek?: LobbySeek | null;
  @Field(() => ID, { nullable: true }) id?: string | null;
  @Field(() => String, { nullable: true }) reason?: string | null;
  @Field(() => Int, { nullable: true }) listed?: number | null;
  @Field(() => Boolean, { nullable: true }) more?: boolean | null;
}

function filterOf(filter: LobbyFilter | null | undefined): LobbyFilterInput {
  if (!filter) return {};
  const { kind, ...rest } = withoutNulls(filter);
  return { ...rest, ...(kind === undefined ? {} : { kind: kindInput(kind) }) };
}

@Resolver(() => LobbySeek)
export class LobbyResolver {
  @Query(() => LobbyPage, {
    description:
      "The lobby: waiting seeks of the caller's pool (anonymous: the open pool), oldest first, filtered, " +
      `\`limit\` (1–${LOBBY_PAGE_MAX}, default 20) after \`after\` (a page's \`next\`). Public.`,
  })
  seeks(
    @Ctx() ctx: GraphQLContext,
    @Arg('filter', () => LobbyFilter, { nullable: true }) filter?: LobbyFilter | null,
    @Arg('limit', () => Int, { nullable: true }) limit?: number | null,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ): Promise<LobbyPageView> {
    return ctx.services.lobby.list(credentialOf(ctx), filterOf(filter), { limit, after });
  }

  @Mutation(() => Seek, {
    description:
      'Take a listed seek: the game starts at once. Of two accepters one gets it, the other SEEK_NOT_FOUND; ' +
      'FORBIDDEN (own seek), BLOCKED, RATING_OUT_OF_RANGE, TOO_MANY_GAMES (scope challenge:write).',
  })
  acceptSeek(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DESCRIPTION })
    idempotencyKey?: string | null,
  ): Promise<SeekView> {
    return ctx.services.lobby.accept(credentialOf(ctx), id, keyOf(idempotencyKey));
  }

  @Subscription(() => LobbyEvent, {
    name: 'lobby',
    description:
      'The lobby live: each waiting seek (seek.added, up to 100, oldest first), `ready`, then each seek added ' +
      'and each one sent that is removed (matched, canceled, expired). Ends with UPDATES_LOST when changes were ' +
      'lost on the way: subscribe again. Counted in the open-stream caps.',
    subscribe: ({ args, context }) => {
      const ctx = context as GraphQLContext;
      return callbackIterator<LobbyEventView>((push, fail) =>
        ctx.services.lobby.watch(credentialOf(ctx), filterOf(args.filter as LobbyFilter | null), push, fail),
      );
    },
  })
  lobby(
    @Root() event: LobbyEventView,
    @Arg('filter', () => LobbyFilter, { nullable: true }) _filter?: LobbyFilter | null,
  ): LobbyEventView {
    return event;
  }
}
