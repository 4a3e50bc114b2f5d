// The ports between the service and storage. Two implementations (memory/, redis/) pass the
// same contract suite (test/store/store-contract.ts).
//
// This file is the one entry point: it re-exports every port and declares `Storage`, which holds
// them all. Each port lives in its own module under ports/:
//   games.ts         the stored game, its listings, GameStore
//   events.ts        GameEventBus: live game updates and token revocations across nodes
//   clocks.ts        ClockStore: deadlines, reminders, my-turn lists, vacations; clockIndexOf
//   time-control.ts  time controls (chosen in a challenge or seek; stored with the game)
//   accounts.ts      AccountStore: accounts and personal API tokens
//   apps.ts          AppStore: apps, their keys and sessions
//   challenges.ts    ChallengeStore
//   blocks.ts        BlockStore: the accounts an account blocks
//   chat.ts          ChatStore: each game's chat messages, mutes and live signals
//   seeks.ts         SeekStore
//   bulks.ts         BulkStore: bulk pairings (many games in one all-or-nothing step)
//   featured.ts      FeaturedIndex: TV's candidates per kind
//   feed.ts          EventFeed: one ordered, numbered, resumable feed per account
//   webhooks.ts      WebhookStore: endpoints, their cursors and delivery logs
//   push.ts          PushEndpointStore: push-mode bots' move endpoints
//   tournaments.ts   TournamentStore: tournaments, their listings and the director's active set
//   ratings.ts       RatingStore: Glicko-2 ratings per perf, their histories, leaderboards
//   idempotency.ts   IdempotencyStore: idempotency of creates
//   limiter.ts       RateLimiter (implemented in ../limiter.ts)
//
// The closed sets (statuses, reasons, event types, scopes) are defined in src/vocabulary.ts; the
// ports import them from there and re-export the ones the store and the service read through here.

import type { AccountStore } from './ports/accounts';
import type { AppStore } from './ports/apps';
import type { BlockStore } from './ports/blocks';
import type { BulkStore } from './ports/bulks';
import type { ChallengeStore } from './ports/challenges';
import type { ChatStore } from './ports/chat';
import type { ClockStore } from './ports/clocks';
import type { GameEventBus } from './ports/events';
import type { FeaturedIndex } from './ports/featured';
import type { EventFeed } from './ports/feed';
import type { GameStore } from './ports/games';
import type { IdempotencyStore } from './ports/idempotency';
import type { LimiterOptions, RateLimiter } from './ports/limiter';
import type { PushEndpointStore } from './ports/push';
import type { RatingStore } from './ports/ratings';
import type { SeekStore } from './ports/seeks';
import type { TournamentStore } from './ports/tournaments';
import type { WebhookStore } from './ports/webhooks';

export * from './ports/accounts';
export * from './ports/apps';
export * from './ports/blocks';
export * from './ports/bulks';
export * from './ports/challenges';
export * from './ports/chat';
export * from './ports/clocks';
export * from './ports/events';
export * from './ports/featured';
export * from './ports/feed';
export * from './ports/games';
export * from './ports/idempotency';
export * from './ports/limiter';
export * from './ports/push';
export * from './ports/ratings';
export * from './ports/seeks';
export * from './ports/time-control';
export * from './ports/tournaments';
export * from './ports/webhooks';

export interface Storage {
  readonly games: GameStore;
  readonly events: GameEventBus;
  /** Deadlines, reminders, my-turn lists and vacations (see ports/clocks.ts). */
  readonly clocks: ClockStore;
  readonly accounts: AccountStore;
  /** Apps, their keys and their accounts' sessions (see ports/apps.ts). */
  readonly apps: AppStore;
  readonly challenges: ChallengeStore;
  readonly seeks: SeekStore;
  /** Blocks between accounts: refused challenges and pairings (see ports/blocks.ts). */
  readonly blocks: BlockStore;
  /** Each game's chat: messages, the seats that mute, live signals (see ports/chat.ts). */
  readonly chat: ChatStore;
  /** Bulk pairings: their documents and state machine (see ports/bulks.ts). */
  readonly bulks: BulkStore;
  readonly feed: EventFeed;
  /** TV: the ongoing games of each kind, best first (see ports/featured.ts). */
  readonly featured: FeaturedIndex;
  readonly webhooks: WebhookStore;
  /** Push-mode bots' move endpoints. */
  readonly push: PushEndpointStore;
  /** Tournaments (round robin, Swiss): documents written with compare-and-set. */
  readonly tournaments: TournamentStore;
  /** Ratings per account and perf, their histories and the leaderboards. */
  readonly ratings: RatingStore;
  /** Idempotency records of creates (games, challenges, seeks, tokens, accounts). */
  readonly idempotency: IdempotencyStore;
  /** A fixed-window rate limiter shared by every node using this storage. */
  limiter(options: LimiterOptions): RateLimiter;
  /** 'memory' or 'redis', for /readyz and logs. */
  readonly name: string;
  /**
   * Tells `listener` what goes wrong in the store's own background work (Redis: the outbox relay,
   * `source` 'relay'), which retries by itself; returns the unsubscribe. Absent: nothing runs there.
   */
  onBackgroundError?(listener: (error: unknown, source: string) => void): () => void;
}
