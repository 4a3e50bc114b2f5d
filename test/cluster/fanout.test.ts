// ChannelFanout on a real Redis Cluster: sharded pub/sub (SSUBSCRIBE on each master's own subscriber
// connection, messages of SPUBLISH), flush across every master, and resync after a subscriber
// connection is cut.
import type { Cluster } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { ChannelFanout, connectRedisCluster } from '../../src/store/redis';
import { uniquePrefix } from '../support/redis';
import { sharedClusterNodes } from '../support/redis-cluster';

const nodes = sharedClusterNodes();
const prefix = uniquePrefix('cluster-fanout');
const name = `bh-fanout-${randomBytes(4).toString('hex')}`;
let data: Cluster;
let subscriber: Cluster;
let fanout: ChannelFanout;

beforeAll(async () => {
  data = await connectRedisCluster(nodes);
  subscriber = await connectRedisCluster(nodes, 5000, { connectionName: name }, 'subscriber');
  fanout = new ChannelFanout(subscriber);
});
afterAll(async () => {
  await fanout.close();
  await data.quit();
});

/** The master serving `channel`'s slot, as the data client's connection to it. */
async function masterOf(channel: string) {
  const slot = (await data.cluster('KEYSLOT', channel)) as number;
  const key = data.slots[slot]?.[0];
  const master = data.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === key);
  if (!master) throw new Error(`no master for slot ${slot}`);
  return master;
}

/** One channel per master (shard tags whose slots the masters serve), so every shard is exercised. */
async function channelOnEveryMaster(label: string): Promise<string[]> {
  const byMaster = new Map<string, string>();
  for (let shard = 0; byMaster.size < data.nodes('master').length; shard++) {
    const channel = `${prefix}${label}:{s${shard}}:g`;
    const master = await masterOf(channel);
    const key = `${master.options.host}:${master.options.port}`;
    if (!byMaster.has(key)) byMaster.set(key, channel);
  }
  return [...byMaster.values()];
}

async function shardSubscribers(channel: string): Promise<number> {
  const [, count] = (await (await masterOf(channel)).call('PUBSUB', 'SHARDNUMSUB', channel)) as [
    string,
    number,
  ];
  return count;
}

describe('ChannelFanout on a Redis Cluster', () => {
  it('delivers SPUBLISHed messages of channels on every master, in order, to every listener', async () => {
    const channels = await channelOnEveryMaster('updates');
    expect(channels).toHaveLength(3);
    const received = new Map(channels.map((c) => [c, [] as string[]]));
    const second: string[] = [];
    const leaves = await Promise.all(channels.map((c) => fanout.listen(c, (m) => received.get(c)?.push(m))));
    leaves.push(await fanout.listen(channels[0] as string, (m) => second.push(m)));

    // Sharded subscriptions, one per channel however many listeners, on the channel's own master.
    for (const channel of channels) {
      expect(await shardSubscribers(channel)).toBe(1);
      const [, plain] = (await (await masterOf(channel)).call('PUBSUB', 'NUMSUB', channel)) as [
        string,
        number,
      ];
      expect(plain).toBe(0);
    }
    const sent = Array.from({ length: 20 }, (_, i) => `m${i}`);
    for (const message of sent) await Promise.all(channels.map((c) => data.spublish(c, message)));
    // A plain PUBLISH reaches no sharded subscriber.
    await data.publish(channels[0] as string, 'plain');
    await fanout.flush();
    for (const channel of channels) expect(received.get(channel)).toEqual(sent);
    expect(second).toEqual(sent);

    await Promise.all(leaves.map((leave) => leave()));
    for (const channel of channels) expect(await shardSubscribers(channel)).toBe(0);
    expect(await data.spublish(channels[1] as string, 'late')).toBe(0);
  });

  it('subscribes again after its subscriber connection is cut, then calls onResync', async () => {
    const [channel] = await channelOnEveryMaster('resync');
    const received: string[] = [];
    let resynced!: () => void;
    const resync = new Promise<void>((resolve) => (resynced = resolve));
    const leave = await fanout.listen(
      channel as string,
      (m) => received.push(m),
      () => resynced(),
    );
    await data.spublish(channel as string, 'before');
    await fanout.flush();
    expect(received).toEqual(['before']);

    // Redis closes this process's sharded subscriber connection on the channel's master.
    const master = await masterOf(channel as string);
    const clients = (await master.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
    const ours = clients
      .split('\n')
      .filter((line) => line.includes(` name=ioredis-cluster(ssubscriber):${name} `))
      .map((line) => /\bid=(\d+)/.exec(line)?.[1] as string);
    expect(ours).toHaveLength(1);
    expect(await master.call('CLIENT', 'KILL', 'ID', ours[0] as string)).toBe(1);

    // onResync comes once the channel is subscribed again: what is published from then on arrives.
    await resync;
    expect(await shardSubscribers(channel as string)).toBe(1);
    await data.spublish(channel as string, 'after');
    await fanout.flush();
    expect(received).toEqual(['before', 'after']);
    await leave();
  });

  it('refuses a Cluster client without sharded subscribers', () => {
    expect(() => new ChannelFanout(data)).toThrow(/sharded subscribers/);
  });
});
