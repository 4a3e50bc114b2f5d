// The Lua key builders (src/store/redis/lua-keys.ts) against keys.ts's: the keys a script derives
// itself must be the ones Keys builds, or a script would write where no reader looks.
import { GAME_STATUSES } from '../../src/store/store';
import { connectRedis } from '../../src/store/redis';
import { Keys, shardOf, shardTag } from '../../src/store/redis/keys';
import { SHARD_KEYS_LUA, TAGGED_KEYS_LUA } from '../../src/store/redis/lua-keys';
import { REDIS_URL } from '../support/redis';

const PREFIX = 'bh:test:';
const keys = new Keys(PREFIX);

/** Runs `body` after the builders, with ARGV; answers what it returns. Touches no key. */
async function lua(body: string, ...args: string[]): Promise<unknown> {
  const redis = await connectRedis(REDIS_URL);
  try {
    return await redis.eval(`${SHARD_KEYS_LUA}${TAGGED_KEYS_LUA}\n${body}`, 0, ...args);
  } finally {
    redis.disconnect();
  }
}

describe('the Lua key builders', () => {
  it("build a shard's keys as Keys does", async () => {
    for (const shard of [0, 7, 255]) {
      const built = await lua(
        `local pt = shard_keys(ARGV[1], ARGV[2])
return {pt.deadlines, pt.reminders, pt.outbox, pt.listingSeq}`,
        PREFIX,
        shardTag(shard),
      );
      expect(built).toEqual([
        keys.deadlines(shard),
        keys.reminders(shard),
        keys.outbox(shard),
        keys.listingSeq(shard),
      ]);
    }
  });

  it("build a shard's listings by kind and status as Keys.shardListing does", async () => {
    const shard = 42;
    const cases: Array<[string | undefined, string | undefined]> = [[undefined, undefined]];
    for (const kind of ['kalah', 'chess']) {
      cases.push([kind, undefined]);
      for (const status of GAME_STATUSES) cases.push([kind, status], [undefined, status]);
    }
    const built = await lua(
      `local pt = shard_keys(ARGV[1], ARGV[2])
local out = {}
for i = 3, #ARGV, 2 do
  local kind, status = ARGV[i], ARGV[i + 1]
  if kind == '' then kind = nil end
  if status == '' then status = nil end
  out[#out + 1] = listing_key(pt, kind, status)
end
return out`,
      PREFIX,
      shardTag(shard),
      ...cases.flatMap(([kind, status]) => [kind ?? '', status ?? '']),
    );
    expect(built).toEqual(cases.map(([kind, status]) => keys.shardListing(shard, kind, status)));
  });

  it("build an account's feed keys and an endpoint's key as Keys does", async () => {
    for (const account of ['ann', 'a1b2c3d4e5f6', 'Zed_99']) {
      const tag = shardTag(shardOf(account));
      const built = await lua(
        `return {feedSeq_key(ARGV[1], ARGV[2], ARGV[3]), feedEpoch_key(ARGV[1], ARGV[2], ARGV[3]),
  webhook_key(ARGV[1], ARGV[2], ARGV[4])}`,
        PREFIX,
        tag,
        account,
        'w1',
      );
      expect(built).toEqual([keys.feedSeq(account), keys.feedEpoch(account), keys.webhook(account, 'w1')]);
    }
  });
});
