// jest globalSetup: one Redis Cluster for the whole run, started only when a test of test/cluster/
// is among the tests to run, and handed to them (and their workers) in REDIS_CLUSTER_NODES.
// A REDIS_CLUSTER_NODES already set names a cluster to use instead; nothing is started then.
import type { GlobalConfig } from 'jest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startRedisCluster, type OwnCluster } from './redis-cluster';

export const CLUSTER_TESTS = join(__dirname, '..', 'cluster');

/** The handle globalTeardown stops (globalSetup and globalTeardown share this process's globals). */
export const sharedClusterHandle = globalThis as { boardhostCluster?: OwnCluster };

export default async function globalSetup(globalConfig: GlobalConfig): Promise<void> {
  if (process.env.REDIS_CLUSTER_NODES || !runsClusterTests(globalConfig)) return;
  const started = Date.now();
  const cluster = await startRedisCluster();
  sharedClusterHandle.boardhostCluster = cluster;
  process.env.REDIS_CLUSTER_NODES = cluster.nodes.join(',');
  if (globalConfig.verbose) process.stdout.write(`\nRedis Cluster up in ${Date.now() - started} ms\n`);
}

/** Whether the path patterns on the command line (if any) select a file of test/cluster/. */
function runsClusterTests(globalConfig: GlobalConfig): boolean {
  if (!existsSync(CLUSTER_TESTS)) return false;
  const patterns = globalConfig.testPathPatterns;
  if (!patterns.isSet()) return true;
  const matches = patterns.toExecutor({ rootDir: globalConfig.rootDir });
  return readdirSync(CLUSTER_TESTS)
    .filter((file) => file.endsWith('.test.ts'))
    .some((file) => matches.isMatch(join(CLUSTER_TESTS, file)));
}
