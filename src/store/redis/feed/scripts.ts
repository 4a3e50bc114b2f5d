import { script } from '../script';

// The feed snippets every script that appends to or reads an account feed shares, and the scripts
// that forward app accounts' events to their app feeds (forwarder.ts).

/** Oldest entries checked for age on each append (more than one, so a backlog shrinks). */
export const FEED_TRIM_BATCH = 32;
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
 * Lua: append notices (JSON from noticesArgument()) to one account's feed: seq, epoch, trimming by
 * age, the live message, the due mark of the account's webhook endpoints, and (an app account: its
 * id has a dot) the account's mark in its shard's dirty set, for the forwarder to carry its events
 * to its app feed (forwarder.ts). `k`: the feed's keys, declared by the script (FEED_KEYS) and its
 * live channel {feed, seq, epoch, live, dirty}. append_notices does the same for decoded notices
 * (an app feed's, each naming its `account`: kept as a field of the entry), without a dirty mark.
 */
export const APPEND_TO_FEED = `${FEED_EPOCH}
local function append_notices(k, decoded, candidate, publish, hooks, due)
  for _, n in ipairs(decoded.notices) do
    local epoch = feed_epoch(k.epoch, k.seq, candidate)
    local seq = redis.call('INCR', k.seq)
    local minid = nil
    for _, entry in ipairs(redis.call('XRANGE', k.feed, '-', '+', 'COUNT', ${FEED_TRIM_BATCH})) do
      local ms = nil
      for i = 1, #entry[2], 2 do
        if entry[2][i] == 'ms' then ms = tonumber(entry[2][i + 1]) end
      end
      if ms == nil or ms >= n.cutoff then break end
      minid = (tonumber(string.match(entry[1], '^%d+')) + 1) .. '-0'
    end
    if minid then redis.call('XTRIM', k.feed, 'MINID', minid) end
    if n.account then
      redis.call('XADD', k.feed, seq .. '-0', 'type', n.type, 'at', n.at, 'ms', n.ms, 'epoch', epoch, 'data', n.data,
        'account', n.account)
    else
      redis.call('XADD', k.feed, seq .. '-0', 'type', n.type, 'at', n.at, 'ms', n.ms, 'epoch', epoch, 'data', n.data)
    end
    if decoded.max then redis.call('XTRIM', k.feed, 'MAXLEN', decoded.max) end
    redis.call(publish, k.live, '{"seq":' .. seq .. ',"epoch":' .. cjson.encode(epoch) .. n.rest)
    for _, hook in ipairs(redis.call('SMEMBERS', hooks)) do
      redis.call('ZADD', due, 'NX', n.ms, hook)
    end
  end
end
local function append_to_feed(k, notices, candidate, publish, hooks, due)
  local decoded = cjson.decode(notices)
  append_notices(k, decoded, candidate, publish, hooks, due)
  local first = decoded.notices[1]
  if first and decoded.account and string.find(decoded.account, '.', 1, true) then
    redis.call('ZADD', k.dirty, 'NX', first.ms, decoded.account)
  end
end
`;

/** The keys a script that appends to an account's feed declares (after its own), in this order. */
export const FEED_KEYS = ['feed', 'feedSeq', 'feedEpoch', 'hooks', 'due', 'dirty'] as const;

/** Lua: the feed keys of FEED_KEYS, as append_to_feed takes them, with the live channel `live`. */
export function feedKeysLua(live: string): string {
  return `{feed = KEY.feed, seq = KEY.feedSeq, epoch = KEY.feedEpoch, live = ${live}, dirty = KEY.dirty}`;
}

/**
 * Appends an app account's events (read from its feed, oldest first) to its app's feed, skipping
 * those the app feed holds already: `applied` (hash account → "<epoch> <seq>", beside the app
 * feed) names the newest one it holds. An event is new when it comes after that one: a later seq of
 * the same account-feed epoch, or an event of a later epoch (the account's feed came back older and
 * reuses seqs); events of earlier epochs are behind it. `epochs`: the account feed's epoch ids,
 * newest first (JSON); `events`: JSON {max, notices} as append_notices takes them, each notice with
 * its account-feed `src_epoch` and `src_seq`. Keys: the app feed's (FEED_KEYS without dirty) and
 * `applied`, all in the app feed owner's shard. Returns {appended, epoch, seq} (the applied mark after).
 */
export const appendAppFeed = script<[number, string, number]>()({
  name: 'boardhostAppendAppFeed',
  keys: ['feed', 'feedSeq', 'feedEpoch', 'hooks', 'due', 'applied'],
  args: ['account', 'events', 'epochs', 'candidate', 'publish', 'live'],
  lua: `${APPEND_TO_FEED}
local mark = redis.call('HGET', KEY.applied, ARG.account)
local a_epoch, a_seq = nil, 0
if mark then
  local e, n = string.match(mark, '^(%S*) (%d+)$')
  a_epoch, a_seq = e, tonumber(n)
end
local rank = {}
for i, id in ipairs(cjson.decode(ARG.epochs)) do rank[id] = i end
local decoded = cjson.decode(ARG.events)
local fresh = {}
for _, n in ipairs(decoded.notices) do
  local seq = tonumber(n.src_seq)
  local new
  if a_epoch == nil then new = true
  elseif n.src_epoch == a_epoch then new = seq > a_seq
  else
    local re, ra = rank[n.src_epoch] or math.huge, rank[a_epoch] or math.huge
    if re == ra then new = seq > a_seq else new = re < ra end
  end
  if new then
    table.insert(fresh, n)
    a_epoch, a_seq = n.src_epoch, seq
  end
end
if #fresh > 0 then
  append_notices({feed = KEY.feed, seq = KEY.feedSeq, epoch = KEY.feedEpoch, live = ARG.live},
    {max = decoded.max, notices = fresh}, ARG.candidate, ARG.publish, KEY.hooks, KEY.due)
  redis.call('HSET', KEY.applied, ARG.account, a_epoch .. ' ' .. a_seq)
end
return {#fresh, a_epoch or '', a_seq}
`,
});

/**
 * Takes an account off its shard's dirty set when its feed holds nothing after `upTo` (the newest
 * seq the forwarder read: what came since stays marked). Keys in the account's shard.
 */
export const settleAppFeed = script<number>()({
  name: 'boardhostSettleAppFeed',
  keys: ['dirty', 'feedSeq'],
  args: ['account', 'upTo'],
  lua: `
if tonumber(redis.call('GET', KEY.feedSeq) or '0') > tonumber(ARG.upTo) then return 0 end
redis.call('ZREM', KEY.dirty, ARG.account)
return 1
`,
});

/** Extends (`ms` > 0) or gives back (`ms` = 0) a lease `token` holds; 0 when it holds it no more. */
export const holdLease = script<number>()({
  name: 'boardhostHoldLease',
  keys: ['lease'],
  args: ['token', 'ms'],
  lua: `
if redis.call('GET', KEY.lease) ~= ARG.token then return 0 end
if tonumber(ARG.ms) > 0 then redis.call('PEXPIRE', KEY.lease, ARG.ms) else redis.call('DEL', KEY.lease) end
return 1
`,
});
