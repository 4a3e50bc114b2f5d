// The scripts of bulk pairings (docs/data-model.md, "Bulk pairings"). Each touches one bulk's shard:
// KEYS[1] the bulk's hash (doc, state, updatedAt, refusal, startAt), KEYS[2] the shard's due set.

/** A new bulk, reserving. ARGV: id, doc, updatedAt, startAt ms, lease end ms. 0 when it exists. */
const BEGIN_BULK = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'state', 'reserving', 'updatedAt', ARGV[3], 'startAt', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[1])
return 1
`;

/**
 * One step of the state machine. ARGV: id, the states it may leave (comma-separated), the state it
 * reaches ('commit' picks creating or scheduled by startAt), updatedAt, now ms, due score ('' takes it
 * out of the due set; for commit: the lease end), refusal JSON or ''. Answers the bulk's fields after
 * the step, or nil when it was in no state it may leave (nothing changed).
 */
const MOVE_BULK = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return nil end
local ok = false
for from in string.gmatch(ARGV[2], '[^,]+') do if from == state then ok = true end end
if not ok then return nil end
local to = ARGV[3]
local score = ARGV[6]
if to == 'commit' then
  if tonumber(redis.call('HGET', KEYS[1], 'startAt')) <= tonumber(ARGV[5]) then
    to = 'creating'
  else
    to = 'scheduled'
    score = redis.call('HGET', KEYS[1], 'startAt')
  end
end
redis.call('HSET', KEYS[1], 'state', to, 'updatedAt', ARGV[4])
if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'refusal', ARGV[7]) end
if score == '' then redis.call('ZREM', KEYS[2], ARGV[1]) else redis.call('ZADD', KEYS[2], score, ARGV[1]) end
return redis.call('HMGET', KEYS[1], 'doc', 'state', 'updatedAt', 'refusal')
`;

/**
 * The shard's due bulks, each leased (its score moved to the lease end); a scheduled one becomes
 * creating. KEYS[1] the due set; ARGV: the shard's bulk key prefix, now ms, lease end ms, limit, updatedAt.
 */
const CLAIM_BULKS = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[4]))
local out = {}
for _, id in ipairs(ids) do
  local key = ARGV[1] .. id
  local state = redis.call('HGET', key, 'state')
  if not state then
    redis.call('ZREM', KEYS[1], id)
  else
    redis.call('ZADD', KEYS[1], ARGV[3], id)
    if state == 'scheduled' then redis.call('HSET', key, 'state', 'creating', 'updatedAt', ARGV[5]) end
    out[#out + 1] = redis.call('HMGET', key, 'doc', 'state', 'updatedAt', 'refusal')
  end
end
return out
`;

export const BULK_SCRIPTS = {
  boardhostBeginBulk: { numberOfKeys: 2, lua: BEGIN_BULK },
  boardhostMoveBulk: { numberOfKeys: 2, lua: MOVE_BULK },
  boardhostClaimBulks: { numberOfKeys: 1, lua: CLAIM_BULKS },
} as const;
