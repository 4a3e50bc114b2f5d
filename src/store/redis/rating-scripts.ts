import { APPEND_TO_FEED } from './feed-scripts';

// Ratings (docs/data-model.md): an account's ratings, the games they counted and their histories
// live in the account's shard; a leaderboard (perf + category) is a slot of its own.

/**
 * Apply one game's result to one account's rating in a perf, once per game: 'dup' when the game
 * is in the account's applied set; 'conflict' when the perf's rating is no longer at the version
 * the caller computed from (it reads again and retries); else the new rating, the game marked
 * applied, a history entry (the newest RATING_HISTORY_MAX kept) and the `rating.updated` event.
 * KEYS[1] ratings hash (perf → JSON), KEYS[2] applied set (game ids), KEYS[3] the perf's history
 * list (newest first); ARGV: game, perf, expected version (0: none yet), new rating JSON, history
 * entry JSON, history max, then append_to_feed's: prefix, account, notices, epoch candidate,
 * publish command, the account's webhook set, the webhook due set.
 */
const RECORD_RATING_SCRIPT = `${APPEND_TO_FEED}
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 'dup' end
local current = redis.call('HGET', KEYS[1], ARGV[2])
local version = 0
if current then version = tonumber(cjson.decode(current).version) end
if version ~= tonumber(ARGV[3]) then return 'conflict' end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[4])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('LPUSH', KEYS[3], ARGV[5])
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[6]) - 1)
append_to_feed(ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11], ARGV[12], ARGV[13])
return 'applied'
`;

/**
 * Put an account's rating on a leaderboard (or take it off), unless the board already holds a
 * newer version of it (a late update never overwrites a newer one). KEYS[1] the board (sorted
 * set: account → rating), KEYS[2] its entries (hash: account → JSON {v, name, rating, rd});
 * ARGV: account, version, ranked ('1' on the board, '0' off), rating, entry JSON. 1 written, 0 stale.
 */
const RANK_SCRIPT = `
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old and tonumber(cjson.decode(old).v) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[5])
if ARGV[3] == '1' then redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1]) else redis.call('ZREM', KEYS[1], ARGV[1]) end
return 1
`;

/**
 * A page of a leaderboard, best first: up to ARGV[2] entries from rank ARGV[1] (0-based), as
 * {entry JSON…}, and the board's size. KEYS as RANK_SCRIPT.
 */
const READ_BOARD_SCRIPT = `
local offset = tonumber(ARGV[1])
local ids = redis.call('ZREVRANGE', KEYS[1], offset, offset + tonumber(ARGV[2]) - 1)
local entries = {}
if #ids > 0 then entries = redis.call('HMGET', KEYS[2], unpack(ids)) end
return {entries, redis.call('ZCARD', KEYS[1])}
`;

export const RATING_SCRIPTS = {
  boardhostRecordRating: { numberOfKeys: 3, lua: RECORD_RATING_SCRIPT },
  boardhostRank: { numberOfKeys: 2, lua: RANK_SCRIPT },
  boardhostReadBoard: { numberOfKeys: 2, lua: READ_BOARD_SCRIPT },
} as const;
