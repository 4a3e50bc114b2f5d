// Scripts and commands on a real Redis Cluster, through the client the stores get
// (connectRedisCluster): keys of one hash tag share a slot and a script over them runs on the slot's
// master; keys of two slots are refused with CROSSSLOT, which only a real cluster says.
import type { Cluster } from 'ioredis';
import { connectRedisCluster, type RedisClient } from '../../src/store/redis';
import { createLimiter } from '../../src/store/limiter';
import { uniquePrefix } from '../support/redis';
import { deleteClusterPrefix, sharedClusterNodes } from '../support/redis-cluster';

const nodes = sharedClusterNodes();
const prefix = uniquePrefix('cluster-scripts');
let cluster: Cluster;

// A move in the v2 layout's shape: the game's head and its move list, both under the shard tag.
const MOVE = {
  numberOfKeys: 2,
  lua: `
    redis.call('HSET', KEYS[1], 'head', ARGV[1])
    return redis.call('RPUSH', KEYS[2], ARGV[1])`,
};

interface WithMove {
  testMove(game: string, moves: string, move: string): Promise<number>;
}

/** Defines the script on whichever client it gets: the same call on one Redis and on a Cluster. */
function withMove<C extends RedisClient>(client: C): C & WithMove {
  client.defineCommand('testMove', MOVE);
  return client as C & WithMove;
}

beforeAll(async () => {
  cluster = await connectRedisCluster(nodes);
});
afterAll(async () => {
  await deleteClusterPrefix(nodes, prefix);
  await cluster.quit();
});

/** Shard tags whose slots are served by every master, one each. */
async function tagOnEveryMaster(): Promise<string[]> {
  const byMaster = new Map<string, string>();
  for (let shard = 0; byMaster.size < cluster.nodes('master').length; shard++) {
    const slot = (await cluster.cluster('KEYSLOT', `{s${shard}}`)) as number;
    const master = cluster.slots[slot]?.[0] as string;
    if (!byMaster.has(master)) byMaster.set(master, `{s${shard}}`);
  }
  return [...byMaster.values()];
}

describe('scripts on a Redis Cluster', () => {
  it('run over keys sharing a hash tag, on every master', async () => {
    const client = withMove(cluster);
    const tags = await tagOnEveryMaster();
    expect(tags).toHaveLength(3);
    for (const tag of tags) {
      const [game, moves] = [`${prefix}game:${tag}:g1`, `${prefix}moves:${tag}:g1`];
      expect(await client.testMove(game, moves, 'e2e4')).toBe(1);
      expect(await client.testMove(game, moves, 'e7e5')).toBe(2);
      expect(await client.hget(game, 'head')).toBe('e7e5');
      expect(await client.lrange(moves, 0, -1)).toEqual(['e2e4', 'e7e5']);
    }
  });

  it('are refused when their keys are in two slots: by ioredis, and by the server with CROSSSLOT', async () => {
    const client = withMove(cluster);
    const [a, b] = await tagOnEveryMaster();
    // Two slots (wherever they are served), and two slots of two masters. Auto-pipelining checks
    // the slots of every key before sending.
    const twoSlots = [`${prefix}game:${a}:g2`, `${prefix}moves:{x${a}}:g2`] as const;
    const twoMasters = [`${prefix}game:${a}:g3`, `${prefix}moves:${b}:g3`] as const;
    for (const [game, moves] of [twoSlots, twoMasters]) {
      await expect(client.testMove(game, moves, 'x')).rejects.toThrow(/should belong to the same slot/);
    }
    // Sent anyway, to the master of the first key's slot: the server refuses it.
    const slot = (await cluster.cluster('KEYSLOT', twoSlots[0])) as number;
    expect(await cluster.cluster('KEYSLOT', twoSlots[1])).not.toBe(slot);
    const master = cluster
      .nodes('master')
      .find((n) => `${n.options.host}:${n.options.port}` === cluster.slots[slot]?.[0]);
    for (const [game, moves] of [twoSlots, twoMasters]) {
      await expect(master?.eval(MOVE.lua, 2, game, moves, 'x')).rejects.toThrow(/CROSSSLOT/);
    }
    expect(await client.exists(twoSlots[0])).toBe(0);
    expect(await client.exists(twoMasters[0])).toBe(0);
  });

  it('a write and WAIT in one pipeline go to the slot master, and WAIT counts its replica', async () => {
    const [tag] = await tagOnEveryMaster();
    const replies = await cluster.pipeline().set(`${prefix}w:${tag}`, 'v').wait(1, 2000).exec();
    expect(replies).toEqual([
      [null, 'OK'],
      [null, 1],
    ]);
  });

  it("rate-limiter-flexible's script runs on the cluster (one key per counter)", async () => {
    const limiter = createLimiter({ name: 'cl', points: 2, windowSeconds: 60 }, { client: cluster, prefix });
    expect((await limiter.consume('ip-1')).allowed).toBe(true);
    expect((await limiter.consume('ip-1')).allowed).toBe(true);
    expect(await limiter.consume('ip-1')).toMatchObject({ allowed: false, remaining: 0 });
    expect((await limiter.consume('ip-2')).allowed).toBe(true);
  });
});
