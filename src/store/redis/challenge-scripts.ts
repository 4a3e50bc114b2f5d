import { IDEMPOTENCY_TTL_SECONDS } from '../store';
import { CREATE_GAME_SNIPPET, GAME_INDEXES_SNIPPET } from './game-scripts';

// The challenge and seek scripts (docs/data-model.md). A challenge's script touches its shard only
// (the shard of its id, which the game it becomes shares): the challenge, the shard's expiry index
// and outbox, and the game. What a challenge write means for accounts (feed notices, their open
// challenges) goes into the outbox, for the relay. A seek pool and its seeks share a shard.

/**
 * Lua: append the outbox entry of an origin whose accounts change over time (fields: origin,
 * version, before, then account, notices, ops per account): a challenge (whoever accepts an open
 * one joins it), a tournament (players join and withdraw). The entry carries each account's own
 * `before`: the version of the last entry of this origin that had a part for it (0: none), kept in
 * the origin's hash, field `relayed` (JSON account → version). Returns the entry id ('' for none)
 * and the befores (JSON).
 */
export const MEMBERS_ENTRY_SNIPPET = `
local function members_entry(pt, key, fields)
  if #fields < 6 then return '', '' end
  local raw = redis.call('HGET', key, 'relayed')
  local relayed = {}
  if raw then relayed = cjson.decode(raw) end
  local befores = {}
  for i = 4, #fields, 3 do
    befores[fields[i]] = relayed[fields[i]] or 0
    relayed[fields[i]] = tonumber(fields[2])
  end
  redis.call('HSET', key, 'relayed', cjson.encode(relayed))
  local encoded = cjson.encode(befores)
  return to_outbox_fields(pt, '0', fields, encoded), encoded
end
`;

const CHALLENGE_SNIPPET = `
local function index_expiry(expiry, id, open, expires)
  if open == '1' then redis.call('ZADD', expiry, expires, id) else redis.call('ZREM', expiry, id) end
end
local function argv_from(from, to)
  local out = {}
  for i = from, to do out[#out + 1] = ARGV[i] end
  return out
end
`;

/**
 * Create only if absent, with its expiry entry and outbox entry.
 * KEYS[1] challenge, KEYS[2] the shard's expiry index; ARGV: 1 prefix, 2 tag, 3 id, 4 doc,
 * 5 version, 6 open ('1' or ''), 7 expires ms, 8… the outbox fields.
 * Returns {1, outbox entry id, befores} or {0} (the id is taken).
 */
const CREATE_CHALLENGE_SCRIPT = `${GAME_INDEXES_SNIPPET}${MEMBERS_ENTRY_SNIPPET}${CHALLENGE_SNIPPET}
if redis.call('EXISTS', KEYS[1]) == 1 then return {0} end
redis.call('HSET', KEYS[1], 'doc', ARGV[4], 'version', ARGV[5])
index_expiry(KEYS[2], ARGV[3], ARGV[6], ARGV[7])
local entry, befores = members_entry(shard_keys(ARGV[1], ARGV[2]), KEYS[1], argv_from(8, #ARGV))
return {1, entry, befores}
`;

/**
 * How long a closed challenge (accepted, declined, canceled, expired: all final) stays readable:
 * seven days, far longer than any retry the API answers (idempotency records last a day) and than
 * its last outbox entry waits for the relay (seconds). Open ones never expire by TTL (the sweep
 * closes them at their expiresAt).
 */
export const CLOSED_CHALLENGE_TTL_SECONDS = 7 * IDEMPOTENCY_TTL_SECONDS;

/**
 * Compare-and-set on version; the game the challenge became (checked first, so that a taken game id
 * writes nothing, and written first, so that its entry precedes the challenge's in the outbox: a
 * player sees the game listed when game.started reaches the feed), the expiry entry and the
 * challenge's outbox entry in the same step. The players' limits are reserved before
 * (RedisGameStore.reserve), in their shards. The game has the challenge's id.
 * KEYS[1] challenge, KEYS[2] the shard's expiry index, KEYS[3] game, KEYS[4] its moves; ARGV:
 * 1 prefix, 2 tag, 3 expected version, 4 id, 5 doc, 6 version, 7 open ('1' or ''), 8 expires ms,
 * 9 '1' with a game, 10 n, 11 … 10+n the challenge's outbox fields, then with a game the 11 create
 * arguments (createArguments()) and the game's outbox fields.
 * A closed challenge expires after CLOSED_CHALLENGE_TTL_SECONDS (its game stays).
 * Returns {'updated', game entry id, listing score, challenge entry id, befores, game epoch},
 * {'missing'},
 * {'conflict'} or {'game-exists'}.
 */
const UPDATE_CHALLENGE_SCRIPT = `${CREATE_GAME_SNIPPET}${MEMBERS_ENTRY_SNIPPET}${CHALLENGE_SNIPPET}
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return {'missing'} end
if version ~= ARGV[3] then return {'conflict'} end
local n = tonumber(ARGV[10])
local game_entry, lseq, gepoch = '', '', ''
if ARGV[9] == '1' then
  local g = 10 + n
  game_entry, lseq, gepoch = create_game_v2(ARGV[g + 1], ARGV[g + 2], KEYS[3], KEYS[4], ARGV[g + 3], ARGV[g + 4],
    ARGV[g + 5], ARGV[g + 6], ARGV[g + 7], ARGV[g + 8], ARGV[g + 9], ARGV[g + 10], ARGV[g + 11],
    argv_from(g + 12, #ARGV))
  if game_entry == false then return {'game-exists'} end
end
redis.call('HSET', KEYS[1], 'doc', ARGV[5], 'version', ARGV[6])
index_expiry(KEYS[2], ARGV[4], ARGV[7], ARGV[8])
local entry, befores = members_entry(shard_keys(ARGV[1], ARGV[2]), KEYS[1], argv_from(11, 10 + n))
if ARGV[7] ~= '1' then redis.call('EXPIRE', KEYS[1], ${CLOSED_CHALLENGE_TTL_SECONDS}) end
return {'updated', game_entry, lseq, entry, befores, gepoch}
`;

/**
 * Oldest first: drop expired (and dangling) seeks, take the first by another account, else queue the
 * new one. A pool and its seeks share the shard of the pool's sha1. KEYS[1] pool, KEYS[2] new seek;
 * ARGV: now ms, id, account, doc, expires ms, pool sha1, the key of a seek of the pool without its id,
 * then the accounts whose seeks it must pass over (blocks, either way).
 */
const MATCH_OR_ADD_SCRIPT = `
local now = tonumber(ARGV[1])
local avoid = {}
for i = 8, #ARGV do avoid[ARGV[i]] = true end
for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  local key = ARGV[7] .. id
  local seek = redis.call('HMGET', key, 'doc', 'account', 'expires')
  if not seek[1] or tonumber(seek[3]) <= now then
    redis.call('LREM', KEYS[1], 1, id)
    redis.call('DEL', key)
  elseif seek[2] ~= ARGV[3] and not avoid[seek[2]] then
    redis.call('LREM', KEYS[1], 1, id)
    redis.call('DEL', key)
    return seek[1]
  end
end
redis.call('HSET', KEYS[2], 'doc', ARGV[4], 'account', ARGV[3], 'expires', ARGV[5], 'pool', ARGV[6])
redis.call('RPUSH', KEYS[1], ARGV[2])
return false
`;

/** Take a waiting seek out of its pool. KEYS[1] seek, KEYS[2] its pool; ARGV: id. */
const REMOVE_SEEK_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('LREM', KEYS[2], 1, ARGV[1])
redis.call('DEL', KEYS[1])
return 1
`;

/** Block: KEYS[1] the blocker's blocks hash; ARGV: blocked id, since (ISO), the most blocks allowed. */
const BLOCK_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'exists' end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 'full' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 'blocked'
`;

export const CHALLENGE_SCRIPTS = {
  boardhostCreateChallenge: { numberOfKeys: 2, lua: CREATE_CHALLENGE_SCRIPT },
  boardhostUpdateChallenge: { numberOfKeys: 4, lua: UPDATE_CHALLENGE_SCRIPT },
  boardhostMatchOrAdd: { numberOfKeys: 2, lua: MATCH_OR_ADD_SCRIPT },
  boardhostRemoveSeek: { numberOfKeys: 2, lua: REMOVE_SEEK_SCRIPT },
  boardhostBlock: { numberOfKeys: 1, lua: BLOCK_SCRIPT },
} as const;
