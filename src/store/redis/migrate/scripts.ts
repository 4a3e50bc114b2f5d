import { script } from '../script';

// The scripts of migrateV1 (migrate.ts, games.ts, webhooks.ts): each moves one v1
// thing to its v2 keys on one Redis (v1 data never lived on a Cluster), all or nothing, and does
// nothing once its v1 key is gone, so a step may run again or on two nodes at once.

/**
 * One v1 game to v2, all or nothing: only while the v1 hash is at the version read (`version`, ''
 * for none; 'gone' once moved, 'changed' if written since), never over a v2 game of that id
 * ('conflict': both kept). `ops`: JSON [[command, …]].
 */
export const moveGame = script<'moved' | 'gone' | 'changed' | 'conflict'>()({
  name: 'boardhostMigrateGame',
  keys: ['v1', 'v2'],
  args: ['version', 'ops'],
  lua: `
if redis.call('EXISTS', KEY.v1) == 0 then return 'gone' end
if (redis.call('HGET', KEY.v1, 'version') or '') ~= ARG.version then return 'changed' end
if redis.call('EXISTS', KEY.v2) == 1 then return 'conflict' end
for _, op in ipairs(cjson.decode(ARG.ops)) do redis.call(unpack(op)) end
redis.call('DEL', KEY.v1)
return 'moved'
`,
});

/**
 * One v1 idempotency record (JSON {fingerprint, response}) to its v2 hash (fingerprint, head, moves:
 * the answer's head and move count, read from the game's moves), with the time it had left (`ttl`,
 * s, for a record without one).
 */
export const moveIdempotency = script<number>()({
  name: 'boardhostMigrateIdempotency',
  keys: ['v1', 'v2'],
  args: ['fingerprint', 'head', 'moves', 'ttl'],
  lua: `
local ttl = redis.call('PTTL', KEY.v1)
if ttl == -2 then return 0 end
if redis.call('EXISTS', KEY.v2) == 0 then
  redis.call('HSET', KEY.v2, 'fingerprint', ARG.fingerprint, 'head', ARG.head, 'moves', ARG.moves)
  if ttl > 0 then redis.call('PEXPIRE', KEY.v2, ttl) else redis.call('EXPIRE', KEY.v2, ARG.ttl) end
end
redis.call('DEL', KEY.v1)
return 1
`,
});

/** An account's v1 feed, seq and epoch to their v2 names. 'moved', 'none' or 'conflict'. */
export const moveFeed = script<'moved' | 'none' | 'conflict'>()({
  name: 'boardhostMigrateFeed',
  keys: ['feed', 'seq', 'epoch', 'newFeed', 'newSeq', 'newEpoch'],
  args: [],
  lua: `
local pairs_ = {{KEY.feed, KEY.newFeed}, {KEY.seq, KEY.newSeq}, {KEY.epoch, KEY.newEpoch}}
local any = false
for _, p in ipairs(pairs_) do
  if redis.call('EXISTS', p[1]) == 1 then
    any = true
    if redis.call('EXISTS', p[2]) == 1 then return 'conflict' end
  end
end
if not any then return 'none' end
for _, p in ipairs(pairs_) do
  if redis.call('EXISTS', p[1]) == 1 then redis.call('RENAME', p[1], p[2]) end
end
return 'moved'
`,
});

/**
 * Moves one endpoint (`id`) from its v1 keys to its account's shard. 'moved'; 'gone' (moved
 * already); 'taken' (the new hash exists: nothing is moved).
 */
export const moveWebhook = script<'moved' | 'gone' | 'taken'>()({
  name: 'boardhostMigrateWebhook',
  keys: ['hash', 'log', 'set', 'due', 'newHash', 'newLog', 'newSet', 'newDue'],
  args: ['id'],
  lua: `
if redis.call('EXISTS', KEY.hash) == 0 then return 'gone' end
if redis.call('EXISTS', KEY.newHash) == 1 then return 'taken' end
redis.call('RENAME', KEY.hash, KEY.newHash)
if redis.call('EXISTS', KEY.log) == 1 then redis.call('RENAME', KEY.log, KEY.newLog) end
redis.call('SREM', KEY.set, ARG.id)
redis.call('SADD', KEY.newSet, ARG.id)
-- Due when it was; an endpoint without an entry is looked at once (a claim forgets it if it has no work).
local score = redis.call('ZSCORE', KEY.due, ARG.id) or '0'
redis.call('ZREM', KEY.due, ARG.id)
redis.call('ZADD', KEY.newDue, 'NX', score, ARG.id)
return 'moved'
`,
});
