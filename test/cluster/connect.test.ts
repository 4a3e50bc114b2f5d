// connectRedisCluster against real servers: it finds every master from one seed, and fails at once,
// naming the seeds, when no node answers or the node is not part of a cluster.
import { connectRedisCluster, parseClusterNode } from '../../src/store/redis';
import { uniquePrefix } from '../support/redis';
import { deleteClusterPrefix, sharedClusterNodes } from '../support/redis-cluster';
import { freePort, startRedisServer } from '../support/redis-server';

const nodes = sharedClusterNodes();
const prefix = uniquePrefix('cluster-connect');
afterAll(() => deleteClusterPrefix(nodes, prefix));

// Longer than the test's own timeout: a connect that waited for it instead of failing would fail the test.
const PATIENT_MS = 60_000;

describe('connectRedisCluster', () => {
  it('finds every master from one seed, and serves keys of every slot', async () => {
    const cluster = await connectRedisCluster([nodes[0] as string]);
    try {
      expect(cluster.status).toBe('ready');
      expect(cluster.nodes('master')).toHaveLength(3);
      const keys = Array.from({ length: 30 }, (_, i) => `${prefix}k:{s${i}}`);
      await Promise.all(keys.map((key) => cluster.set(key, key)));
      expect(await Promise.all(keys.map((key) => cluster.get(key)))).toEqual(keys);
    } finally {
      await cluster.quit();
    }
  });

  it('fails at once, naming the seeds, when no node answers', async () => {
    const seeds = [`127.0.0.1:${await freePort()}`, `127.0.0.1:${await freePort()}`];
    await expect(connectRedisCluster(seeds, PATIENT_MS)).rejects.toThrow(
      `cannot connect to Redis Cluster at ${seeds.join(',')}: None of startup nodes is available`,
    );
  }, 10_000);

  it('fails at once when the seed is a Redis without cluster support', async () => {
    const single = await startRedisServer();
    try {
      await expect(connectRedisCluster([`127.0.0.1:${single.port}`], PATIENT_MS)).rejects.toThrow(
        /cannot connect to Redis Cluster at 127\.0\.0\.1:\d+: .*cluster support disabled/,
      );
    } finally {
      await single.stop();
    }
  }, 10_000);

  it('reads host:port seeds, IPv6 in brackets, and refuses anything else', () => {
    expect(parseClusterNode('redis-1:6379')).toEqual({ host: 'redis-1', port: 6379 });
    expect(parseClusterNode('[::1]:7000')).toEqual({ host: '::1', port: 7000 });
    for (const bad of ['redis-1', 'redis://a:6379', 'a:0', 'a:65536', ':6379', 'a b:1']) {
      expect(() => parseClusterNode(bad)).toThrow(/is not host:port/);
    }
  });
});
