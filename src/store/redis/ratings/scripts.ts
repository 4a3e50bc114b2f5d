import { APPEND_TO_FEED, FEED_KEYS, feedKeysLua } from '../feed/scripts';
import { script } from '../script';

// Ratings (docs/data-model.md): an account's ratings, the games they counted and their histories
// live in the account's shard; a leaderboard (perf + category) is a slot of its own.

/**
 * Apply one game's result to one account's rating in a perf, once per game: 'dup' when the game
 * is in the account's applied set; 'conflict' when the perf's rating is no longer at the version
 * the caller computed from (it reads again and retries); else the new rating, the game marked
 * applied, a history entry (the newest RATING_HISTORY_MAX kept) and the `rating.updated` event.
 `ratings`: hash perf → JSON; `rated`: the games applied; `history`: the perf's list (newest
 * first); then the account's feed keys (FEED_KEYS). `expected`: the version read (0: none yet).
 */
export const recordRating = script<'applied' | 'dup' | 'conflict'>()({
  name: 'boardhostRecordRating',
  keys: ['ratings', 'rated', 'history', ...FEED_KEYS],
  args: [
    'game',
    'perf',
    'expected',
    'rating',
    'entry',
    'historyMax',
    'notices',
    'candidate',
    'publish',
    'live',
  ],
  lua: `${APPEND_TO_FEED}
if redis.call('SISMEMBER', KEY.rated, ARG.game) == 1 then return 'dup' end
local current = redis.call('HGET', KEY.ratings, ARG.perf)
local version = 0
if current then version = tonumber(cjson.decode(current).version) end
if version ~= tonumber(ARG.expected) then return 'conflict' end
redis.call('HSET', KEY.ratings, ARG.perf, ARG.rating)
redis.call('SADD', KEY.rated, ARG.game)
redis.call('LPUSH', KEY.history, ARG.entry)
redis.call('LTRIM', KEY.history, 0, tonumber(ARG.historyMax) - 1)
append_to_feed(${feedKeysLua('ARG.live')}, ARG.notices, ARG.candidate, ARG.publish, KEY.hooks, KEY.due)
return 'applied'
`,
});

/**
 * Put an account's rating on a leaderboard (or take it off), unless the board already holds a
 * newer version of it (a late update never overwrites a newer one). `board`: sorted set account →
 * rating; `entries`: hash account → JSON {v, name, rating, rd}; `ranked`: '1' on the board, '0'
 * off. 1 written, 0 stale.
 */
export const rank = script<number>()({
  name: 'boardhostRank',
  keys: ['board', 'entries'],
  args: ['account', 'version', 'ranked', 'rating', 'entry'],
  lua: `
local old = redis.call('HGET', KEY.entries, ARG.account)
if old and tonumber(cjson.decode(old).v) >= tonumber(ARG.version) then return 0 end
redis.call('HSET', KEY.entries, ARG.account, ARG.entry)
if ARG.ranked == '1' then redis.call('ZADD', KEY.board, ARG.rating, ARG.account) else redis.call('ZREM', KEY.board, ARG.account) end
return 1
`,
});

/**
 * A page of a leaderboard, best first: up to `limit` entries from rank `offset` (0-based), as
 * {entry JSON…}, and the board's size. Keys as rank's.
 */
export const readBoard = script<[Array<string | null>, number]>()({
  name: 'boardhostReadBoard',
  keys: ['board', 'entries'],
  args: ['offset', 'limit'],
  lua: `
local offset = tonumber(ARG.offset)
local ids = redis.call('ZREVRANGE', KEY.board, offset, offset + tonumber(ARG.limit) - 1)
local entries = {}
if #ids > 0 then entries = redis.call('HMGET', KEY.entries, unpack(ids)) end
return {entries, redis.call('ZCARD', KEY.board)}
`,
});
