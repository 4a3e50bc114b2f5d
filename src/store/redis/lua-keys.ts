import { LISTING_SUFFIX, SHARD_KEY_NAMES, TAGGED_KEY_NAMES } from './keys';

// The Lua copies of keys.ts's builders, for the keys a script must derive itself: a shard's
// listings by the kind and status it meets, or the keys of an endpoint or account it finds in a
// shard's due set. Generated from keys.ts's names, so there is one spelling of each key;
// test/store/lua-keys.test.ts runs them on Redis against Keys. Every other key a script touches
// is built by Keys and declared in the script's KEYS.

const lua = (text: string) => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;

/**
 * Lua: `shard_keys(p, tag)`, the keys of a shard (`p` the prefix, `tag` its `{s<n>}`) as Keys
 * builds them: {listings, deadlines, reminders, outbox, listingSeq}; and `listing_key(pt, kind,
 * status)` (nil for either: Keys.shardListing).
 */
export const SHARD_KEYS_LUA = `
local function shard_keys(p, tag)
  return { ${Object.entries(SHARD_KEY_NAMES)
    .map(([field, name]) => `${field} = p .. ${lua(`${name}:`)} .. tag`)
    .join(', ')} }
end
local function listing_key(pt, kind, status)
  if kind == nil and status == nil then return pt.listings .. ${lua(LISTING_SUFFIX.all)} end
  local key = pt.listings
  if kind ~= nil then key = key .. ${lua(LISTING_SUFFIX.kind)} .. kind end
  if status ~= nil then key = key .. ${lua(LISTING_SUFFIX.status)} .. status end
  return key
end
`;

/**
 * Lua: `tagged_keys(p, tag, id)`, the keys of an id in shard `tag` as Keys builds them:
 * {feedSeq, feedEpoch, webhook} (an account's feed seq and epoch, or an endpoint of it).
 */
export const TAGGED_KEYS_LUA = `
local function tagged_key(p, name, tag, id) return p .. name .. ':' .. tag .. ':' .. id end
${Object.entries(TAGGED_KEY_NAMES)
  .map(
    ([field, name]) =>
      `local function ${field}_key(p, tag, id) return tagged_key(p, ${lua(name)}, tag, id) end`,
  )
  .join('\n')}
`;
