import { GAME_STATUSES, OVER } from '../store';
import { SHARDS } from './keys';

// The v2 game scripts (docs/data-model.md). Each touches the keys of one shard only: the game, its
// moves, its idempotency record and its shard's outbox, listings and clock indexes. What a write
// means for accounts (feeds, my-turn lists, their listings) goes into the outbox, for the relay.

/**
 * Listing scores: the Redis server's time in µs since this epoch × 8 + a per-shard counter mod 8:
 * in creation order on each Redis (and across a Cluster's masters as far as their clocks agree),
 * unique, and exact in a double until 2060.
 */
export const LISTING_EPOCH_US = Date.UTC(2025, 0, 1) * 1000;

/**
 * Lua: the shard tag of an id, as shardOf() in keys.ts computes it (FNV-1a over the bytes, which
 * are the UTF-16 units for the ASCII ids used here).
 */
export const SHARD_TAG = `
local function shard_tag(id)
  local h = 2166136261
  for i = 1, #id do
    h = bit.bxor(h, string.byte(id, i))
    if h < 0 then h = h + 4294967296 end
    h = ((h % 256) * 16777216 + h * 403) % 4294967296
  end
  return '{s' .. (h % ${SHARDS}) .. '}'
end
`;

/**
 * Lua: keep a game's shard listings, deadline and reminder entries in step with it. `s` is the
 * shard's key prefix (p with the tag: 'p…games:{s7}' is s .. …), `c` the clock spec (clockSpec()).
 */
const GAME_INDEXES = `
local function shard_listings(pt, kind, status, lseq, id)
  redis.call('ZADD', pt.games .. ':all', lseq, id)
  redis.call('ZADD', pt.games .. ':kind:' .. kind, lseq, id)
  for _, other in ipairs({${GAME_STATUSES.map((s) => `'${s}'`).join(', ')}}) do
    if other ~= status then
      redis.call('ZREM', pt.games .. ':status:' .. other, id)
      redis.call('ZREM', pt.games .. ':kind:' .. kind .. ':status:' .. other, id)
    end
  end
  redis.call('ZADD', pt.games .. ':status:' .. status, lseq, id)
  redis.call('ZADD', pt.games .. ':kind:' .. kind .. ':status:' .. status, lseq, id)
end
local function game_clock(pt, key, id, c)
  if c.deadline ~= '' then redis.call('ZADD', pt.deadlines, c.deadline, id) else redis.call('ZREM', pt.deadlines, id) end
  redis.call('HSET', key, 'turn', c.turn)
  if c.reminder ~= '' and c.turn ~= '${OVER}' and redis.call('HGET', key, 'reminded') ~= c.turn then
    redis.call('ZADD', pt.reminders, c.reminder, id)
  else
    redis.call('ZREM', pt.reminders, id)
  end
end
local function shard_keys(p, tag)
  return { games = p .. 'games:' .. tag, deadlines = p .. 'deadlines:' .. tag, reminders = p .. 'reminders:' .. tag,
    outbox = p .. 'outbox:' .. tag, gseq = p .. 'gseq:' .. tag }
end
-- The game's epoch (see GameEpoch in relay.ts): its hash remembers which Redis wrote it last (run_id
-- and replication id, as feed epochs do) and since when; written by another one (a restart, or a
-- replica promoted: writes may be lost, their versions to be used again), the game begins a new
-- epoch, numbered by the server's time in µs (and above the one before), so later epochs are higher.
local function game_epoch(key)
  local server = redis.call('INFO', 'server')
  local replication = redis.call('INFO', 'replication')
  local origin = (string.match(server, 'run_id:(%x+)') or '') .. ':' ..
    (string.match(replication, 'master_replid:(%x+)') or '')
  local g = redis.call('HMGET', key, 'eo', 'ep')
  if g[1] == origin and g[2] then return g[2] end
  local t = redis.call('TIME')
  local e = tonumber(t[1]) * 1000000 + tonumber(t[2])
  if g[2] and tonumber(g[2]) >= e then e = tonumber(g[2]) + 1 end
  local epoch = string.format('%.0f', e)
  redis.call('HSET', key, 'eo', origin, 'ep', epoch)
  return epoch
end
-- Appends an outbox entry (fields: origin, version, before, then account, notices, ops per
-- account) with the listing score in place of @lseq, the accounts' own befores when given
-- (JSON; see OutboxEntry in relay.ts) and the origin's epoch when given. Returns its id, or ''
-- when it has no account.
local function to_outbox_fields(pt, lseq, fields, befores, epoch)
  if #fields < 6 then return '' end
  local parts = {}
  for i = 4, #fields do parts[#parts + 1] = (string.gsub(fields[i], '"@lseq"', lseq)) end
  local args = {'o', fields[1], 'v', fields[2], 'b', fields[3], 'd', cjson.encode(parts)}
  if befores then args[#args + 1] = 'a'; args[#args + 1] = befores end
  if epoch then args[#args + 1] = 'e'; args[#args + 1] = epoch end
  return redis.call('XADD', pt.outbox, '*', unpack(args))
end
-- The outbox entry whose fields are ARGV[from] to the end.
local function to_outbox(pt, lseq, from, epoch)
  local fields = {}
  for i = from, #ARGV do fields[#fields + 1] = ARGV[i] end
  return to_outbox_fields(pt, lseq, fields, nil, epoch)
end
`;

/**
 * Lua: store a new game (false if its id is taken): head, moves, listing score, shard listings,
 * clocks, outbox entry. Returns the outbox entry id ('' for none).
 */
const CREATE_GAME_V2 = `${GAME_INDEXES}
local function create_game_v2(p, tag, key, moves_key, id, head, version, status, kind, epoch, shard, moves, clock, fields)
  if redis.call('EXISTS', key) == 1 then return false end
  local pt = shard_keys(p, tag)
  local n = redis.call('INCR', pt.gseq)
  local t = redis.call('TIME')
  local us = (tonumber(t[1]) * 1000000 + tonumber(t[2])) - tonumber(epoch)
  local lseq = string.format('%.0f', us * 8 + (n % 8))
  redis.call('HSET', key, 'head', head, 'version', version, 'status', status, 'kind', kind, 'lseq', lseq)
  for _, m in ipairs(cjson.decode(moves)) do redis.call('RPUSH', moves_key, m) end
  shard_listings(pt, kind, status, lseq, id)
  game_clock(pt, key, id, cjson.decode(clock))
  -- Only a game with accounts has outbox entries, so only it needs an epoch (two INFOs a write).
  local game = ''
  if #fields >= 6 then game = game_epoch(key) end
  return to_outbox_fields(pt, lseq, fields, nil, game), lseq, game
end
`;

/**
 * Create a game. KEYS[1] game, KEYS[2] moves; ARGV: prefix, tag, id, head, version, status, kind,
 * listing base, shard, moves (JSON list of move JSON), clock spec, then the outbox fields.
 * Returns {1, outbox id, listing score, game epoch} or {0} (id taken).
 */
const CREATE_SCRIPT = `${CREATE_GAME_V2}
local fields = {}
for i = 12, #ARGV do fields[#fields + 1] = ARGV[i] end
local entry, lseq, epoch = create_game_v2(ARGV[1], ARGV[2], KEYS[1], KEYS[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11], fields)
if entry == false then return {0} end
return {1, entry, lseq, epoch}
`;

/**
 * A move or any other write of a game, all or nothing: idempotency key first (its record answers a
 * retry), then the version; append the move (a write adds at most one), write the head, remember
 * the answer (head and move count) for 24 h, move the listing status, the clock entries, publish the
 * change (head and move), append the outbox entry; a finished game's moves are packed into the hash.
 * KEYS[1] game, KEYS[2] moves, KEYS[3] idempotency record; ARGV: 1 prefix, 2 tag, 3 id, 4 expected
 * version, 5 head, 6 version, 7 status, 8 kind, 9 moves in total, 10 the new move ('' for none),
 * 11 idempotent ('1'/'0'), 12 fingerprint, 13 ttl, 14 channel, 15 publish command, 16 clock spec,
 * 17 packed moves (a finished game), every move as a JSON list (a packed game reopened), or '',
 * 18 … outbox fields.
 * Returns {'updated', outbox id, listing score, game epoch}, {'replayed', fingerprint, head, moves}, {'conflict', version},
 * {'missing'}, {'moves', count} (the stored moves are not those the write extends) or {'unpack'}
 * (ask again with every move).
 */
const UPDATE_SCRIPT = `${GAME_INDEXES}
if ARGV[11] == '1' then
  local seen = redis.call('HMGET', KEYS[3], 'fingerprint', 'head', 'moves')
  if seen[1] then return {'replayed', seen[1], seen[2], seen[3]} end
end
local h = redis.call('HMGET', KEYS[1], 'version', 'status', 'lseq', 'nmoves')
if not h[1] then return {'missing'} end
if h[1] ~= ARGV[4] then return {'conflict', h[1]} end
local total = tonumber(ARGV[9])
local move = 'null'
if h[4] then
  -- Packed (the game was finished): a write that finishes it again packs again; one that reopens
  -- it needs every move as a list (ARGV[17] = JSON list of move JSON; asked for with 'unpack').
  local count = tonumber(h[4])
  if total == count + 1 and ARGV[10] ~= '' then move = ARGV[10] elseif total ~= count then return {'moves', count} end
  if ARGV[17] == '' then return {'unpack'} end
  if string.sub(ARGV[17], 1, 1) == '[' then
    redis.call('HDEL', KEYS[1], 'packed', 'nmoves')
    redis.call('DEL', KEYS[2])
    for _, m in ipairs(cjson.decode(ARGV[17])) do redis.call('RPUSH', KEYS[2], m) end
  else
    redis.call('HSET', KEYS[1], 'packed', ARGV[17], 'nmoves', total)
  end
else
  local count = redis.call('LLEN', KEYS[2])
  if ARGV[10] ~= '' and total == count + 1 then
    redis.call('RPUSH', KEYS[2], ARGV[10])
    move = ARGV[10]
  elseif total ~= count then
    return {'moves', count}
  end
end
redis.call('HSET', KEYS[1], 'head', ARGV[5], 'version', ARGV[6], 'status', ARGV[7])
if ARGV[11] == '1' then
  redis.call('HSET', KEYS[3], 'fingerprint', ARGV[12], 'head', ARGV[5], 'moves', total)
  redis.call('EXPIRE', KEYS[3], ARGV[13])
end
local pt = shard_keys(ARGV[1], ARGV[2])
if h[2] ~= ARGV[7] then shard_listings(pt, ARGV[8], ARGV[7], h[3], ARGV[3]) end
game_clock(pt, KEYS[1], ARGV[3], cjson.decode(ARGV[16]))
redis.call(ARGV[15], ARGV[14], '{"game":' .. ARGV[5] .. ',"move":' .. move .. '}')
if ARGV[17] ~= '' and string.sub(ARGV[17], 1, 1) ~= '[' and not h[4] then
  redis.call('HSET', KEYS[1], 'packed', ARGV[17], 'nmoves', total)
  redis.call('HDEL', KEYS[1], 'turn', 'reminded')
  redis.call('DEL', KEYS[2])
end
-- Only a game with accounts has an outbox entry (6 fields or more), so only it needs an epoch.
local epoch = ''
if #ARGV >= 23 then epoch = game_epoch(KEYS[1]) end
return {'updated', to_outbox(pt, h[3], 18, epoch), h[3], epoch}
`;

/**
 * A game: {head, packed moves or '', moves from index ARGV[1] to ARGV[2], the number of moves}.
 * KEYS[1] game, KEYS[2] moves.
 */
const READ_GAME_SCRIPT = `#!lua flags=no-writes
local h = redis.call('HMGET', KEYS[1], 'head', 'packed', 'nmoves')
if not h[1] then return false end
if h[2] then return {h[1], h[2], {}, tonumber(h[3])} end
return {h[1], '', redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2]), redis.call('LLEN', KEYS[2])}
`;

/**
 * Count a game among an account's ongoing ones unless it has max already: 1 added by this call, 2
 * already there (another call's place: not this call's to release), 0 refused. KEYS[1] the set;
 * ARGV: id, max.
 */
const RESERVE_GAME_SCRIPT = `
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 2 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
`;

/**
 * Once per turn (never for a finished game): record the reminder, drop its entry and append the
 * outbox entry. KEYS[1] game, KEYS[2] reminders; ARGV: prefix, tag, id, turn, then outbox fields.
 */
const MARK_REMINDED_SCRIPT = `${GAME_INDEXES}
if ARGV[4] == '${OVER}' or redis.call('HGET', KEYS[1], 'turn') ~= ARGV[4] then return 0 end
if redis.call('HGET', KEYS[1], 'reminded') == ARGV[4] then return 0 end
redis.call('HSET', KEYS[1], 'reminded', ARGV[4])
redis.call('ZREM', KEYS[2], ARGV[3])
local entry = to_outbox(shard_keys(ARGV[1], ARGV[2]), redis.call('HGET', KEYS[1], 'lseq') or '0', 5)
return {1, entry}
`;

export { CREATE_GAME_V2 as CREATE_GAME_SNIPPET, GAME_INDEXES as GAME_INDEXES_SNIPPET };

export const GAME_SCRIPTS = {
  boardhostCreateGame: { numberOfKeys: 2, lua: CREATE_SCRIPT },
  boardhostUpdateGame: { numberOfKeys: 3, lua: UPDATE_SCRIPT },
  boardhostReadGame: { numberOfKeys: 2, lua: READ_GAME_SCRIPT },
  boardhostMarkRemindedV2: { numberOfKeys: 2, lua: MARK_REMINDED_SCRIPT },
  boardhostReserveGame: { numberOfKeys: 1, lua: RESERVE_GAME_SCRIPT },
} as const;
