// A Redis Cluster of the tests' own: three masters and three replicas, real `redis-server` processes
// on free loopback ports, joined by `redis-cli --cluster create`. Test files share one per run (the
// jest globalSetup starts it and hands its nodes over in REDIS_CLUSTER_NODES; see sharedClusterNodes);
// a test that kills nodes starts its own.
//
// Outside jest: `node -r @swc-node/register test/support/redis-cluster.ts` starts one, prints
// `REDIS_CLUSTER_NODES=…` and stops it on Ctrl-C, so that repeated runs skip the startup.
import Redis from 'ioredis';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitUntilUp } from './redis-server';

/** A node as `CLUSTER NODES` describes it. */
export interface ClusterNodeInfo {
  readonly id: string;
  /** `127.0.0.1:<port>` */
  readonly address: string;
  readonly port: number;
  readonly role: 'master' | 'replica';
  /** A replica's master. */
  readonly masterId?: string;
  /** Slot ranges served (masters), `[first, last]`. */
  readonly slots: readonly (readonly [number, number])[];
  /** Marked failed (`fail`) or unreachable from the node asked (`fail?`). */
  readonly failing: boolean;
}

export interface KilledMaster {
  readonly port: number;
  /** The replica that takes its slots over. */
  readonly replicaPort: number;
  /** After `holdFailover`: let the replica take over now (`cluster-replica-no-failover no`). */
  releaseFailover(): Promise<void>;
}

export interface OwnCluster {
  /** Every node, masters and replicas, as `127.0.0.1:<port>` (a seed list for clients). */
  readonly nodes: readonly string[];
  /** The masters serving slots now, as a live node sees them. */
  masters(): Promise<ClusterNodeInfo[]>;
  /** Every node as a live node sees it now. */
  topology(): Promise<ClusterNodeInfo[]>;
  /**
   * SIGKILLs the master on `port`. With `holdFailover`, its replica is first told not to take over
   * until `releaseFailover()` (so that a test can see the slots down for as long as it needs).
   */
  killMaster(port: number, options?: { holdFailover?: boolean }): Promise<KilledMaster>;
  /**
   * Resolves once the replica of the last killed master has been promoted and every live node says
   * `cluster_state:ok` with all 16384 slots served.
   */
  waitForFailover(): Promise<void>;
  /**
   * Starts a killed node again (same port, directory and cluster config) and resolves once it has
   * rejoined: a master whose slots were taken over comes back as a replica of the one that took
   * them, and every node is healthy again (its replication link up).
   */
  restartNode(port: number): Promise<void>;
  /**
   * A lossy failover of the master on `port` (what `REDIS_WAIT_REPLICAS=0` allows): its replica is
   * stopped (SIGSTOP) and cut off (`CLIENT KILL TYPE replica` on the master, so nothing queued for it
   * reaches it later), `lost()` writes what the master will lose, the master is SIGKILLed, the
   * replica resumed and promoted at once (`CLUSTER FAILOVER TAKEOVER`). Resolves once every live node
   * serves every slot; answers the promoted replica's port.
   */
  lossyFailover(port: number, lost: () => Promise<void>): Promise<number>;
  /** Kills every node and removes their directories. */
  stop(): Promise<void>;
}

const NODE_TIMEOUT_MS = 2000;
const SLOTS = 16384;

// Whatever happens to the test process, its redis-servers go with it.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

interface OwnNode {
  readonly port: number;
  readonly dir: string;
  /** The cluster bus port (its own free port). */
  readonly busPort: number;
  child?: ChildProcess;
}

/** Starts six nodes, creates the cluster (1 replica per master) and waits until it serves every slot. */
export async function startRedisCluster(): Promise<OwnCluster> {
  const nodes: OwnNode[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => killNode(node)));
    for (const node of nodes) rmSync(node.dir, { recursive: true, force: true });
  };
  try {
    const ports = new Set<number>();
    while (ports.size < 12) ports.add(await freePort());
    const [servicePorts, busPorts] = [[...ports].slice(0, 6), [...ports].slice(6)];
    for (const [i, port] of servicePorts.entries()) {
      const node: OwnNode = {
        port,
        dir: mkdtempSync(join(tmpdir(), 'bh-cluster-')),
        busPort: busPorts[i] as number,
      };
      nodes.push(node);
      node.child = spawnNode(node);
    }
    await Promise.all(nodes.map((node) => waitUntilUp(node.port)));
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    await redisCli(['--cluster', 'create', ...addresses, '--cluster-replicas', '1', '--cluster-yes']);
    await waitForHealthy(nodes.map((node) => node.port));
  } catch (error) {
    await stop();
    throw error;
  }

  const live = () => nodes.filter((node) => node.child).map((node) => node.port);
  const topology = () => readTopology(live());
  let failover: { replicaPort: number } | undefined;
  return {
    nodes: nodes.map((node) => `127.0.0.1:${node.port}`),
    topology,
    masters: async () => (await topology()).filter((n) => n.role === 'master' && n.slots.length > 0),
    killMaster: async (port, options = {}) => {
      const node = nodes.find((n) => n.port === port);
      let replica: ClusterNodeInfo | undefined;
      // Under load a node may flag another as unreachable (fail?) for a moment: ask until it does not.
      await poll(
        `a master with a live replica on ${port}`,
        async () => {
          const all = await topology();
          const master = all.find((n) => n.port === port && n.role === 'master' && !n.failing);
          replica = all.find((n) => n.masterId === master?.id && !n.failing);
          return replica !== undefined || !node?.child;
        },
        10_000,
      );
      if (!replica || !node?.child) throw new Error(`no live master with a replica on ${port}`);
      const { port: replicaPort } = replica;
      const allowFailover = (allowed: boolean) =>
        onNode(replicaPort, (r) =>
          r.call('CONFIG', 'SET', 'cluster-replica-no-failover', allowed ? 'no' : 'yes'),
        );
      if (options.holdFailover) await allowFailover(false);
      failover = { replicaPort };
      await killNode(node);
      return {
        port,
        replicaPort,
        releaseFailover: () => allowFailover(true).then(() => undefined),
      };
    },
    waitForFailover: async () => {
      if (!failover) throw new Error('no master was killed');
      const { replicaPort } = failover;
      await poll('the replica to take over', async () => {
        const promoted = (await readTopology([replicaPort])).find((n) => n.port === replicaPort);
        return promoted?.role === 'master' && promoted.slots.length > 0 && (await healthy(live()));
      });
    },
    restartNode: async (port) => {
      const node = nodes.find((n) => n.port === port);
      if (!node || node.child) throw new Error(`no killed node on ${port}`);
      node.child = spawnNode(node);
      await waitUntilUp(port);
      await waitForHealthy(nodes.map((n) => n.port));
    },
    lossyFailover: async (port, lost) => {
      const node = nodes.find((n) => n.port === port);
      let replica: OwnNode | undefined;
      // A cluster just formed may not list the replica yet (as killMaster): ask until it does.
      await poll(
        `a master with a live replica on ${port}`,
        async () => {
          const all = await topology();
          const master = all.find((n) => n.port === port && n.role === 'master' && !n.failing);
          const listed = all.find((n) => n.masterId === master?.id && !n.failing);
          replica = nodes.find((n) => n.port === listed?.port && n.child);
          return replica !== undefined || !node?.child;
        },
        10_000,
      );
      if (!node?.child || !replica?.child) throw new Error(`no live master with a replica on ${port}`);
      // Everything written so far is on the replica (WAIT answers how many replicas acknowledged).
      await poll('the replica to have every write', () =>
        onNode(port, async (r) => (await r.wait(1, 1000)) >= 1),
      );
      const paused = replica.child;
      paused.kill('SIGSTOP');
      try {
        await onNode(port, (r) => r.call('CLIENT', 'KILL', 'TYPE', 'replica'));
        await lost();
        await killNode(node);
      } finally {
        paused.kill('SIGCONT');
      }
      const promoted = replica;
      await onNode(promoted.port, (r) => r.call('CLUSTER', 'FAILOVER', 'TAKEOVER'));
      await poll('the replica to take over', async () => {
        const now = (await readTopology([promoted.port])).find((n) => n.port === promoted.port);
        return now?.role === 'master' && now.slots.length > 0 && (await healthy(live()));
      });
      return promoted.port;
    },
    stop,
  };
}

/** The shared cluster's seed list: REDIS_CLUSTER_NODES (set by the jest globalSetup, or by you). */
export function sharedClusterNodes(): string[] {
  const nodes = process.env.REDIS_CLUSTER_NODES;
  if (!nodes) {
    throw new Error(
      'REDIS_CLUSTER_NODES is not set: the jest globalSetup (test/support/cluster-setup.ts) starts a ' +
        'cluster when test/cluster is among the tests to run, or start one with ' +
        '`node -r @swc-node/register test/support/redis-cluster.ts`',
    );
  }
  return nodes.split(',').map((node) => node.trim());
}

/** Deletes every key under `prefix` on every master (SCAN per node, one UNLINK per key: keys of different slots). */
/** The ports of the Cluster's masters that hold slots (seeds: `host:port`). */
export async function clusterMasterPorts(seeds: readonly string[]): Promise<number[]> {
  const ports = seeds.map((seed) => Number(seed.split(':').pop()));
  return (await readTopology(ports))
    .filter((n) => n.role === 'master' && n.slots.length > 0)
    .map((n) => n.port);
}

export async function deleteClusterPrefix(seeds: readonly string[], prefix: string): Promise<void> {
  const ports = seeds.map((seed) => Number(seed.split(':').pop()));
  const masters = (await readTopology(ports)).filter((n) => n.role === 'master' && n.slots.length > 0);
  for (const master of masters) {
    await onNode(master.port, async (redis) => {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        await Promise.all(keys.map((key) => redis.unlink(key)));
      } while (cursor !== '0');
    });
  }
}

function spawnNode(node: OwnNode): ChildProcess {
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(node.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      node.dir,
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(node.dir, 'nodes.conf'),
      // The bus port is its own free port (the default, port + 10000, may be taken or out of range).
      '--cluster-port',
      String(node.busPort),
      '--cluster-node-timeout',
      String(NODE_TIMEOUT_MS),
      '--appendonly',
      'no',
      '--save',
      '',
      // Replicas sync at once (diskless sync otherwise waits 5 s for more replicas to join).
      '--repl-diskless-sync-delay',
      '0',
    ],
    { stdio: 'ignore' },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

async function killNode(node: OwnNode): Promise<void> {
  const child = node.child;
  node.child = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

function redisCli(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('redis-cli', args, { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error)
        reject(new Error(`redis-cli ${args.join(' ')} failed: ${error.message}\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}

/** Runs `fn` on a connection of its own to one node (no cluster routing). */
async function onNode<T>(port: number, fn: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(port, '127.0.0.1', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1000,
    commandTimeout: 2000,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

/** `CLUSTER NODES` as the first of `ports` that answers sees it. */
async function readTopology(ports: readonly number[]): Promise<ClusterNodeInfo[]> {
  let lastError: unknown;
  for (const port of ports) {
    try {
      const text = await onNode(port, (r) => r.call('CLUSTER', 'NODES') as Promise<string>);
      return text.trim().split('\n').map(parseNodeLine);
    } catch (error) {
      lastError = error;
    }
  }
  throw new Error(`no cluster node answers on ${ports.join(', ')}`, { cause: lastError });
}

// <id> <ip:port@cport> <flags> <master> <ping-sent> <pong-recv> <config-epoch> <link-state> <slot>...
function parseNodeLine(line: string): ClusterNodeInfo {
  const [id = '', address = '', flags = '', master = '-', , , , , ...slots] = line.split(' ');
  const hostPort = address.split('@')[0] ?? '';
  const flagList = flags.split(',');
  return {
    id,
    address: hostPort,
    port: Number(hostPort.split(':').pop()),
    role: flagList.includes('master') ? 'master' : 'replica',
    ...(master !== '-' ? { masterId: master } : {}),
    slots: slots
      .filter((s) => !s.startsWith('['))
      .map((s) => {
        const [first, last = first] = s.split('-').map(Number) as [number, number?];
        return [first, last] as const;
      }),
    failing: flagList.includes('fail') || flagList.includes('fail?'),
  };
}

/** Every node says the cluster is ok and serves all slots; every replica's link to its master is up. */
async function healthy(ports: readonly number[]): Promise<boolean> {
  const answers = await Promise.all(
    ports.map((port) =>
      onNode(port, async (redis) => {
        const info = (await redis.call('CLUSTER', 'INFO')) as string;
        const replication = await redis.info('replication');
        return (
          info.includes('cluster_state:ok') &&
          info.includes(`cluster_slots_ok:${SLOTS}`) &&
          (replication.includes('role:master') || replication.includes('master_link_status:up'))
        );
      }).catch(() => false),
    ),
  );
  return answers.every(Boolean);
}

async function waitForHealthy(ports: readonly number[]): Promise<void> {
  await poll('the cluster to serve every slot', async () => {
    if (!(await healthy(ports))) return false;
    // And every node knows every other (the gossip has settled).
    const known = await Promise.all(
      ports.map((port) => onNode(port, (r) => r.call('CLUSTER', 'INFO') as Promise<string>)),
    );
    return known.every((info) => info.includes(`cluster_known_nodes:${ports.length}`));
  });
}

async function poll(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

if (require.main === module) {
  const started = Date.now();
  startRedisCluster().then(
    (cluster) => {
      process.stdout.write(
        `cluster up in ${Date.now() - started} ms; Ctrl-C stops it\nREDIS_CLUSTER_NODES=${cluster.nodes.join(',')}\n`,
      );
      const stop = () => void cluster.stop().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (error: unknown) => {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
