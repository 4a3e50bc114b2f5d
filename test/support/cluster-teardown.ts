// jest globalTeardown: stops the cluster globalSetup started (none if REDIS_CLUSTER_NODES was given).
import { sharedClusterHandle } from './cluster-setup';

export default async function globalTeardown(): Promise<void> {
  const cluster = sharedClusterHandle.boardhostCluster;
  sharedClusterHandle.boardhostCluster = undefined;
  await cluster?.stop();
}
