// The store contract (test/store/store-contract.ts) on a real Redis Cluster: three masters with a
// replica each, started by the test setup. Every script must touch one hash slot for this to pass.
import { createRedisStorage } from '../../src/store/redis';
import { uniquePrefix } from '../support/redis';
import { deleteClusterPrefix, sharedClusterNodes } from '../support/redis-cluster';
import { describeStoreContract } from '../store/store-contract';

const nodes = sharedClusterNodes();
const prefixes: string[] = [];
afterAll(() => Promise.all(prefixes.map((p) => deleteClusterPrefix(nodes, p))));

describeStoreContract('redis cluster', () => {
  const prefix = uniquePrefix('cluster-store');
  prefixes.push(prefix);
  return createRedisStorage({ clusterNodes: nodes }, prefix);
});
