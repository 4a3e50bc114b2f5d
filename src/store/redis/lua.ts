import { FEED_EPOCH } from './feed-scripts';

// The Lua run by the Redis stores other than the games' (game-scripts.ts), the relay's
// (relay-scripts.ts) and the challenges' and seeks' (challenge-scripts.ts): each script touches the
// keys of one hash slot. SCRIPTS are commands every data client gets (see scripted() in client.ts).
// The webhook scripts live with their store in webhooks.ts.

/**
 * Due entries of a sorted set, earliest first, each leased (re-scored) until ARGV[3].
 * KEYS[1] the set; ARGV: now ms, limit, lease end ms.
 */
const CLAIM_DUE_SCRIPT = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], 'XX', ARGV[3], id) end
return ids
`;

/** Compare-and-set on version ('0': absent). KEYS[1] vacation; ARGV: expected version, doc, version. */
const SAVE_VACATION_SCRIPT = `
if (redis.call('HGET', KEYS[1], 'version') or '0') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'version', ARGV[3])
return 1
`;

/** Lua: store a token and list it under its account (oldest first). */
const SAVE_TOKEN = `
local function save_token(key, index, doc, hash, created)
  redis.call('SET', key, doc)
  redis.call('ZADD', index, created, hash)
end
`;

/**
 * A new account and its first token, or nothing when the id is taken. The account's keys and its
 * tokens' share its shard. KEYS[1] account, KEYS[2] token, KEYS[3] the account's token index;
 * ARGV: account doc, token doc, token hash, token createdAt ms.
 */
const CREATE_ACCOUNT_SCRIPT = `${SAVE_TOKEN}
if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then return 0 end
save_token(KEYS[2], KEYS[3], ARGV[2], ARGV[3], ARGV[4])
return 1
`;

/** KEYS[1] token, KEYS[2] the token's account index; ARGV: token doc, hash, createdAt ms. */
const ADD_TOKEN_SCRIPT = `${SAVE_TOKEN}
save_token(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3])
return 1
`;

/**
 * Revoke a token (its doc replaced only if still the one read), unless it is the account's last
 * root token: one that is not revoked, never expires and holds every scope of ARGV[4] (JSON; '' to
 * skip the guard); and tell every node (same step: PUBLISH reaches every node of a Cluster from
 * any slot). The account's token docs are all in its shard. KEYS[1] token, KEYS[2] the account's
 * token index; ARGV: doc read, revoked doc, the key of an account's token without its hash, root
 * scopes, token hash, revocation channel. Returns 'revoked', 'changed' (read again) or 'last-root'.
 */
const REVOKE_TOKEN_SCRIPT = `
local function is_root(doc, scopes)
  local t = cjson.decode(doc)
  if t.revokedAt ~= cjson.null or (t.expiresAt ~= nil and t.expiresAt ~= cjson.null) then return false end
  local held = {}
  for _, s in ipairs(t.scopes) do held[s] = true end
  for _, s in ipairs(scopes) do if not held[s] then return false end end
  return true
end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'changed' end
if ARGV[4] ~= '' then
  local scopes = cjson.decode(ARGV[4])
  if is_root(ARGV[1], scopes) then
    local others = 0
    for _, hash in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
      if hash ~= ARGV[5] then
        local doc = redis.call('GET', ARGV[3] .. hash)
        if doc and is_root(doc, scopes) then others = others + 1 end
      end
    end
    if others == 0 then return 'last-root' end
  end
end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('PUBLISH', ARGV[6], ARGV[5])
return 'revoked'
`;

/**
 * The create idempotency record under KEYS[1] (hash: state, fingerprint, response), or a new pending
 * one. ARGV: fingerprint, pending ms. Returns {state, fingerprint, response} or {'claimed'}.
 */
const CLAIM_IDEMPOTENCY_SCRIPT = `
local seen = redis.call('HMGET', KEYS[1], 'state', 'fingerprint', 'response')
if seen[1] then return {seen[1], seen[2], seen[3] or ''} end
redis.call('HSET', KEYS[1], 'state', 'pending', 'fingerprint', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {'claimed'}
`;

/** Drop a pending claim (never an answer). KEYS[1] record; ARGV[1] its fingerprint ('': any). */
const RELEASE_IDEMPOTENCY_SCRIPT = `
if redis.call('HGET', KEYS[1], 'state') == 'pending'
  and (ARGV[1] == nil or ARGV[1] == '' or redis.call('HGET', KEYS[1], 'fingerprint') == ARGV[1]) then
  redis.call('DEL', KEYS[1])
end
return 1
`;

/**
 * A page of a feed with its bounds and epochs, read at one instant (a read may begin an epoch).
 * KEYS[1] feed, KEYS[2] feed counter, KEYS[3] feed epoch; ARGV: after, limit, epoch candidate.
 */
const READ_FEED_SCRIPT = `${FEED_EPOCH}
local epoch, epochs = feed_epoch(KEYS[3], KEYS[2], ARGV[3])
local events = {}
if tonumber(ARGV[2]) > 0 then
  events = redis.call('XRANGE', KEYS[1], '(' .. ARGV[1] .. '-0', '+', 'COUNT', ARGV[2])
end
local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
return {events, redis.call('GET', KEYS[2]) or '0', oldest[1] and oldest[1][1] or '', epoch, epochs}
`;

export const SCRIPTS = {
  boardhostClaimDue: { numberOfKeys: 1, lua: CLAIM_DUE_SCRIPT },
  boardhostSaveVacation: { numberOfKeys: 1, lua: SAVE_VACATION_SCRIPT },
  boardhostCreateAccount: { numberOfKeys: 3, lua: CREATE_ACCOUNT_SCRIPT },
  boardhostAddToken: { numberOfKeys: 2, lua: ADD_TOKEN_SCRIPT },
  boardhostRevokeToken: { numberOfKeys: 2, lua: REVOKE_TOKEN_SCRIPT },
  boardhostClaimIdempotency: { numberOfKeys: 1, lua: CLAIM_IDEMPOTENCY_SCRIPT },
  boardhostReleaseIdempotency: { numberOfKeys: 1, lua: RELEASE_IDEMPOTENCY_SCRIPT },
  boardhostReadFeed: { numberOfKeys: 3, lua: READ_FEED_SCRIPT },
} as const;
