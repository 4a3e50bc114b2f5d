// The account lifecycle (lifecycle.ts) on both stores; test/cluster/apps-lifecycle.test.ts runs it on
// the Redis Cluster.
import { describeLifecycle } from './lifecycle';

describeLifecycle('memory');
describeLifecycle('redis');
