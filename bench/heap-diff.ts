// What the objects new in a heap snapshot hold, per connection: `node -r @swc-node/register
// bench/heap-diff.ts <before.heapsnapshot> <after.heapsnapshot> <connections> [rows]`, with the two
// snapshots from one server process (BENCH_HEAP_SNAPSHOTS in bench/connections.ts writes them before
// and after opening the connections; V8 keeps an object's id from one snapshot to the next). Nodes
// of the second snapshot whose ids the first lacks are grouped by their type and name, the edge that
// holds them and its holder (and that holder's holder), and listed by bytes per connection: which
// object, closure context or array each connection keeps, and for whom.
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[]];
      edge_fields: string[];
      edge_types: [string[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const load = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Snapshot;

function newNodes(beforeFile: string, afterFile: string, connections: number, rows: number): string[] {
  const before = load(beforeFile);
  const after = load(afterFile);
  const meta = after.snapshot.meta;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const field = (name: string) => meta.node_fields.indexOf(name);
  const [typeAt, nameAt, idAt, sizeAt, edgesAt] = ['type', 'name', 'id', 'self_size', 'edge_count'].map(
    field,
  );
  const edgeType = meta.edge_fields.indexOf('type');
  const edgeName = meta.edge_fields.indexOf('name_or_index');
  const edgeTo = meta.edge_fields.indexOf('to_node');
  const { nodes, edges, strings } = after;
  const count = nodes.length / nf;
  const oldIds = new Set<number>();
  for (let i = 0; i < before.nodes.length; i += nf) oldIds.add(before.nodes[i + idAt!]!);
  const isNew = (k: number) => !oldIds.has(nodes[k * nf + idAt!]!);
  // Each node's holder: a new one when it has one (what a connection's objects hang from).
  const holder = new Int32Array(count).fill(-1);
  const holderEdge = new Int32Array(count).fill(-1);
  for (let k = 0, e = 0; k < count; k++) {
    for (let j = 0; j < nodes[k * nf + edgesAt!]!; j++, e += ef) {
      if (meta.edge_types[0][edges[e + edgeType]!] === 'weak') continue;
      const to = edges[e + edgeTo]! / nf;
      if (holder[to] === -1 || (!isNew(holder[to]!) && isNew(k))) {
        holder[to] = k;
        holderEdge[to] = e;
      }
    }
  }
  const nameOf = (k: number) => {
    const type = meta.node_types[0][nodes[k * nf + typeAt!]!]!;
    const name = strings[nodes[k * nf + nameAt!]!]!;
    return `${type}:${type.includes('string') ? JSON.stringify(name.slice(0, 40)) : name.slice(0, 60)}`;
  };
  const edgeOf = (e: number) => {
    const type = meta.edge_types[0][edges[e + edgeType]!];
    const name = edges[e + edgeName]!;
    return type === 'element' || type === 'hidden' ? `[${name}]` : strings[name];
  };
  const groups = new Map<string, { count: number; bytes: number }>();
  let total = 0;
  for (let k = 0; k < count; k++) {
    if (!isNew(k)) continue;
    let key = nameOf(k);
    for (let at = k, depth = 0; depth < 2 && holder[at]! >= 0; depth++, at = holder[at]!) {
      key += `  <-${edgeOf(holderEdge[at]!)}- ${nameOf(holder[at]!)}`;
    }
    const group = groups.get(key) ?? { count: 0, bytes: 0 };
    group.count++;
    group.bytes += nodes[k * nf + sizeAt!]!;
    total += nodes[k * nf + sizeAt!]!;
    groups.set(key, group);
  }
  const lines = [...groups]
    .filter(([, g]) => g.count >= connections / 2)
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, rows)
    .map(
      ([key, g]) =>
        `${(g.bytes / connections).toFixed(0).padStart(6)} B ${(g.count / connections).toFixed(2).padStart(5)}×  ${key}`,
    );
  lines.push(`${(total / connections).toFixed(0)} B per connection in new objects`);
  return lines;
}

const [beforeFile, afterFile, connections, rows] = process.argv.slice(2);
if (!beforeFile || !afterFile || !connections) {
  console.error('usage: heap-diff.ts <before.heapsnapshot> <after.heapsnapshot> <connections> [rows]');
  process.exit(2);
}
console.log(newNodes(beforeFile, afterFile, Number(connections), Number(rows ?? 60)).join('\n'));
