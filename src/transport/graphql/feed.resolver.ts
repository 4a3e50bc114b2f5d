import { Arg, Ctx, Int, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { FeedEvent as FeedEventView } from '../../service/types';
import { FeedEvent, FeedPage } from './account-types';
import { credentialOf, type GraphQLContext } from './context';
import { followFeed } from './watch';
import type { FeedCursor, FeedService } from '../../service/delivery/feed';
import type { Services } from '../../service';

const EPOCH_ARG =
  'The epoch of the last event seen: with it, a store that came back older is detected (FEED_EPOCH_CHANGED).';

/** A feed cursor from nullable `after`/`epoch` arguments (no `after`: none). */
export function cursorOf(
  after: number | null | undefined,
  epoch: string | null | undefined,
): FeedCursor | undefined {
  if (after === null || after === undefined) return undefined;
  return epoch === null || epoch === undefined ? { after } : { after, epoch };
}

/** A subscription's `subscribe` following the feed `pick` chooses (the account's, the app's) from `after`/`epoch`. */
export function subscribeFeed(pick: (services: Services) => FeedService) {
  return ({ args, context }: { args: Record<string, unknown>; context: unknown }) => {
    const ctx = context as GraphQLContext;
    const cursor = cursorOf(args.after as number | null | undefined, args.epoch as string | null | undefined);
    return followFeed(pick(ctx.services), credentialOf(ctx), cursor);
  };
}

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
    @Arg('epoch', () => String, { nullable: true, description: EPOCH_ARG }) epoch?: string | null,
  ): Promise<{ events: FeedEventView[]; next: number; last: number; epoch: string }> {
    return ctx.services.feed.read(credentialOf(ctx), cursorOf(after, epoch) ?? { after }, limit ?? undefined);
  }

  @Subscription(() => FeedEvent, {
    name: 'events',
    description:
      'The caller\'s events (token in the connection_init payload: { authorization: "Bearer bhp_…" }), ' +
      'each exactly once and in order: those after `after` first, then live ones. ' +
      'Fails with EVENTS_EXPIRED when those events were trimmed, FEED_EPOCH_CHANGED when the event store ' +
      'came back older than events seen (also mid-stream).',
    subscribe: subscribeFeed((services) => services.feed),
  })
  eventsFeed(
    @Root() event: FeedEventView,
    @Arg('after', () => Int, { nullable: true, description: 'The last seq seen; omitted: from now on.' })
    _after?: number | null,
    @Arg('epoch', () => String, { nullable: true, description: EPOCH_ARG }) _epoch?: string | null,
  ): FeedEventView {
    return event;
  }
}
