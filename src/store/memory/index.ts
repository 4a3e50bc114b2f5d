import { createLimiter } from '../limiter';
import type { FeedOptions, RateLimiter, Storage } from '../store';
import { MemoryAccountStore } from './accounts';
import { MemoryAppStore } from './apps';
import { MemoryBlockStore } from './blocks';
import { MemoryBulkStore } from './bulks';
import { MemoryChallengeStore } from './challenges';
import { MemoryChatStore } from './chat';
import { MemoryClockStore } from './clocks';
import { MemoryFeaturedIndex } from './featured';
import { MemoryEventFeed } from './feed';
import { MemoryEventBus, MemoryGameStore } from './games';
import { MemoryIdempotencyStore } from './idempotency';
import { MemoryPushEndpointStore } from './push';
import { MemoryRatingStore } from './ratings';
import { MemorySeekStore } from './seeks';
import { MemoryTournamentStore } from './tournaments';
import { MemoryWebhookStore } from './webhooks';

export { MemoryAccountStore } from './accounts';
export { MemoryAppStore } from './apps';
export { MemoryBlockStore } from './blocks';
export { MemoryBulkStore } from './bulks';
export { MemoryChallengeStore } from './challenges';
export { MemoryChatStore } from './chat';
export { MemoryClockIndex, MemoryClockStore } from './clocks';
export { MemoryEventFeed } from './feed';
export { MemoryEventBus, MemoryGameStore } from './games';
export { MemoryIdempotencyStore } from './idempotency';
export { MemoryRatingStore } from './ratings';
export { MemorySeekStore } from './seeks';
export { MemoryTournamentStore } from './tournaments';
export { MemoryWebhookStore } from './webhooks';

/** The embedded storage: games, accounts, challenges, feeds and live updates in this process. */
export function createMemoryStorage(now?: () => number, options: { feed?: FeedOptions } = {}): Storage {
  const events = new MemoryEventBus();
  const feed = new MemoryEventFeed(options.feed);
  const ratings = new MemoryRatingStore(feed);
  const games = new MemoryGameStore(events, feed, now, ratings);
  const accounts = new MemoryAccountStore((hash) => events.revoked(hash));
  const limiters = new Map<string, RateLimiter>();
  return {
    name: 'memory',
    games,
    events,
    clocks: new MemoryClockStore(games, feed),
    accounts,
    apps: new MemoryAppStore(accounts, (hash) => events.revoked(hash)),
    challenges: new MemoryChallengeStore(games, feed),
    seeks: new MemorySeekStore(),
    blocks: new MemoryBlockStore(),
    chat: new MemoryChatStore(now),
    bulks: new MemoryBulkStore(),
    feed,
    featured: new MemoryFeaturedIndex(),
    webhooks: new MemoryWebhookStore((account) => feed.head(account)),
    push: new MemoryPushEndpointStore(),
    tournaments: new MemoryTournamentStore(feed),
    ratings,
    idempotency: new MemoryIdempotencyStore(now),
    // One limiter per name and limits, as Redis keys them: every service counting a quota under
    // the same name (GameService, AiGames, RematchService count 'games') shares one count.
    limiter: (options) => {
      const key = `${options.name}\u0000${options.points}\u0000${options.windowSeconds}`;
      let limiter = limiters.get(key);
      if (!limiter) limiters.set(key, (limiter = createLimiter(options)));
      return limiter;
    },
  };
}
