import type Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import {
  DELIVERY_LOG_MAX_LENGTH,
  type DeliveryAttempt,
  type DeliveryLogPage,
  type NewDeliveryAttempt,
  type ClaimShare,
  type StoredWebhook,
  type WebhookClaim,
  type WebhookRecord,
  type WebhookRef,
  type WebhookState,
  type WebhookStore,
} from '../../store';
import { epochCandidate, msOf, wholeNumber } from '../games/arguments';
import { dueShards, Keys, shardOf, shardTag } from '../keys';
import { claimWebhooks, createWebhook, deleteWebhook, logAttempt, releaseWebhook } from './scripts';

// Webhooks, in the shard of their account (docs/data-model.md). Key layout (prefix p, endpoint id
// w, account id a, s the shard of a):
//   p webhook:{s}:w        hash: doc (JSON StoredWebhook), account, cursor, epoch (the feed epoch
//                          of the cursor; absent on endpoints stored before epochs), pending (JSON
//                          PendingDelivery or ''), next (its next attempt, epoch ms, or ''),
//                          lease (the current claim's token), logseq (the log's counter)
//   p webhooks:{s}:a       set of the account's endpoint ids (append_to_feed reads it)
//   p webhooks:due:{s}     sorted set of the shard's endpoints with work, score = when (epoch ms):
//                          an event appended (ZADD NX at its time), a retry's next attempt, or a
//                          lease's end (a claim's, extended at each checkpoint)
//   p webhooklog:{s}:w     stream of the endpoint's delivery attempts, entry id <n>-0, field
//                          attempt (DeliveryAttempt JSON), capped at about DELIVERY_LOG_MAX_LENGTH
// The feed is the outbox: an endpoint's cursor says how far it got, and the due sets say which
// endpoints to look at. An endpoint is named by its account and id (WebhookRef): the account gives
// the shard. Every script touches one shard (scripts.ts); a claim looks at the shards with
// something due and claims from each in turn. Endpoints stored by the layout before (p webhook:w,
// p webhooks:account:a, p webhooks:due, p webhooklog:w) are moved here by migrateWebhooksV1.

/** Attempts as log_attempts reads them: each one's JSON after its opening brace (n goes first). */
function attemptsArgument(attempts: readonly NewDeliveryAttempt[]): string {
  return JSON.stringify(attempts.map((a) => JSON.stringify(a).slice(1)));
}

function stateOf(
  cursor: string | null,
  pending: string | null,
  epoch: string | null,
  slow: string | null,
): WebhookState {
  const slowCount = Number(slow ?? 0) || 0;
  return {
    cursor: Number(cursor ?? 0),
    epoch: epoch || null,
    pending: pending ? (JSON.parse(pending) as WebhookState['pending']) : null,
    ...(slowCount > 0 ? { slow: slowCount } : {}),
  };
}

/** Webhook endpoints, their delivery state and logs; a due set per shard shared by every node. */
export class RedisWebhookStore implements WebhookStore {
  readonly keys: Keys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly maxLogLength = DELIVERY_LOG_MAX_LENGTH,
  ) {
    this.keys = new Keys(prefix);
  }

  async createWebhook(webhook: StoredWebhook, max: number): Promise<WebhookState | undefined> {
    const [cursor, epoch] = await createWebhook.run(
      this.redis,
      {
        endpoint: this.keys.webhook(webhook.account, webhook.id),
        endpoints: this.keys.webhooksOf(webhook.account),
        feedSeq: this.keys.feedSeq(webhook.account),
        feedEpoch: this.keys.feedEpoch(webhook.account),
      },
      {
        id: webhook.id,
        account: webhook.account,
        doc: JSON.stringify(webhook),
        max: wholeNumber(max),
        candidate: epochCandidate(),
      },
    );
    return cursor < 0 ? undefined : { cursor, epoch: epoch ?? null, pending: null };
  }

  async getWebhook(ref: WebhookRef): Promise<WebhookRecord | undefined> {
    const [doc, account, cursor, pending, epoch, slow] = await this.redis.hmget(
      this.keys.webhook(ref.account, ref.id),
      'doc',
      'account',
      'cursor',
      'pending',
      'epoch',
      'slow',
    );
    return doc && account === ref.account
      ? {
          webhook: JSON.parse(doc) as StoredWebhook,
          state: stateOf(cursor ?? null, pending ?? null, epoch ?? null, slow ?? null),
        }
      : undefined;
  }

  async listWebhooks(account: string): Promise<WebhookRecord[]> {
    const ids = await this.redis.smembers(this.keys.webhooksOf(account));
    const records = await Promise.all(ids.map((id) => this.getWebhook({ account, id })));
    return records
      .filter((r): r is WebhookRecord => r !== undefined)
      .sort(
        (a, b) =>
          a.webhook.createdAt.localeCompare(b.webhook.createdAt) || a.webhook.id.localeCompare(b.webhook.id),
      );
  }

  async deleteWebhook(ref: WebhookRef): Promise<boolean> {
    const deleted = await deleteWebhook.run(
      this.redis,
      {
        endpoint: this.keys.webhook(ref.account, ref.id),
        log: this.keys.webhookLog(ref.account, ref.id),
        endpoints: this.keys.webhooksOf(ref.account),
        due: this.keys.webhooksDue(shardOf(ref.account)),
      },
      { id: ref.id, account: ref.account },
    );
    return deleted === 1;
  }

  /**
   * Claims from the shards whose due set has something due, earliest first, up to `limit` in all
   * (one script per shard; see dueShards). With a share, in two passes: first one slot for each
   * account holding none, across the shards; then up to the share (each script is fair within its
   * shard, the busy counts carry the claims of the shards before).
   */
  async claimDue(now: string, limit: number, leaseMs: number, share?: ClaimShare): Promise<WebhookClaim[]> {
    let count = wholeNumber(limit);
    if (count === 0) return [];
    const nowMs = Number(msOf(now, 'now'));
    const leaseEnd = nowMs + wholeNumber(leaseMs);
    const lease = randomBytes(12).toString('base64url');
    const due = await dueShards(this.redis, (shard) => this.keys.webhooksDue(shard), nowMs);
    const claims: WebhookClaim[] = [];
    const busy = new Map<string, { all: number; demoted: number }>(
      [...(share?.busy ?? [])].map(([account, held]) => [account, { ...held }]),
    );
    const demoteAfter = share?.demoteAfter ?? Number.MAX_SAFE_INTEGER;
    let demotedFree = share?.demotedFree ?? Number.MAX_SAFE_INTEGER;
    const caps = share ? [...new Set([Math.min(1, share.perAccount), share.perAccount])] : [count];
    for (const cap of caps) {
      for (const shard of due) {
        if (count === 0) break;
        const claimed = await claimWebhooks.run(
          this.redis,
          { due: this.keys.webhooksDue(shard) },
          {
            prefix: this.keys.prefix,
            tag: shardTag(shard),
            now: nowMs,
            leaseEnd,
            limit: count,
            token: lease,
            candidate: epochCandidate(),
            cap,
            busy: JSON.stringify(
              Object.fromEntries([...busy].map(([a, held]) => [a, [held.all, held.demoted]])),
            ),
            demoteAfter,
            demotedFree: Math.max(0, demotedFree),
          },
        );
        for (const [, doc, cursor, pending, epoch, slow] of claimed) {
          const claim: WebhookClaim = {
            webhook: JSON.parse(doc) as StoredWebhook,
            state: stateOf(cursor, pending, epoch, slow),
            lease,
          };
          claims.push(claim);
          const held = busy.get(claim.webhook.account) ?? { all: 0, demoted: 0 };
          const demoted = (claim.state.slow ?? 0) >= demoteAfter;
          busy.set(claim.webhook.account, { all: held.all + 1, demoted: held.demoted + (demoted ? 1 : 0) });
          if (demoted) demotedFree -= 1;
        }
        count -= claimed.length;
      }
    }
    return claims;
  }

  async release(
    ref: WebhookRef,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
    now: string,
  ): Promise<boolean> {
    return this.save(ref, lease, state, attempts, now, '');
  }

  async checkpoint(
    ref: WebhookRef,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
    now: string,
    leaseMs: number,
  ): Promise<boolean> {
    return this.save(ref, lease, state, attempts, now, Number(msOf(now, 'now')) + wholeNumber(leaseMs));
  }

  private async save(
    ref: WebhookRef,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
    now: string,
    hold: number | '',
  ): Promise<boolean> {
    const released = await releaseWebhook.run(
      this.redis,
      {
        endpoint: this.keys.webhook(ref.account, ref.id),
        log: this.keys.webhookLog(ref.account, ref.id),
        due: this.keys.webhooksDue(shardOf(ref.account)),
        feedSeq: this.keys.feedSeq(ref.account),
        feedEpoch: this.keys.feedEpoch(ref.account),
      },
      {
        id: ref.id,
        account: ref.account,
        token: lease,
        cursor: wholeNumber(state.cursor),
        pending: state.pending ? JSON.stringify(state.pending) : '',
        next: state.pending ? msOf(state.pending.nextAttemptAt, 'nextAttemptAt') : '',
        now: msOf(now, 'now'),
        attempts: attemptsArgument(attempts),
        maxLog: this.maxLogLength,
        epoch: state.epoch ?? '',
        hold,
        candidate: epochCandidate(),
        slow: state.slow ?? 0,
      },
    );
    return released === 1;
  }

  async logAttempt(ref: WebhookRef, attempt: NewDeliveryAttempt): Promise<DeliveryAttempt | undefined> {
    const n = await logAttempt.run(
      this.redis,
      { endpoint: this.keys.webhook(ref.account, ref.id), log: this.keys.webhookLog(ref.account, ref.id) },
      { account: ref.account, attempts: attemptsArgument([attempt]), maxLog: this.maxLogLength },
    );
    return n > 0 ? { n, ...attempt } : undefined;
  }

  /** Whether the endpoint is the account's (its log is read only then). */
  private async owns(ref: WebhookRef): Promise<boolean> {
    return (await this.redis.hget(this.keys.webhook(ref.account, ref.id), 'account')) === ref.account;
  }

  async deliveryLog(ref: WebhookRef, limit: number, before?: number): Promise<DeliveryLogPage> {
    const count = wholeNumber(limit);
    const end = before === undefined ? '+' : `(${wholeNumber(before)}-0`;
    if (count === 0) return { items: [], next: null };
    const [owned, entries] = await Promise.all([
      this.owns(ref),
      this.redis.xrevrange(this.keys.webhookLog(ref.account, ref.id), end, '-', 'COUNT', count + 1),
    ]);
    if (!owned) return { items: [], next: null };
    const items = entries.slice(0, count).map(([, fields]) => attemptOf(fields));
    const last = items[items.length - 1];
    return { items, next: entries.length > count && last ? last.n : null };
  }

  async findDelivery(ref: WebhookRef, deliveryId: string): Promise<DeliveryAttempt | undefined> {
    if (!(await this.owns(ref))) return undefined;
    const log = this.keys.webhookLog(ref.account, ref.id);
    let end = '+';
    for (;;) {
      const entries = await this.redis.xrevrange(log, end, '-', 'COUNT', 200);
      for (const [, fields] of entries) {
        const attempt = attemptOf(fields);
        if (attempt.deliveryId === deliveryId) return attempt;
      }
      const oldest = entries[entries.length - 1];
      if (entries.length < 200 || !oldest) return undefined;
      end = `(${oldest[0]}`;
    }
  }
}

function attemptOf(fields: string[]): DeliveryAttempt {
  const i = fields.indexOf('attempt');
  const attempt = JSON.parse(fields[i + 1] ?? '{}') as DeliveryAttempt;
  // Entries written before epochs and skipped entries lack these fields.
  return {
    ...attempt,
    epoch: attempt.epoch ?? null,
    lastSeq: attempt.lastSeq ?? null,
    reason: attempt.reason ?? null,
  };
}
