// Seed nodes of a Redis Cluster as REDIS_CLUSTER_NODES lists them (no dependencies: config.ts reads it).

/** `host:port` (`[v6]:port` for IPv6) as ioredis' cluster node; throws on anything else. */
export function parseClusterNode(node: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(node.trim());
  const port = Number(match?.[3]);
  if (!match || port < 1 || port > 65535) throw new Error(`"${node}" is not host:port`);
  return { host: (match[1] ?? match[2]) as string, port };
}
