// The store's shapes the transports see, passed through the service: transports import nothing from
// src/store (eslint.config.js). Closed sets and their types come from src/vocabulary.ts instead.

/** An event of an account's feed, as streams, subscriptions and the feed resolver send it. */
export type { FeedEvent } from '../store/store';
/** One webhook delivery attempt, as the deliveries log shows it. */
export type { DeliveryAttempt } from '../store/store';
/**
 * The rate gate (src/transport/rate-limit.ts) counts requests in the storage's limiter itself:
 * `Storage` to make its limiters, `RateLimiter` and `LimiterVerdict` to use them.
 */
export type { LimiterVerdict, RateLimiter, Storage } from '../store/store';
