import { randomBytes } from 'node:crypto';
import {
  appFeedOwner,
  FEED_EVENT_TYPES,
  type DeliveryAttempt,
  type FeedEventType,
  type NewDeliveryAttempt,
  type PendingDelivery,
  type Storage,
  type StoredWebhook,
  type WebhookRecord,
} from '../../store/store';
import type { Authenticator, Credential } from '../accounts/auth';
import { GameError } from '../errors';
import { once, tokenScope } from '../idempotency';
import { encryptSecret } from '../server-key';
import { checkWebhookTarget, parseWebhookUrl, type TargetPolicy } from './webhook-address';
import { WebhookWorker, type WebhookOptions } from './webhook-worker';

// Webhook endpoints of an account or of an app: registration, listing, the delivery log and
// redelivery. An account's endpoints get its feed; an app's (registered with its key, scope
// app:webhooks) get its app feed, every event of every account of the app (ports/feed.ts). The
// delivery itself (the worker every node runs, for both) is in webhook-worker.ts, its HTTP in
// webhook-sender.ts.

/** Endpoints per account, and per app. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 10;

/** Whose endpoints a caller manages, as `ownerOf` finds from its credential. */
export interface WebhookOwner {
  /** The endpoints' owner: an account id, or appFeedOwner(app) (StoredWebhook.account). */
  readonly owner: string;
  /** What the endpoints belong to, for messages. */
  readonly noun: 'account' | 'app';
  /** The id of the token or app key that calls (StoredWebhook.createdBy). */
  readonly createdBy: string;
  /** Whose idempotency keys a create's are (the answer holds a secret: the calling credential's only). */
  readonly idempotencyScope: string;
}

/** Finds the owner of a caller's endpoints (and authorizes the call). */
export type WebhookOwnerOf = (credential: Credential) => Promise<WebhookOwner>;

/** An account's endpoints: an API token with game:read (webhooks carry what the feed carries). */
export function accountWebhookOwner(auth: Authenticator): WebhookOwnerOf {
  return async (credential) => {
    const caller = await auth.requireAccount(credential, 'game:read');
    return {
      owner: caller.account.id,
      noun: 'account',
      createdBy: caller.token.id,
      idempotencyScope: tokenScope(caller),
    };
  };
}

/** An app's endpoints: its key (no Boardhost-Account) with the scope app:webhooks. */
export function appWebhookOwner(auth: Authenticator): WebhookOwnerOf {
  return async (credential) => {
    const { app, key } = await auth.requireApp(credential, 'app:webhooks');
    return {
      owner: appFeedOwner(app.id),
      noun: 'app',
      createdBy: key.id,
      idempotencyScope: `app:${app.id}:key:${key.id}`,
    };
  };
}
const WEBHOOK_ID = /^[A-Za-z0-9_-]{12}$/;
const DELIVERY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Secrets given by clients: 16–200 visible ASCII characters. */
const SECRET = /^[\x21-\x7e]{16,200}$/;

export interface WebhookView {
  readonly id: string;
  readonly url: string;
  readonly events: readonly FeedEventType[] | null;
  readonly createdAt: string;
  readonly createdBy: string;
  readonly cursor: number;
  /** The feed epoch of `cursor`. */
  readonly epoch: string | null;
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

/** Registration, listing, the delivery log and redelivery, for the owner `ownerOf` finds (default: the token's account). */
export class WebhookService {
  readonly worker: WebhookWorker;
  private readonly target: TargetPolicy;
  private readonly ownerOf: WebhookOwnerOf;

  constructor(
    private readonly storage: Storage,
    auth: Authenticator,
    private readonly now: () => Date = () => new Date(),
    private readonly options: WebhookOptions = {},
    shared?: { readonly ownerOf: WebhookOwnerOf; readonly worker: WebhookWorker },
  ) {
    this.target = {
      allowPrivate: options.allowPrivate ?? false,
      ...(options.ports ? { ports: options.ports } : {}),
    };
    this.ownerOf = shared?.ownerOf ?? accountWebhookOwner(auth);
    this.worker = shared?.worker ?? new WebhookWorker(storage, now, options);
  }

  /** The same operations for the endpoints of `ownerOf`'s owners (e.g. apps), delivered by this worker. */
  withOwners(ownerOf: WebhookOwnerOf, auth: Authenticator): WebhookService {
    return new WebhookService(this.storage, auth, this.now, this.options, { ownerOf, worker: this.worker });
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
    const caller = await this.ownerOf(credential);
    const call = {
      // The answer holds the endpoint's secret: only the token that registered it gets it again.
      scope: caller.idempotencyScope,
      key: options.idempotencyKey,
      operation: 'createWebhook',
      input,
    };
    return once(this.storage.idempotency, call, () => this.register(caller, input));
  }

  private async register(
    { owner, noun, createdBy }: WebhookOwner,
    input: WebhookInput,
  ): Promise<CreatedWebhook> {
    const url = parseWebhookUrl(input.url);
    const events = parseEvents(input.events);
    if (input.secret !== undefined && !SECRET.test(input.secret)) {
      throw new GameError('INVALID_INPUT', 'secret must be 16–200 visible ASCII characters', {
        field: 'secret',
      });
    }
    await checkWebhookTarget(url, this.target);
    const secret = input.secret ?? `whsec_${randomBytes(24).toString('base64url')}`;
    const webhook: StoredWebhook = {
      id: randomBytes(9).toString('base64url'),
      account: owner,
      url: url.href,
      events,
      // Stored encrypted under the server key (server-key.ts); shown in clear once, below.
      secret: encryptSecret(secret),
      createdBy,
      createdAt: this.now().toISOString(),
    };
    const state = await this.storage.webhooks.createWebhook(webhook, MAX_WEBHOOKS_PER_ACCOUNT);
    if (!state) {
      throw new GameError(
        'TOO_MANY_WEBHOOKS',
        `An ${noun} has at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhook endpoints; delete one first`,
        { max: MAX_WEBHOOKS_PER_ACCOUNT },
      );
    }
    return { ...webhookView({ webhook, state }), secret };
  }

  /** The owner's endpoints, oldest first (without secrets). */
  async list(credential: Credential): Promise<WebhookView[]> {
    const { owner } = await this.ownerOf(credential);
    return (await this.storage.webhooks.listWebhooks(owner)).map(webhookView);
  }

  async get(credential: Credential, id: string): Promise<WebhookView> {
    return webhookView(await this.owned(credential, id));
  }

  /** Removes an endpoint and its log; nothing more is sent to it. */
  async delete(credential: Credential, id: string): Promise<WebhookView> {
    const record = await this.owned(credential, id);
    if (!(await this.storage.webhooks.deleteWebhook(record.webhook))) throw notFound(id);
    return webhookView(record);
  }

  /** The endpoint's attempts, newest first; `before` is a previous page's `next`. */
  async deliveries(
    credential: Credential,
    id: string,
    page: { limit?: number; after?: number } = {},
  ): Promise<{ items: DeliveryAttempt[]; next: number | null }> {
    const { webhook } = await this.owned(credential, id);
    const limit = page.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw new GameError('INVALID_INPUT', 'limit must be a whole number from 1 to 100', { field: 'limit' });
    }
    if (page.after !== undefined && (!Number.isInteger(page.after) || page.after < 1)) {
      throw new GameError('INVALID_INPUT', 'after must be the `next` of a previous page', {
        field: 'after',
      });
    }
    // Newest first: the attempts after `after` in the list are those older than it.
    const log = await this.storage.webhooks.deliveryLog(webhook, limit, page.after);
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
    const previous = await this.storage.webhooks.findDelivery(webhook, deliveryId);
    if (!previous) {
      throw new GameError('DELIVERY_NOT_FOUND', `No delivery ${deliveryId} in the log of webhook ${id}`);
    }
    if (previous.outcome === 'skipped') {
      throw new GameError(
        'EVENTS_EXPIRED',
        `Entry ${deliveryId} records events passed over (${previous.reason}); they are no longer in the feed`,
        { seq: previous.seq, lastSeq: previous.lastSeq },
      );
    }
    const page = await this.storage.feed.read(webhook.account, previous.seq - 1, 1);
    const event = page.events[0];
    if (!event || event.seq !== previous.seq) {
      throw new GameError('EVENTS_EXPIRED', `Event ${previous.seq} was trimmed from the feed`, {
        first: page.first,
        last: page.last,
      });
    }
    if (previous.epoch !== null && event.epoch !== previous.epoch) {
      // The seq now names another event: the store came back older and lost this one.
      throw new GameError(
        'EVENTS_EXPIRED',
        `Event ${previous.seq} of epoch ${previous.epoch} was lost when the store came back older (the feed is in epoch ${page.epoch})`,
        { epoch: page.epoch, first: page.first, last: page.last },
      );
    }
    const at = this.now();
    const result = await this.worker.send(webhook, event, deliveryId, at);
    const attempt: NewDeliveryAttempt = {
      deliveryId,
      seq: event.seq,
      epoch: event.epoch,
      lastSeq: null,
      reason: null,
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
    const logged = await this.storage.webhooks.logAttempt(webhook, attempt);
    if (!logged) throw notFound(id);
    return logged;
  }

  /** The endpoint, if it is the caller's (another owner's endpoints do not exist for it). */
  private async owned(credential: Credential, id: string): Promise<WebhookRecord> {
    const { owner, noun } = await this.ownerOf(credential);
    if (!WEBHOOK_ID.test(id)) {
      throw new GameError('INVALID_INPUT', `Malformed webhook id "${id}"`, { field: 'id' });
    }
    // Endpoints are kept with their owner: the caller's owner says where to look.
    const record = await this.storage.webhooks.getWebhook({ account: owner, id });
    if (!record || record.webhook.account !== owner) throw notFound(id, noun);
    return record;
  }
}

function webhookView({ webhook, state }: WebhookRecord): WebhookView {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    createdAt: webhook.createdAt,
    createdBy: webhook.createdBy,
    cursor: state.cursor,
    epoch: state.epoch,
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

function notFound(id: string, noun: 'account' | 'app' = 'account'): GameError {
  return new GameError('WEBHOOK_NOT_FOUND', `No webhook ${id} on this ${noun}`);
}
