import { script } from '../script';

// The chat scripts (chat/store.ts). Every key is the game's (its slot), and so is the channel, so
// each runs on one Redis, Sentinel or Cluster (SPUBLISH there) like the game's own scripts.

/**
 * Numbers a message (INCR of the count), appends it (the draft's JSON with `id` put first), trims
 * the list to the newest `keep`, gives the whole chat (messages, count, mutes) `ttl` ms more, and
 * publishes it. Returns the message JSON.
 */
export const appendChat = script<string>()({
  name: 'boardhostChatAppend',
  keys: ['messages', 'seq', 'mutes'],
  args: ['draft', 'keep', 'ttl', 'publish', 'channel'],
  lua: `
local id = redis.call('INCR', KEY.seq)
local message = '{"id":"' .. id .. '",' .. string.sub(ARG.draft, 2)
redis.call('RPUSH', KEY.messages, message)
redis.call('LTRIM', KEY.messages, -tonumber(ARG.keep), -1)
redis.call('PEXPIRE', KEY.messages, ARG.ttl)
redis.call('PEXPIRE', KEY.seq, ARG.ttl)
redis.call('PEXPIRE', KEY.mutes, ARG.ttl)
redis.call(ARG.publish, ARG.channel, '{"type":"message","message":' .. message .. '}')
return message
`,
});

/**
 * A seat mutes (`muted` '1') or unmutes ('0') the others; the chat's keys get `ttl` ms more. Returns
 * 1 when that changed something (and then publishes it), 0 otherwise.
 */
export const muteChat = script<number>()({
  name: 'boardhostChatMute',
  keys: ['messages', 'seq', 'mutes'],
  args: ['seat', 'muted', 'ttl', 'publish', 'channel'],
  lua: `
local changed
if ARG.muted == '1' then
  changed = redis.call('SADD', KEY.mutes, ARG.seat)
else
  changed = redis.call('SREM', KEY.mutes, ARG.seat)
end
redis.call('PEXPIRE', KEY.mutes, ARG.ttl)
redis.call('PEXPIRE', KEY.messages, ARG.ttl)
redis.call('PEXPIRE', KEY.seq, ARG.ttl)
if changed == 1 then
  local state = 'false'
  if ARG.muted == '1' then state = 'true' end
  redis.call(ARG.publish, ARG.channel, '{"type":"mute","seat":' .. ARG.seat .. ',"muted":' .. state .. '}')
end
return changed
`,
});

/** Removes the messages of `account` from the list, which keeps its TTL. Returns how many went. */
export const forgetChat = script<number>()({
  name: 'boardhostChatForget',
  keys: ['messages'],
  args: ['account'],
  lua: `
local kept = {}
local removed = 0
for _, json in ipairs(redis.call('LRANGE', KEY.messages, 0, -1)) do
  if cjson.decode(json).account == ARG.account then removed = removed + 1 else kept[#kept + 1] = json end
end
if removed == 0 then return 0 end
local ttl = redis.call('PTTL', KEY.messages)
redis.call('DEL', KEY.messages)
if #kept > 0 then
  redis.call('RPUSH', KEY.messages, unpack(kept))
  if ttl > 0 then redis.call('PEXPIRE', KEY.messages, ttl) end
end
return removed
`,
});
