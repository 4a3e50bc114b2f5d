// The isolation table of apps (test/apps/isolation-table.ts) on a real Redis Cluster: every REST
// operation and GraphQL root field, as app A, against app B's objects, with B's state unchanged.
import { createRedisStorage } from '../../src/store/redis';
import { describeIsolationTable } from '../apps/isolation-table';
import { uniquePrefix } from '../support/redis';
import { deleteClusterPrefix, sharedClusterNodes } from '../support/redis-cluster';

const nodes = sharedClusterNodes();
const prefix = uniquePrefix('cluster-isolation');
afterAll(() => deleteClusterPrefix(nodes, prefix));

describeIsolationTable('redis cluster', async (harness) =>
  harness.start('redis', { storage: await createRedisStorage({ clusterNodes: nodes }, prefix) }),
);
