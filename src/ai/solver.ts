// Exact mancala solving: search every line to the end of the game. Used by `search` for Kalah and
// Congkak endgames, and from the start for Kalah on small boards (test/ai/kalah-solved.test.ts,
// bench/ai.ts). Oware is not solved exactly: its repetition rule makes a value depend on the path.
import { getEngine } from '../engines/kinds';
import type { MancalaState } from '../engines/mancala/state';
import { DECIDED, MARGIN_UNIT, WIN, type Adapter } from './adapter';
import { INFINITE_DEPTH, Searcher, type RootResult } from './alphabeta';
import { aiKindOf } from './kinds';
import { mancalaAdapter } from './mancala';
import type { SolvedValue } from './types';

/** The longest principal variation a solve reports. */
const MAX_PV = 200;

/** What a decided score means: the result, plies to the end, and (mancala) the final margin. */
export interface Decided extends Omit<SolvedValue, 'exact'> {
  /** Final store difference from the side to move's point of view (0 for Congo and draughts). */
  readonly margin: number;
}

/** Reads a score at or beyond DECIDED (undefined for an evaluation). */
export function decode(score: number): Decided | undefined {
  if (Math.abs(score) < DECIDED) return undefined;
  const rest = Math.abs(score) - WIN;
  const margin = rest <= 0 ? 0 : Math.ceil(rest / MARGIN_UNIT);
  const plies = rest <= 0 ? -rest : margin * MARGIN_UNIT - rest;
  return { result: score > 0 ? 'win' : 'loss', plies, margin: score > 0 ? margin : -margin };
}

/** Whether `search` should try to solve this mancala position exactly. */
export function solvable(state: MancalaState): boolean {
  const limit = aiKindOf(state.rules.kind)?.solveSeeds;
  if (limit === undefined || state.outcome) return false;
  const h = state.rules.houses;
  let seeds = 0;
  for (let i = 0; i < 2 * h + 1; i++) if (i !== h) seeds += state.pits[i] as number;
  return seeds <= limit;
}

export interface Solution {
  readonly result: RootResult;
  /** Final margin from the side to move's point of view, and plies to the end of the best line. */
  readonly margin: number;
  readonly plies: number;
  readonly nodes: number;
}

/** Solves a mancala position exactly within `nodes` (undefined when the budget ran out). */
export function solveMancala(
  adapter: Adapter<MancalaState, number>,
  state: MancalaState,
  nodes: number,
  deadline = Infinity,
): Solution | undefined {
  const searcher = new Searcher(adapter, ttBitsFor(nodes));
  const result = searcher.solve(state, { depth: INFINITE_DEPTH, nodes, deadline });
  if (!result) return undefined;
  const d = decode(result.score);
  return {
    result: { ...result, pv: searcher.extendPv(state, result.pv, MAX_PV) },
    margin: d ? d.margin : 0,
    plies: d ? d.plies : result.pv.length,
    nodes: searcher.nodes,
  };
}

/**
 * Kalah(houses, seeds) from the start, South to move: the first player's final margin under perfect
 * play (positive: South wins by that many seeds), or undefined when `nodes` did not suffice.
 */
export function solveKalah(
  houses: number,
  seeds: number,
  emptyCapture: boolean,
  nodes: number,
): { margin: number; nodes: number; best: number } | undefined {
  const engine = getEngine('kalah');
  if (!engine) throw new Error('kalah is not registered');
  const options = engine.parseOptions({ houses, seeds, emptyCapture });
  if (!options.ok) throw new Error(options.error.message);
  const start = engine.setup(options.value) as MancalaState;
  const adapter = mancalaAdapter(engine);
  const solution = solveMancala(adapter, start, nodes);
  if (!solution) return undefined;
  const best = adapter.moves(start, 0)[solution.result.best] as number;
  return { margin: solution.margin, nodes: solution.nodes, best };
}

/** Table size for a node budget: about one slot per node, 2^10 to 2^20 slots. */
export function ttBitsFor(nodes: number): number {
  return Math.max(10, Math.min(20, Math.ceil(Math.log2(Math.max(1, nodes)))));
}
