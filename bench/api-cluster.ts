// `BENCH_CLUSTER=1 npm run bench -- api` (or with REDIS_CLUSTER_NODES set): moves/s on a Redis
// Cluster against one Redis. Three setups, each under the same REST submitMove load (Prefer:
// return=minimal, real legal Kalah moves, see api-load.ts), run back to back within each run:
//
// - `one Redis, 1 node`: one built server (dist/main.js) on REDIS_URL;
// - `cluster, 1 node`: one server on the cluster (what the cluster's routing and sharded fan-out cost);
// - `cluster, N nodes`: BENCH_NODES servers (default 3) on the cluster, the connections split evenly
//   over them (one autocannon per node, at the same time). Its moves/s is the sum over the nodes,
//   its p50/p99 the worst node's.
//
// BENCH_CLUSTER=1 starts a cluster of the bench's own (three masters with a replica each, see
// test/support/redis-cluster.ts) and stops it at the end; REDIS_CLUSTER_NODES uses yours.
// Env as api.ts: BENCH_SECONDS, BENCH_RUNS, BENCH_WARMUP, BENCH_CONNECTIONS (here default 100),
// BENCH_SKIP_BUILD, BENCH_NODES, REDIS_WAIT_REPLICAS (passed to the cluster's nodes; default 0).
import { deletePrefix, REDIS_URL } from '../test/support/redis';
import { deleteClusterPrefix, startRedisCluster, type OwnCluster } from '../test/support/redis-cluster';
import { GamePool, runOnce, type RunResult } from './api-load';
import {
  benchPrefix,
  buildServer,
  envList,
  median,
  serverEnv,
  startServer,
  stopChild,
  table,
  type Child,
} from './support';

interface Setup {
  readonly label: string;
  readonly nodes: readonly Child[];
  readonly pools: readonly GamePool[];
}

/** One run of a setup: the connections split over its nodes, all at once. */
interface SetupResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly failures: number;
  readonly perNode: readonly number[];
}

async function runSetup(
  setup: Setup,
  connections: number,
  seconds: number,
  run: number,
  seen: Map<string, number>,
): Promise<SetupResult> {
  const share = Math.max(1, Math.floor(connections / setup.nodes.length));
  const rate = (seen.get(setup.label) ?? 3000) / setup.nodes.length;
  await Promise.all(
    setup.pools.map((pool) => pool.fill(Math.ceil(((rate * seconds) / pool.averagePlies) * 1.5) + 2 * share)),
  );
  const results: RunResult[] = await Promise.all(
    setup.nodes.map((node, i) => runOnce('rest', share, seconds, node.base, setup.pools[i], run)),
  );
  return {
    rps: results.reduce((sum, r) => sum + r.rps, 0),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    failures: results.reduce((sum, r) => sum + r.failures, 0),
    perNode: results.map((r) => r.rps),
  };
}

export async function runClusterBench(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const warmup = Number(process.env.BENCH_WARMUP ?? 1);
  const connectionCounts = envList('BENCH_CONNECTIONS', ['100']).map(Number);
  const nodeCount = Number(process.env.BENCH_NODES ?? 3);
  const waitReplicas = process.env.REDIS_WAIT_REPLICAS ?? '0';
  const prefix = benchPrefix('cluster');

  buildServer();
  let own: OwnCluster | undefined;
  const children: Child[] = [];
  let seeds: string[] = [];
  try {
    if (process.env.REDIS_CLUSTER_NODES) {
      seeds = process.env.REDIS_CLUSTER_NODES.split(',').map((n) => n.trim());
    } else {
      console.log('starting a Redis Cluster (3 masters, 3 replicas)…');
      own = await startRedisCluster();
      seeds = [...own.nodes];
    }
    const single = await startServer('server (one Redis)', serverEnv(REDIS_URL, prefix));
    children.push(single);
    const clusterEnv = {
      ...serverEnv('', prefix),
      REDIS_CLUSTER_NODES: seeds.join(','),
      REDIS_WAIT_REPLICAS: waitReplicas,
    };
    const clusterNodes: Child[] = [];
    for (let i = 0; i < nodeCount; i++) {
      const node = await startServer(`server ${i + 1} (cluster)`, clusterEnv);
      children.push(node);
      clusterNodes.push(node);
    }
    const poolOf = (node: Child) => new GamePool(node.base);
    const setups: Setup[] = [
      { label: 'one Redis, 1 node', nodes: [single], pools: [poolOf(single)] },
      { label: 'cluster, 1 node', nodes: [clusterNodes[0]!], pools: [poolOf(clusterNodes[0]!)] },
      { label: `cluster, ${nodeCount} nodes`, nodes: clusterNodes, pools: clusterNodes.map(poolOf) },
    ];
    console.log(
      `cluster bench: REST submitMove (minimal answer) × ${connectionCounts.join('/')} connections, ` +
        `${runs} run(s) of ${seconds} s; one Redis ${REDIS_URL}; cluster ${seeds.join(',')} ` +
        `(REDIS_WAIT_REPLICAS=${waitReplicas}); prefix ${prefix}`,
    );
    const seen = new Map<string, number>();
    if (warmup > 0) {
      for (const setup of setups) {
        const r = await runSetup(setup, Math.max(...connectionCounts), warmup, 0, seen);
        seen.set(setup.label, r.rps);
        console.log(`  warm-up ${setup.label}: ${r.rps.toFixed(0)} moves/s`);
      }
    }
    const results: Array<SetupResult & { label: string; connections: number; run: number }> = [];
    for (let run = 1; run <= runs; run++) {
      for (const connections of connectionCounts) {
        for (const setup of setups) {
          const r = await runSetup(setup, connections, seconds, run, seen);
          seen.set(setup.label, Math.max(seen.get(setup.label) ?? 0, r.rps));
          results.push({ ...r, label: setup.label, connections, run });
          console.log(
            `  run ${run} ${setup.label} c=${connections}: ${r.rps.toFixed(0)} moves/s ` +
              `(per node ${r.perNode.map((v) => v.toFixed(0)).join(' + ')}), p50 ${r.p50} ms, p99 ${r.p99} ms, ` +
              `failures ${r.failures}`,
          );
        }
      }
    }
    const rows: string[][] = [['setup', 'conns', 'moves/s (median)', 'runs', 'p50 ms', 'p99 ms', 'failures']];
    for (const setup of setups) {
      for (const connections of connectionCounts) {
        const mine = results.filter((r) => r.label === setup.label && r.connections === connections);
        rows.push([
          setup.label,
          String(connections),
          median(mine.map((r) => r.rps)).toFixed(0),
          mine.map((r) => r.rps.toFixed(0)).join(' / '),
          median(mine.map((r) => r.p50)).toFixed(1),
          median(mine.map((r) => r.p99)).toFixed(1),
          String(mine.reduce((n, r) => n + r.failures, 0)),
        ]);
      }
    }
    console.log(`\n${table(rows)}\n`);
    console.log(
      'moves/s: accepted moves per second, summed over the nodes; p50/p99: the worst node’s, median over runs. ' +
        'Everything (Redis nodes, API nodes, load generator) shares this machine’s cores.',
    );
    const failures = results.reduce((n, r) => n + r.failures, 0);
    if (failures > 0) throw new Error(`${failures} failed requests`);
  } finally {
    await Promise.all(children.map((child) => stopChild(child)));
    await deletePrefix(prefix);
    if (own) await own.stop();
    else if (seeds.length > 0) await deleteClusterPrefix(seeds, prefix);
    console.log(
      `cleanup: stopped children${own ? ' and the cluster' : ''}, deleted the keys under ${prefix}`,
    );
  }
}
