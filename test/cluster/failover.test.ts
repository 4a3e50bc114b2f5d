// A master dies: commands to its slots fail fast (the command timeout, not the failover, bounds
// them), then succeed once its replica has been promoted, with what was written before (WAIT made
// sure the replica had it); the sharded subscriber of those slots moves to the new master and
// listeners are told to resync. And a slot moved to another master (a resharding) takes its
// channels' subscriptions along, with a resync. On a cluster of the test's own: it kills a node.
import type { Cluster } from 'ioredis';
import { toGameError } from '../../src/service/errors';
import { ChannelFanout, connectRedisCluster } from '../../src/store/redis';
import { startRedisCluster, type OwnCluster } from '../support/redis-cluster';

let own: OwnCluster;
let client: Cluster;
let fanout: ChannelFanout;

beforeAll(async () => {
  own = await startRedisCluster();
  client = await connectRedisCluster(own.nodes, 5000, { commandTimeoutMs: 500 });
  fanout = new ChannelFanout(
    await connectRedisCluster(own.nodes, 5000, { commandTimeoutMs: 500 }, 'subscriber'),
  );
}, 60_000);
afterAll(async () => {
  await fanout?.close();
  await client?.quit();
  await own?.stop();
});

/** A name under a shard tag whose slot the master on `port` serves (and, if asked, holds no key). */
async function keyServedBy(port: number, name: string, emptySlot = false): Promise<string> {
  const master = (await own.masters()).find((m) => m.port === port);
  for (let shard = 0; ; shard++) {
    const key = `${name}:{s${shard}}`;
    const slot = (await client.cluster('KEYSLOT', key)) as number;
    if (!master?.slots.some(([first, last]) => slot >= first && slot <= last)) continue;
    if (!emptySlot) return key;
    // Asked of that master itself: another node counts 0 for a slot it does not serve.
    const node = client.nodes('master').find((n) => n.options.port === port);
    if ((await node?.call('CLUSTER', 'COUNTKEYSINSLOT', slot)) === 0) return key;
  }
}

it('fails commands to a dead master fast, then serves its slots from the promoted replica', async () => {
  const [victim] = await own.masters();
  if (!victim) throw new Error('no master');
  const key = await keyServedBy(victim.port, 'game');
  const channel = await keyServedBy(victim.port, 'updates');
  // Acknowledged by the replica too, so the promoted replica has it. A cluster just formed may still
  // be syncing its replica: write until the replica acknowledges (WAIT answers how many did).
  let acked = 0;
  for (const end = Date.now() + 20_000; acked < 1 && Date.now() < end;) {
    const [set, wait] = (await client.pipeline().set(key, 'before').wait(1, 300).exec()) ?? [];
    expect(set).toEqual([null, 'OK']);
    acked = wait?.[0] ? 0 : Number(wait?.[1] ?? 0);
  }
  expect(acked).toBe(1);
  const received: string[] = [];
  let resynced!: () => void;
  const resync = new Promise<void>((resolve) => (resynced = resolve));
  await fanout.listen(
    channel,
    (m) => received.push(m),
    () => resynced(),
  );

  // The replica is held back until released, so the slots stay down for as long as this takes.
  const killed = await own.killMaster(victim.port, { holdFailover: true });
  // Each fails (ioredis retries for about commandTimeout, then gives up), as a store outage: 503.
  for (let i = 0; i < 3; i++) {
    const failure = await client.get(key).then(
      (answer) => new Error(`answered ${answer}`),
      (error: unknown) => error,
    );
    expect(toGameError(failure)).toMatchObject({ code: 'STORE_UNAVAILABLE' });
  }

  await killed.releaseFailover();
  await own.waitForFailover();
  // The client learns the new master on its next MOVED/failed attempt or slots refresh.
  let value: string | null = null;
  for (let attempt = 0; value === null; attempt++) {
    value = await client.get(key).catch((error: Error) => {
      if (attempt >= 20) throw error;
      return null;
    });
  }
  expect(value).toBe('before');
  expect(await client.set(key, 'after')).toBe('OK');

  // The listener hears from the new master once its subscription is back.
  await resync;
  await client.spublish(channel, 'on the new master');
  await fanout.flush();
  expect(received).toEqual(['on the new master']);
}, 60_000);

it('moves a channel to the master its slot moves to, and tells listeners to resync', async () => {
  const [from, to] = await own.masters();
  if (!from || !to) throw new Error('two masters needed');
  // A slot without keys (the first test's key may sit in the first shard this master serves: after
  // its failover the promoted replica can be listed first), so that it can move without MIGRATE.
  const channel = await keyServedBy(from.port, 'moving', true);
  const slot = (await client.cluster('KEYSLOT', channel)) as number;
  const received: string[] = [];
  let resynced!: () => void;
  const resync = new Promise<void>((resolve) => (resynced = resolve));
  await fanout.listen(
    channel,
    (m) => received.push(m),
    () => resynced(),
  );

  // The slot holds no key: it moves at once (a resharding tool would MIGRATE its keys in between).
  const onNode = (port: number) => client.nodes('master').find((n) => n.options.port === port);
  await onNode(to.port)?.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', from.id);
  await onNode(from.port)?.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', to.id);
  for (const master of [to, from]) await onNode(master.port)?.call('CLUSTER', 'SETSLOT', slot, 'NODE', to.id);

  await resync;
  expect(await client.spublish(channel, 'on the new master')).toBe(1);
  await fanout.flush();
  expect(received).toEqual(['on the new master']);
}, 30_000);
