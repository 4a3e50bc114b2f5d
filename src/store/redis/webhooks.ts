import type Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import {
  DELIVERY_LOG_MAX_LENGTH,
  type DeliveryAttempt,
  type DeliveryLogPage,
  type NewDeliveryAttempt,
  type StoredWebhook,
  type WebhookClaim,
  type WebhookRecord,
  type WebhookState,
  type WebhookStore,
} from '../store';
import { epochCandidate, msOf, wholeNumber } from './arguments';
import type { Arg } from './client';
import { SHARD_TAG } from './game-scripts';
import { FEED_EPOCH } from './feed-scripts';

// Webhooks. Key layout (prefix p, endpoint id w, account id a):
//   p webhook:w            hash: doc (JSON StoredWebhook), account, cursor, epoch (the feed epoch
//                          of the cursor; absent on endpoints stored before epochs), pending (JSON
//                          PendingDelivery or ''), next (its next attempt, epoch ms, or ''),
//                          lease (the current claim's token), logseq (the log's counter)
//   p webhooks:account:a   set of the account's endpoint ids (append_notices reads it)
//   p webhooks:due         sorted set of endpoints with work, score = when (epoch ms): an event
//                          appended (ZADD NX at its time), a retry's next attempt, or a lease's end
//                          (a claim's, extended at each checkpoint)
//   p webhooklog:w         stream of the endpoint's delivery attempts, entry id <n>-0, field
//                          attempt (DeliveryAttempt JSON), capped at about DELIVERY_LOG_MAX_LENGTH
// The feed is the outbox: an endpoint's cursor says how far it got, and the due set says which
// endpoints to look at. Like the feed writes, these scripts touch keys of several slots (one Redis).

/** Lua: the current epoch of an account's feed (beginning one if due), for the scripts below. */
const ACCOUNT_EPOCH = `${FEED_EPOCH}${SHARD_TAG}
local function feedseq_key(p, account)
  return p .. 'feedseq:' .. shard_tag(account) .. ':' .. account
end
local function account_epoch(p, account, candidate)
  return (feed_epoch(p .. 'feedepoch:' .. shard_tag(account) .. ':' .. account, feedseq_key(p, account), candidate))
end
`;

/**
 * Stores an endpoint at its account's newest seq and epoch unless the account has `max` already.
 * KEYS[1] endpoint, KEYS[2] the account's endpoint set; ARGV: prefix, id, account, doc, max, epoch
 * candidate. Returns [cursor, epoch], or [-1] at the limit.
 */
const CREATE_WEBHOOK_SCRIPT = `${ACCOUNT_EPOCH}
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[5]) then return {-1} end
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('webhook exists') end
local epoch = account_epoch(ARGV[1], ARGV[3], ARGV[6])
local cursor = redis.call('GET', feedseq_key(ARGV[1], ARGV[3])) or '0'
redis.call('HSET', KEYS[1], 'doc', ARGV[4], 'account', ARGV[3], 'cursor', cursor, 'epoch', epoch,
  'pending', '', 'next', '')
redis.call('SADD', KEYS[2], ARGV[2])
return {tonumber(cursor), epoch}
`;

/** KEYS[1] endpoint, KEYS[2] its log; ARGV: prefix, id. 1 when it existed. */
const DELETE_WEBHOOK_SCRIPT = `
local account = redis.call('HGET', KEYS[1], 'account')
if not account then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SREM', ARGV[1] .. 'webhooks:account:' .. account, ARGV[2])
redis.call('ZREM', ARGV[1] .. 'webhooks:due', ARGV[2])
return 1
`;

/**
 * Claims endpoints whose due time has come and that have work; forgets those without (deleted, or
 * caught up) and puts back those whose retry is not due. An endpoint whose feed began a new epoch
 * since its cursor has work at once (the worker sorts out what survived). Each claimed endpoint
 * gets the lease token and a due time at the lease's end, so that it comes back if its claimer dies.
 * ARGV: prefix, now ms, lease end ms, limit, token, epoch candidate. Returns [id, doc, cursor,
 * pending, epoch] per claim.
 */
const CLAIM_WEBHOOKS_SCRIPT = `${ACCOUNT_EPOCH}
local p = ARGV[1]
local now = tonumber(ARGV[2])
local due = p .. 'webhooks:due'
local claimed = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', due, '-inf', ARGV[2], 'LIMIT', 0, ARGV[4])) do
  local key = p .. 'webhook:' .. id
  local h = redis.call('HMGET', key, 'doc', 'account', 'cursor', 'pending', 'next', 'epoch')
  local moved = h[1] and h[6] and h[6] ~= '' and h[6] ~= account_epoch(p, h[2], ARGV[6])
  if not h[1] then
    redis.call('ZREM', due, id)
  elseif not moved and h[4] ~= '' and tonumber(h[5]) > now then
    redis.call('ZADD', due, h[5], id)
  elseif not moved and h[4] == '' and tonumber(h[3]) >= tonumber(redis.call('GET', feedseq_key(p, h[2])) or '0') then
    redis.call('ZREM', due, id)
  else
    redis.call('HSET', key, 'lease', ARGV[5])
    redis.call('ZADD', due, ARGV[3], id)
    table.insert(claimed, {id, h[1], h[3], h[4], h[6] or ''})
  end
end
return claimed
`;

/** Lua: append attempts (JSON list of their JSON without the leading brace) to an endpoint's log. */
const LOG_ATTEMPTS = `
local function log_attempts(key, log, attempts, maxlen)
  local last = 0
  for _, rest in ipairs(cjson.decode(attempts)) do
    last = redis.call('HINCRBY', key, 'logseq', 1)
    redis.call('XADD', log, 'MAXLEN', '~', maxlen, last .. '-0', 'attempt', '{"n":' .. last .. ',' .. rest)
  end
  return last
end
`;

/**
 * Ends a claim if its lease is still the endpoint's: state, log, and the next due time. With a
 * hold time (a checkpoint), saves the same but keeps the claim, its lease extended to then.
 * KEYS[1] endpoint, KEYS[2] its log; ARGV: prefix, id, token, cursor, pending, next ms, now ms,
 * attempts (JSON), max log length, epoch, hold (lease end ms, or '' to release), epoch candidate.
 */
const RELEASE_WEBHOOK_SCRIPT = `${LOG_ATTEMPTS}${ACCOUNT_EPOCH}
local h = redis.call('HMGET', KEYS[1], 'lease', 'account')
if h[1] ~= ARGV[3] or not h[2] then return 0 end
redis.call('HSET', KEYS[1], 'cursor', ARGV[4], 'pending', ARGV[5], 'next', ARGV[6], 'epoch', ARGV[10])
log_attempts(KEYS[1], KEYS[2], ARGV[8], ARGV[9])
local due = ARGV[1] .. 'webhooks:due'
if ARGV[11] ~= '' then
  redis.call('ZADD', due, ARGV[11], ARGV[2])
  return 1
end
redis.call('HDEL', KEYS[1], 'lease')
if ARGV[10] ~= '' and ARGV[10] ~= account_epoch(ARGV[1], h[2], ARGV[12]) then
  redis.call('ZADD', due, ARGV[7], ARGV[2])
elseif ARGV[5] ~= '' then
  redis.call('ZADD', due, ARGV[6], ARGV[2])
elseif tonumber(ARGV[4]) < tonumber(redis.call('GET', feedseq_key(ARGV[1], h[2])) or '0') then
  redis.call('ZADD', due, ARGV[7], ARGV[2])
else
  redis.call('ZREM', due, ARGV[2])
end
return 1
`;

/** KEYS[1] endpoint, KEYS[2] its log; ARGV: attempts (JSON), max log length. The new n, or 0. */
const LOG_ATTEMPT_SCRIPT = `${LOG_ATTEMPTS}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return log_attempts(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
`;

const WEBHOOK_SCRIPTS = {
  boardhostCreateWebhook: { numberOfKeys: 2, lua: CREATE_WEBHOOK_SCRIPT },
  boardhostDeleteWebhook: { numberOfKeys: 2, lua: DELETE_WEBHOOK_SCRIPT },
  boardhostClaimWebhooks: { numberOfKeys: 0, lua: CLAIM_WEBHOOKS_SCRIPT },
  boardhostReleaseWebhook: { numberOfKeys: 2, lua: RELEASE_WEBHOOK_SCRIPT },
  boardhostLogAttempt: { numberOfKeys: 2, lua: LOG_ATTEMPT_SCRIPT },
} as const;

interface WebhookRedis extends Redis {
  boardhostCreateWebhook(...args: Arg[]): Promise<[number, string?]>;
  boardhostDeleteWebhook(...args: Arg[]): Promise<number>;
  boardhostClaimWebhooks(...args: Arg[]): Promise<Array<[string, string, string, string, string]>>;
  boardhostReleaseWebhook(...args: Arg[]): Promise<number>;
  boardhostLogAttempt(...args: Arg[]): Promise<number>;
}

const webhookClients = new WeakSet<Redis>();

/** Attempts as log_attempts reads them: each one's JSON after its opening brace (n goes first). */
function attemptsArgument(attempts: readonly NewDeliveryAttempt[]): string {
  return JSON.stringify(attempts.map((a) => JSON.stringify(a).slice(1)));
}

function stateOf(cursor: string | null, pending: string | null, epoch: string | null): WebhookState {
  return {
    cursor: Number(cursor ?? 0),
    epoch: epoch || null,
    pending: pending ? (JSON.parse(pending) as WebhookState['pending']) : null,
  };
}

/** Webhook endpoints, their delivery state and logs; the due set shared by every node. */
export class RedisWebhookStore implements WebhookStore {
  private readonly redis: WebhookRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly maxLogLength = DELIVERY_LOG_MAX_LENGTH,
  ) {
    if (!webhookClients.has(redis)) {
      for (const [name, definition] of Object.entries(WEBHOOK_SCRIPTS)) redis.defineCommand(name, definition);
      webhookClients.add(redis);
    }
    this.redis = redis as WebhookRedis;
  }

  private key(id: string): string {
    return `${this.prefix}webhook:${id}`;
  }

  private logKey(id: string): string {
    return `${this.prefix}webhooklog:${id}`;
  }

  async createWebhook(webhook: StoredWebhook, max: number): Promise<WebhookState | undefined> {
    const [cursor, epoch] = await this.redis.boardhostCreateWebhook(
      this.key(webhook.id),
      `${this.prefix}webhooks:account:${webhook.account}`,
      this.prefix,
      webhook.id,
      webhook.account,
      JSON.stringify(webhook),
      wholeNumber(max),
      epochCandidate(),
    );
    return cursor < 0 ? undefined : { cursor, epoch: epoch ?? null, pending: null };
  }

  async getWebhook(id: string): Promise<WebhookRecord | undefined> {
    const [doc, cursor, pending, epoch] = await this.redis.hmget(
      this.key(id),
      'doc',
      'cursor',
      'pending',
      'epoch',
    );
    return doc
      ? {
          webhook: JSON.parse(doc) as StoredWebhook,
          state: stateOf(cursor ?? null, pending ?? null, epoch ?? null),
        }
      : undefined;
  }

  async listWebhooks(account: string): Promise<WebhookRecord[]> {
    const ids = await this.redis.smembers(`${this.prefix}webhooks:account:${account}`);
    const records = await Promise.all(ids.map((id) => this.getWebhook(id)));
    return records
      .filter((r): r is WebhookRecord => r !== undefined && r.webhook.account === account)
      .sort(
        (a, b) =>
          a.webhook.createdAt.localeCompare(b.webhook.createdAt) || a.webhook.id.localeCompare(b.webhook.id),
      );
  }

  async deleteWebhook(id: string): Promise<boolean> {
    return (await this.redis.boardhostDeleteWebhook(this.key(id), this.logKey(id), this.prefix, id)) === 1;
  }

  async claimDue(now: string, limit: number, leaseMs: number): Promise<WebhookClaim[]> {
    const count = wholeNumber(limit);
    if (count === 0) return [];
    const nowMs = Number(msOf(now, 'now'));
    const lease = randomBytes(12).toString('base64url');
    const claimed = await this.redis.boardhostClaimWebhooks(
      this.prefix,
      nowMs,
      nowMs + wholeNumber(leaseMs),
      count,
      lease,
      epochCandidate(),
    );
    return claimed.map(([, doc, cursor, pending, epoch]) => ({
      webhook: JSON.parse(doc) as StoredWebhook,
      state: stateOf(cursor, pending, epoch),
      lease,
    }));
  }

  async release(
    id: string,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
    now: string,
  ): Promise<boolean> {
    return this.save(id, lease, state, attempts, now, '');
  }

  async checkpoint(
    id: string,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
    now: string,
    leaseMs: number,
  ): Promise<boolean> {
    return this.save(id, lease, state, attempts, now, Number(msOf(now, 'now')) + wholeNumber(leaseMs));
  }

  private async save(
    id: string,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
    now: string,
    hold: number | '',
  ): Promise<boolean> {
    const released = await this.redis.boardhostReleaseWebhook(
      this.key(id),
      this.logKey(id),
      this.prefix,
      id,
      lease,
      wholeNumber(state.cursor),
      state.pending ? JSON.stringify(state.pending) : '',
      state.pending ? msOf(state.pending.nextAttemptAt, 'nextAttemptAt') : '',
      msOf(now, 'now'),
      attemptsArgument(attempts),
      this.maxLogLength,
      state.epoch ?? '',
      hold,
      epochCandidate(),
    );
    return released === 1;
  }

  async logAttempt(id: string, attempt: NewDeliveryAttempt): Promise<DeliveryAttempt | undefined> {
    const n = await this.redis.boardhostLogAttempt(
      this.key(id),
      this.logKey(id),
      attemptsArgument([attempt]),
      this.maxLogLength,
    );
    return n > 0 ? { n, ...attempt } : undefined;
  }

  async deliveryLog(id: string, limit: number, before?: number): Promise<DeliveryLogPage> {
    const count = wholeNumber(limit);
    const end = before === undefined ? '+' : `(${wholeNumber(before)}-0`;
    if (count === 0) return { items: [], next: null };
    const entries = await this.redis.xrevrange(this.logKey(id), end, '-', 'COUNT', count + 1);
    const items = entries.slice(0, count).map(([, fields]) => attemptOf(fields));
    const last = items[items.length - 1];
    return { items, next: entries.length > count && last ? last.n : null };
  }

  async findDelivery(id: string, deliveryId: string): Promise<DeliveryAttempt | undefined> {
    let end = '+';
    for (;;) {
      const entries = await this.redis.xrevrange(this.logKey(id), end, '-', 'COUNT', 200);
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
