// One ladder game, run in a worker thread of `npm run bench -- ai ladder` (bench/ladder.ts). Pure:
// the same task always plays the same game (node budgets only, no time cap).
import { levelBudget, search } from '../src/ai';
import type { AiLevel } from '../src/ai/types';
import type { AnyEngine } from '../src/engines/engine';
import { getEngine } from '../src/engines/kinds';
import type { GameKind, Options } from '../src/engines/types';
import { prng } from './support';

export type Player = AiLevel | 'random';

export interface GameTask {
  readonly kind: GameKind;
  /** The player whose score is counted, and its opponent. */
  readonly a: Player;
  readonly b: Player;
  /** Plies played from the start before the levels take over (the opening). */
  readonly opening: readonly string[];
  /** Index of the opening (seeds the levels' noise). */
  readonly index: number;
  /** Whether `a` moves first after the opening. */
  readonly aFirst: boolean;
  /** Each level's node budget capped at this (Infinity: the levels' own budgets). */
  readonly nodeCap: number;
  /** Games still going after this many plies count as draws. */
  readonly maxPlies: number;
}

export interface GameResult {
  /** 1, ½ or 0 for `a`. */
  readonly points: number;
  readonly plies: number;
  /** The moves after the opening, joined (to count distinct games). */
  readonly line: string;
  readonly ms: number;
}

/** Nodes of the analysis that scores a candidate opening for a balanced book (default). */
export const BALANCE_NODES = 20_000;

export function setup(kind: GameKind): { engine: AnyEngine; options: Options; start: string } {
  const engine = getEngine(kind);
  if (!engine) throw new Error(`no engine ${kind}`);
  const parsed = engine.parseOptions({});
  if (!parsed.ok) throw new Error(parsed.error.message);
  return { engine, options: parsed.value, start: engine.formatState(engine.setup(parsed.value)) };
}

/** Plays `moves` (notation) from the start of `kind`. */
export function replay(engine: AnyEngine, options: Options, moves: readonly string[]): unknown {
  let state = engine.setup(options);
  for (const text of moves) {
    const move = engine.parseMove(state, text);
    if (!move.ok) throw new Error(move.error.message);
    const next = engine.play(state, move.value);
    if (!next.ok) throw new Error(next.error.message);
    state = next.value;
  }
  return state;
}

/**
 * `count` distinct openings of `plies` seeded random legal plies from the start (none ends the
 * game): the same list on every run, for every pairing of a kind. With `balance` > 0 only openings
 * whose score (a `balanceNodes` analysis, hundredths, side to move) is within ±balance are kept: a
 * balanced book, for games where the side to move after a random opening is usually far ahead.
 */
export function openings(
  kind: GameKind,
  count: number,
  plies: number,
  balance = 0,
  seed = 1,
  balanceNodes = BALANCE_NODES,
): string[][] {
  const { engine, options, start } = setup(kind);
  const seen = new Set<string>();
  const out: string[][] = [];
  for (let attempt = 0; out.length < count && attempt < count * (balance > 0 ? 1000 : 50); attempt++) {
    const rand = prng(seed * 1_000_003 + attempt);
    let state = engine.setup(options);
    const line: string[] = [];
    for (let i = 0; i < plies; i++) {
      const legal = engine.moves(state);
      const move = legal[Math.floor(rand() * legal.length)];
      if (move === undefined) break;
      const next = engine.play(state, move);
      if (!next.ok || engine.outcome(next.value)) break;
      line.push(engine.formatMove(state, move));
      state = next.value;
    }
    const key = line.join(' ');
    if (line.length < plies || seen.has(key)) continue;
    seen.add(key);
    if (balance > 0) {
      const req = { kind, options, start, moves: line, seed: 1 };
      if (Math.abs(search(req, { nodes: balanceNodes, timeMs: 1e9 }).score) > balance) continue;
    }
    out.push(line);
  }
  return out;
}

/** The worker's task (piscina calls `run`). */
export function run(task: GameTask): GameResult {
  const t0 = performance.now();
  const { engine, options, start } = setup(task.kind);
  const moves = [...task.opening];
  let state = replay(engine, options, moves);
  const first = engine.turn(state);
  const aSide = task.aFirst ? first : first === 0 ? 1 : 0;
  const rand = prng(task.index * 2 + (task.aFirst ? 0 : 1) + 12_345);
  while (!engine.outcome(state) && moves.length < task.maxPlies) {
    const player = engine.turn(state) === aSide ? task.a : task.b;
    let text: string;
    if (player === 'random') {
      const legal = engine.moves(state);
      text = engine.formatMove(state, legal[Math.floor(rand() * legal.length)]);
    } else {
      const seed = task.index * 7919 + moves.length * 31 + (task.aFirst ? 0 : 1);
      const req = { kind: task.kind, options, start, moves, level: player, seed };
      // No time cap: the node budget ends every search, so a loaded machine plays the same game.
      const nodes = Math.min(levelBudget(player, task.kind).nodes, task.nodeCap);
      text = search(req, { nodes, timeMs: 1e9 }).best;
    }
    const move = engine.parseMove(state, text);
    if (!move.ok) throw new Error(move.error.message);
    const next = engine.play(state, move.value);
    if (!next.ok) throw new Error(next.error.message);
    moves.push(text);
    state = next.value;
  }
  const outcome = engine.outcome(state);
  const points = !outcome || outcome.winner === undefined ? 0.5 : outcome.winner === aSide ? 1 : 0;
  return {
    points,
    plies: moves.length,
    line: moves.slice(task.opening.length).join(' '),
    ms: Math.round(performance.now() - t0),
  };
}
