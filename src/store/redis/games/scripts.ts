import { GAME_STATUSES, OVER } from '../../store';
import { SHARD_KEYS_LUA } from '../lua-keys';
import { script } from '../script';

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
 * Lua: keep a game's shard listings, deadline and reminder entries in step with it. `pt` is the
 * shard's keys (shard_keys, lua-keys.ts), `c` the clock spec (clockSpec()).
 */
const GAME_INDEXES = `${SHARD_KEYS_LUA}
local function shard_listings(pt, kind, status, lseq, id, listed)
  -- Only a publicly listed game (publiclyListed in ports/games.ts) is in the shard's listings.
  if listed ~= '1' then return end
  redis.call('ZADD', listing_key(pt, nil, nil), lseq, id)
  redis.call('ZADD', listing_key(pt, kind, nil), lseq, id)
  for _, other in ipairs({${GAME_STATUSES.map((s) => `'${s}'`).join(', ')}}) do
    if other ~= status then
      redis.call('ZREM', listing_key(pt, nil, other), id)
      redis.call('ZREM', listing_key(pt, kind, other), id)
    end
  end
  redis.call('ZADD', listing_key(pt, nil, status), lseq, id)
  redis.call('ZADD', listing_key(pt, kind, status), lseq, id)
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
local function create_game_v2(p, tag, key, moves_key, id, head, version, status, kind, epoch, shard, moves, clock, listed, fields)
  if redis.call('EXISTS', key) == 1 then return false end
  local pt = shard_keys(p, tag)
  local n = redis.call('INCR', pt.listingSeq)
  local t = redis.call('TIME')
  local us = (tonumber(t[1]) * 1000000 + tonumber(t[2])) - tonumber(epoch)
  local lseq = string.format('%.0f', us * 8 + (n % 8))
  redis.call('HSET', key, 'head', head, 'version', version, 'status', status, 'kind', kind, 'lseq', lseq)
  for _, m in ipairs(cjson.decode(moves)) do redis.call('RPUSH', moves_key, m) end
  shard_listings(pt, kind, status, lseq, id, listed)
  game_clock(pt, key, id, cjson.decode(clock))
  -- Only a game with accounts has outbox entries, so only it needs an epoch (two INFOs a write).
  local game = ''
  if #fields >= 6 then game = game_epoch(key) end
  return to_outbox_fields(pt, lseq, fields, nil, game), lseq, game
end
`;

/**
 * Create a game. `prefix` and `tag` (the game's shard's) for shard_keys; `listingEpoch`: the listing
 * base; `moves`: JSON list of move JSON; `clock`: the clock spec; `listed`: '1' for a game in the
 * shard's listings (publiclyListed); the rest: the outbox fields.
 * Returns {1, outbox id, listing score, game epoch} or {0} (id taken).
 */
export const createGame = script<[number, string?, string?, string?]>()({
  name: 'boardhostCreateGame',
  keys: ['game', 'moves'],
  args: [
    'prefix',
    'tag',
    'id',
    'head',
    'version',
    'status',
    'kind',
    'listingEpoch',
    'shard',
    'moves',
    'clock',
    'listed',
  ],
  rest: true,
  lua: `${CREATE_GAME_V2}
local fields = {}
for i = REST, #ARGV do fields[#fields + 1] = ARGV[i] end
local entry, lseq, epoch = create_game_v2(ARG.prefix, ARG.tag, KEY.game, KEY.moves, ARG.id, ARG.head, ARG.version, ARG.status, ARG.kind, ARG.listingEpoch, ARG.shard, ARG.moves, ARG.clock, ARG.listed, fields)
if entry == false then return {0} end
return {1, entry, lseq, epoch}
`,
});

/**
 * A move or any other write of a game, all or nothing: idempotency key first (its record answers a
 * retry), then the version; append the move (a write adds at most one), write the head, remember
 * the answer (head and move count) for 24 h, move the listing status, the clock entries, publish the
 * change (head and move), append the outbox entry; a finished game's moves are packed into the hash.
 * `idem`: the idempotency record; `total`: moves in total; `move`: the new move ('' for none);
 * `idempotent`: '1'/'0'; `publish`: the publish command; `clock`: the clock spec; `packed`: packed
 * moves (a finished game), every move as a JSON list (a packed game reopened), or ''; `listed`: '1'
 * for a game in the shard's listings (publiclyListed); `truncate`: '1' for a takeback, whose `total`
 * is below the stored count (the moves after it are dropped; never for a packed game, which is
 * finished); the rest: the outbox fields.
 * Returns {'updated', outbox id, listing score, game epoch}, {'replayed', fingerprint, head, moves}, {'conflict', version},
 * {'missing'}, {'moves', count} (the stored moves are not those the write extends) or {'unpack'}
 * (ask again with every move).
 */
export const updateGame = script<[string, ...Array<string | number>]>()({
  name: 'boardhostUpdateGame',
  keys: ['game', 'moves', 'idem'],
  args: [
    'prefix',
    'tag',
    'id',
    'expected',
    'head',
    'version',
    'status',
    'kind',
    'total',
    'move',
    'idempotent',
    'fingerprint',
    'ttl',
    'channel',
    'publish',
    'clock',
    'packed',
    'listed',
    'truncate',
  ],
  rest: true,
  lua: `${GAME_INDEXES}
if ARG.idempotent == '1' then
  local seen = redis.call('HMGET', KEY.idem, 'fingerprint', 'head', 'moves')
  if seen[1] then return {'replayed', seen[1], seen[2], seen[3]} end
end
local h = redis.call('HMGET', KEY.game, 'version', 'status', 'lseq', 'nmoves')
if not h[1] then return {'missing'} end
if h[1] ~= ARG.expected then return {'conflict', h[1]} end
local total = tonumber(ARG.total)
local move = 'null'
if h[4] then
  -- Packed (the game was finished): a write that finishes it again packs again; one that reopens
  -- it needs every move as a list (ARG.packed = JSON list of move JSON; asked for with 'unpack').
  local count = tonumber(h[4])
  if total == count + 1 and ARG.move ~= '' then move = ARG.move elseif total ~= count then return {'moves', count} end
  if ARG.packed == '' then return {'unpack'} end
  if string.sub(ARG.packed, 1, 1) == '[' then
    redis.call('HDEL', KEY.game, 'packed', 'nmoves')
    redis.call('DEL', KEY.moves)
    for _, m in ipairs(cjson.decode(ARG.packed)) do redis.call('RPUSH', KEY.moves, m) end
  else
    redis.call('HSET', KEY.game, 'packed', ARG.packed, 'nmoves', total)
  end
else
  local count = redis.call('LLEN', KEY.moves)
  if ARG.move ~= '' and total == count + 1 then
    redis.call('RPUSH', KEY.moves, ARG.move)
    move = ARG.move
  elseif ARG.truncate == '1' and total < count then
    -- A takeback: the moves after ply \`total\` leave the list (LTRIM 0 -1 would keep them all).
    if total == 0 then redis.call('DEL', KEY.moves) else redis.call('LTRIM', KEY.moves, 0, total - 1) end
  elseif total ~= count then
    return {'moves', count}
  end
end
redis.call('HSET', KEY.game, 'head', ARG.head, 'version', ARG.version, 'status', ARG.status)
if ARG.idempotent == '1' then
  redis.call('HSET', KEY.idem, 'fingerprint', ARG.fingerprint, 'head', ARG.head, 'moves', total)
  redis.call('EXPIRE', KEY.idem, ARG.ttl)
end
local pt = shard_keys(ARG.prefix, ARG.tag)
if h[2] ~= ARG.status then shard_listings(pt, ARG.kind, ARG.status, h[3], ARG.id, ARG.listed) end
game_clock(pt, KEY.game, ARG.id, cjson.decode(ARG.clock))
redis.call(ARG.publish, ARG.channel, '{"game":' .. ARG.head .. ',"move":' .. move .. '}')
if ARG.packed ~= '' and string.sub(ARG.packed, 1, 1) ~= '[' and not h[4] then
  redis.call('HSET', KEY.game, 'packed', ARG.packed, 'nmoves', total)
  redis.call('HDEL', KEY.game, 'turn', 'reminded')
  redis.call('DEL', KEY.moves)
end
-- Only a game with accounts has an outbox entry (6 fields or more), so only it needs an epoch.
local epoch = ''
if #ARGV >= REST + 5 then epoch = game_epoch(KEY.game) end
return {'updated', to_outbox(pt, h[3], REST, epoch), h[3], epoch}
`,
});

/**
 * A game: {head, packed moves or '', moves from index `from` to `to`, the number of moves}.
 */
export const readGame = script<[string, string, string[], number] | null>()({
  name: 'boardhostReadGame',
  keys: ['game', 'moves'],
  args: ['from', 'to'],
  lua: `#!lua flags=no-writes
local h = redis.call('HMGET', KEY.game, 'head', 'packed', 'nmoves')
if not h[1] then return false end
if h[2] then return {h[1], h[2], {}, tonumber(h[3])} end
return {h[1], '', redis.call('LRANGE', KEY.moves, ARG.from, ARG.to), redis.call('LLEN', KEY.moves)}
`,
});

/**
 * Count a game among an account's ongoing ones unless it has max already: 1 added by this call, 2
 * already there (another call's place: not this call's to release), 0 refused. `set`: the
 * account's ongoing games.
 */
export const reserveGame = script<number>()({
  name: 'boardhostReserveGame',
  keys: ['set'],
  args: ['id', 'max'],
  lua: `
if redis.call('SISMEMBER', KEY.set, ARG.id) == 1 then return 2 end
if redis.call('SCARD', KEY.set) >= tonumber(ARG.max) then return 0 end
redis.call('SADD', KEY.set, ARG.id)
return 1
`,
});

/**
 * Once per turn (never for a finished game): record the reminder, drop its entry and append the
 * outbox entry (the rest: its fields).
 */
export const markReminded = script<0 | [number, string]>()({
  name: 'boardhostMarkRemindedV2',
  keys: ['game', 'reminders'],
  args: ['prefix', 'tag', 'id', 'turn'],
  rest: true,
  lua: `${GAME_INDEXES}
if ARG.turn == '${OVER}' or redis.call('HGET', KEY.game, 'turn') ~= ARG.turn then return 0 end
if redis.call('HGET', KEY.game, 'reminded') == ARG.turn then return 0 end
redis.call('HSET', KEY.game, 'reminded', ARG.turn)
redis.call('ZREM', KEY.reminders, ARG.id)
local entry = to_outbox(shard_keys(ARG.prefix, ARG.tag), redis.call('HGET', KEY.game, 'lseq') or '0', REST)
return {1, entry}
`,
});

export { CREATE_GAME_V2 as CREATE_GAME_SNIPPET, GAME_INDEXES as GAME_INDEXES_SNIPPET };
