import { IDEMPOTENCY_TTL_SECONDS } from '../../store';
import { CREATE_GAME_SNIPPET, createGame, GAME_INDEXES_SNIPPET } from '../games/scripts';
import { script } from '../script';

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

/**
 * Lua: a create argument (createGame's, in its declared order: createGameArguments) inside the
 * update's rest, the first of them at ARGV[g + 1].
 */
function createArg(name: (typeof createGame.argNames)[number]): string {
  return `ARGV[g + ${createGame.argNames.indexOf(name) + 1}]`;
}

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
 * `expiry`: the shard's expiry index; `open`: '1' or ''; `expires`: ms; the rest: the outbox fields.
 * Returns {1, outbox entry id, befores} or {0} (the id is taken).
 */
export const createChallenge = script<[0] | [1, string, string]>()({
  name: 'boardhostCreateChallenge',
  keys: ['challenge', 'expiry'],
  args: ['prefix', 'tag', 'id', 'doc', 'version', 'open', 'expires'],
  rest: true,
  lua: `${GAME_INDEXES_SNIPPET}${MEMBERS_ENTRY_SNIPPET}${CHALLENGE_SNIPPET}
if redis.call('EXISTS', KEY.challenge) == 1 then return {0} end
redis.call('HSET', KEY.challenge, 'doc', ARG.doc, 'version', ARG.version)
index_expiry(KEY.expiry, ARG.id, ARG.open, ARG.expires)
local entry, befores = members_entry(shard_keys(ARG.prefix, ARG.tag), KEY.challenge, argv_from(REST, #ARGV))
return {1, entry, befores}
`,
});

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
 * `expiry`: the shard's expiry index; `game` and `moves`: the game's; `withGame`: '1' with a
 * game; the rest: `n` outbox fields of the challenge, then with a game the create script's
 * arguments (createGameArguments()) and the game's outbox fields.
 * A closed challenge expires after CLOSED_CHALLENGE_TTL_SECONDS (its game stays).
 * Returns {'updated', game entry id, listing score, challenge entry id, befores, game epoch},
 * {'missing'},
 * {'conflict'} or {'game-exists'}.
 */
export const updateChallenge = script<
  ['updated', string, string, string, string, string] | ['missing' | 'conflict' | 'game-exists']
>()({
  name: 'boardhostUpdateChallenge',
  keys: ['challenge', 'expiry', 'game', 'moves'],
  args: ['prefix', 'tag', 'expected', 'id', 'doc', 'version', 'open', 'expires', 'withGame', 'n'],
  rest: true,
  lua: `${CREATE_GAME_SNIPPET}${MEMBERS_ENTRY_SNIPPET}${CHALLENGE_SNIPPET}
local version = redis.call('HGET', KEY.challenge, 'version')
if not version then return {'missing'} end
if version ~= ARG.expected then return {'conflict'} end
local n = tonumber(ARG.n)
local game_entry, lseq, gepoch = '', '', ''
if ARG.withGame == '1' then
  local g = REST - 1 + n
  game_entry, lseq, gepoch = create_game_v2(${createArg('prefix')}, ${createArg('tag')}, KEY.game, KEY.moves,
    ${createArg('id')}, ${createArg('head')}, ${createArg('version')}, ${createArg('status')}, ${createArg('kind')},
    ${createArg('listingEpoch')}, ${createArg('shard')}, ${createArg('moves')}, ${createArg('clock')},
    ${createArg('listed')}, argv_from(g + ${createGame.argNames.length + 1}, #ARGV))
  if game_entry == false then return {'game-exists'} end
end
redis.call('HSET', KEY.challenge, 'doc', ARG.doc, 'version', ARG.version)
index_expiry(KEY.expiry, ARG.id, ARG.open, ARG.expires)
local entry, befores = members_entry(shard_keys(ARG.prefix, ARG.tag), KEY.challenge, argv_from(REST, REST - 1 + n))
if ARG.open ~= '1' then redis.call('EXPIRE', KEY.challenge, ${CLOSED_CHALLENGE_TTL_SECONDS}) end
return {'updated', game_entry, lseq, entry, befores, gepoch}
`,
});

/**
 * Oldest first: drop expired (and dangling) seeks, take the first by another account whose rating
 * range and the new seek's admit each other's seeker (SeekStore.matchOrAdd), else queue the new one
 * (`seek`). A pool and its seeks share the shard of the pool's sha1 (`poolSha`); `seekKeyPrefix`: the
 * key of a seek of the pool without its id (Keys.seek(pool, '')); `rating`, `min`, `max`: the new
 * seek's rating and range ('' for none); the rest: the accounts whose seeks it must pass over (blocks,
 * either way).
 */
export const matchOrAdd = script<string | null>()({
  name: 'boardhostMatchOrAdd',
  keys: ['pool', 'seek'],
  args: ['now', 'id', 'account', 'doc', 'expires', 'poolSha', 'seekKeyPrefix', 'rating', 'min', 'max'],
  rest: true,
  lua: `
local now = tonumber(ARG.now)
local avoid = {}
for i = REST, #ARGV do avoid[ARGV[i]] = true end
-- Whether a seeker rated \`rating\` ('' or false: unknown) is admitted by the range \`min\`..\`max\`.
local function admits(min, max, rating)
  min = (min ~= false and min ~= '') and tonumber(min) or nil
  max = (max ~= false and max ~= '') and tonumber(max) or nil
  if not min and not max then return true end
  if rating == false or rating == '' then return false end
  rating = tonumber(rating)
  return (not min or rating >= min) and (not max or rating <= max)
end
for _, id in ipairs(redis.call('LRANGE', KEY.pool, 0, -1)) do
  local key = ARG.seekKeyPrefix .. id
  local seek = redis.call('HMGET', key, 'doc', 'account', 'expires', 'rating', 'min', 'max')
  if not seek[1] or tonumber(seek[3]) <= now then
    redis.call('LREM', KEY.pool, 1, id)
    redis.call('DEL', key)
  elseif seek[2] ~= ARG.account and not avoid[seek[2]]
    and admits(ARG.min, ARG.max, seek[4]) and admits(seek[5], seek[6], ARG.rating) then
    redis.call('LREM', KEY.pool, 1, id)
    redis.call('DEL', key)
    return seek[1]
  end
end
redis.call('HSET', KEY.seek, 'doc', ARG.doc, 'account', ARG.account, 'expires', ARG.expires, 'pool', ARG.poolSha,
  'rating', ARG.rating, 'min', ARG.min, 'max', ARG.max)
redis.call('RPUSH', KEY.pool, ARG.id)
return false
`,
});

/** Take a waiting seek out of its pool: its document, or false when it was not waiting. */
export const removeSeek = script<string | null>()({
  name: 'boardhostRemoveSeek',
  keys: ['seek', 'pool'],
  args: ['id'],
  lua: `
local doc = redis.call('HGET', KEY.seek, 'doc')
if not doc then return false end
redis.call('LREM', KEY.pool, 1, ARG.id)
redis.call('DEL', KEY.seek)
return doc
`,
});

/** Block: `blocks` the blocker's hash; `since` ISO; `max` the most blocks allowed. */
export const block = script<'blocked' | 'exists' | 'full'>()({
  name: 'boardhostBlock',
  keys: ['blocks'],
  args: ['blocked', 'since', 'max'],
  lua: `
if redis.call('HEXISTS', KEY.blocks, ARG.blocked) == 1 then return 'exists' end
if redis.call('HLEN', KEY.blocks) >= tonumber(ARG.max) then return 'full' end
redis.call('HSET', KEY.blocks, ARG.blocked, ARG.since)
return 'blocked'
`,
});
