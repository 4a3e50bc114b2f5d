// Shared by the AI tests: requests from a start position, seeded playouts, and a legality check of a
// result that goes through the engine alone (never through the search's adapters).
import { prng } from '../../src/ai/rng';
import type { SearchRequest, SearchResult } from '../../src/ai/types';
import type { AnyEngine } from '../../src/engines/engine';
import { getEngine } from '../../src/engines/kinds';
import { GAME_KINDS, type GameKind, type Options } from '../../src/engines/types';

export const KINDS: readonly GameKind[] = GAME_KINDS;

export function engineOf(kind: GameKind): AnyEngine {
  const engine = getEngine(kind);
  if (!engine) throw new Error(`no engine ${kind}`);
  return engine;
}

export function optionsOf(kind: GameKind, raw: unknown = {}): Options {
  const parsed = engineOf(kind).parseOptions(raw);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

export function startOf(kind: GameKind, options: Options = optionsOf(kind)): string {
  const engine = engineOf(kind);
  return engine.formatState(engine.setup(options));
}

export function request(
  kind: GameKind,
  extra: Partial<SearchRequest> = {},
  options: Options = optionsOf(kind),
): SearchRequest {
  return { kind, options, start: startOf(kind, options), moves: [], seed: 1, ...extra };
}

/** The state after `moves` from `start`, through the engine's notation (throws on a bad move). */
export function stateAfter(
  kind: GameKind,
  start: string,
  moves: readonly string[],
  options?: Options,
): unknown {
  const engine = engineOf(kind);
  const parsed = engine.parseState(start, options);
  if (!parsed.ok) throw new Error(parsed.error.message);
  let state = parsed.value;
  for (const text of moves) {
    const move = engine.parseMove(state, text);
    if (!move.ok) throw new Error(`${text}: ${move.error.message}`);
    const next = engine.play(state, move.value);
    if (!next.ok) throw new Error(`${text}: ${next.error.message}`);
    state = next.value;
  }
  return state;
}

/** `plies` seeded random moves from the request's position, stopping before the game ends. */
export function playout(kind: GameKind, req: SearchRequest, plies: number, seed: number): string[] {
  const engine = engineOf(kind);
  const rand = prng(seed);
  let state = stateAfter(kind, req.start, req.moves, req.options);
  const line: string[] = [];
  for (let i = 0; i < plies; i++) {
    const moves = engine.moves(state);
    const move = moves[Math.floor(rand() * moves.length)];
    if (move === undefined) break;
    const next = engine.play(state, move);
    if (!next.ok || engine.outcome(next.value)) break;
    line.push(engine.formatMove(state, move));
    state = next.value;
  }
  return [...req.moves, ...line];
}

/** Fails unless `best` is a legal move of the request's position, in canonical notation, and the pv is legal. */
export function expectLegal(req: SearchRequest, result: SearchResult): void {
  const engine = engineOf(req.kind);
  let state = stateAfter(req.kind, req.start, req.moves, req.options);
  const legal = engine.moves(state).map((m) => engine.formatMove(state, m));
  expect(legal).toContain(result.best);
  expect(result.pv[0]).toBe(result.best);
  for (const text of result.pv) {
    const moves = engine.moves(state);
    const move = moves.find((m) => engine.formatMove(state, m) === text);
    if (move === undefined) throw new Error(`pv move ${text} is not legal in ${engine.formatState(state)}`);
    const next = engine.play(state, move);
    if (!next.ok) throw new Error(next.error.message);
    state = next.value;
  }
}
