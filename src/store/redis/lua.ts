import { FEED_EPOCH } from './feed/scripts';
import { script } from './script';

/** A stream entry as XRANGE answers it. */
export type StreamEntry = [id: string, fields: string[]];

// The Lua run by the Redis stores other than those with a scripts module of their own (games,
// relay, challenges and seeks, bulks, ratings, webhooks, tournaments, migrations): each script
// touches the keys of one hash slot. Every script is listed in scripts.ts.

/** Due entries of a sorted set, earliest first, each leased (re-scored) until `leaseEnd` (ms). */
export const claimDue = script<string[]>()({
  name: 'boardhostClaimDue',
  keys: ['set'],
  args: ['now', 'limit', 'leaseEnd'],
  lua: `
local ids = redis.call('ZRANGEBYSCORE', KEY.set, '-inf', ARG.now, 'LIMIT', 0, ARG.limit)
for _, id in ipairs(ids) do redis.call('ZADD', KEY.set, 'XX', ARG.leaseEnd, id) end
return ids
`,
});

/** Compare-and-set on version ('0': absent). */
export const saveVacation = script<number>()({
  name: 'boardhostSaveVacation',
  keys: ['vacation'],
  args: ['expected', 'doc', 'version'],
  lua: `
if (redis.call('HGET', KEY.vacation, 'version') or '0') ~= ARG.expected then return 0 end
redis.call('HSET', KEY.vacation, 'doc', ARG.doc, 'version', ARG.version)
return 1
`,
});

/** Lua: store a token and list it under its account (oldest first). */
const SAVE_TOKEN = `
local function save_token(key, index, doc, hash, created)
  redis.call('SET', key, doc)
  redis.call('ZADD', index, created, hash)
end
`;

/**
 * A new account and its first token, or nothing when the id is taken. The account's keys and its
 * tokens' share its shard. `tokens`: the account's token index; `createdAt`: the token's, ms.
 */
export const createAccount = script<number>()({
  name: 'boardhostCreateAccount',
  keys: ['account', 'token', 'tokens'],
  args: ['accountDoc', 'tokenDoc', 'hash', 'createdAt'],
  lua: `${SAVE_TOKEN}
if not redis.call('SET', KEY.account, ARG.accountDoc, 'NX') then return 0 end
save_token(KEY.token, KEY.tokens, ARG.tokenDoc, ARG.hash, ARG.createdAt)
return 1
`,
});

/** A token, listed in its account's index (`tokens`). */
export const addToken = script<number>()({
  name: 'boardhostAddToken',
  keys: ['token', 'tokens'],
  args: ['doc', 'hash', 'createdAt'],
  lua: `${SAVE_TOKEN}
save_token(KEY.token, KEY.tokens, ARG.doc, ARG.hash, ARG.createdAt)
return 1
`,
});

/**
 * Revoke a token (its doc replaced only if still the one read), unless it is the account's last
 * root token: one that is not revoked, never expires and holds every scope of `rootScopes` (JSON;
 * '' to skip the guard); and tell every node in the same step (`channel`; '' on a Cluster, whose
 * nodes listen with SSUBSCRIBE: the store SPUBLISHes after the script, see revocations.ts). The account's token docs are all in its shard: `tokenKeyPrefix` is the key of
 * one of the account's tokens without its hash (Keys.token(account, '')). Returns 'revoked',
 * 'changed' (read again) or 'last-root'.
 */
export const revokeToken = script<'revoked' | 'changed' | 'last-root'>()({
  name: 'boardhostRevokeToken',
  keys: ['token', 'tokens'],
  args: ['read', 'revoked', 'tokenKeyPrefix', 'rootScopes', 'hash', 'channel'],
  lua: `
local function is_root(doc, scopes)
  local t = cjson.decode(doc)
  if t.revokedAt ~= cjson.null or (t.expiresAt ~= nil and t.expiresAt ~= cjson.null) then return false end
  local held = {}
  for _, s in ipairs(t.scopes) do held[s] = true end
  for _, s in ipairs(scopes) do if not held[s] then return false end end
  return true
end
if redis.call('GET', KEY.token) ~= ARG.read then return 'changed' end
if ARG.rootScopes ~= '' then
  local scopes = cjson.decode(ARG.rootScopes)
  if is_root(ARG.read, scopes) then
    local others = 0
    for _, hash in ipairs(redis.call('ZRANGE', KEY.tokens, 0, -1)) do
      if hash ~= ARG.hash then
        local doc = redis.call('GET', ARG.tokenKeyPrefix .. hash)
        if doc and is_root(doc, scopes) then others = others + 1 end
      end
    end
    if others == 0 then return 'last-root' end
  end
end
redis.call('SET', KEY.token, ARG.revoked)
if ARG.channel ~= '' then redis.call('PUBLISH', ARG.channel, ARG.hash) end
return 'revoked'
`,
});

/**
 * The create idempotency `record` (hash: state, fingerprint, response), or a new pending one
 * (expiring after `pendingMs`). Returns {state, fingerprint, response} or {'claimed'}.
 */
export const claimIdempotency = script<string[]>()({
  name: 'boardhostClaimIdempotency',
  keys: ['record'],
  args: ['fingerprint', 'pendingMs'],
  lua: `
local seen = redis.call('HMGET', KEY.record, 'state', 'fingerprint', 'response')
if seen[1] then return {seen[1], seen[2], seen[3] or ''} end
redis.call('HSET', KEY.record, 'state', 'pending', 'fingerprint', ARG.fingerprint)
redis.call('PEXPIRE', KEY.record, ARG.pendingMs)
return {'claimed'}
`,
});

/** Drop a pending claim (never an answer) of `fingerprint` ('': any). */
export const releaseIdempotency = script<number>()({
  name: 'boardhostReleaseIdempotency',
  keys: ['record'],
  args: ['fingerprint'],
  lua: `
if redis.call('HGET', KEY.record, 'state') == 'pending'
  and (ARG.fingerprint == nil or ARG.fingerprint == '' or redis.call('HGET', KEY.record, 'fingerprint') == ARG.fingerprint) then
  redis.call('DEL', KEY.record)
end
return 1
`,
});

/**
 * A page of a feed with its bounds and epochs, read at one instant (a read may begin an epoch):
 * {entries, newest seq, oldest entry id or '', epoch, epochs JSON}.
 */
export const readFeed = script<[StreamEntry[], string, string, string, string]>()({
  name: 'boardhostReadFeed',
  keys: ['feed', 'seq', 'epoch'],
  args: ['after', 'limit', 'candidate'],
  lua: `${FEED_EPOCH}
local epoch, epochs = feed_epoch(KEY.epoch, KEY.seq, ARG.candidate)
local events = {}
if tonumber(ARG.limit) > 0 then
  events = redis.call('XRANGE', KEY.feed, '(' .. ARG.after .. '-0', '+', 'COUNT', ARG.limit)
end
local oldest = redis.call('XRANGE', KEY.feed, '-', '+', 'COUNT', 1)
return {events, redis.call('GET', KEY.seq) or '0', oldest[1] and oldest[1][1] or '', epoch, epochs}
`,
});

/**
 * Compare-and-set of one hash field: writes `next` only while the field still holds `read` (what
 * the caller read and changed in JS); 1 written, 0 changed meanwhile (or absent). An erased
 * account's tombstone name goes into its leaderboard entries this way.
 */
export const setFieldIf = script<number>()({
  name: 'boardhostSetFieldIf',
  keys: ['hash'],
  args: ['field', 'read', 'next'],
  lua: `
if redis.call('HGET', KEY.hash, ARG.field) ~= ARG.read then return 0 end
redis.call('HSET', KEY.hash, ARG.field, ARG.next)
return 1
`,
});

/**
 * An erased app account leaves its app's indexes (one slot: the app's shard): its external id, its
 * username (if still its own) and its place in the app's list go, and the username's hash is held
 * for `holdSeconds` (the `held` key, which creation and renames check).
 */
export const forgetAppAccount = script<number>()({
  name: 'boardhostForgetAppAccount',
  keys: ['external', 'usernames', 'accounts', 'held'],
  args: ['externalId', 'username', 'id', 'holdSeconds'],
  lua: `
redis.call('SET', KEY.held, '1', 'EX', ARG.holdSeconds)
if ARG.externalId ~= '' then redis.call('HDEL', KEY.external, ARG.externalId) end
if redis.call('HGET', KEY.usernames, ARG.username) == ARG.id then redis.call('HDEL', KEY.usernames, ARG.username) end
redis.call('ZREM', KEY.accounts, ARG.id)
return 1
`,
});
