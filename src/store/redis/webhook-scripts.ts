import type Redis from 'ioredis';
import type { Arg } from './client';
import { FEED_EPOCH } from './feed-scripts';

// The webhook scripts (the store is webhooks.ts). Each touches one shard: an account's endpoints,
// their logs, its feed's seq and epoch and the shard's due set all carry the account's shard tag,
// which the caller passes (ARGV `tag`) for the keys a script builds.

/**
 * Lua: an account's feed seq key and its current epoch (beginning one if due), in shard tag `t`
 * (the account's).
 */
const ACCOUNT_FEED = `${FEED_EPOCH}
local function feedseq_key(p, t, account)
  return p .. 'feedseq:' .. t .. ':' .. account
end
local function account_epoch(p, t, account, candidate)
  return (feed_epoch(p .. 'feedepoch:' .. t .. ':' .. account, feedseq_key(p, t, account), candidate))
end
`;

/**
 * Stores an endpoint at its account's newest seq and epoch unless the account has `max` already.
 * KEYS[1] endpoint, KEYS[2] the account's endpoint set; ARGV: prefix, tag, id, account, doc, max,
 * epoch candidate. Returns [cursor, epoch], or [-1] at the limit.
 */
const CREATE_WEBHOOK_SCRIPT = `${ACCOUNT_FEED}
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[6]) then return {-1} end
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('webhook exists') end
local epoch = account_epoch(ARGV[1], ARGV[2], ARGV[4], ARGV[7])
local cursor = redis.call('GET', feedseq_key(ARGV[1], ARGV[2], ARGV[4])) or '0'
redis.call('HSET', KEYS[1], 'doc', ARGV[5], 'account', ARGV[4], 'cursor', cursor, 'epoch', epoch,
  'pending', '', 'next', '')
redis.call('SADD', KEYS[2], ARGV[3])
return {tonumber(cursor), epoch}
`;

/**
 * KEYS[1] endpoint, KEYS[2] its log, KEYS[3] the account's endpoint set, KEYS[4] the due set;
 * ARGV: id, account. 1 when the account's endpoint existed.
 */
const DELETE_WEBHOOK_SCRIPT = `
if redis.call('HGET', KEYS[1], 'account') ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
return 1
`;

/** Due entries one claim looks at, at most (claimed or not): bounds the script's time. */
export const CLAIM_SCAN_MAX = 1000;

/**
 * Claims a shard's endpoints whose due time has come and that have work; forgets those without
 * (deleted, or caught up) and puts back those whose retry is not due. The others are candidates,
 * taken round-robin by account as pickFair (ports/webhooks.ts) does: the account holding the fewest
 * slots first (ties: the one due earliest), at most `cap` per account, a demoted endpoint (slow >=
 * demote after) only while its account holds no other demoted one and `demoted free` allows; the
 * candidates not taken stay due. Looks at the due entries in order until `limit` accounts holding
 * nothing have candidates, or at CLAIM_SCAN_MAX entries. An endpoint whose feed began a new epoch
 * since its cursor has work at once (the worker sorts out what survived). Each claimed endpoint
 * gets the lease token and a due time at the lease's end, so that it comes back if its claimer dies.
 * KEYS[1] the shard's due set; ARGV: prefix, tag, now ms, lease end ms, limit, token, epoch
 * candidate, cap, busy (JSON {account: [all, demoted]}), demote after, demoted free. Returns
 * [id, doc, cursor, pending, epoch, slow] per claim.
 */
const CLAIM_WEBHOOKS_SCRIPT = `${ACCOUNT_FEED}
local p, t, due = ARGV[1], ARGV[2], KEYS[1]
local now, limit, cap = tonumber(ARGV[3]), tonumber(ARGV[5]), tonumber(ARGV[8])
local busy, demote_after, demoted_free = cjson.decode(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])
local order, accounts, idle, looked, kept = {}, {}, 0, 0, 0
while looked < ${CLAIM_SCAN_MAX} and idle < limit do
  local ids = redis.call('ZRANGEBYSCORE', due, '-inf', ARGV[3], 'LIMIT', kept, 100)
  if #ids == 0 then break end
  looked = looked + #ids
  for _, id in ipairs(ids) do
    local key = p .. 'webhook:' .. t .. ':' .. id
    local h = redis.call('HMGET', key, 'doc', 'account', 'cursor', 'pending', 'next', 'epoch', 'slow')
    local moved = h[1] and h[6] and h[6] ~= '' and h[6] ~= account_epoch(p, t, h[2], ARGV[7])
    if not h[1] then
      redis.call('ZREM', due, id)
    elseif not moved and h[4] ~= '' and tonumber(h[5]) > now then
      redis.call('ZADD', due, h[5], id)
    elseif not moved and h[4] == '' and tonumber(h[3]) >= tonumber(redis.call('GET', feedseq_key(p, t, h[2])) or '0') then
      redis.call('ZREM', due, id)
    else
      -- Stays where it is in the due set: the next page starts after the candidates.
      kept = kept + 1
      local a = accounts[h[2]]
      if not a then
        local b = busy[h[2]] or {0, 0}
        a = {all = b[1], demoted = b[2], queue = {}}
        accounts[h[2]] = a
        table.insert(order, a)
        if b[1] == 0 then idle = idle + 1 end
      end
      table.insert(a.queue, {id = id, key = key, h = h, slow = tonumber(h[7] or '0') or 0})
    end
  end
end
local claimed = {}
while #claimed < limit do
  local best, index = nil, nil
  for _, a in ipairs(order) do
    if a.all < cap and (best == nil or a.all < best.all) then
      for i, c in ipairs(a.queue) do
        if c.slow < demote_after or (a.demoted == 0 and demoted_free > 0) then
          best, index = a, i
          break
        end
      end
    end
  end
  if best == nil then break end
  local c = table.remove(best.queue, index)
  best.all = best.all + 1
  if c.slow >= demote_after then
    best.demoted = best.demoted + 1
    demoted_free = demoted_free - 1
  end
  redis.call('HSET', c.key, 'lease', ARGV[6])
  redis.call('ZADD', due, ARGV[4], c.id)
  table.insert(claimed, {c.id, c.h[1], c.h[3], c.h[4], c.h[6] or '', tostring(c.slow)})
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
 * KEYS[1] endpoint, KEYS[2] its log, KEYS[3] the due set; ARGV: prefix, tag, id, account, token,
 * cursor, pending, next ms, now ms, attempts (JSON), max log length, epoch, hold (lease end ms, or
 * '' to release), epoch candidate, slow (consecutive slow attempts).
 */
const RELEASE_WEBHOOK_SCRIPT = `${LOG_ATTEMPTS}${ACCOUNT_FEED}
local h = redis.call('HMGET', KEYS[1], 'lease', 'account')
if h[1] ~= ARGV[5] or h[2] ~= ARGV[4] then return 0 end
local p, t, id, account, due = ARGV[1], ARGV[2], ARGV[3], ARGV[4], KEYS[3]
redis.call('HSET', KEYS[1], 'cursor', ARGV[6], 'pending', ARGV[7], 'next', ARGV[8], 'epoch', ARGV[12],
  'slow', ARGV[15])
log_attempts(KEYS[1], KEYS[2], ARGV[10], ARGV[11])
if ARGV[13] ~= '' then
  redis.call('ZADD', due, ARGV[13], id)
  return 1
end
redis.call('HDEL', KEYS[1], 'lease')
if ARGV[12] ~= '' and ARGV[12] ~= account_epoch(p, t, account, ARGV[14]) then
  redis.call('ZADD', due, ARGV[9], id)
elseif ARGV[7] ~= '' then
  redis.call('ZADD', due, ARGV[8], id)
elseif tonumber(ARGV[6]) < tonumber(redis.call('GET', feedseq_key(p, t, account)) or '0') then
  redis.call('ZADD', due, ARGV[9], id)
else
  redis.call('ZREM', due, id)
end
return 1
`;

/**
 * KEYS[1] endpoint, KEYS[2] its log; ARGV: account, attempts (JSON), max log length. The new n, or
 * 0 when the account has no such endpoint.
 */
const LOG_ATTEMPT_SCRIPT = `${LOG_ATTEMPTS}
if redis.call('HGET', KEYS[1], 'account') ~= ARGV[1] then return 0 end
return log_attempts(KEYS[1], KEYS[2], ARGV[2], ARGV[3])
`;

const WEBHOOK_SCRIPTS = {
  boardhostCreateWebhook: { numberOfKeys: 2, lua: CREATE_WEBHOOK_SCRIPT },
  boardhostDeleteWebhook: { numberOfKeys: 4, lua: DELETE_WEBHOOK_SCRIPT },
  boardhostClaimWebhooks: { numberOfKeys: 1, lua: CLAIM_WEBHOOKS_SCRIPT },
  boardhostReleaseWebhook: { numberOfKeys: 3, lua: RELEASE_WEBHOOK_SCRIPT },
  boardhostLogAttempt: { numberOfKeys: 2, lua: LOG_ATTEMPT_SCRIPT },
} as const;

export interface WebhookRedis extends Redis {
  boardhostCreateWebhook(...args: Arg[]): Promise<[number, string?]>;
  boardhostDeleteWebhook(...args: Arg[]): Promise<number>;
  boardhostClaimWebhooks(...args: Arg[]): Promise<Array<[string, string, string, string, string, string]>>;
  boardhostReleaseWebhook(...args: Arg[]): Promise<number>;
  boardhostLogAttempt(...args: Arg[]): Promise<number>;
}

const webhookClients = new WeakSet<Redis>();

/** The client with the webhook scripts defined (once per client). */
export function withWebhookScripts(redis: Redis): WebhookRedis {
  if (!webhookClients.has(redis)) {
    for (const [name, definition] of Object.entries(WEBHOOK_SCRIPTS)) redis.defineCommand(name, definition);
    webhookClients.add(redis);
  }
  return redis as WebhookRedis;
}
