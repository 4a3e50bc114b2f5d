// The strength ladder of `npm run bench -- ai ladder`: level k+1 against level k, 8 against 1 and 8
// against a random mover, per game kind. Every pairing plays the same fixed, seeded set of openings
// (a few random legal plies from the start), each opening twice with colours swapped, as engine
// testers do; draws count half. Games run in parallel worker threads with the time caps lifted (the
// node budgets end every search), so the results do not depend on the machine's load: run it under
// `nice -n 19` on a shared machine. Results are appended to a JSON-lines file as games finish, so a
// run that is stopped keeps its games and a rerun with the same settings skips them.
// Env: AI_BENCH_KINDS, AI_BENCH_STEPS (default 2v1,…,8v7,8v1,8vrandom), AI_BENCH_PAIRINGS (explicit
// kind:AvB list, instead of kinds × steps), AI_BENCH_OPENINGS (openings per pairing, default 50:
// 100 games), AI_BENCH_OPENING_PLIES (default 4), AI_BENCH_BALANCE (keep openings an analysis
// scores within ± this many hundredths; default per kind, see BALANCE; 1e9: random books),
// AI_BENCH_BALANCE_NODES (nodes of that analysis, default 20 000, Congkak 200 000),
// AI_BENCH_THREADS (default the cores), AI_BENCH_NODE_CAP (cap every level's node budget; default none), AI_BENCH_MAX_PLIES
// (draw after, default 300), AI_BENCH_MAX_SECONDS (stop starting games after), AI_BENCH_OUT (the
// results file, default ladder-results.jsonl), AI_BENCH_REPORT_ONLY=1 (print the table of the games
// the file holds for these settings; build no book, play nothing). Books are cached in
// `<AI_BENCH_OUT>.books.json`.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { levelBudget } from '../src/ai';
import { AI_KINDS } from '../src/ai/kinds';
import { AI_LEVELS, type AiLevel } from '../src/ai/types';
import { GAME_KINDS, type GameKind } from '../src/engines/types';
import { BALANCE_NODES, openings, type GameResult, type GameTask, type Player } from './ladder-game';
import { envList, table } from './support';

/**
 * Balanced books (hundredths of a seed, man or pawn; the side to move's score by a 20 000-node
 * analysis). After a few random plies one side is often far ahead: a Congkak side to move by 40–50
 * seeds, a Kalah one by 4 (the median), a draughts side by a man in a third of the openings. From
 * such an opening the side ahead wins whichever level plays it, so a colour-swapped pair splits 1–1
 * and the step looks closer to 50 % than the levels are: level 8 against 7 scored 59 % in Kalah and
 * 64 % in draughts from random openings (against a 25 000-node level 7), 77 % and 78 % from balanced
 * ones at the real budgets (docs/ai.md, "The ladder, measured"). So every book keeps only openings
 * the analysis scores within these bounds (AI_BENCH_BALANCE overrides them).
 */
const BALANCE: Readonly<Record<GameKind, number>> = {
  congo: 50,
  'russian-draughts': 50,
  kalah: 150,
  oware: 100,
  congkak: 500,
};

/**
 * The nodes of the analysis that balances a kind's book (AI_BENCH_BALANCE_NODES overrides them for
 * every kind): BALANCE_NODES but for Congkak, whose evaluation swings with depth (one opening:
 * −4.5, +8.5 and +9.75 seeds at 20 000, 70 000 and 200 000 nodes), so that a 20 000-node analysis
 * kept openings one side wins whoever plays it: in 8v7, 24 of 30 colour-swapped pairs went to the
 * same colour. From books balanced at 200 000 nodes its top steps scored 73, 67 and 68 %
 * (50 games each), from 20 000-node books 65, 64 and 62 %.
 */
const BALANCE_NODES_BY_KIND: Readonly<Partial<Record<GameKind, number>>> = {
  congkak: 200_000,
};

interface Pairing {
  readonly kind: GameKind;
  readonly a: Player;
  readonly b: Player;
}

interface Done extends GameResult {
  readonly key: string;
}

const label = (p: Pairing): string => `${p.a}v${p.b}`;

/**
 * A player's budget in a result's key, with the search's revision from 2 on (1: before it was
 * counted): results of other level settings or of another search are not reused.
 */
function signature(player: Player, kind: GameKind): string {
  if (player === 'random') return 'r';
  const b = levelBudget(player, kind);
  const revision = AI_KINDS[kind].searchRevision > 1 ? `.s${AI_KINDS[kind].searchRevision}` : '';
  return `${b.depth}.${b.nodes}.${b.noise}.${b.solve ? 1 : 0}${revision}`;
}

function parsePlayer(text: string): Player {
  if (text === 'random') return 'random';
  const level = Number(text);
  if (!(AI_LEVELS as readonly number[]).includes(level)) throw new Error(`no level ${text}`);
  return level as AiLevel;
}

function parseStep(text: string): [Player, Player] {
  const m = /^(\d)v(\d|random)$/.exec(text.trim());
  if (!m) throw new Error(`bad step ${text} (e.g. 8v7, 8vrandom)`);
  return [parsePlayer(m[1] as string), parsePlayer(m[2] as string)];
}

function pairings(): Pairing[] {
  const explicit = process.env.AI_BENCH_PAIRINGS;
  if (explicit) {
    return explicit.split(',').map((item) => {
      const [kind, step] = item.trim().split(':');
      if (!kind || !step || !(GAME_KINDS as readonly string[]).includes(kind)) {
        throw new Error(`AI_BENCH_PAIRINGS: bad ${item} (kind:AvB)`);
      }
      const [a, b] = parseStep(step);
      return { kind: kind as GameKind, a, b };
    });
  }
  const kinds = envList<GameKind>('AI_BENCH_KINDS', [...GAME_KINDS], GAME_KINDS);
  const defaults = [...AI_LEVELS.slice(1).map((l) => `${l}v${l - 1}`), '8v1', '8vrandom'];
  const steps = (process.env.AI_BENCH_STEPS?.split(',') ?? defaults).map(parseStep);
  return kinds.flatMap((kind) => steps.map(([a, b]) => ({ kind, a, b })));
}

const num = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

/** Mean score and a 95 % interval (normal approximation over the per-game scores, draws ½). */
export function interval(points: readonly number[]): { mean: number; low: number; high: number } {
  const n = points.length;
  if (n === 0) return { mean: NaN, low: NaN, high: NaN };
  const mean = points.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? points.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1) : 0.25;
  // With all games won (or lost) the sample variance is 0: use the rule of three instead.
  const half = variance > 0 ? 1.96 * Math.sqrt(variance / n) : 3 / n;
  return { mean, low: Math.max(0, mean - half), high: Math.min(1, mean + half) };
}

/** The table of `list`'s results: only games played with the settings of this run (`prefixOf`). */
export function report(
  list: readonly Pairing[],
  done: ReadonlyMap<string, Done>,
  prefixOf: (p: Pairing) => string,
): string {
  const rows = [['game', 'step', 'games', 'score', '95% interval', 'distinct', 'avg plies']];
  for (const p of list) {
    const prefix = prefixOf(p);
    const results = [...done.values()].filter((d) => d.key.startsWith(prefix));
    const { mean, low, high } = interval(results.map((r) => r.points));
    const pct = (x: number) => (Number.isNaN(x) ? '-' : `${(100 * x).toFixed(0)}%`);
    rows.push([
      p.kind,
      label(p),
      String(results.length),
      pct(mean),
      results.length ? `${pct(low)}–${pct(high)}` : '-',
      String(new Set(results.map((r) => r.line)).size),
      results.length ? (results.reduce((a, r) => a + r.plies, 0) / results.length).toFixed(0) : '-',
    ]);
  }
  return table(rows);
}

export async function ladder(): Promise<void> {
  const list = pairings();
  const count = num('AI_BENCH_OPENINGS', 50);
  const threads = num('AI_BENCH_THREADS', availableParallelism());
  const nodeCap = num('AI_BENCH_NODE_CAP', Infinity);
  const maxPlies = num('AI_BENCH_MAX_PLIES', 300);
  const maxSeconds = num('AI_BENCH_MAX_SECONDS', Infinity);
  const out = process.env.AI_BENCH_OUT ?? 'ladder-results.jsonl';
  // Kalah and Oware have too few distinct 2-ply openings for 50 (about 30 and 36).
  // Four random plies: enough distinct openings that the balanced share of them fills the book.
  const pliesFor = (_kind: GameKind) => num('AI_BENCH_OPENING_PLIES', 4);
  const balanceFor = (kind: GameKind) => num('AI_BENCH_BALANCE', BALANCE[kind]);
  const balanceNodesFor = (kind: GameKind) =>
    num('AI_BENCH_BALANCE_NODES', BALANCE_NODES_BY_KIND[kind] ?? BALANCE_NODES);

  const done = new Map<string, Done>();
  if (existsSync(out)) {
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      if (line.trim()) {
        const d = JSON.parse(line) as Done;
        done.set(d.key, d);
      }
    }
  }
  /** A pairing's games' keys begin with this: its players' budgets, the caps and the book. */
  const prefixOf = (p: Pairing): string => {
    const balance = balanceFor(p.kind);
    const plies = pliesFor(p.kind);
    // The book in the key (from revision 2 on, also when not balanced: its length changed).
    const balanceNodes = balanceNodesFor(p.kind);
    const deeper = balanceNodes !== BALANCE_NODES ? `@${balanceNodes}` : '';
    const book = Number.isFinite(balance)
      ? `~${plies}p±${balance}${deeper}`
      : AI_KINDS[p.kind].searchRevision > 1
        ? `~${plies}p`
        : '';
    return `${p.kind}:${label(p)}:${signature(p.a, p.kind)}~${signature(p.b, p.kind)}~${nodeCap}~${maxPlies}${book}:`;
  };

  if (process.env.AI_BENCH_REPORT_ONLY === '1') {
    console.log(report(list, done, prefixOf));
    return;
  }

  // Books are kept beside the results (`<out>.books.json`), keyed by what makes them: a balanced
  // Congkak book costs 200 000-node analyses of a few hundred openings (minutes).
  const booksFile = `${out}.books.json`;
  const books: Record<string, string[][]> = existsSync(booksFile)
    ? (JSON.parse(readFileSync(booksFile, 'utf8')) as Record<string, string[][]>)
    : {};
  const book = new Map<GameKind, string[][]>();
  for (const kind of new Set(list.map((p) => p.kind))) {
    const bound = balanceFor(kind);
    const balance = Number.isFinite(bound) ? bound : 0;
    const plies = pliesFor(kind);
    const nodes = balanceNodesFor(kind);
    const bookKey = `${kind}:${count}:${plies}p±${balance}@${nodes}:s${AI_KINDS[kind].searchRevision}`;
    let openingsOf = books[bookKey];
    if (!openingsOf) {
      openingsOf = openings(kind, count, plies, balance, 1, nodes);
      books[bookKey] = openingsOf;
      writeFileSync(booksFile, `${JSON.stringify(books, null, 1)}\n`);
    }
    if (openingsOf.length < count) {
      console.log(`${kind}: only ${openingsOf.length} distinct openings of ${count}`);
    }
    book.set(kind, openingsOf);
  }

  // Round-robin over the pairings, opening by opening: a stopped run leaves every pairing with
  // about as many games, the first-listed first.
  const tasks: Array<{ key: string; task: GameTask }> = [];
  for (let i = 0; i < count; i++) {
    for (const p of list) {
      const opening = book.get(p.kind)?.[i];
      if (!opening) continue;
      for (const aFirst of [true, false]) {
        const key = `${prefixOf(p)}${i}:${aFirst ? 'a' : 'b'}`;
        if (done.has(key)) continue;
        tasks.push({ key, task: { ...p, opening, index: i, aFirst, nodeCap, maxPlies } });
      }
    }
  }
  console.log(
    `ladder: ${list.length} pairings, ${count} openings each (×2 colours), ${threads} threads, ` +
      `node cap ${nodeCap}, no time cap; ${done.size} games already in ${out}, ${tasks.length} to play`,
  );
  const pool = new Piscina({
    filename: join(__dirname, 'ladder-game.ts'),
    execArgv: ['--require', '@swc-node/register'],
    minThreads: threads,
    maxThreads: threads,
  });
  const t0 = performance.now();
  let next = 0;
  let finished = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length && (performance.now() - t0) / 1000 < maxSeconds) {
      const { key, task } = tasks[next++] as { key: string; task: GameTask };
      const result = (await pool.run(task, { name: 'run' })) as GameResult;
      const entry: Done = { key, ...result };
      done.set(key, entry);
      appendFileSync(out, `${JSON.stringify(entry)}\n`);
      if (++finished % 10 === 0)
        console.log(`${finished} games, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
  };
  await Promise.all(Array.from({ length: threads }, worker));
  await pool.destroy();
  console.log(report(list, done, prefixOf));
}
