import { getEngine } from '../engines/registry';
import type { AiLevel, SearchRequest, SearchResult } from './types';

// Placeholder until the ai-search branch lands: a seeded random legal move. The real search
// replaces this file; its exports (search, levelBudget) keep these signatures.

/** The budget of a playing level. */
export function levelBudget(level: AiLevel): { timeMs: number } {
  return { timeMs: 50 * level };
}

/** The best move of the request's position (here: a seeded random legal move). */
export function search(req: SearchRequest): SearchResult {
  const started = Date.now();
  const engine = getEngine(req.kind);
  if (!engine) throw new Error(`Unknown game kind ${req.kind}`);
  const parsed = engine.parseState(req.start, req.options);
  if (!parsed.ok) throw new Error(parsed.error.message);
  let state = parsed.value;
  for (const text of req.moves) {
    const move = engine.parseMove(state, text);
    if (!move.ok) throw new Error(move.error.message);
    const next = engine.play(state, move.value);
    if (!next.ok) throw new Error(next.error.message);
    state = next.value;
  }
  const moves = engine.moves(state);
  if (moves.length === 0 || engine.outcome(state)) throw new Error('No legal move: the game is over');
  // mulberry32 step of the seed: same seed, same move.
  let t = (req.seed + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  const best = engine.formatMove(state, moves[Math.floor(r * moves.length)]);
  return { best, pv: [best], score: 0, depth: 1, nodes: moves.length, timeMs: Date.now() - started };
}
