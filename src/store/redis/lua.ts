import { APPEND_TO_FEED, FEED_EPOCH } from './feed-scripts';
import { CREATE_GAME_SNIPPET } from './game-scripts';

// The Lua run by the Redis stores other than the games' (game-scripts.ts) and the relay's
// (relay-scripts.ts): the shared snippets (append_notices, index_challenge, save_token), each
// written once, the scripts built from them, and SCRIPTS, the commands every data client gets (see
// scripted() in client.ts). The webhook scripts live with their store in webhooks.ts.

/**
 * Lua: append each notice to its accounts' feeds (append_to_feed, one account at a time). \`notices\`
 * is JSON from noticesArgument(). Used by the scripts that are not yet single-slot (challenges):
 * on one Redis only.
 */
const APPEND_NOTICES = `${APPEND_TO_FEED}
local function append_notices(p, notices)
  local arg = cjson.decode(notices)
  for _, n in ipairs(arg.notices) do
    for _, account in ipairs(n.to) do
      local t = shard_tag(account)
      append_to_feed(p, account, cjson.encode({notices = {n}}), arg.epoch, 'PUBLISH',
        p .. 'webhooks:' .. t .. ':' .. account, p .. 'webhooks:due:' .. t)
    end
  end
end
`;

/** Lua: keep a challenge in the open and expiry indexes exactly while it is open. */
const INDEX_CHALLENGE = `
local function index_challenge(p, id, index)
  local c = cjson.decode(index)
  for _, account in ipairs(c.accounts) do
    if c.open then
      redis.call('ZADD', p .. 'challenges:open:' .. account, c.created, id)
    else
      redis.call('ZREM', p .. 'challenges:open:' .. account, id)
    end
  end
  if c.open then
    redis.call('ZADD', p .. 'challenges:expiry', c.expires, id)
  else
    redis.call('ZREM', p .. 'challenges:expiry', id)
  end
end
`;

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
 * A new account and its first token, or nothing when the id is taken.
 * KEYS[1] account, KEYS[2] token, KEYS[3] the token's account index; ARGV: account doc, token doc,
 * token hash, token createdAt ms.
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

/** Replace a document only if it is still the one read (for read-modify-write in JS). */
const COMPARE_AND_SET_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`;

/**
 * Revoke a token (its doc replaced only if still the one read), unless it is the account's last
 * root token: one that is not revoked, never expires and holds every scope of ARGV[4] (JSON; '' to
 * skip the guard); and tell every node (same step). KEYS[1] token, KEYS[2] the account's token
 * index; ARGV: doc read, revoked doc, prefix, root scopes, token hash, revocation channel.
 * Returns 'revoked', 'changed' (read again) or 'last-root'.
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
        local doc = redis.call('GET', ARGV[3] .. 'token:' .. hash)
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

/** Drop a pending claim (never an answer). KEYS[1] record. */
const RELEASE_IDEMPOTENCY_SCRIPT = `
if redis.call('HGET', KEYS[1], 'state') == 'pending' then redis.call('DEL', KEYS[1]) end
return 1
`;

/**
 * Create only if absent, with its indexes and notices.
 * KEYS[1] challenge; ARGV: prefix, id, doc, version, index (JSON), notices (JSON).
 */
const CREATE_CHALLENGE_SCRIPT = `${APPEND_NOTICES}${INDEX_CHALLENGE}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[3], 'version', ARGV[4])
index_challenge(ARGV[1], ARGV[2], ARGV[5])
append_notices(ARGV[1], ARGV[6])
return 1
`;

/**
 * Compare-and-set on version; the game the challenge became (checked first, so that a taken game id
 * writes nothing), indexes and notices in the same step. The players' limits are reserved before
 * (RedisGameStore.reserve), in their shards.
 * The game has the challenge's id. KEYS[1] challenge, KEYS[2] game, KEYS[3] its moves; ARGV: 1 prefix,
 * 2 expected version, 3 id, 4 doc, 5 version, 6 index (JSON), 7 notices (JSON), 8 '1' with a game,
 * 9 (unused), 10–20 the game's create arguments (createArguments()), 21… its outbox fields.
 * Returns 'updated:<the game's outbox entry id>:<its listing score>', or why not.
 */
const UPDATE_CHALLENGE_SCRIPT = `${APPEND_NOTICES}${CREATE_GAME_SNIPPET}${INDEX_CHALLENGE}
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return 'missing' end
if version ~= ARGV[2] then return 'conflict' end
local entry, lseq = '', ''
if ARGV[8] == '1' then
  local fields = {}
  for i = 21, #ARGV do fields[#fields + 1] = ARGV[i] end
  entry, lseq = create_game_v2(ARGV[10], ARGV[11], KEYS[2], KEYS[3], ARGV[12], ARGV[13], ARGV[14], ARGV[15], ARGV[16],
    ARGV[17], ARGV[18], ARGV[19], ARGV[20], fields)
  if entry == false then return 'game-exists' end
end
redis.call('HSET', KEYS[1], 'doc', ARGV[4], 'version', ARGV[5])
index_challenge(ARGV[1], ARGV[3], ARGV[6])
append_notices(ARGV[1], ARGV[7])
return 'updated:' .. entry .. ':' .. lseq
`;

/**
 * Oldest first: drop expired (and dangling) seeks, take the first by another account, else queue the
 * new one. KEYS[1] pool, KEYS[2] new seek; ARGV: prefix, now ms, id, account, doc, expires ms, pool sha1.
 */
const MATCH_OR_ADD_SCRIPT = `
local now = tonumber(ARGV[2])
for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  local key = ARGV[1] .. 'seek:' .. id
  local seek = redis.call('HMGET', key, 'doc', 'account', 'expires')
  if not seek[1] or tonumber(seek[3]) <= now then
    redis.call('LREM', KEYS[1], 1, id)
    redis.call('DEL', key)
  elseif seek[2] ~= ARGV[4] then
    redis.call('LREM', KEYS[1], 1, id)
    redis.call('DEL', key)
    return seek[1]
  end
end
redis.call('HSET', KEYS[2], 'doc', ARGV[5], 'account', ARGV[4], 'expires', ARGV[6], 'pool', ARGV[7])
redis.call('RPUSH', KEYS[1], ARGV[3])
return false
`;

/** Take a waiting seek out of its pool. KEYS[1] seek; ARGV: prefix, id. */
const REMOVE_SEEK_SCRIPT = `
local pool = redis.call('HGET', KEYS[1], 'pool')
if not pool then return 0 end
redis.call('LREM', ARGV[1] .. 'seeks:pool:' .. pool, 1, ARGV[2])
redis.call('DEL', KEYS[1])
return 1
`;

/** Append notices on their own. ARGV: prefix, notices (JSON). */
const APPEND_SCRIPT = `${APPEND_NOTICES}
append_notices(ARGV[1], ARGV[2])
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
  boardhostCompareAndSet: { numberOfKeys: 1, lua: COMPARE_AND_SET_SCRIPT },
  boardhostRevokeToken: { numberOfKeys: 2, lua: REVOKE_TOKEN_SCRIPT },
  boardhostClaimIdempotency: { numberOfKeys: 1, lua: CLAIM_IDEMPOTENCY_SCRIPT },
  boardhostReleaseIdempotency: { numberOfKeys: 1, lua: RELEASE_IDEMPOTENCY_SCRIPT },
  boardhostCreateChallenge: { numberOfKeys: 1, lua: CREATE_CHALLENGE_SCRIPT },
  boardhostUpdateChallenge: { numberOfKeys: 3, lua: UPDATE_CHALLENGE_SCRIPT },
  boardhostMatchOrAdd: { numberOfKeys: 2, lua: MATCH_OR_ADD_SCRIPT },
  boardhostRemoveSeek: { numberOfKeys: 1, lua: REMOVE_SEEK_SCRIPT },
  boardhostAppend: { numberOfKeys: 0, lua: APPEND_SCRIPT },
  boardhostReadFeed: { numberOfKeys: 3, lua: READ_FEED_SCRIPT },
} as const;
