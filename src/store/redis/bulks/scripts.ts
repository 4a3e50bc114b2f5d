import { script } from '../script';

// The scripts of bulk pairings (docs/data-model.md, "Bulk pairings"). Each touches one bulk's shard:
// `bulk` the bulk's hash (doc, state, updatedAt, refusal, startAt), `due` the shard's due set.

/** A new bulk, reserving (`startAt`, `leaseEnd`: ms). 0 when it exists. */
export const beginBulk = script<number>()({
  name: 'boardhostBeginBulk',
  keys: ['bulk', 'due'],
  args: ['id', 'doc', 'updatedAt', 'startAt', 'leaseEnd'],
  lua: `
if redis.call('EXISTS', KEY.bulk) == 1 then return 0 end
redis.call('HSET', KEY.bulk, 'doc', ARG.doc, 'state', 'reserving', 'updatedAt', ARG.updatedAt, 'startAt', ARG.startAt)
redis.call('ZADD', KEY.due, ARG.leaseEnd, ARG.id)
return 1
`,
});

/**
 * One step of the state machine: `from` the states it may leave (comma-separated), `to` the state it
 * reaches ('commit' picks creating or scheduled by startAt), `now` ms, `score` the due score ('' takes
 * it out of the due set; for commit: the lease end), `refusal` JSON or ''. Answers the bulk's fields after
 * the step, or nil when it was in no state it may leave (nothing changed).
 */
export const moveBulk = script<[string, string, string, string | false] | null>()({
  name: 'boardhostMoveBulk',
  keys: ['bulk', 'due'],
  args: ['id', 'from', 'to', 'updatedAt', 'now', 'score', 'refusal'],
  lua: `
local state = redis.call('HGET', KEY.bulk, 'state')
if not state then return nil end
local ok = false
for from in string.gmatch(ARG.from, '[^,]+') do if from == state then ok = true end end
if not ok then return nil end
local to = ARG.to
local score = ARG.score
if to == 'commit' then
  if tonumber(redis.call('HGET', KEY.bulk, 'startAt')) <= tonumber(ARG.now) then
    to = 'creating'
  else
    to = 'scheduled'
    score = redis.call('HGET', KEY.bulk, 'startAt')
  end
end
redis.call('HSET', KEY.bulk, 'state', to, 'updatedAt', ARG.updatedAt)
if ARG.refusal ~= '' then redis.call('HSET', KEY.bulk, 'refusal', ARG.refusal) end
if score == '' then redis.call('ZREM', KEY.due, ARG.id) else redis.call('ZADD', KEY.due, score, ARG.id) end
return redis.call('HMGET', KEY.bulk, 'doc', 'state', 'updatedAt', 'refusal')
`,
});

/**
 * The shard's due bulks, each leased (its score moved to the lease end); a scheduled one becomes
 * creating. `bulkKeyPrefix`: the key of a bulk of the shard without its id (Keys.bulkKeyPrefix).
 */
export const claimBulks = script<Array<[string, string, string, string | false]>>()({
  name: 'boardhostClaimBulks',
  keys: ['due'],
  args: ['bulkKeyPrefix', 'now', 'leaseEnd', 'limit', 'updatedAt'],
  lua: `
local ids = redis.call('ZRANGEBYSCORE', KEY.due, '-inf', ARG.now, 'LIMIT', 0, tonumber(ARG.limit))
local out = {}
for _, id in ipairs(ids) do
  local key = ARG.bulkKeyPrefix .. id
  local state = redis.call('HGET', key, 'state')
  if not state then
    redis.call('ZREM', KEY.due, id)
  else
    redis.call('ZADD', KEY.due, ARG.leaseEnd, id)
    if state == 'scheduled' then redis.call('HSET', key, 'state', 'creating', 'updatedAt', ARG.updatedAt) end
    out[#out + 1] = redis.call('HMGET', key, 'doc', 'state', 'updatedAt', 'refusal')
  end
end
return out
`,
});
