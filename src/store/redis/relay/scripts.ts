import { APPEND_TO_FEED, FEED_KEYS, feedKeysLua } from '../feed/scripts';
import { script } from '../script';

// The account side of the outbox (docs/data-model.md): one script applies an outbox entry to one
// account (feed events, index changes), in the account's shard only; two scripts move a shard's
// outbox cursor under its lease.

/**
 * Apply one outbox entry to one account, once and in order per origin: refused ('dup') when the
 * account has applied this version of the origin or a later one; held back ('gap') when `before`
 * is given and is not the version the account applied last (an earlier entry is still on its way);
 * else the index operations, then the notices, and the origin's version is recorded ('applied').
 * With 'resync' (the drain, in outbox order: a version still missing then is lost, never coming), a
 * part that would be held back is applied ('resynced') and the account's feed begins a new epoch.
 * `applied`: the account's applied hash; then its feed's keys (FEED_KEYS). `before`: '' for any
 * earlier; `notices` JSON; `ops`: JSON [[op, key, …]]; `resync`: 'resync' or ''; `epoch`: the
 * origin's ('' for none).
 *
 * An origin's epoch (a game's: GameEpoch in relay.ts) is recorded next to its version
 * (field `<origin>@e`). A part of an older epoch than the recorded one is 'dup' (a history its
 * master lost); of a newer one, it is in order if it goes on from the account's version (the new
 * master kept what the account applied), else a 'gap' (the drain: 'resynced', whatever the version).
 */
export const relayAccount = script<'applied' | 'dup' | 'gap' | 'resynced'>()({
  name: 'boardhostRelayAccount',
  keys: ['applied', ...FEED_KEYS],
  args: ['origin', 'version', 'before', 'notices', 'ops', 'candidate', 'publish', 'live', 'resync', 'epoch'],
  lua: `${APPEND_TO_FEED}
local result = 'applied'
local applied = tonumber(redis.call('HGET', KEY.applied, ARG.origin) or '0')
local version = tonumber(ARG.version)
local follows = ARG.before == '' or tonumber(ARG.before) == applied
local lost = false
local epoch_field = ARG.origin .. '@e'
local held = tonumber(redis.call('HGET', KEY.applied, epoch_field) or '0')
local epoch = tonumber(ARG.epoch ~= '' and ARG.epoch or '0')
if epoch ~= 0 and epoch < held then
  -- From a history of the origin that a later epoch replaced (its master lost it).
  return 'dup'
elseif epoch > held and applied > 0 then
  -- Another Redis writes the origin since: the versions the account applied may be ones it lost
  -- and now reuses. A part that goes on from the account's version is in order; any other is held
  -- back (the drain, in outbox order, applies it over them).
  lost = not follows
else
  if version <= applied then return 'dup' end
  lost = not follows
end
if lost then
  if ARG.resync ~= 'resync' then return 'gap' end
  -- The versions between (or those the account applied) were lost: the part's operations set the
  -- account's indexes as the origin now is, and the feed begins a new epoch (epoch_changed).
  redis.call('HSET', KEY.feedEpoch, 'origin', 'resync')
  result = 'resynced'
end
if epoch > held then redis.call('HSET', KEY.applied, epoch_field, ARG.epoch) end
for _, op in ipairs(cjson.decode(ARG.ops)) do
  if op[1] == 'zadd' then redis.call('ZADD', op[2], op[3], op[4])
  elseif op[1] == 'zrem' then redis.call('ZREM', op[2], op[3])
  elseif op[1] == 'sadd' then redis.call('SADD', op[2], op[3])
  elseif op[1] == 'srem' then redis.call('SREM', op[2], op[3]) end
end
append_to_feed(${feedKeysLua('ARG.live')}, ARG.notices, ARG.candidate, ARG.publish, KEY.hooks, KEY.due)
redis.call('HSET', KEY.applied, ARG.origin, ARG.version)
return result
`,
});

/**
 * Move a shard's outbox cursor past `id` and drop the entries up to it, if the caller still holds
 * the lease (`token`).
 */
export const advanceOutbox = script<number>()({
  name: 'boardhostAdvanceOutbox',
  keys: ['outbox', 'cursor', 'lease'],
  args: ['token', 'id', 'leaseMs'],
  lua: `
if redis.call('GET', KEY.lease) ~= ARG.token then return 0 end
redis.call('SET', KEY.cursor, ARG.id)
local ms, n = string.match(ARG.id, '^(%d+)-(%d+)$')
redis.call('XTRIM', KEY.outbox, 'MINID', ms .. '-' .. (tonumber(n) + 1))
redis.call('PEXPIRE', KEY.lease, ARG.leaseMs)
return 1
`,
});

/** Give the lease back unless entries arrived after the cursor (then keep it: 'more'). */
export const releaseOutbox = script<'lost' | 'more' | 'done'>()({
  name: 'boardhostReleaseOutbox',
  keys: ['outbox', 'cursor', 'lease'],
  args: ['token', 'leaseMs'],
  lua: `
if redis.call('GET', KEY.lease) ~= ARG.token then return 'lost' end
local last = redis.call('XREVRANGE', KEY.outbox, '+', '-', 'COUNT', 1)[1]
if last and last[1] ~= (redis.call('GET', KEY.cursor) or '') then
  redis.call('PEXPIRE', KEY.lease, ARG.leaseMs)
  return 'more'
end
redis.call('DEL', KEY.lease)
return 'done'
`,
});

/** Append notices to one account's feed, outside any origin (EventFeed.append). */
export const appendAccount = script<number>()({
  name: 'boardhostAppendAccount',
  keys: FEED_KEYS,
  args: ['notices', 'candidate', 'publish', 'live'],
  lua: `${APPEND_TO_FEED}
append_to_feed(${feedKeysLua('ARG.live')}, ARG.notices, ARG.candidate, ARG.publish, KEY.hooks, KEY.due)
return 1
`,
});
