import { FEED_EPOCH } from '../feed/scripts';
import { TAGGED_KEYS_LUA } from '../lua-keys';
import { script } from '../script';

// The webhook scripts (the store is store.ts). Each touches one shard: an account's endpoints,
// their logs, its feed's seq and epoch and the shard's due set all carry the account's shard tag.
// The claim finds endpoints (and their accounts) in a shard's due set: it builds their keys with
// the builders lua-keys.ts generates from keys.ts; the other scripts declare every key.

/**
 * Lua: an account's feed seq key and its current epoch (beginning one if due), in shard tag `t`
 * (the account's): for the endpoints the claim finds.
 */
const ACCOUNT_FEED = `${FEED_EPOCH}${TAGGED_KEYS_LUA}
local function account_epoch(p, t, account, candidate)
  return (feed_epoch(feedEpoch_key(p, t, account), feedSeq_key(p, t, account), candidate))
end
`;

/**
 * Stores an endpoint at its account's newest seq and epoch unless the account has `max` already
 * (`endpoints`: the account's endpoint set). Returns [cursor, epoch], or [-1] at the limit.
 */
export const createWebhook = script<[number, string?]>()({
  name: 'boardhostCreateWebhook',
  keys: ['endpoint', 'endpoints', 'feedSeq', 'feedEpoch'],
  args: ['id', 'account', 'doc', 'max', 'candidate'],
  lua: `${FEED_EPOCH}
if redis.call('SCARD', KEY.endpoints) >= tonumber(ARG.max) then return {-1} end
if redis.call('EXISTS', KEY.endpoint) == 1 then return redis.error_reply('webhook exists') end
local epoch = (feed_epoch(KEY.feedEpoch, KEY.feedSeq, ARG.candidate))
local cursor = redis.call('GET', KEY.feedSeq) or '0'
redis.call('HSET', KEY.endpoint, 'doc', ARG.doc, 'account', ARG.account, 'cursor', cursor, 'epoch', epoch,
  'pending', '', 'next', '')
redis.call('SADD', KEY.endpoints, ARG.id)
return {tonumber(cursor), epoch}
`,
});

/** 1 when the account's endpoint existed (`endpoints`: the account's set; `due`: the shard's). */
export const deleteWebhook = script<number>()({
  name: 'boardhostDeleteWebhook',
  keys: ['endpoint', 'log', 'endpoints', 'due'],
  args: ['id', 'account'],
  lua: `
if redis.call('HGET', KEY.endpoint, 'account') ~= ARG.account then return 0 end
redis.call('DEL', KEY.endpoint, KEY.log)
redis.call('SREM', KEY.endpoints, ARG.id)
redis.call('ZREM', KEY.due, ARG.id)
return 1
`,
});

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
 * `due` the shard's due set; `prefix` and `tag` (the shard's) build the keys of the endpoints and
 * accounts found there (lua-keys.ts); `busy`: JSON {account: [all, demoted]}. Returns [id, doc,
 * cursor, pending, epoch, slow] per claim.
 */
export const claimWebhooks = script<Array<[string, string, string, string, string, string]>>()({
  name: 'boardhostClaimWebhooks',
  keys: ['due'],
  args: [
    'prefix',
    'tag',
    'now',
    'leaseEnd',
    'limit',
    'token',
    'candidate',
    'cap',
    'busy',
    'demoteAfter',
    'demotedFree',
  ],
  lua: `${ACCOUNT_FEED}
local p, t, due = ARG.prefix, ARG.tag, KEY.due
local now, limit, cap = tonumber(ARG.now), tonumber(ARG.limit), tonumber(ARG.cap)
local busy, demote_after, demoted_free = cjson.decode(ARG.busy), tonumber(ARG.demoteAfter), tonumber(ARG.demotedFree)
local order, accounts, idle, looked, kept = {}, {}, 0, 0, 0
while looked < ${CLAIM_SCAN_MAX} and idle < limit do
  local ids = redis.call('ZRANGEBYSCORE', due, '-inf', ARG.now, 'LIMIT', kept, 100)
  if #ids == 0 then break end
  looked = looked + #ids
  for _, id in ipairs(ids) do
    local key = webhook_key(p, t, id)
    local h = redis.call('HMGET', key, 'doc', 'account', 'cursor', 'pending', 'next', 'epoch', 'slow')
    local moved = h[1] and h[6] and h[6] ~= '' and h[6] ~= account_epoch(p, t, h[2], ARG.candidate)
    if not h[1] then
      redis.call('ZREM', due, id)
    elseif not moved and h[4] ~= '' and tonumber(h[5]) > now then
      redis.call('ZADD', due, h[5], id)
    elseif not moved and h[4] == '' and tonumber(h[3]) >= tonumber(redis.call('GET', feedSeq_key(p, t, h[2])) or '0') then
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
  redis.call('HSET', c.key, 'lease', ARG.token)
  redis.call('ZADD', due, ARG.leaseEnd, c.id)
  table.insert(claimed, {c.id, c.h[1], c.h[3], c.h[4], c.h[6] or '', tostring(c.slow)})
end
return claimed
`,
});

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
 * Ends a claim if its lease (`token`) is still the endpoint's: state, log, and the next due time.
 * With a hold time (a checkpoint: `hold`, the lease end ms, or '' to release), saves the same but
 * keeps the claim, its lease extended to then. `next` and `now`: ms; `attempts`: JSON; `slow`:
 * consecutive slow attempts.
 */
export const releaseWebhook = script<number>()({
  name: 'boardhostReleaseWebhook',
  keys: ['endpoint', 'log', 'due', 'feedSeq', 'feedEpoch'],
  args: [
    'id',
    'account',
    'token',
    'cursor',
    'pending',
    'next',
    'now',
    'attempts',
    'maxLog',
    'epoch',
    'hold',
    'candidate',
    'slow',
  ],
  lua: `${LOG_ATTEMPTS}${FEED_EPOCH}
local h = redis.call('HMGET', KEY.endpoint, 'lease', 'account')
if h[1] ~= ARG.token or h[2] ~= ARG.account then return 0 end
local id, due = ARG.id, KEY.due
redis.call('HSET', KEY.endpoint, 'cursor', ARG.cursor, 'pending', ARG.pending, 'next', ARG.next, 'epoch', ARG.epoch,
  'slow', ARG.slow)
log_attempts(KEY.endpoint, KEY.log, ARG.attempts, ARG.maxLog)
if ARG.hold ~= '' then
  redis.call('ZADD', due, ARG.hold, id)
  return 1
end
redis.call('HDEL', KEY.endpoint, 'lease')
if ARG.epoch ~= '' and ARG.epoch ~= (feed_epoch(KEY.feedEpoch, KEY.feedSeq, ARG.candidate)) then
  redis.call('ZADD', due, ARG.now, id)
elseif ARG.pending ~= '' then
  redis.call('ZADD', due, ARG.next, id)
elseif tonumber(ARG.cursor) < tonumber(redis.call('GET', KEY.feedSeq) or '0') then
  redis.call('ZADD', due, ARG.now, id)
else
  redis.call('ZREM', due, id)
end
return 1
`,
});

/** The new n, or 0 when the account has no such endpoint. `attempts`: JSON. */
export const logAttempt = script<number>()({
  name: 'boardhostLogAttempt',
  keys: ['endpoint', 'log'],
  args: ['account', 'attempts', 'maxLog'],
  lua: `${LOG_ATTEMPTS}
if redis.call('HGET', KEY.endpoint, 'account') ~= ARG.account then return 0 end
return log_attempts(KEY.endpoint, KEY.log, ARG.attempts, ARG.maxLog)
`,
});
