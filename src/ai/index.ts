// The built-in AI's search: one synchronous, pure entry point for the service's worker threads.
// Same request (seed included) ⇒ same result, as long as the node or depth budget ends the search
// before the time cap does (docs/ai.md, "Determinism").
import type { AnyEngine } from '../engines/engine';
import type { MancalaState } from '../engines/mancala/state';
import { kindOf } from '../engines/kinds';
import { type Result, err, ok } from '../engines/types';
import type { Adapter } from './adapter';
import { Searcher, type RootResult } from './alphabeta';
import { SearchError, type SearchErrorCode } from './errors';
import { adapterFor } from './kinds';
import { ANALYSIS_LEVEL, isLevel, levelBudget, type LevelBudget } from './levels';
import { prng } from './rng';
import { decode, solvable, solveMancala, ttBitsFor } from './solver';
import type { SearchRequest, SearchResult, SolvedValue } from './types';

export { SearchError, type SearchErrorCode } from './errors';
export { aiPlays } from './kinds';
export { isLevel, levelBudget, type LevelBudget } from './levels';
export { solveKalah } from './solver';
export * from './types';

/** The position of a request: `start` with `moves` replayed through the engine (history intact). */
function replay(engine: AnyEngine, req: SearchRequest): unknown {
  const parsed = engine.parseState(req.start, req.options);
  if (!parsed.ok) throw new SearchError(parsed.error.code, `start: ${parsed.error.message}`);
  let state = parsed.value;
  req.moves.forEach((text, i) => {
    const move = engine.parseMove(state, text);
    if (!move.ok) throw new SearchError(move.error.code, `move ${i + 1} (${text}): ${move.error.message}`);
    const next = engine.play(state, move.value);
    if (!next.ok) throw new SearchError(next.error.code, `move ${i + 1} (${text}): ${next.error.message}`);
    state = next.value;
  });
  return state;
}

function limit(name: string, value: number | undefined, cap: number): number {
  if (value === undefined) return cap;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 1) {
    throw new SearchError('INVALID_REQUEST', `${name} must be a number ≥ 1`);
  }
  return Math.min(Math.floor(value), cap);
}

/**
 * The best move of the request's position under its level's budget and limits (the tightest
 * applies). `override` replaces parts of the level's budget: for benches (e.g. the ladder lifts the
 * time cap so that games replay exactly under load), not for the service. Throws SearchError: GAME_OVER for a finished position; UNKNOWN_KIND, INVALID_REQUEST,
 * or the engine's code (INVALID_NOTATION, INVALID_POSITION, ILLEGAL_MOVE, …) for a bad request.
 */
export function search(req: SearchRequest, override?: Partial<Omit<LevelBudget, 'level'>>): SearchResult {
  const t0 = performance.now();
  const kind = kindOf(req.kind);
  if (!kind) throw new SearchError('UNKNOWN_KIND', `no game kind ${String(req.kind)}`);
  const { engine } = kind;
  if (req.level !== undefined && !isLevel(req.level)) {
    throw new SearchError('INVALID_REQUEST', 'level must be an integer from 1 to 8');
  }
  if (!Number.isInteger(req.seed)) throw new SearchError('INVALID_REQUEST', 'seed must be an integer');
  if (!Array.isArray(req.moves)) throw new SearchError('INVALID_REQUEST', 'moves must be a list');
  const budget = { ...levelBudget(req.level ?? ANALYSIS_LEVEL, engine.kind), ...override };
  const depth = limit('depth', req.depth, budget.depth);
  const nodes = limit('nodes', req.nodes, budget.nodes);
  const timeMs = limit('timeMs', req.timeMs, budget.timeMs);

  const state = replay(engine, req);
  const outcome = engine.outcome(state);
  if (outcome) throw new SearchError('GAME_OVER', `the game is over (${outcome.reason})`);

  const adapter = adapterFor(engine);
  const moves = adapter.moves(state, 0);
  if (moves.length === 0) throw new SearchError('GAME_OVER', 'the side to move has no legal move');
  const rand = prng(req.seed ^ Math.imul(budget.level, 0x9e3779b1));
  const noise = budget.noise > 0 ? moves.map(() => Math.round((2 * rand() - 1) * budget.noise)) : [];
  const deadline = t0 + timeMs;
  // Contempt only when a level plays: an analysis scores a draw as what it is, 0.
  const searcher = new Searcher(
    adapter,
    ttBitsFor(nodes),
    req.level === undefined ? 0 : (adapter.contempt ?? 0),
  );

  let solved: SolvedValue | undefined;
  let root: RootResult | undefined;
  let exactScore: number | undefined;
  const mancala = kind.family === 'mancala';
  if (budget.solve && mancala && solvable(state as MancalaState)) {
    // Half the budget for an exact solve; the ordinary search gets what is left if it fails.
    const solution = solveMancala(
      adapter as unknown as Adapter<MancalaState, number>,
      state as MancalaState,
      Math.max(1, Math.floor(nodes / 2)),
      t0 + timeMs / 2,
    );
    if (solution) {
      searcher.nodes = solution.nodes;
      root = solution.result;
      const result = solution.margin > 0 ? 'win' : solution.margin < 0 ? 'loss' : 'draw';
      solved = { result, plies: solution.plies, exact: true };
      exactScore = 100 * solution.margin;
    } else {
      searcher.nodes = Math.floor(nodes / 2);
    }
  }
  if (!root) {
    root = searcher.iterate(state, { depth, nodes, deadline }, noise);
    if (root && root.pv[0] === root.best)
      root = { ...root, pv: searcher.extendPv(state, root.pv, root.depth) };
  }

  let pvIndices: readonly number[];
  let score: number;
  let reached: number;
  if (root) {
    pvIndices = root.pv[0] === root.best ? root.pv : [root.best];
    reached = Math.min(root.depth, depth);
    const decided = decode(root.score);
    if (exactScore !== undefined) score = exactScore;
    else if (decided && mancala && decided.margin !== 0) score = 100 * decided.margin;
    else score = root.score;
    if (!solved && decided) solved = { result: decided.result, plies: decided.plies, exact: false };
    if (exactScore !== undefined && solved) reached = solved.plies;
  } else {
    // Not even depth 1 fitted the budget: a legal move all the same (seeded at noisy levels).
    pvIndices = [noise.length > 0 ? Math.floor(rand() * moves.length) : 0];
    score = adapter.evaluate(state);
    reached = 0;
  }
  const pv = formatLine(adapter, engine, state, pvIndices);
  return {
    best: pv[0] as string,
    pv,
    score,
    ...(solved ? { solved } : {}),
    depth: reached,
    nodes: searcher.nodes,
    timeMs: Math.round(performance.now() - t0),
  };
}

/** `search` with its errors as values (JSON-safe across a worker boundary). */
export function trySearch(
  req: SearchRequest,
): Result<SearchResult, { readonly code: SearchErrorCode; readonly message: string }> {
  try {
    return ok(search(req));
  } catch (error) {
    if (error instanceof SearchError) return err({ code: error.code, message: error.message });
    throw error;
  }
}

/** Move indices (each into the moves of the position it is played in) as notation, stopping at the end. */
function formatLine(adapter: Adapter, engine: AnyEngine, state: unknown, line: readonly number[]): string[] {
  const out: string[] = [];
  let s = state;
  for (const [ply, i] of line.entries()) {
    const moves = adapter.moves(s, ply);
    const move = moves[i];
    if (move === undefined) break;
    out.push(engine.formatMove(s, move));
    s = adapter.play(s, move);
  }
  return out;
}
