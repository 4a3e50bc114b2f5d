import { randomBytes } from 'node:crypto';
import {
  DELIVERY_LOG_MAX_LENGTH,
  pickFair,
  type ClaimShare,
  type DeliveryAttempt,
  type DeliveryLogPage,
  type NewDeliveryAttempt,
  type StoredWebhook,
  type WebhookClaim,
  type WebhookRecord,
  type WebhookRef,
  type WebhookState,
  type WebhookStore,
} from '../store';

// Webhooks.

interface MemoryWebhook {
  readonly account: string;
  readonly webhook: string;
  state: string;
  lease: { readonly token: string; readonly until: number } | null;
  logSeq: number;
  log: DeliveryAttempt[];
}

/**
 * Webhook endpoints in this process. Whether an endpoint has work is worked out when claiming
 * (pending retry due, or cursor behind the feed), instead of the due set Redis keeps.
 */
export class MemoryWebhookStore implements WebhookStore {
  private readonly hooks = new Map<string, MemoryWebhook>();

  constructor(
    private readonly head: (account: string) => { readonly last: number; readonly epoch: string },
    private readonly maxLogLength = DELIVERY_LOG_MAX_LENGTH,
  ) {}

  async createWebhook(webhook: StoredWebhook, max: number): Promise<WebhookState | undefined> {
    if (this.hooks.has(webhook.id)) throw new Error(`webhook ${webhook.id} exists`);
    if (
      [...this.hooks.values()].filter((h) => this.parse(h).webhook.account === webhook.account).length >= max
    ) {
      return undefined;
    }
    const { last, epoch } = this.head(webhook.account);
    const state: WebhookState = { cursor: last, epoch, pending: null };
    this.hooks.set(webhook.id, {
      account: webhook.account,
      webhook: JSON.stringify(webhook),
      state: JSON.stringify(state),
      lease: null,
      logSeq: 0,
      log: [],
    });
    return state;
  }

  async getWebhook(ref: WebhookRef): Promise<WebhookRecord | undefined> {
    const hook = this.find(ref);
    return hook ? this.parse(hook) : undefined;
  }

  async listWebhooks(account: string): Promise<WebhookRecord[]> {
    return [...this.hooks.values()]
      .map((h) => this.parse(h))
      .filter((r) => r.webhook.account === account)
      .sort(
        (a, b) =>
          a.webhook.createdAt.localeCompare(b.webhook.createdAt) || a.webhook.id.localeCompare(b.webhook.id),
      );
  }

  async deleteWebhook(ref: WebhookRef): Promise<boolean> {
    return this.find(ref) !== undefined && this.hooks.delete(ref.id);
  }

  async claimDue(now: string, limit: number, leaseMs: number, share?: ClaimShare): Promise<WebhookClaim[]> {
    const nowMs = Date.parse(now);
    const token = randomBytes(12).toString('base64url');
    const due: Array<{ hook: MemoryWebhook; record: WebhookRecord; account: string; slow: number }> = [];
    // No await: the checks and the leases are one step of the event loop.
    for (const hook of this.hooks.values()) {
      if (!share && due.length >= limit) break;
      if (hook.lease && hook.lease.until > nowMs) continue;
      const record = this.parse(hook);
      const { pending, cursor, epoch } = record.state;
      const head = this.head(record.webhook.account);
      const isDue =
        (epoch !== null && epoch !== head.epoch) ||
        (pending ? Date.parse(pending.nextAttemptAt) <= nowMs : cursor < head.last);
      if (isDue) due.push({ hook, record, account: hook.account, slow: record.state.slow ?? 0 });
    }
    return pickFair(due, limit, share).map(({ hook, record }) => {
      hook.lease = { token, until: nowMs + leaseMs };
      return { ...record, lease: token };
    });
  }

  async release(
    ref: WebhookRef,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
  ): Promise<boolean> {
    const hook = this.find(ref);
    if (!hook || hook.lease?.token !== lease) return false;
    hook.state = JSON.stringify(state);
    hook.lease = null;
    for (const attempt of attempts) this.append(hook, attempt);
    return true;
  }

  async checkpoint(
    ref: WebhookRef,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
    now: string,
    leaseMs: number,
  ): Promise<boolean> {
    const hook = this.find(ref);
    if (!hook || hook.lease?.token !== lease) return false;
    hook.state = JSON.stringify(state);
    hook.lease = { token: lease, until: Date.parse(now) + leaseMs };
    for (const attempt of attempts) this.append(hook, attempt);
    return true;
  }

  async logAttempt(ref: WebhookRef, attempt: NewDeliveryAttempt): Promise<DeliveryAttempt | undefined> {
    const hook = this.find(ref);
    return hook ? this.append(hook, attempt) : undefined;
  }

  async deliveryLog(ref: WebhookRef, limit: number, before?: number): Promise<DeliveryLogPage> {
    const log = this.find(ref)?.log ?? [];
    const older = log.filter((a) => before === undefined || a.n < before).reverse();
    const items = older.slice(0, Math.max(0, limit));
    const last = items[items.length - 1];
    return { items: clone(items), next: older.length > items.length && last ? last.n : null };
  }

  async findDelivery(ref: WebhookRef, deliveryId: string): Promise<DeliveryAttempt | undefined> {
    const log = this.find(ref)?.log ?? [];
    const found = log.findLast((a) => a.deliveryId === deliveryId);
    return found ? clone(found) : undefined;
  }

  /** The endpoint, if it is the account's. */
  private find(ref: WebhookRef): MemoryWebhook | undefined {
    const hook = this.hooks.get(ref.id);
    return hook?.account === ref.account ? hook : undefined;
  }

  private append(hook: MemoryWebhook, attempt: NewDeliveryAttempt): DeliveryAttempt {
    const entry: DeliveryAttempt = { n: ++hook.logSeq, ...clone(attempt) };
    hook.log.push(entry);
    if (hook.log.length > this.maxLogLength) hook.log.splice(0, hook.log.length - this.maxLogLength);
    return clone(entry);
  }

  private parse(hook: MemoryWebhook): WebhookRecord {
    const state = JSON.parse(hook.state) as WebhookState;
    return {
      webhook: JSON.parse(hook.webhook) as StoredWebhook,
      state: {
        cursor: state.cursor,
        epoch: state.epoch ?? null,
        pending: state.pending,
        ...(state.slow ? { slow: state.slow } : {}),
      },
    };
  }
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
