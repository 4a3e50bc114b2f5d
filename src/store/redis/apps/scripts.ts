import { script } from '../script';

// The app scripts (the store is store.ts). Each touches one slot: an app's doc, keys and account
// indexes share the app's shard; a session, its account's tokens and sessions share the account's.

/** Revokes an app key (its doc replaced only if still the one read) and tells every node (PUBLISH). */
export const revokeAppKey = script<number>()({
  name: 'boardhostRevokeAppKey',
  keys: ['key'],
  args: ['read', 'revoked', 'hash', 'channel'],
  lua: `
if redis.call('GET', KEY.key) ~= ARG.read then return 0 end
redis.call('SET', KEY.key, ARG.revoked)
if ARG.channel ~= '' then redis.call('PUBLISH', ARG.channel, ARG.hash) end
return 1
`,
});

/**
 * Get-or-create's reservation, in the app's shard: {'existing', value} when the external id is
 * known (value: the account id, or `~` + the account JSON whose document may not be written yet);
 * {'taken'} when the username is another account's; else the external id (pending, with the JSON)
 * and the username are reserved and the id listed: {'reserved'}.
 */
export const reserveAppAccount = script<[string, string?]>()({
  name: 'boardhostReserveAppAccount',
  keys: ['external', 'usernames', 'accounts'],
  args: ['externalId', 'username', 'id', 'doc'],
  lua: `
local known = redis.call('HGET', KEY.external, ARG.externalId)
if known then return {'existing', known} end
if redis.call('HEXISTS', KEY.usernames, ARG.username) == 1 then return {'taken'} end
redis.call('HSET', KEY.external, ARG.externalId, '~' .. ARG.doc)
redis.call('HSET', KEY.usernames, ARG.username, ARG.id)
redis.call('ZADD', KEY.accounts, 0, ARG.id)
return {'reserved'}
`,
});

/** Once the account's document is written: its external id points at the id alone. */
export const settleAppAccount = script<number>()({
  name: 'boardhostSettleAppAccount',
  keys: ['external'],
  args: ['externalId', 'id'],
  lua: `
local known = redis.call('HGET', KEY.external, ARG.externalId)
if not known or string.sub(known, 1, 1) ~= '~' then return 0 end
redis.call('HSET', KEY.external, ARG.externalId, ARG.id)
return 1
`,
});

/** Moves an account's username reservation in its app: 0 when another account holds the new one. */
export const moveAppUsername = script<number>()({
  name: 'boardhostMoveAppUsername',
  keys: ['usernames'],
  args: ['from', 'to', 'id'],
  lua: `
local holder = redis.call('HGET', KEY.usernames, ARG.to)
if holder and holder ~= ARG.id then return 0 end
if redis.call('HGET', KEY.usernames, ARG.from) == ARG.id then redis.call('HDEL', KEY.usernames, ARG.from) end
redis.call('HSET', KEY.usernames, ARG.to, ARG.id)
return 1
`,
});

/** A new session and its first access token, in the account's shard. */
export const createSession = script<number>()({
  name: 'boardhostCreateSession',
  keys: ['session', 'sessions', 'token', 'tokens'],
  args: ['id', 'doc', 'createdAt', 'tokenDoc', 'hash'],
  lua: `
redis.call('SET', KEY.session, ARG.doc)
redis.call('ZADD', KEY.sessions, ARG.createdAt, ARG.id)
redis.call('SET', KEY.token, ARG.tokenDoc)
redis.call('ZADD', KEY.tokens, ARG.createdAt, ARG.hash)
return 1
`,
});

/**
 * Rotation: if the session is still the one read, it becomes `doc`, the new access token is stored
 * and listed, the old one replaced by its revoked form, and every node told of the old hash.
 */
export const rotateSession = script<number>()({
  name: 'boardhostRotateSession',
  keys: ['session', 'token', 'tokens', 'oldToken'],
  args: ['read', 'doc', 'tokenDoc', 'hash', 'createdAt', 'oldRevoked', 'oldHash', 'channel'],
  lua: `
if redis.call('GET', KEY.session) ~= ARG.read then return 0 end
redis.call('SET', KEY.session, ARG.doc)
redis.call('SET', KEY.token, ARG.tokenDoc)
redis.call('ZADD', KEY.tokens, ARG.createdAt, ARG.hash)
if ARG.oldRevoked ~= '' and redis.call('EXISTS', KEY.oldToken) == 1 then
  redis.call('SET', KEY.oldToken, ARG.oldRevoked)
  if ARG.channel ~= '' then redis.call('PUBLISH', ARG.channel, ARG.oldHash) end
end
return 1
`,
});

/** Revokes a session read as `read` and its access token (if still as read), telling every node. */
export const revokeSession = script<number>()({
  name: 'boardhostRevokeSession',
  keys: ['session', 'token'],
  args: ['read', 'doc', 'tokenRead', 'tokenRevoked', 'hash', 'channel'],
  lua: `
if redis.call('GET', KEY.session) ~= ARG.read then return 0 end
redis.call('SET', KEY.session, ARG.doc)
if ARG.tokenRead ~= '' and redis.call('GET', KEY.token) == ARG.tokenRead then
  redis.call('SET', KEY.token, ARG.tokenRevoked)
  if ARG.channel ~= '' then redis.call('PUBLISH', ARG.channel, ARG.hash) end
end
return 1
`,
});
