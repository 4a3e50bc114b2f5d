// Engine perft speed: nodes/s per game from its start position, several runs each, and the
// yardsticks (other JavaScript move generators) measured in the same process for a fair ratio.
import { fastPerft } from '../src/engines/perft';
import { KINDS } from '../src/engines/kinds';
import type { GameKind } from '../src/engines/types';
import { YARDSTICKS } from './yardsticks';

/** Depths chosen so that one run takes roughly 2–10 s on a 2-core CI machine. */
const DEPTHS: Record<GameKind, { depth: number; options?: unknown }> = {
  kalah: { depth: 11 },
  oware: { depth: 11 },
  congkak: { depth: 10 },
  'russian-draughts': { depth: 10 },
  congo: { depth: 6 },
};

export interface BenchCase {
  readonly name: string;
  /** Runs the workload once and returns the number of nodes it visited. */
  readonly run: () => number;
}

function engineCases(only?: string): BenchCase[] {
  return KINDS.map((k) => k.engine)
    .filter((engine) => !only || engine.kind === only)
    .map((engine) => {
      const { depth, options } = DEPTHS[engine.kind];
      const parsed = engine.parseOptions(options ?? {});
      if (!parsed.ok) throw new Error(parsed.error.message);
      const start = engine.setup(parsed.value);
      return { name: `${engine.kind} perft(${depth})`, run: () => fastPerft(engine, start, depth) };
    });
}

/** Runs each case `runs` times and prints the median nodes/s. */
export function runPerftBench(args: string[]): void {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const only = args[0];
  const cases = [...engineCases(only), ...YARDSTICKS.filter((y) => !only || y.name.includes(only))];
  for (const c of cases) {
    const rates: number[] = [];
    let nodes = 0;
    for (let i = 0; i < runs; i++) {
      const t0 = process.hrtime.bigint();
      nodes = c.run();
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      rates.push(nodes / seconds);
    }
    rates.sort((a, b) => a - b);
    const median = rates[Math.floor(rates.length / 2)] as number;
    const spread = rates.map((r) => (r / 1e6).toFixed(2)).join(' ');
    console.log(
      `${c.name.padEnd(36)} nodes=${nodes} median=${(median / 1e6).toFixed(2)} Mnodes/s runs=[${spread}]`,
    );
  }
}
