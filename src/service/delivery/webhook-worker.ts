import { createHmac, randomUUID } from 'node:crypto';
import {
  sharedUpTo,
  type FeedEvent,
  type FeedPage,
  type NewDeliveryAttempt,
  type Storage,
  type StoredWebhook,
  type WebhookClaim,
  type WebhookState,
} from '../../store/store';
import type { PortRanges } from './webhook-address';
import { decryptSecret } from '../server-key';
import { signWebhook, WEBHOOK_HEADERS } from './webhook-signature';
import { WebhookSender, type SendResult } from './webhook-sender';

// Webhook delivery: each event of an account's feed is POSTed to the account's endpoints, signed.
// An endpoint's owner (its `account`) is an account, or an app (appFeedOwner): an app's endpoints
// follow the app feed (every event of every account of the app, ports/feed.ts) the same way.
//
// The feed is the outbox: every endpoint keeps a cursor in its account's feed (the newest seq it
// is done with, and the feed epoch that seq belongs to), so it gets the account's events in order,
// at least once, and a receiver that was down catches up in order. Appending to a feed makes the
// account's endpoints due; a worker on every node claims due endpoints with a lease (so one
// endpoint is served by one node at a time) and sends its backlog, one event after the other on a
// kept-alive connection, saving the cursor after each (a checkpoint that also extends the lease).
// Up to `concurrency` endpoints are served at once, shared among accounts (below). A failed event is retried with exponential
// backoff (10 s, 20 s, 40 s… at most 1 h apart) until 24 h after the event happened, then given up
// (logged as failed) so that one dead event cannot block the endpoint forever. Events passed over
// without an attempt (trimmed before they could be sent, or lost when the store came back older)
// get a `skipped` log entry.
//
// Sharing the slots: slow receivers must not hold every slot. A claim takes due endpoints
// round-robin by account (the account holding the fewest of this node's slots first), and one
// account holds at most `perAccount` slots. An attempt is slow when it took half the timeout or
// more (a timeout included); after `demoteAfter` slow attempts in a row an endpoint is demoted:
// an account's demoted endpoints share one slot, the demoted endpoints of all accounts at most a
// quarter of the slots (at least one), and a demoted endpoint gives its slot back after each
// attempt. It keeps the whole timeout (a slow receiver still gets every event, in order, only
// more slowly), and its first attempt answered within half the timeout promotes it back.

/** First retry delay; each further one doubles, up to RETRY_MAX_MS. */
export const RETRY_BASE_MS = 10_000;
export const RETRY_MAX_MS = 60 * 60 * 1000;
/** An event is retried until this long after it happened (at least one attempt is made). */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
export const DEFAULT_WEBHOOK_CONCURRENCY = 32;
/** Endpoints of one account this node delivers to at once. */
export const DEFAULT_WEBHOOK_PER_ACCOUNT = 4;
/** Consecutive slow attempts (no answer within half the timeout) that demote an endpoint. */
export const DEFAULT_WEBHOOK_DEMOTE_AFTER = 3;
/** Events read per look into an endpoint's feed. */
const SCAN = 100;
/**
 * Deliveries, and milliseconds, per claim at most; then the endpoint goes back to the due set
 * behind those waiting, so that a long backlog does not hold a slot for long.
 */
const BATCH = 100;
const BATCH_MS = 5_000;

export interface WebhookOptions {
  /** Deliver to loopback and private addresses too (tests, private networks). Default false. */
  readonly allowPrivate?: boolean;
  /** An attempt without a 2xx answer within this fails. Default 10 s. */
  readonly timeoutMs?: number;
  /** Endpoints this node delivers to at once. Default 32. */
  readonly concurrency?: number;
  /** Ports endpoints may use (default: 80, 443, 8080, 8443; any when private targets are allowed). */
  readonly ports?: PortRanges;
  /** Endpoints of one account this node delivers to at once. Default 4. */
  readonly perAccount?: number;
  /** Consecutive slow attempts that demote an endpoint. Default 3. */
  readonly demoteAfter?: number;
}

/** The delay before retry number `attempt` + 1 (after `attempt` failures). */
export function retryDelayMs(attempt: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), RETRY_MAX_MS);
}

/**
 * The JSON body of a delivery: the feed event and its account (`account`: the endpoint's owner,
 * for an account's own feed; an app feed's events name theirs).
 */
export function deliveryBody(account: string, event: FeedEvent): string {
  return JSON.stringify({
    account: event.account ?? account,
    epoch: event.epoch,
    seq: event.seq,
    type: event.type,
    at: event.at,
    data: event.data,
  });
}

/**
 * The delivery id of an event to an endpoint: the same for every attempt by any node (so receivers
 * can deduplicate on it), different for every event and endpoint (an event is named by its epoch
 * and seq). A UUID (version 8) made of an HMAC keyed with the endpoint's secret, so that nobody
 * else can tell which id an event will get.
 */
export function deliveryIdOf(
  webhook: StoredWebhook,
  event: Pick<FeedEvent, 'epoch' | 'seq'>,
  secret = decryptSecret(webhook.secret),
): string {
  const bytes = createHmac('sha256', secret)
    .update(`boardhost-delivery/${webhook.id}/${event.epoch}/${event.seq}`)
    .digest()
    .subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Claims due endpoints and delivers their events; every node runs one. */
export class WebhookWorker {
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly perAccount: number;
  private readonly demoteAfter: number;
  /** Slots demoted endpoints may hold together. */
  private readonly demotedSlots: number;
  /** Slots this node holds per account (all, and those of demoted endpoints). */
  private readonly busy = new Map<string, { all: number; demoted: number }>();
  private demotedBusy = 0;
  /** A lease outlasts an attempt comfortably, so that only a dead claimer loses it. */
  private readonly leaseMs: number;
  private readonly sender: WebhookSender;
  private running: Promise<number> | undefined;
  /** Wakes a run that waits for its deliveries, so that it claims newly due endpoints. */
  private wake: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly storage: Storage,
    private readonly now: () => Date,
    options: WebhookOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.concurrency = options.concurrency ?? DEFAULT_WEBHOOK_CONCURRENCY;
    this.perAccount = options.perAccount ?? DEFAULT_WEBHOOK_PER_ACCOUNT;
    this.demoteAfter = options.demoteAfter ?? DEFAULT_WEBHOOK_DEMOTE_AFTER;
    this.demotedSlots = Math.max(1, Math.floor(this.concurrency / 4));
    this.leaseMs = this.timeoutMs + 20_000;
    this.sender = new WebhookSender({
      allowPrivate: options.allowPrivate ?? false,
      timeoutMs: this.timeoutMs,
      ...(options.ports ? { ports: options.ports } : {}),
    });
  }

  /**
   * Delivers until no endpoint has work due: each endpoint's events in order, up to `concurrency`
   * endpoints at once. Resolves with the number of attempts made. Calls made while a run is under
   * way join it (and make it look for newly due endpoints).
   */
  deliverDue(): Promise<number> {
    if (this.running) {
      this.wake?.();
      return this.running;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Ends the current run: attempts under way are abandoned (their endpoints are due again at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.sender.stop();
    this.wake?.();
    await this.running?.catch(() => undefined);
  }

  private async run(): Promise<number> {
    // App endpoints follow app feeds: what their accounts' feeds hold that they do not yet comes first.
    await this.storage.feed.forwardApps();
    let attempts = 0;
    const inFlight = new Set<Promise<void>>();
    let failure: unknown;
    while (!this.stopped && failure === undefined) {
      const free = this.concurrency - inFlight.size;
      const claims =
        free > 0
          ? await this.storage.webhooks.claimDue(this.nowIso(), free, this.leaseMs, {
              perAccount: this.perAccount,
              busy: this.busy,
              demoteAfter: this.demoteAfter,
              demotedFree: this.demotedSlots - this.demotedBusy,
            })
          : [];
      for (const claim of claims) {
        const done = this.hold(claim);
        const work: Promise<void> = this.serve(claim)
          .then(
            (made) => {
              attempts += made;
            },
            (error: unknown) => {
              // The lease runs out and another run retries; the first failure ends this run.
              failure ??= error;
            },
          )
          .finally(() => {
            done();
            inFlight.delete(work);
          });
        inFlight.add(work);
      }
      if (inFlight.size === 0) break;
      if (claims.length === 0 || inFlight.size >= this.concurrency) {
        const woken = new Promise<void>((resolve) => (this.wake = resolve));
        await Promise.race([...inFlight, woken]);
        this.wake = undefined;
      }
    }
    await Promise.all(inFlight);
    if (failure !== undefined) throw failure;
    return attempts;
  }

  /** Counts the claim's slot against its account until the returned function is called. */
  private hold(claim: WebhookClaim): () => void {
    const account = claim.webhook.account;
    const demoted = this.demoted(claim.state) ? 1 : 0;
    const held = this.busy.get(account) ?? { all: 0, demoted: 0 };
    this.busy.set(account, { all: held.all + 1, demoted: held.demoted + demoted });
    this.demotedBusy += demoted;
    return () => {
      const now = this.busy.get(account) ?? { all: 1, demoted: demoted };
      if (now.all <= 1) this.busy.delete(account);
      else this.busy.set(account, { all: now.all - 1, demoted: now.demoted - demoted });
      this.demotedBusy -= demoted;
    };
  }

  private demoted(state: WebhookState): boolean {
    return (state.slow ?? 0) >= this.demoteAfter;
  }

  /**
   * Serves a claimed endpoint: its wanted events in order, one after the other, a checkpoint after
   * each, until it is caught up, an attempt fails (a retry is due later), the batch is over
   * (BATCH deliveries or BATCH_MS), or the worker stops. Resolves with the attempts made.
   */
  private async serve(claim: WebhookClaim): Promise<number> {
    const { webhook, lease } = claim;
    // Decrypted once per claim, not twice per event.
    const secret = decryptSecret(webhook.secret);
    let state: WebhookState = claim.state;
    let log: NewDeliveryAttempt[] = [];
    let attempts = 0;
    const until = performance.now() + BATCH_MS;
    // A demoted endpoint gives its slot back after each attempt.
    const batch = this.demoted(state) ? 1 : BATCH;
    const release = (next: WebhookState) =>
      this.storage.webhooks.release(webhook, lease, next, log, this.nowIso());
    for (;;) {
      const page = await this.storage.feed.read(webhook.account, state.cursor, SCAN);
      const reconciled = this.reconcile(state, page);
      if (reconciled.skipped) log.push(reconciled.skipped);
      if (reconciled.state.cursor < state.cursor || reconciled.state.epoch !== state.epoch) {
        // In the new epoch, from where it and the endpoint agree: read from there.
        state = reconciled.state;
        continue;
      }
      state = reconciled.state;
      for (const event of page.events) {
        if (event.seq <= state.cursor) continue;
        if (webhook.events !== null && !webhook.events.includes(event.type)) {
          state = { ...state, cursor: event.seq };
          continue;
        }
        if (this.stopped) {
          await release(state);
          return attempts;
        }
        const pending = state.pending?.seq === event.seq ? state.pending : null;
        if (pending && Date.parse(pending.nextAttemptAt) > this.now().getTime()) {
          // Claimed early (its feed began an epoch): the retry keeps its time.
          await release(state);
          return attempts;
        }
        const deliveryId = pending?.deliveryId ?? deliveryIdOf(webhook, event, secret);
        const attempt = (pending?.attempts ?? 0) + 1;
        const at = this.now();
        const result = await this.send(webhook, event, deliveryId, at, secret);
        if (result.aborted) {
          await release({ ...state, cursor: event.seq - 1, pending });
          return attempts;
        }
        attempts += 1;
        const slow = result.durationMs >= this.timeoutMs / 2 ? (state.slow ?? 0) + 1 : 0;
        state = {
          cursor: state.cursor,
          epoch: state.epoch,
          pending: state.pending,
          ...(slow ? { slow } : {}),
        };
        const after = this.now().getTime();
        const deadline = Date.parse(event.at) + RETRY_WINDOW_MS;
        const outcome = result.error === null ? 'delivered' : after >= deadline ? 'failed' : 'retrying';
        const retry =
          outcome === 'retrying'
            ? {
                seq: event.seq,
                deliveryId,
                attempts: attempt,
                nextAttemptAt: iso(Math.min(after + retryDelayMs(attempt), deadline)),
              }
            : null;
        log.push({
          deliveryId,
          seq: event.seq,
          epoch: event.epoch,
          lastSeq: null,
          reason: null,
          type: event.type,
          attempt,
          at: at.toISOString(),
          durationMs: result.durationMs,
          statusCode: result.statusCode,
          error: result.error,
          outcome,
          nextAttemptAt: retry?.nextAttemptAt ?? null,
          redelivery: false,
        });
        if (retry) {
          await release({ ...state, cursor: event.seq - 1, pending: retry });
          return attempts;
        }
        state = { ...state, cursor: event.seq, pending: null };
        // A batch ends early too when this attempt demoted the endpoint (its slot goes back).
        if (attempts >= batch || this.demoted(state) || performance.now() >= until) {
          await release(state);
          return attempts;
        }
        const held = await this.storage.webhooks.checkpoint(
          webhook,
          lease,
          state,
          log,
          this.nowIso(),
          this.leaseMs,
        );
        log = [];
        // The lease ran out (this node stalled) and another claim took over: leave it to that one.
        if (!held) return attempts;
      }
      if (page.events.length < SCAN) {
        await release(state);
        return attempts;
      }
    }
  }

  /**
   * The endpoint's state in the feed's current epoch, and the `skipped` entry to log when events
   * are passed over: those the endpoint was sent (or was retrying) and the store lost when it came
   * back older (the endpoint goes back to where the epochs agree), and those trimmed before they
   * could be sent.
   */
  private reconcile(
    state: WebhookState,
    page: FeedPage,
  ): { state: WebhookState; skipped?: NewDeliveryAttempt } {
    // Endpoints stored before epochs follow the current one.
    const epoch = state.epoch ?? page.epoch;
    let next: WebhookState = { ...state, epoch: page.epoch };
    if (epoch !== page.epoch) {
      // The store came back older since the endpoint's cursor was saved (restart, restore,
      // failover). Its own state may have come back older too, so whatever it was sent after the
      // seq where the epochs part may be lost: say so in the log, and go on from there.
      const shared = Math.min(sharedUpTo(page.epochs, epoch), page.last);
      const reached = Math.max(state.cursor, state.pending?.seq ?? 0);
      const lost = reached > shared;
      next = {
        cursor: Math.min(state.cursor, shared),
        epoch: page.epoch,
        pending: lost ? null : state.pending,
      };
      const from = shared + 1;
      return {
        state: next,
        skipped: this.skip(
          from,
          lost ? reached : null,
          epoch,
          'epoch',
          (lost
            ? `The event store came back older (feed epoch ${epoch} → ${page.epoch}): events ${from}–${reached} of epoch ${epoch}, sent or being retried, were lost. `
            : `The event store restarted or came back older (feed epoch ${epoch} → ${page.epoch}): any events of epoch ${epoch} after seq ${shared} this endpoint was sent are lost. `) +
            `Seqs from ${from} on name new events (with new delivery ids).`,
        ),
      };
    }
    if (next.cursor < page.first - 1) {
      const [from, to] = [next.cursor + 1, page.first - 1];
      next = { ...next, cursor: to, pending: next.pending && next.pending.seq > to ? next.pending : null };
      return {
        state: next,
        skipped: this.skip(
          from,
          to,
          page.epoch,
          'trimmed',
          `Events ${from}–${to} were trimmed from the feed (past its retention) before they could be delivered`,
        ),
      };
    }
    return { state: next };
  }

  private skip(
    from: number,
    to: number | null,
    epoch: string,
    reason: 'trimmed' | 'epoch',
    error: string,
  ): NewDeliveryAttempt {
    return {
      deliveryId: randomUUID(),
      seq: from,
      epoch,
      lastSeq: to,
      reason,
      type: null,
      attempt: 0,
      at: this.nowIso(),
      durationMs: 0,
      statusCode: null,
      error,
      outcome: 'skipped',
      nextAttemptAt: null,
      redelivery: false,
    };
  }

  /** POSTs one event, signed, to the endpoint; a 2xx within the timeout is a delivery. */
  send(
    webhook: StoredWebhook,
    event: FeedEvent,
    deliveryId: string,
    at: Date,
    secret = decryptSecret(webhook.secret),
  ): Promise<SendResult> {
    const body = deliveryBody(webhook.account, event);
    const timestamp = Math.floor(at.getTime() / 1000);
    return this.sender.post(webhook.url, body, {
      'content-type': 'application/json',
      'user-agent': 'Boardhost-Webhooks/1',
      [WEBHOOK_HEADERS.delivery]: deliveryId,
      [WEBHOOK_HEADERS.event]: event.type,
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.signature]: signWebhook(secret, timestamp, body),
    });
  }

  private nowIso(): string {
    return this.now().toISOString();
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
