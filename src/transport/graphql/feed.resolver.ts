import { Arg, Ctx, Int, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { FeedEvent as FeedEventView } from '../../store/store';
import { FeedEvent, FeedPage } from './account-types';
import { credentialOf, type GraphQLContext } from './context';
import { followFeed } from './watch';

/** The caller's account feed: a page to poll, or a subscription that resumes. */
@Resolver(() => FeedEvent)
export class FeedResolver {
  @Query(() => FeedPage, {
    name: 'events',
    description: "The caller's events after `after`, oldest first (scope game:read).",
  })
  eventsPage(
    @Arg('after', () => Int, { description: 'The last seq seen (0: from the oldest kept).' }) after: number,
    @Ctx() ctx: GraphQLContext,
    @Arg('limit', () => Int, { nullable: true, description: 'Page size, 1–500 (default 100).' })
    limit?: number | null,
  ): Promise<{ events: FeedEventView[]; next: number; last: number }> {
    return ctx.services.feed.read(credentialOf(ctx), after, limit ?? undefined);
  }

  @Subscription(() => FeedEvent, {
    name: 'events',
    description:
      'The caller\'s events (token in the connection_init payload: { authorization: "Bearer bhp_…" }), ' +
      'each exactly once and in order: those after `after` first, then live ones. ' +
      'Fails with EVENTS_EXPIRED when those events were trimmed.',
    subscribe: ({ args, context }) => {
      const ctx = context as GraphQLContext;
      const after = args.after as number | null | undefined;
      return followFeed(ctx.services.feed, credentialOf(ctx), after ?? undefined);
    },
  })
  eventsFeed(
    @Root() event: FeedEventView,
    @Arg('after', () => Int, { nullable: true, description: 'The last seq seen; omitted: from now on.' })
    _after?: number | null,
  ): FeedEventView {
    return event;
  }
}
