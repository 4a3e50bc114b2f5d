// The built-in AI's search: speed, strength ladder, and Kalah solved from the start.
//   npm run bench -- ai [speed|ladder|kalah]…   (default: all three)
// Env: AI_BENCH_KINDS (comma list, default all), AI_BENCH_MS (speed: ms per search, default 1000),
// ladder: bench/ladder.ts (its own AI_BENCH_* settings), AI_BENCH_KALAH_NODES (node cap
// per Kalah solve, default 20 000 000), AI_BENCH_KALAH_MAX (largest m × n solved, default 16).
import { search, solveKalah } from '../src/ai';
import type { AnyEngine } from '../src/engines/engine';
import { getEngine } from '../src/engines/kinds';
import { GAME_KINDS, type GameKind, type Options } from '../src/engines/types';
import { ladder } from './ladder';
import { envList, table } from './support';

const num = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

function setup(kind: GameKind): { engine: AnyEngine; options: Options; start: string } {
  const engine = getEngine(kind);
  if (!engine) throw new Error(`no engine ${kind}`);
  const parsed = engine.parseOptions({});
  if (!parsed.ok) throw new Error(parsed.error.message);
  return { engine, options: parsed.value, start: engine.formatState(engine.setup(parsed.value)) };
}

/** Nodes per second and the depth completed in AI_BENCH_MS from the start position (analysis). */
function speed(kinds: readonly GameKind[]): void {
  const ms = num('AI_BENCH_MS', 1000);
  const rows = [['game', 'depth', 'nodes', 'ms', 'knodes/s', 'best', 'score']];
  for (const kind of kinds) {
    const { options, start } = setup(kind);
    search({ kind, options, start, moves: [], seed: 1, timeMs: 100 }); // warm-up
    const r = search({ kind, options, start, moves: [], seed: 1, timeMs: ms, nodes: 1e9 });
    rows.push([
      kind,
      String(r.depth),
      String(r.nodes),
      String(r.timeMs),
      (r.nodes / Math.max(1, r.timeMs)).toFixed(0),
      r.best,
      String(r.score),
    ]);
  }
  console.log(`speed: analysis from the start, ${ms} ms each (the machine is shared: a lower bound)`);
  console.log(table(rows));
}

/** Kalah(m, n) solved from the start: South's margin with perfect play, nodes and time (one line each). */
function kalah(): void {
  const nodes = num('AI_BENCH_KALAH_NODES', 20_000_000);
  const maxSeeds = num('AI_BENCH_KALAH_MAX', 16);
  console.log('kalah: solved from the start (margin: South, who moves first, under perfect play)');
  const widths = [12, 13, 9, 5, 10, 8, 8];
  const line = (cells: string[]) => console.log(cells.map((c, i) => c.padStart(widths[i] ?? 8)).join(''));
  // ms: wall clock; cpu ms: this thread's CPU time (what the solve costs on an idle core).
  line(['Kalah(m,n)', 'emptyCapture', 'margin', 'best', 'nodes', 'ms', 'cpu ms']);
  for (const emptyCapture of [false, true]) {
    for (let m = 1; m <= 6; m++) {
      for (let n = 1; n <= 6; n++) {
        if (m * n > maxSeeds) continue; // beyond what solves in seconds here
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        const r = solveKalah(m, n, emptyCapture, nodes);
        const cpu = process.cpuUsage(c0);
        const ms = (performance.now() - t0).toFixed(0);
        const cpuMs = ((cpu.user + cpu.system) / 1000).toFixed(0);
        const margin = r ? (r.margin > 0 ? `+${r.margin}` : String(r.margin)) : 'unsolved';
        line([
          `(${m},${n})`,
          String(emptyCapture),
          margin,
          r ? String(r.best) : '-',
          r ? String(r.nodes) : `>${nodes}`,
          ms,
          cpuMs,
        ]);
      }
    }
  }
}

export async function runAiBench(args: string[]): Promise<void> {
  const kinds = envList<GameKind>('AI_BENCH_KINDS', [...GAME_KINDS], GAME_KINDS);
  const parts = args.length > 0 ? args : ['speed', 'ladder', 'kalah'];
  for (const part of parts) {
    if (part === 'speed') speed(kinds);
    else if (part === 'ladder') await ladder();
    else if (part === 'kalah') kalah();
    else throw new Error(`unknown ai bench part ${part} (speed, ladder, kalah)`);
  }
}
