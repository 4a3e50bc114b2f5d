import { APPEND_TO_FEED } from './feed-scripts';

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
 * KEYS[1] the account's applied hash; ARGV: prefix, account, origin, version, before ('' for any
 * earlier), notices (JSON), operations (JSON [[op, key, …]]), epoch candidate, publish command,
 * the account's webhook set, the webhook due set, 'resync' or '', the origin's epoch ('' for none).
 *
 * An origin's epoch (a game's: GameEpoch in relay.ts) is recorded next to its version
 * (field `<origin>@e`). A part of an older epoch than the recorded one is 'dup' (a history its
 * master lost); of a newer one, it is in order if it goes on from the account's version (the new
 * master kept what the account applied), else a 'gap' (the drain: 'resynced', whatever the version).
 */
const RELAY_ACCOUNT_SCRIPT = `${APPEND_TO_FEED}
local result = 'applied'
local applied = tonumber(redis.call('HGET', KEYS[1], ARGV[3]) or '0')
local version = tonumber(ARGV[4])
local follows = ARGV[5] == '' or tonumber(ARGV[5]) == applied
local lost = false
local epoch_field = ARGV[3] .. '@e'
local held = tonumber(redis.call('HGET', KEYS[1], epoch_field) or '0')
local epoch = tonumber(ARGV[13] ~= '' and ARGV[13] or '0')
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
  if ARGV[12] ~= 'resync' then return 'gap' end
  -- The versions between (or those the account applied) were lost: the part's operations set the
  -- account's indexes as the origin now is, and the feed begins a new epoch (epoch_changed).
  redis.call('HSET', feed_keys(ARGV[1], ARGV[2]).epoch, 'origin', 'resync')
  result = 'resynced'
end
if epoch > held then redis.call('HSET', KEYS[1], epoch_field, ARGV[13]) end
for _, op in ipairs(cjson.decode(ARGV[7])) do
  if op[1] == 'zadd' then redis.call('ZADD', op[2], op[3], op[4])
  elseif op[1] == 'zrem' then redis.call('ZREM', op[2], op[3])
  elseif op[1] == 'sadd' then redis.call('SADD', op[2], op[3])
  elseif op[1] == 'srem' then redis.call('SREM', op[2], op[3]) end
end
append_to_feed(ARGV[1], ARGV[2], ARGV[6], ARGV[8], ARGV[9], ARGV[10], ARGV[11])
redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
return result
`;

/**
 * Move a shard's outbox cursor past `id` and drop the entries up to it, if the caller still holds
 * the lease. KEYS[1] outbox, KEYS[2] cursor, KEYS[3] lease; ARGV: lease token, id, lease ms.
 */
const ADVANCE_OUTBOX_SCRIPT = `
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
local ms, n = string.match(ARGV[2], '^(%d+)-(%d+)$')
redis.call('XTRIM', KEYS[1], 'MINID', ms .. '-' .. (tonumber(n) + 1))
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return 1
`;

/**
 * Give the lease back unless entries arrived after the cursor (then keep it: 'more').
 * KEYS[1] outbox, KEYS[2] cursor, KEYS[3] lease; ARGV: lease token, lease ms.
 */
const RELEASE_OUTBOX_SCRIPT = `
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 'lost' end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if last and last[1] ~= (redis.call('GET', KEYS[2]) or '') then
  redis.call('PEXPIRE', KEYS[3], ARGV[2])
  return 'more'
end
redis.call('DEL', KEYS[3])
return 'done'
`;

/** Append notices to one account's feed, outside any origin (EventFeed.append). ARGV as append_to_feed. KEYS[1] the feed. */
const APPEND_ACCOUNT_SCRIPT = `${APPEND_TO_FEED}
append_to_feed(ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])
return 1
`;

export const RELAY_SCRIPTS = {
  boardhostRelayAccount: { numberOfKeys: 1, lua: RELAY_ACCOUNT_SCRIPT },
  boardhostAdvanceOutbox: { numberOfKeys: 3, lua: ADVANCE_OUTBOX_SCRIPT },
  boardhostReleaseOutbox: { numberOfKeys: 3, lua: RELEASE_OUTBOX_SCRIPT },
  boardhostAppendAccount: { numberOfKeys: 1, lua: APPEND_ACCOUNT_SCRIPT },
} as const;
