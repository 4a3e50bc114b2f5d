// The feed snippets every script that appends to or reads an account feed shares.

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
 * age, the live message, and the due mark of the account's webhook endpoints. `k`: the feed's
 * keys, declared by the script (FEED_KEYS) and its live channel {feed, seq, epoch, live}.
 */
export const APPEND_TO_FEED = `${FEED_EPOCH}
local function append_to_feed(k, notices, candidate, publish, hooks, due)
  local decoded = cjson.decode(notices)
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
    redis.call('XADD', k.feed, seq .. '-0', 'type', n.type, 'at', n.at, 'ms', n.ms, 'epoch', epoch, 'data', n.data)
    if decoded.max then redis.call('XTRIM', k.feed, 'MAXLEN', decoded.max) end
    redis.call(publish, k.live, '{"seq":' .. seq .. ',"epoch":' .. cjson.encode(epoch) .. n.rest)
    for _, hook in ipairs(redis.call('SMEMBERS', hooks)) do
      redis.call('ZADD', due, 'NX', n.ms, hook)
    end
  end
end
`;

/** The keys a script that appends to an account's feed declares (after its own), in this order. */
export const FEED_KEYS = ['feed', 'feedSeq', 'feedEpoch', 'hooks', 'due'] as const;

/** Lua: the feed keys of FEED_KEYS, as append_to_feed takes them, with the live channel `live`. */
export function feedKeysLua(live: string): string {
  return `{feed = KEY.feed, seq = KEY.feedSeq, epoch = KEY.feedEpoch, live = ${live}}`;
}
