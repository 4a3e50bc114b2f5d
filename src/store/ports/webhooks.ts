import type { DeliveryOutcome, FeedEventType, SkipReason } from '../../vocabulary';

// Webhooks: each endpoint follows its account's feed with a cursor (the feed is the outbox).

export interface StoredWebhook {
  readonly id: string;
  readonly account: string;
  readonly url: string;
  /** The event types delivered; null: every type. */
  readonly events: readonly FeedEventType[] | null;
  /**
   * The signing secret, as the service stores it: encrypted under the server key (`enc:v1:…`,
   * service/server-key.ts), or in plaintext in endpoints stored before that.
   */
  readonly secret: string;
  /** The id of the API token that registered the endpoint. */
  readonly createdBy: string;
  readonly createdAt: string;
}

/** The event an endpoint is retrying (its attempts so far failed). */
export interface PendingDelivery {
  readonly seq: number;
  /** One per event and endpoint: retries and redeliveries of the event keep it. */
  readonly deliveryId: string;
  readonly attempts: number;
  /** ISO time of the next attempt. */
  readonly nextAttemptAt: string;
}

export interface WebhookState {
  /** The newest seq of the account's feed the endpoint is done with (delivered, filtered out or given up). */
  readonly cursor: number;
  /** The feed epoch `cursor` belongs to (null: stored before epochs, taken as the current one). */
  readonly epoch: string | null;
  readonly pending: PendingDelivery | null;
  /**
   * Consecutive attempts that were slow (no answer within half the timeout, timed out included);
   * absent: none. At the worker's `demoteAfter` the endpoint is demoted (see ClaimShare).
   */
  readonly slow?: number;
}

/**
 * Names an endpoint: its id and its account. Stores keep an endpoint with its account (in the
 * account's shard on Redis), so the account says where to look; an endpoint named with another
 * account than its own is not found. A StoredWebhook is one.
 */
export interface WebhookRef {
  readonly id: string;
  readonly account: string;
}

export interface WebhookRecord {
  readonly webhook: StoredWebhook;
  readonly state: WebhookState;
}

/** An endpoint claimed for delivery: no other claim gets it until `release` or the lease ends. */
export interface WebhookClaim extends WebhookRecord {
  /** Proves the claim to `release`. */
  readonly lease: string;
}

/**
 * How a claim shares a node's delivery slots among accounts. Due endpoints are taken round-robin by
 * account: the account holding the fewest slots first (ties: the one due earliest), never more than
 * `perAccount` slots per account. A demoted endpoint (`slow` >= `demoteAfter`) is taken only while
 * its account holds no other demoted one and the claim may still take `demotedFree` of them.
 */
export interface ClaimShare {
  readonly perAccount: number;
  /** Slots this node holds now, per account: all of them, and those of demoted endpoints. */
  readonly busy: ReadonlyMap<string, { readonly all: number; readonly demoted: number }>;
  readonly demoteAfter: number;
  readonly demotedFree: number;
}

/** What `pickFair` needs of a due endpoint. */
export interface ClaimCandidate {
  readonly account: string;
  readonly slow: number;
}

/**
 * The candidates (in due order) a claim of `limit` takes under `share` (all of the first `limit`
 * without one). The memory store uses it; the Redis claim script does the same in Lua.
 */
export function pickFair<T extends ClaimCandidate>(
  candidates: readonly T[],
  limit: number,
  share?: ClaimShare,
): T[] {
  if (!share) return candidates.slice(0, limit);
  const accounts = new Map<string, { all: number; demoted: number; queue: T[] }>();
  for (const c of candidates) {
    let entry = accounts.get(c.account);
    if (!entry) {
      const busy = share.busy.get(c.account);
      entry = { all: busy?.all ?? 0, demoted: busy?.demoted ?? 0, queue: [] };
      accounts.set(c.account, entry);
    }
    entry.queue.push(c);
  }
  const taken: T[] = [];
  let demotedFree = share.demotedFree;
  while (taken.length < limit) {
    let best: { entry: { all: number; demoted: number; queue: T[] }; index: number } | undefined;
    for (const entry of accounts.values()) {
      if (entry.all >= share.perAccount || (best && best.entry.all <= entry.all)) continue;
      const index = entry.queue.findIndex(
        (c) => c.slow < share.demoteAfter || (entry.demoted === 0 && demotedFree > 0),
      );
      if (index >= 0) best = { entry, index };
    }
    if (!best) break;
    const [c] = best.entry.queue.splice(best.index, 1) as [T];
    best.entry.all += 1;
    if (c.slow >= share.demoteAfter) {
      best.entry.demoted += 1;
      demotedFree -= 1;
    }
    taken.push(c);
  }
  return taken;
}

/**
 * One attempt to deliver one event to one endpoint, as the delivery log keeps it; or (outcome
 * `skipped`) events passed over without one: seqs `seq`…`lastSeq`, for `reason`.
 */
export interface DeliveryAttempt {
  /** The attempt's place in the endpoint's log: 1, 2, 3… (the log's cursor). */
  readonly n: number;
  readonly deliveryId: string;
  readonly seq: number;
  /** The epoch of the event (null in entries written before epochs). */
  readonly epoch: string | null;
  /** Skipped entries: the last seq passed over (null otherwise, and when unknown). */
  readonly lastSeq: number | null;
  /** Skipped entries: why (null otherwise). */
  readonly reason: SkipReason | null;
  /** The event type; null for skipped entries. */
  readonly type: FeedEventType | null;
  /** 1, 2, 3… within the delivery (a redelivery continues the count). */
  readonly attempt: number;
  /** ISO time the attempt started. */
  readonly at: string;
  readonly durationMs: number;
  /** The receiver's HTTP status; null when no answer came (refused, timed out, unsafe address). */
  readonly statusCode: number | null;
  readonly error: string | null;
  /**
   * delivered: a 2xx; retrying: failed, `nextAttemptAt` says when again; failed: failed and given up
   * (the endpoint moves on to its next event; a redelivery that failed is not retried); skipped:
   * events passed over without an attempt (trimmed from the feed, or lost to an epoch change).
   */
  readonly outcome: DeliveryOutcome;
  readonly nextAttemptAt: string | null;
  /** A redelivery asked for by the account, outside the ordered stream. */
  readonly redelivery: boolean;
}

export type NewDeliveryAttempt = Omit<DeliveryAttempt, 'n'>;

export interface DeliveryLogPage {
  /** Newest first. */
  readonly items: readonly DeliveryAttempt[];
  /** Pass back as `before` for the next (older) page; null on the last page. */
  readonly next: number | null;
}

export interface WebhookStore {
  /**
   * Stores a new endpoint whose cursor is its account's newest feed seq (read in the same step), so
   * it gets the events after its creation. Undefined (nothing stored) when the account already has
   * `max` endpoints.
   */
  createWebhook(webhook: StoredWebhook, max: number): Promise<WebhookState | undefined>;
  getWebhook(ref: WebhookRef): Promise<WebhookRecord | undefined>;
  /** The account's endpoints, oldest first. */
  listWebhooks(account: string): Promise<WebhookRecord[]>;
  /** Removes the endpoint, its state and its log; false when there was none. */
  deleteWebhook(ref: WebhookRef): Promise<boolean>;
  /**
   * Atomically claims up to `limit` endpoints with work due at `now` (ISO): a pending delivery whose
   * next attempt is due, or a cursor behind the account's feed. Each claim holds a lease for
   * `leaseMs`; two claims never hold one endpoint at once, and an endpoint whose lease ran out (its
   * claimer died) can be claimed again. With a `share`, endpoints are taken as ClaimShare says
   * (the others stay due).
   */
  claimDue(now: string, limit: number, leaseMs: number, share?: ClaimShare): Promise<WebhookClaim[]>;
  /**
   * Ends a claim: saves `state`, appends `attempts` to the log, and makes the endpoint due again
   * when it has work (a pending delivery at its next attempt, or a cursor behind the feed at
   * `now`). False, saving nothing, when the lease is not the endpoint's current one (it ran out and
   * another claim took over) or the endpoint was deleted.
   */
  release(
    ref: WebhookRef,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
    now: string,
  ): Promise<boolean>;
  /**
   * Saves progress during a claim without ending it: `state` and `attempts` as `release` does, and
   * the lease (and the endpoint's due time, should the claimer die) extended to `now` + `leaseMs`.
   * False, saving nothing, when the lease is no longer the endpoint's.
   */
  checkpoint(
    ref: WebhookRef,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
    now: string,
    leaseMs: number,
  ): Promise<boolean>;
  /** Appends an attempt made outside the ordered stream (a redelivery); undefined when the endpoint is gone. */
  logAttempt(ref: WebhookRef, attempt: NewDeliveryAttempt): Promise<DeliveryAttempt | undefined>;
  /** The endpoint's log, newest first; `before` is a previous page's `next`. */
  deliveryLog(ref: WebhookRef, limit: number, before?: number): Promise<DeliveryLogPage>;
  /** The newest kept attempt of a delivery, if any. */
  findDelivery(ref: WebhookRef, deliveryId: string): Promise<DeliveryAttempt | undefined>;
}

/** Each endpoint's log keeps about this many newest attempts. */
export const DELIVERY_LOG_MAX_LENGTH = 1000;
