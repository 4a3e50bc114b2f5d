// The isolation table (isolation-table.ts) on both stores; test/cluster/apps-isolation.test.ts runs
// it on the Redis Cluster.
import { describeIsolationTable } from './isolation-table';

describeIsolationTable('memory', (harness) => harness.start('memory'));
describeIsolationTable('redis', (harness) => harness.start('redis'));
