import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import {
  FEED_EVENT_TYPES,
  type DeliveryAttempt,
  type FeedEvent,
  type FeedEventType,
  type NewDeliveryAttempt,
  type PendingDelivery,
  type Storage,
  type StoredAccount,
  type StoredToken,
  type StoredWebhook,
  type WebhookClaim,
  type WebhookRecord,
  type WebhookState,
} from '../store/store';
import type { Authenticator, Credential } from './auth';
import { GameError } from './errors';
import { once } from './idempotency';
import {
  checkWebhookTarget,
  guardedLookup,
  hostOf,
  nonPublicRange,
  parseWebhookUrl,
} from './webhook-address';
import { signWebhook, WEBHOOK_HEADERS } from './webhook-signature';

// Webhooks: each event of an account's feed is POSTed to the account's endpoints, signed.
//
// The feed is the outbox: every endpoint keeps a cursor in its account's feed (the newest seq it
// is done with), so it gets the account's events in order, at least once, and a receiver that was
// down catches up in order. Appending to a feed makes the account's endpoints due; a worker on
// every node claims due endpoints with a lease (so one endpoint is served by one node at a time),
// sends the next wanted event, and records the attempt. A failed event is retried with exponential
// backoff (10 s, 20 s, 40 s… at most 1 h apart) until 24 h after the event happened, then given
// up (logged as failed) so that one dead event cannot block the endpoint forever.

/** First retry delay; each further one doubles, up to RETRY_MAX_MS. */
export const RETRY_BASE_MS = 10_000;
export const RETRY_MAX_MS = 60 * 60 * 1000;
/** An event is retried until this long after it happened (at least one attempt is made). */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** Endpoints per account. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 10;
/** Events read per look for an endpoint's next wanted event. */
const SCAN = 100;
const WEBHOOK_ID = /^[A-Za-z0-9_-]{12}$/;
const DELIVERY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Secrets given by clients: 16–200 visible ASCII characters. */
const SECRET = /^[\x21-\x7e]{16,200}$/;

export interface WebhookOptions {
  /** Deliver to loopback and private addresses too (tests, private networks). Default false. */
  readonly allowPrivate?: boolean;
  /** An attempt without a 2xx answer within this fails. Default 10 s. */
  readonly timeoutMs?: number;
  /** Endpoints this node delivers to at once. Default 8. */
  readonly concurrency?: number;
}

/** The delay before retry number `attempt` + 1 (after `attempt` failures). */
export function retryDelayMs(attempt: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), RETRY_MAX_MS);
}

export interface WebhookView {
  readonly id: string;
  readonly url: string;
  readonly events: readonly FeedEventType[] | null;
  readonly createdAt: string;
  readonly createdBy: string;
  readonly cursor: number;
  readonly pending: PendingDelivery | null;
}

/** A new endpoint: its view and the secret, shown only once. */
export interface CreatedWebhook extends WebhookView {
  readonly secret: string;
}

export interface WebhookInput {
  readonly url: string;
  readonly events?: readonly string[];
  readonly secret?: string;
}

/** What one POST to an endpoint gave. */
interface SendResult {
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  /** The worker was stopped mid-attempt: not an attempt to record. */
  readonly aborted?: boolean;
}

/** The JSON body of a delivery: the feed event and the account whose feed it is. */
export function deliveryBody(account: string, event: FeedEvent): string {
  return JSON.stringify({ account, seq: event.seq, type: event.type, at: event.at, data: event.data });
}

/** Registration, listing, the delivery log and redelivery, for the account of the token. */
export class WebhookService {
  readonly worker: WebhookWorker;
  private readonly allowPrivate: boolean;

  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly now: () => Date = () => new Date(),
    options: WebhookOptions = {},
  ) {
    this.allowPrivate = options.allowPrivate ?? false;
    this.worker = new WebhookWorker(storage, now, options);
  }

  /**
   * Registers an endpoint; it gets the account's events from now on. The secret is shown only here
   * (and to a retry with the same Idempotency-Key, which registers nothing more).
   */
  async create(
    credential: Credential,
    input: WebhookInput,
    options: { idempotencyKey?: string } = {},
  ): Promise<CreatedWebhook> {
    const caller = await this.auth.requireAccount(credential, 'game:read');
    const call = {
      scope: `account:${caller.account.id}`,
      key: options.idempotencyKey,
      operation: 'createWebhook',
      input,
    };
    return once(this.storage.idempotency, call, () => this.register(caller, input));
  }

  private async register(
    { account, token }: { account: StoredAccount; token: StoredToken },
    input: WebhookInput,
  ): Promise<CreatedWebhook> {
    const url = parseWebhookUrl(input.url);
    const events = parseEvents(input.events);
    if (input.secret !== undefined && !SECRET.test(input.secret)) {
      throw new GameError('INVALID_INPUT', 'secret must be 16–200 visible ASCII characters', {
        field: 'secret',
      });
    }
    await checkWebhookTarget(url, this.allowPrivate);
    const webhook: StoredWebhook = {
      id: randomBytes(9).toString('base64url'),
      account: account.id,
      url: url.href,
      events,
      secret: input.secret ?? `whsec_${randomBytes(24).toString('base64url')}`,
      createdBy: token.id,
      createdAt: this.now().toISOString(),
    };
    const state = await this.storage.webhooks.createWebhook(webhook, MAX_WEBHOOKS_PER_ACCOUNT);
    if (!state) {
      throw new GameError(
        'TOO_MANY_WEBHOOKS',
        `An account has at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhook endpoints; delete one first`,
        { max: MAX_WEBHOOKS_PER_ACCOUNT },
      );
    }
    return { ...webhookView({ webhook, state }), secret: webhook.secret };
  }

  /** The account's endpoints, oldest first (without secrets). */
  async list(credential: Credential): Promise<WebhookView[]> {
    const { account } = await this.auth.requireAccount(credential, 'game:read');
    return (await this.storage.webhooks.listWebhooks(account.id)).map(webhookView);
  }

  async get(credential: Credential, id: string): Promise<WebhookView> {
    return webhookView(await this.owned(credential, id));
  }

  /** Removes an endpoint and its log; nothing more is sent to it. */
  async delete(credential: Credential, id: string): Promise<WebhookView> {
    const record = await this.owned(credential, id);
    if (!(await this.storage.webhooks.deleteWebhook(id))) throw notFound(id);
    return webhookView(record);
  }

  /** The endpoint's attempts, newest first; `before` is a previous page's `next`. */
  async deliveries(
    credential: Credential,
    id: string,
    page: { limit?: number; before?: number } = {},
  ): Promise<{ items: DeliveryAttempt[]; next: number | null }> {
    await this.owned(credential, id);
    const limit = page.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw new GameError('INVALID_INPUT', 'limit must be a whole number from 1 to 100', { field: 'limit' });
    }
    if (page.before !== undefined && (!Number.isInteger(page.before) || page.before < 1)) {
      throw new GameError('INVALID_INPUT', 'before must be a cursor from a previous page', {
        field: 'before',
      });
    }
    const log = await this.storage.webhooks.deliveryLog(id, limit, page.before);
    return { items: [...log.items], next: log.next };
  }

  /**
   * Sends a delivery's event again, now and once, outside the ordered stream (the endpoint's cursor
   * does not move). It keeps its delivery id, so receivers that already handled it can tell.
   */
  async redeliver(credential: Credential, id: string, deliveryId: string): Promise<DeliveryAttempt> {
    const { webhook } = await this.owned(credential, id);
    if (!DELIVERY_ID.test(deliveryId)) {
      throw new GameError('INVALID_INPUT', `Malformed delivery id "${deliveryId}"`, { field: 'deliveryId' });
    }
    const previous = await this.storage.webhooks.findDelivery(id, deliveryId);
    if (!previous) {
      throw new GameError('DELIVERY_NOT_FOUND', `No delivery ${deliveryId} in the log of webhook ${id}`);
    }
    const page = await this.storage.feed.read(webhook.account, previous.seq - 1, 1);
    const event = page.events[0];
    if (!event || event.seq !== previous.seq) {
      throw new GameError('EVENTS_EXPIRED', `Event ${previous.seq} was trimmed from the feed`, {
        first: page.first,
        last: page.last,
      });
    }
    const at = this.now();
    const result = await this.worker.send(webhook, event, deliveryId, at);
    const attempt: NewDeliveryAttempt = {
      deliveryId,
      seq: event.seq,
      type: event.type,
      attempt: previous.attempt + 1,
      at: at.toISOString(),
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: result.error,
      outcome: result.error === null ? 'delivered' : 'failed',
      nextAttemptAt: null,
      redelivery: true,
    };
    const logged = await this.storage.webhooks.logAttempt(id, attempt);
    if (!logged) throw notFound(id);
    return logged;
  }

  /** The endpoint, if it is the caller's (another account's endpoints do not exist for it). */
  private async owned(credential: Credential, id: string): Promise<WebhookRecord> {
    const { account } = await this.auth.requireAccount(credential, 'game:read');
    if (!WEBHOOK_ID.test(id)) {
      throw new GameError('INVALID_INPUT', `Malformed webhook id "${id}"`, { field: 'id' });
    }
    const record = await this.storage.webhooks.getWebhook(id);
    if (!record || record.webhook.account !== account.id) throw notFound(id);
    return record;
  }
}

/** Claims due endpoints and delivers their next events; every node runs one. */
export class WebhookWorker {
  private readonly allowPrivate: boolean;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  /** A lease outlasts an attempt comfortably, so that only a dead claimer loses it. */
  private readonly leaseMs: number;
  private readonly aborts = new Set<AbortController>();
  private running: Promise<number> | undefined;
  private stopped = false;

  constructor(
    private readonly storage: Storage,
    private readonly now: () => Date,
    options: WebhookOptions = {},
  ) {
    this.allowPrivate = options.allowPrivate ?? false;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.concurrency = options.concurrency ?? 8;
    this.leaseMs = this.timeoutMs + 20_000;
  }

  /**
   * Delivers until no endpoint has work due: each endpoint's events in order, up to `concurrency`
   * endpoints at once. Resolves with the number of attempts made. Calls made while a run is under
   * way join it.
   */
  deliverDue(): Promise<number> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Ends the current run: attempts under way are abandoned (their endpoints are due again at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const abort of this.aborts) abort.abort();
    await this.running?.catch(() => undefined);
  }

  private async run(): Promise<number> {
    let attempts = 0;
    const inFlight = new Set<Promise<void>>();
    let failure: unknown;
    while (!this.stopped && failure === undefined) {
      const free = this.concurrency - inFlight.size;
      const claims = free > 0 ? await this.storage.webhooks.claimDue(this.nowIso(), free, this.leaseMs) : [];
      for (const claim of claims) {
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
          .finally(() => inFlight.delete(work));
        inFlight.add(work);
      }
      if (inFlight.size === 0) break;
      if (claims.length === 0 || inFlight.size >= this.concurrency) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    if (failure !== undefined) throw failure;
    return attempts;
  }

  /** One step for a claimed endpoint: skip unwanted events, attempt the next wanted one. */
  private async serve(claim: WebhookClaim): Promise<number> {
    const { webhook, lease } = claim;
    const release = (state: WebhookState, attempts: NewDeliveryAttempt[] = []) =>
      this.storage.webhooks.release(webhook.id, lease, state, attempts, this.nowIso());
    const page = await this.storage.feed.read(webhook.account, claim.state.cursor, SCAN);
    // Events trimmed before they could be sent (after 7 days) are passed over.
    let cursor = Math.max(claim.state.cursor, page.first - 1);
    const event = page.events.find(
      (e) => e.seq > cursor && (webhook.events === null || webhook.events.includes(e.type)),
    );
    if (!event) {
      const lastSeen = page.events[page.events.length - 1]?.seq ?? cursor;
      await release({ cursor: Math.max(cursor, lastSeen), pending: null });
      return 0;
    }
    cursor = event.seq - 1;
    const pending = claim.state.pending?.seq === event.seq ? claim.state.pending : null;
    const deliveryId = pending?.deliveryId ?? randomUUID();
    const attempt = (pending?.attempts ?? 0) + 1;
    const at = this.now();
    const result = await this.send(webhook, event, deliveryId, at);
    if (result.aborted) {
      await release({ cursor, pending });
      return 0;
    }
    const after = this.now().getTime();
    const deadline = Date.parse(event.at) + RETRY_WINDOW_MS;
    const outcome = result.error === null ? 'delivered' : after >= deadline ? 'failed' : 'retrying';
    const next =
      outcome === 'retrying'
        ? {
            seq: event.seq,
            deliveryId,
            attempts: attempt,
            nextAttemptAt: iso(Math.min(after + retryDelayMs(attempt), deadline)),
          }
        : null;
    await release({ cursor: next ? cursor : event.seq, pending: next }, [
      {
        deliveryId,
        seq: event.seq,
        type: event.type,
        attempt,
        at: at.toISOString(),
        durationMs: result.durationMs,
        statusCode: result.statusCode,
        error: result.error,
        outcome,
        nextAttemptAt: next?.nextAttemptAt ?? null,
        redelivery: false,
      },
    ]);
    return 1;
  }

  /** POSTs one event, signed, to the endpoint; a 2xx within the timeout is a delivery. */
  send(webhook: StoredWebhook, event: FeedEvent, deliveryId: string, at: Date): Promise<SendResult> {
    const body = deliveryBody(webhook.account, event);
    const timestamp = Math.floor(at.getTime() / 1000);
    return post(
      webhook.url,
      body,
      {
        'content-type': 'application/json',
        'user-agent': 'Boardhost-Webhooks/1',
        [WEBHOOK_HEADERS.delivery]: deliveryId,
        [WEBHOOK_HEADERS.event]: event.type,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: signWebhook(webhook.secret, timestamp, body),
      },
      {
        allowPrivate: this.allowPrivate,
        timeoutMs: this.timeoutMs,
        aborts: this.aborts,
      },
    );
  }

  private nowIso(): string {
    return this.now().toISOString();
  }
}

/** One POST with a deadline; never rejects. Redirects are not followed. */
function post(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs: number; aborts: Set<AbortController> },
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(target);
  const host = hostOf(url);
  // Literal addresses skip DNS (and so the guarded lookup): check them here.
  const range = !options.allowPrivate && isIP(host) !== 0 ? nonPublicRange(host) : undefined;
  if (range) {
    return Promise.resolve({
      statusCode: null,
      error: `refused: ${host} is not a public address (${range})`,
      durationMs: 0,
    });
  }
  return new Promise((resolve) => {
    const abort = new AbortController();
    options.aborts.add(abort);
    let status: number | null = null;
    let settled = false;
    const finish = (error: string | null, aborted = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.aborts.delete(abort);
      req.destroy();
      resolve({ statusCode: status, error, durationMs: elapsed(), ...(aborted ? { aborted } : {}) });
    };
    const verdict = () =>
      status !== null && status >= 200 && status < 300
        ? null
        : status !== null && status >= 300 && status < 400
          ? `HTTP ${status} (redirects are not followed)`
          : `HTTP ${status}`;
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      {
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(options.allowPrivate),
        agent: false,
        signal: abort.signal,
      },
      (res: IncomingMessage) => {
        status = res.statusCode ?? null;
        // The answer's body is read and dropped; the status is what counts.
        res.resume();
        res.on('end', () => finish(verdict()));
        res.on('error', () => finish(verdict()));
      },
    );
    req.on('error', (error: Error) => {
      if (abort.signal.aborted) finish('the server stopped during the attempt', true);
      else finish(status !== null ? verdict() : error.message || String(error));
    });
    const timer = setTimeout(
      () => finish(status !== null ? verdict() : `no answer within ${options.timeoutMs} ms`),
      options.timeoutMs,
    );
    req.end(body);
  });
}

function webhookView({ webhook, state }: WebhookRecord): WebhookView {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    createdAt: webhook.createdAt,
    createdBy: webhook.createdBy,
    cursor: state.cursor,
    pending: state.pending,
  };
}

function parseEvents(events: readonly string[] | undefined): FeedEventType[] | null {
  if (events === undefined) return null;
  if (!Array.isArray(events) || events.length === 0) {
    throw new GameError(
      'INVALID_INPUT',
      'events must list at least one event type (omit it for every type)',
      {
        field: 'events',
      },
    );
  }
  for (const type of events) {
    if (!(FEED_EVENT_TYPES as readonly string[]).includes(type)) {
      throw new GameError(
        'INVALID_INPUT',
        `Unknown event type "${type}"; types: ${FEED_EVENT_TYPES.join(', ')}`,
        {
          field: 'events',
        },
      );
    }
  }
  return [...new Set(events)] as FeedEventType[];
}

function notFound(id: string): GameError {
  return new GameError('WEBHOOK_NOT_FOUND', `No webhook ${id} on this account`);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
