import { OVER, GAME_STATUSES } from '../store';

// The Lua run by the Redis stores: the shared snippets (append_notices, create_game,
// index_challenge, index_clock, save_token), each written once, the scripts built from them, and
// SCRIPTS, the commands every data client gets (see scripted() in client.ts). The webhook
// scripts live with their store in webhooks.ts (they use FEED_EPOCH, exported for them).

/** Oldest entries checked for age on each append (more than one, so a backlog shrinks). */
const FEED_TRIM_BATCH = 32;
/** Epochs a feed remembers (the current one and those before it). */
export const FEED_EPOCHS_KEPT = 16;

/**
 * Lua: the epoch of an account's feed (see FeedEpoch in ports/feed.ts). Every feed remembers which Redis
 * last touched it: the server's run_id (new at every start) and replication id (new at every
 * start and every promotion of a replica). When another one touches it, the Redis was restarted,
 * restored or failed over, and writes since its data was saved may be lost: the feed begins a new
 * epoch, at its newest seq then, named by `candidate` (random, from the caller). Returns the epoch
 * id, and the epochs newest first as JSON [[id, since], …].
 */
export const FEED_EPOCH = `
local redis_origin_cache = nil
local function redis_origin()
  if not redis_origin_cache then
    local server = redis.call('INFO', 'server')
    local replication = redis.call('INFO', 'replication')
    redis_origin_cache = (string.match(server, 'run_id:(%x+)') or '') .. ':' ..
      (string.match(replication, 'master_replid:(%x+)') or '')
  end
  return redis_origin_cache
end
local function feed_epoch(epoch_key, seq_key, candidate)
  local e = redis.call('HMGET', epoch_key, 'id', 'origin', 'epochs')
  local origin = redis_origin()
  if e[1] and e[2] == origin then return e[1], e[3] end
  local since = tonumber(redis.call('GET', seq_key) or '0')
  local epochs = {}
  if e[3] then epochs = cjson.decode(e[3]) end
  table.insert(epochs, 1, {candidate, since})
  while #epochs > ${FEED_EPOCHS_KEPT} do table.remove(epochs) end
  local encoded = cjson.encode(epochs)
  redis.call('HSET', epoch_key, 'id', candidate, 'origin', origin, 'epochs', encoded)
  return candidate, encoded
end
`;

/**
 * Lua: append each notice to its accounts' feeds. `notices` is JSON from noticesArgument(): data
 * arrives pre-serialized, so cjson only decodes and never re-encodes anything stored. Feeds are
 * trimmed by age only (never by length), so that the retention is a promise.
 */
const APPEND_NOTICES = `${FEED_EPOCH}
local function append_notices(p, notices)
  local arg = cjson.decode(notices)
  for _, n in ipairs(arg.notices) do
    for _, account in ipairs(n.to) do
      local feed = p .. 'feed:{' .. account .. '}'
      local seq_key = p .. 'feedseq:{' .. account .. '}'
      -- The epoch first: a feed that begins one does so at its newest seq before this event.
      local epoch = feed_epoch(p .. 'feedepoch:{' .. account .. '}', seq_key, arg.epoch)
      local seq = redis.call('INCR', seq_key)
      -- Trim from the oldest end up to the first entry young enough to keep (seq order, not time).
      local minid = nil
      for _, entry in ipairs(redis.call('XRANGE', feed, '-', '+', 'COUNT', ${FEED_TRIM_BATCH})) do
        local ms = nil
        for i = 1, #entry[2], 2 do
          if entry[2][i] == 'ms' then ms = tonumber(entry[2][i + 1]) end
        end
        if ms == nil or ms >= n.cutoff then break end
        minid = (tonumber(string.match(entry[1], '^%d+')) + 1) .. '-0'
      end
      if minid then redis.call('XTRIM', feed, 'MINID', minid) end
      redis.call('XADD', feed, seq .. '-0', 'type', n.type, 'at', n.at, 'ms', n.ms, 'epoch', epoch, 'data', n.data)
      redis.call('PUBLISH', p .. 'feedlive:{' .. account .. '}',
        '{"seq":' .. seq .. ',"epoch":' .. cjson.encode(epoch) .. n.rest)
      -- The account's webhook endpoints have work now (NX: a leased or backing-off one keeps its time).
      for _, hook in ipairs(redis.call('SMEMBERS', p .. 'webhooks:account:' .. account)) do
        redis.call('ZADD', p .. 'webhooks:due', 'NX', n.ms, hook)
      end
    end
  end
end
`;

/**
 * Lua: store a game if its key is free and add it to the listing indexes; false if taken.
 * `indexes` is JSON from gameIndexes(): the game's status and every listing index it is in.
 */
const CREATE_GAME = `
local function create_game(p, key, id, doc, version, indexes)
  if redis.call('EXISTS', key) == 1 then return false end
  local ix = cjson.decode(indexes)
  redis.call('HSET', key, 'doc', doc, 'version', version, 'status', ix.status)
  local seq = redis.call('INCR', p .. 'games:seq')
  for _, index in ipairs(ix.keys) do redis.call('ZADD', p .. index, seq, id) end
  return true
end
`;

/**
 * Lua: when a game's status changes, move its entry in each listing index by status. \`bases\` is
 * JSON from statusIndexesArgument(): each index name without its status.
 */
const MOVE_STATUS = `
local function move_status(p, key, id, status, bases)
  if redis.call('HGET', key, 'status') == status then return end
  redis.call('HSET', key, 'status', status)
  local seq = redis.call('ZSCORE', p .. 'games:all', id)
  if not seq then return end
  for _, base in ipairs(cjson.decode(bases)) do
    for _, other in ipairs({${GAME_STATUSES.map((s) => `'${s}'`).join(', ')}}) do
      if other ~= status then redis.call('ZREM', p .. base .. other, id) end
    end
    redis.call('ZADD', p .. base .. status, seq, id)
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
 * Lua: keep a game's deadline, reminder and my-turn entries in step with its document. `spec` is
 * JSON from clockIndexArgument() (scores as strings, '' for none). A reminder already sent for
 * this turn is not indexed again.
 */
const INDEX_CLOCK = `
local function index_clock(p, key, id, spec)
  local c = cjson.decode(spec)
  if c.deadline ~= '' then
    redis.call('ZADD', p .. 'deadlines', c.deadline, id)
  else
    redis.call('ZREM', p .. 'deadlines', id)
  end
  redis.call('HSET', key, 'turn', c.turn)
  if c.reminder ~= '' and redis.call('HGET', key, 'reminded') ~= c.turn then
    redis.call('ZADD', p .. 'reminders', c.reminder, id)
  else
    redis.call('ZREM', p .. 'reminders', id)
  end
  for _, account in ipairs(c.accounts) do
    redis.call('ZREM', p .. 'games:turn:' .. account, id)
    if c.turn == '${OVER}' then
      redis.call('SREM', p .. 'games:ongoing:' .. account, id)
    else
      redis.call('SADD', p .. 'games:ongoing:' .. account, id)
    end
  end
  if c.mover ~= '' then redis.call('ZADD', p .. 'games:turn:' .. c.mover, c.score, id) end
end
`;

/**
 * Lua: the first account of `limits` (JSON [{account, max}]) that already has its maximum of
 * ongoing games (the games:ongoing:<a> sets index_clock keeps), or false.
 */
const OVER_LIMIT = `
local function over_limit(p, limits)
  for _, l in ipairs(cjson.decode(limits)) do
    if redis.call('SCARD', p .. 'games:ongoing:' .. l.account) >= tonumber(l.max) then return l.account end
  end
  return false
end
`;

/**
 * Create only if absent and within the limits, with its indexes and notices: 1, 0 (id taken) or the
 * account over its limit. KEYS[1] game; ARGV: prefix, id, doc, version, indexes (JSON), notices
 * (JSON), clock index (JSON), limits (JSON).
 */
const CREATE_SCRIPT = `${APPEND_NOTICES}${CREATE_GAME}${INDEX_CLOCK}${OVER_LIMIT}
local over = over_limit(ARGV[1], ARGV[8])
if over then return over end
if not create_game(ARGV[1], KEYS[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]) then return 0 end
index_clock(ARGV[1], KEYS[1], ARGV[2], ARGV[7])
append_notices(ARGV[1], ARGV[6])
return 1
`;

/**
 * Check idempotency key, then version; write doc, remember the answer, move the status index entries,
 * append notices, publish: all or nothing.
 * KEYS[1] game, KEYS[2] idempotency record; ARGV: prefix, expected version, doc, version,
 * idempotent ('1'/'0'), record, ttl, channel, id, status, notices (JSON), clock index (JSON),
 * status indexes (JSON).
 */
const UPDATE_SCRIPT = `${APPEND_NOTICES}${INDEX_CLOCK}${MOVE_STATUS}
if ARGV[5] == '1' then
  local seen = redis.call('GET', KEYS[2])
  if seen then return {'replayed', seen} end
end
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return {'missing'} end
if version ~= ARGV[2] then return {'conflict', version} end
redis.call('HSET', KEYS[1], 'doc', ARGV[3], 'version', ARGV[4])
if ARGV[5] == '1' then
  redis.call('SET', KEYS[2], ARGV[6], 'EX', ARGV[7])
end
move_status(ARGV[1], KEYS[1], ARGV[9], ARGV[10], ARGV[13])
index_clock(ARGV[1], KEYS[1], ARGV[9], ARGV[12])
append_notices(ARGV[1], ARGV[11])
redis.call('PUBLISH', ARGV[8], ARGV[14])
return {'updated'}
`;

/**
 * Index one game written before the listings had an index per combination of filters (once per
 * deployment, see RedisGameStore.indexListings). The status comes from the game's status field, or,
 * when it has none yet, from the document as read at ARGV[3] (-1: the game changed since; read again).
 * KEYS[1] game; ARGV: prefix, id, version read, status read, indexes without status (JSON),
 * status indexes (JSON).
 */
const INDEX_LISTINGS_SCRIPT = `
local seq = redis.call('ZSCORE', ARGV[1] .. 'games:all', ARGV[2])
if not seq then return 0 end
local status = redis.call('HGET', KEYS[1], 'status')
if not status then
  if redis.call('HGET', KEYS[1], 'version') ~= ARGV[3] then return -1 end
  status = ARGV[4]
  redis.call('HSET', KEYS[1], 'status', status)
end
for _, index in ipairs(cjson.decode(ARGV[5])) do redis.call('ZADD', ARGV[1] .. index, seq, ARGV[2]) end
for _, base in ipairs(cjson.decode(ARGV[6])) do
  for _, other in ipairs({${GAME_STATUSES.map((s) => `'${s}'`).join(', ')}}) do
    if other ~= status then redis.call('ZREM', ARGV[1] .. base .. other, ARGV[2]) end
  end
  redis.call('ZADD', ARGV[1] .. base .. status, seq, ARGV[2])
end
return 1
`;

/**
 * Backfill: put one game in its seat accounts' games:ongoing sets if its document says it is
 * ongoing (for games written before the sets existed). KEYS[1] game; ARGV: prefix, id.
 */
const INDEX_ONGOING_SCRIPT = `
local doc = redis.call('HGET', KEYS[1], 'doc')
if not doc then return 0 end
local g = cjson.decode(doc)
if g.status ~= 'ongoing' then return 0 end
for _, seat in ipairs(g.seats) do
  if type(seat.account) == 'string' then redis.call('SADD', ARGV[1] .. 'games:ongoing:' .. seat.account, ARGV[2]) end
end
return 1
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

/**
 * Once per turn (never for a finished game): record the reminder, drop its entry and append the
 * notices. KEYS[1] game, KEYS[2] reminders; ARGV: prefix, id, turn, notices (JSON).
 */
const MARK_REMINDED_SCRIPT = `${APPEND_NOTICES}
if ARGV[3] == '${OVER}' or redis.call('HGET', KEYS[1], 'turn') ~= ARGV[3] then return 0 end
if redis.call('HGET', KEYS[1], 'reminded') == ARGV[3] then return 0 end
redis.call('HSET', KEYS[1], 'reminded', ARGV[3])
redis.call('ZREM', KEYS[2], ARGV[2])
append_notices(ARGV[1], ARGV[4])
return 1
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
 * Compare-and-set on version; the game the challenge became (checked first, with the players'
 * limits, so a taken game id or a full account writes nothing), indexes and notices in the same step.
 * KEYS[1] challenge, KEYS[2] game (the challenge key again when no game); ARGV: prefix, expected
 * version, id, doc, version, index (JSON), notices (JSON), game doc ('' for none), game id, game
 * version, game indexes (JSON), game clock index (JSON), limits (JSON).
 */
const UPDATE_CHALLENGE_SCRIPT = `${APPEND_NOTICES}${CREATE_GAME}${INDEX_CHALLENGE}${INDEX_CLOCK}${OVER_LIMIT}
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return 'missing' end
if version ~= ARGV[2] then return 'conflict' end
if ARGV[8] ~= '' then
  local over = over_limit(ARGV[1], ARGV[13])
  if over then return 'too-many-games:' .. over end
end
if ARGV[8] ~= '' and not create_game(ARGV[1], KEYS[2], ARGV[9], ARGV[8], ARGV[10], ARGV[11]) then
  return 'game-exists'
end
redis.call('HSET', KEYS[1], 'doc', ARGV[4], 'version', ARGV[5])
index_challenge(ARGV[1], ARGV[3], ARGV[6])
if ARGV[8] ~= '' then index_clock(ARGV[1], KEYS[2], ARGV[9], ARGV[12]) end
append_notices(ARGV[1], ARGV[7])
return 'updated'
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
  boardhostCreate: { numberOfKeys: 1, lua: CREATE_SCRIPT },
  boardhostUpdate: { numberOfKeys: 2, lua: UPDATE_SCRIPT },
  boardhostIndexListings: { numberOfKeys: 1, lua: INDEX_LISTINGS_SCRIPT },
  boardhostClaimDue: { numberOfKeys: 1, lua: CLAIM_DUE_SCRIPT },
  boardhostIndexOngoing: { numberOfKeys: 1, lua: INDEX_ONGOING_SCRIPT },
  boardhostMarkReminded: { numberOfKeys: 2, lua: MARK_REMINDED_SCRIPT },
  boardhostSaveVacation: { numberOfKeys: 1, lua: SAVE_VACATION_SCRIPT },
  boardhostCreateAccount: { numberOfKeys: 3, lua: CREATE_ACCOUNT_SCRIPT },
  boardhostAddToken: { numberOfKeys: 2, lua: ADD_TOKEN_SCRIPT },
  boardhostCompareAndSet: { numberOfKeys: 1, lua: COMPARE_AND_SET_SCRIPT },
  boardhostRevokeToken: { numberOfKeys: 2, lua: REVOKE_TOKEN_SCRIPT },
  boardhostClaimIdempotency: { numberOfKeys: 1, lua: CLAIM_IDEMPOTENCY_SCRIPT },
  boardhostReleaseIdempotency: { numberOfKeys: 1, lua: RELEASE_IDEMPOTENCY_SCRIPT },
  boardhostCreateChallenge: { numberOfKeys: 1, lua: CREATE_CHALLENGE_SCRIPT },
  boardhostUpdateChallenge: { numberOfKeys: 2, lua: UPDATE_CHALLENGE_SCRIPT },
  boardhostMatchOrAdd: { numberOfKeys: 2, lua: MATCH_OR_ADD_SCRIPT },
  boardhostRemoveSeek: { numberOfKeys: 1, lua: REMOVE_SEEK_SCRIPT },
  boardhostAppend: { numberOfKeys: 0, lua: APPEND_SCRIPT },
  boardhostReadFeed: { numberOfKeys: 3, lua: READ_FEED_SCRIPT },
} as const;
