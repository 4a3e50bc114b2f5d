import { TOURNAMENT_STATUSES } from '../../ports/tournaments';
import { MEMBERS_ENTRY_SNIPPET } from '../challenges/scripts';
import { GAME_INDEXES_SNIPPET } from '../games/scripts';
import { script } from '../script';

// The tournament scripts (the store is store.ts): a tournament's doc and its shard's
// listings (`all`, and one per status) live in the shard of its id.

/** A new tournament, listed in `all` and in its status's listing (`listing`). 0 when it exists. */
export const createTournament = script<number>()({
  name: 'boardhostCreateTournament',
  keys: ['doc', 'all', 'listing'],
  args: ['json', 'version', 'status', 'seq', 'id'],
  lua: `
if redis.call('EXISTS', KEY.doc) == 1 then return 0 end
redis.call('HSET', KEY.doc, 'doc', ARG.json, 'version', ARG.version, 'status', ARG.status, 'seq', ARG.seq)
redis.call('ZADD', KEY.all, ARG.seq, ARG.id)
redis.call('ZADD', KEY.listing, ARG.seq, ARG.id)
return 1
`,
});

/**
 * Compare-and-set on version, moving the tournament between its status listings (one key per
 * status, named after it), and its outbox entry (the rest: its fields; none: no notices). `prefix`
 * and `tag` (the shard's) for shard_keys. Returns {'updated', outbox entry id, befores},
 * {'conflict', version} or {'missing'}.
 */
export const updateTournament = script<[string, string?, string?]>()({
  name: 'boardhostUpdateTournament',
  keys: ['doc', 'all', ...TOURNAMENT_STATUSES],
  args: ['expected', 'json', 'version', 'status', 'id', 'prefix', 'tag'],
  rest: true,
  lua: `${GAME_INDEXES_SNIPPET}${MEMBERS_ENTRY_SNIPPET}
local current = redis.call('HGET', KEY.doc, 'version')
if not current then return {'missing'} end
if current ~= ARG.expected then return {'conflict', current} end
local old = redis.call('HGET', KEY.doc, 'status')
local seq = redis.call('HGET', KEY.doc, 'seq')
redis.call('HSET', KEY.doc, 'doc', ARG.json, 'version', ARG.version, 'status', ARG.status)
if old ~= ARG.status then
  local listings = {${TOURNAMENT_STATUSES.map((s) => `${s} = KEY.${s}`).join(', ')}}
  for s, listing in pairs(listings) do
    if s == old then redis.call('ZREM', listing, ARG.id) end
    if s == ARG.status then redis.call('ZADD', listing, seq, ARG.id) end
  end
end
local fields = {}
for i = REST, #ARGV do fields[#fields + 1] = ARGV[i] end
local entry, befores = members_entry(shard_keys(ARG.prefix, ARG.tag), KEY.doc, fields)
return {'updated', entry, befores}
`,
});

/**
 * The ids due at `now` in the due index, most overdue first, each put back at `retryAt` (after every
 * other one due now) so that sweeps go round them.
 */
export const dueTournaments = script<string[]>()({
  name: 'boardhostDueTournaments',
  keys: ['due'],
  args: ['now', 'limit', 'retryAt'],
  lua: `
local ids = redis.call('ZRANGEBYSCORE', KEY.due, '-inf', ARG.now, 'LIMIT', 0, tonumber(ARG.limit))
for _, id in ipairs(ids) do redis.call('ZADD', KEY.due, ARG.retryAt, id) end
return ids
`,
});
