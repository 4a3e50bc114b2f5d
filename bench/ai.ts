// The built-in AI's search: speed, strength ladder, and Kalah solved from the start.
//   npm run bench -- ai [speed|ladder|kalah]…   (default: all three)
// Env: AI_BENCH_KINDS (comma list, default all), AI_BENCH_MS (speed: ms per search, default 1000),
// AI_BENCH_GAMES (games per ladder pairing, colours swapped, default 4; the issue asks for 100),
// AI_BENCH_NODE_CAP (ladder games: each level's node budget capped at this, default 50 000, and no
// time cap, so that games replay exactly on a loaded machine), AI_BENCH_MAX_PLIES (ladder games
// still going after this many plies count as draws, default 300), AI_BENCH_KALAH_NODES (node cap
// per Kalah solve, default 20 000 000), AI_BENCH_KALAH_MAX (largest m × n solved, default 16).
import { levelBudget, search, solveKalah } from '../src/ai';
import { AI_LEVELS, type AiLevel } from '../src/ai/types';
import type { AnyEngine } from '../src/engines/engine';
import { getEngine } from '../src/engines/registry';
import { GAME_KINDS, type GameKind, type Options } from '../src/engines/types';
import { envList, prng, table } from './support';

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

type Player = AiLevel | 'random';

/** One game; returns the points (1, ½, 0) of the player who moves first. */
function playGame(
  kind: GameKind,
  first: Player,
  second: Player,
  game: number,
  cap: number,
  maxPlies: number,
): number {
  const { engine, options, start } = setup(kind);
  const rand = prng(1000 + game);
  let state = engine.setup(options);
  const moves: string[] = [];
  // Two random opening plies (the same for both colour orders) so that deterministic levels play
  // different games.
  const opening = prng(Math.floor(game / 2) + 1);
  for (let i = 0; i < 2; i++) {
    const legal = engine.moves(state);
    const move = legal[Math.floor(opening() * legal.length)];
    if (move === undefined) break;
    moves.push(engine.formatMove(state, move));
    const next = engine.play(state, move);
    if (!next.ok) throw new Error(next.error.message);
    state = next.value;
  }
  const firstSide = engine.turn(state);
  while (!engine.outcome(state) && moves.length < maxPlies) {
    const player = engine.turn(state) === firstSide ? first : second;
    let text: string;
    if (player === 'random') {
      const legal = engine.moves(state);
      text = engine.formatMove(state, legal[Math.floor(rand() * legal.length)]);
    } else {
      // The level's noise and depth, its node budget capped, no time cap: games replay exactly.
      const nodes = Math.min(levelBudget(player).nodes, cap);
      const req = { kind, options, start, moves, level: player, seed: game * 7919 + moves.length };
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
  if (!outcome || outcome.winner === undefined) return 0.5;
  return outcome.winner === firstSide ? 1 : 0;
}

/** Score of `a` against `b` over `games` games, colours swapped every game. */
function match(kind: GameKind, a: Player, b: Player, games: number, cap: number, maxPlies: number): number {
  let points = 0;
  for (let g = 0; g < games; g++) {
    points +=
      g % 2 === 0 ? playGame(kind, a, b, g, cap, maxPlies) : 1 - playGame(kind, b, a, g, cap, maxPlies);
  }
  return points;
}

function ladder(kinds: readonly GameKind[]): void {
  const games = num('AI_BENCH_GAMES', 4);
  const cap = num('AI_BENCH_NODE_CAP', 50_000);
  const maxPlies = num('AI_BENCH_MAX_PLIES', 300);
  console.log(
    `ladder: ${games} games per pairing, colours swapped, node budgets capped at ${cap} (no time cap), draws after ${maxPlies} plies`,
  );
  const pairings: Array<[Player, Player]> = [];
  for (const level of AI_LEVELS.slice(1)) pairings.push([level, (level - 1) as AiLevel]);
  pairings.push([8, 1], [8, 'random']);
  const rows = [['game', ...pairings.map(([a, b]) => `${a}v${b}`), 's']];
  for (const kind of kinds) {
    const t0 = performance.now();
    const cells = pairings.map(([a, b]) => {
      const points = match(kind, a, b, games, cap, maxPlies);
      return `${((100 * points) / games).toFixed(0)}%`;
    });
    rows.push([kind, ...cells, ((performance.now() - t0) / 1000).toFixed(0)]);
    console.log(table(rows));
  }
}

/** Kalah(m, n) solved from the start: South's margin with perfect play, nodes and time (one line each). */
function kalah(): void {
  const nodes = num('AI_BENCH_KALAH_NODES', 20_000_000);
  const maxSeeds = num('AI_BENCH_KALAH_MAX', 16);
  console.log('kalah: solved from the start (margin: South, who moves first, under perfect play)');
  const widths = [12, 13, 9, 5, 10, 8];
  const line = (cells: string[]) => console.log(cells.map((c, i) => c.padStart(widths[i] ?? 8)).join(''));
  line(['Kalah(m,n)', 'emptyCapture', 'margin', 'best', 'nodes', 'ms']);
  for (const emptyCapture of [false, true]) {
    for (let m = 1; m <= 6; m++) {
      for (let n = 1; n <= 6; n++) {
        if (m * n > maxSeeds) continue; // beyond what solves in seconds here
        const t0 = performance.now();
        const r = solveKalah(m, n, emptyCapture, nodes);
        const ms = (performance.now() - t0).toFixed(0);
        const margin = r ? (r.margin > 0 ? `+${r.margin}` : String(r.margin)) : 'unsolved';
        line([
          `(${m},${n})`,
          String(emptyCapture),
          margin,
          r ? String(r.best) : '-',
          r ? String(r.nodes) : `>${nodes}`,
          ms,
        ]);
      }
    }
  }
}

export function runAiBench(args: string[]): void {
  const kinds = envList<GameKind>('AI_BENCH_KINDS', [...GAME_KINDS], GAME_KINDS);
  const parts = args.length > 0 ? args : ['speed', 'ladder', 'kalah'];
  for (const part of parts) {
    if (part === 'speed') speed(kinds);
    else if (part === 'ladder') ladder(kinds);
    else if (part === 'kalah') kalah();
    else throw new Error(`unknown ai bench part ${part} (speed, ladder, kalah)`);
  }
}
