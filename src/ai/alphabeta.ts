// The generic search: negamax alpha-beta with iterative deepening, a transposition table, move
// ordering (TT move, captures, two killers per ply, history), a capture-only quiescence search where
// the game wants one, and limits on depth, nodes and time. The side to move is read from the
// adapter after every move (mancala extra moves: the same side may move again), never alternated.
import { DECIDED, MARGIN_UNIT, MAX_PLY, WIN, type Adapter } from './adapter';
import { EXACT, LOWER, TranspositionTable, UPPER, fromTable } from './tt';

/** A depth this large is never decremented: search every line to its end (exact solving). */
export const INFINITE_DEPTH = 32000;
const INF = 0x3fffffff;
const QUIESCENCE_PLIES = 10;
/** The deepest heuristic iteration an exact solve runs first (for move ordering). */
const SOLVE_WARMUP = 8;
/** The clock is read every this many nodes (a power of two). */
const CLOCK_EVERY = 1024;

export interface Limits {
  readonly depth: number;
  readonly nodes: number;
  /** performance.now() value after which the search stops. */
  readonly deadline: number;
}

export interface RootResult {
  /** Index of the chosen move in adapter.moves(root). */
  readonly best: number;
  /** Principal variation as move indices, each into the moves of the position it is played in. */
  readonly pv: readonly number[];
  readonly score: number;
  /** Completed depth (INFINITE_DEPTH for an exact solve). */
  readonly depth: number;
  /** Every root move's score at the completed depth (full-window only when `noise` > 0). */
  readonly scores: readonly number[];
}

class Abort {}
const ABORT = new Abort();

export class Searcher<S, M> {
  nodes = 0;
  private readonly tt: TranspositionTable;
  private readonly killers = new Int32Array(2 * (MAX_PLY + 1)).fill(-1);
  private readonly history = new Int32Array(2 * 4096);
  private readonly pvs: number[][] = [];
  private readonly key = new Int32Array(2);
  private readonly bounds = new Int32Array(2);
  private nodeLimit = 0;
  private deadline = Infinity;
  /** The side the search plays for (contempt counts against it). */
  private rootSide = 0;

  /** `contempt` (hundredths, ≥ 0): a draw's score for the root side is −contempt (see Adapter). */
  constructor(
    private readonly a: Adapter<S, M>,
    ttBits: number,
    private readonly contempt = 0,
  ) {
    this.tt = new TranspositionTable(ttBits);
  }

  /** The adapter's terminal score, a draw shifted by the contempt (a win or loss is never 0). */
  private terminal(s: S, ply: number): number | undefined {
    const end = this.a.terminal(s, ply);
    if (end !== 0 || this.contempt === 0) return end;
    return this.a.turn(s) === this.rootSide ? -this.contempt : this.contempt;
  }

  /**
   * Iterative deepening from `root` up to the limits. `noise[i]` (may be empty) is added to root
   * move i's score when choosing; with noise every root move is searched with a full window.
   * Returns undefined if not even depth 1 completed.
   */
  iterate(root: S, limits: Limits, noise: readonly number[]): RootResult | undefined {
    this.nodeLimit = limits.nodes;
    this.deadline = limits.deadline;
    this.rootSide = this.a.turn(root);
    const moves = this.a.moves(root, 0);
    let order = this.order(root, moves, -1, 0);
    let done: RootResult | undefined;
    const maxDepth = Math.min(limits.depth, MAX_PLY - 1);
    for (let depth = 1; depth <= maxDepth; depth++) {
      const scores = new Array<number>(moves.length).fill(-INF);
      try {
        done = this.root(root, moves, order, depth, scores, noise);
      } catch (error) {
        if (error !== ABORT) throw error;
        // A partial iteration counts when its first move (the previous best) was searched fully:
        // a move that scored strictly above it did so at the deeper depth with an exact score (the
        // root's window is open above; a score equal to it is only a bound), so it is the better
        // move, whatever the shallower iteration's score was.
        const first = scores[order[0] as number] as number;
        if (noise.length === 0 && done && first !== -INF) {
          const partial = this.pick(scores, noise);
          if ((scores[partial] as number) > first) {
            done = { ...done, best: partial, score: scores[partial] as number, pv: [partial] };
          }
        }
        break;
      }
      if (Math.abs(done.score) >= DECIDED || moves.length === 1) break;
      order = order.slice().sort((x, y) => (scores[y] as number) - (scores[x] as number));
    }
    return done;
  }

  /** Search `root` to the end of every line (no evaluation); throws nothing, undefined on the limit. */
  solve(root: S, limits: Limits): RootResult | undefined {
    this.nodeLimit = limits.nodes;
    this.deadline = limits.deadline;
    this.rootSide = this.a.turn(root);
    const moves = this.a.moves(root, 0);
    let order = this.order(root, moves, -1, 0);
    const scores = new Array<number>(moves.length).fill(-INF);
    try {
      // Shallow iterations first: they fill the table's best moves, which order the exact search.
      for (let depth = 2; depth <= SOLVE_WARMUP; depth += 2) {
        const result = this.root(root, moves, order, depth, scores, []);
        if (Math.abs(result.score) >= DECIDED) break;
        order = order.slice().sort((x, y) => (scores[y] as number) - (scores[x] as number));
      }
      return this.root(root, moves, order, INFINITE_DEPTH, scores, []);
    } catch (error) {
      if (error !== ABORT) throw error;
      return undefined;
    }
  }

  /**
   * `pv` continued with the transposition table's best moves (cut-offs leave the collected line
   * short), up to `length` moves or the end of the game.
   */
  extendPv(root: S, pv: readonly number[], length: number): number[] {
    const a = this.a;
    const line: number[] = [];
    let s = root;
    for (let ply = 0; ply < length; ply++) {
      if (a.terminal(s, ply) !== undefined) break;
      const moves = a.moves(s, ply);
      let i = pv[ply];
      if (i === undefined) {
        a.hash(s, this.key);
        const slot = this.tt.probe(this.key);
        i = slot >= 0 ? (this.tt.best[slot] as number) : -1;
      }
      const move = moves[i];
      if (move === undefined) break;
      line.push(i);
      s = a.play(s, move);
    }
    return line;
  }

  private root(
    s: S,
    moves: readonly M[],
    order: readonly number[],
    depth: number,
    scores: number[],
    noise: readonly number[],
  ): RootResult {
    const a = this.a;
    const me = a.turn(s);
    const full = noise.length > 0;
    let alpha = -INF;
    let best = -INF;
    let bestIndex = order[0] as number;
    this.pvs[0] = [];
    for (const i of order) {
      const child = a.play(s, moves[i] as M);
      const childDepth = depth >= INFINITE_DEPTH ? depth : depth - 1;
      const lo = full ? -INF : alpha;
      const v =
        a.turn(child) === me
          ? this.negamax(child, childDepth, lo, INF, 1)
          : -this.negamax(child, childDepth, -INF, -lo, 1);
      scores[i] = v;
      if (v > best) {
        best = v;
        bestIndex = i;
        this.pvs[0] = [i, ...(this.pvs[1] ?? [])];
        if (v > alpha) alpha = v;
      }
    }
    const chosen = full ? this.pick(scores, noise) : bestIndex;
    const pv = chosen === bestIndex ? (this.pvs[0] as number[]) : [chosen];
    return { best: chosen, pv, score: scores[chosen] as number, depth, scores };
  }

  /** The index with the best score plus noise (the first of equals). */
  private pick(scores: readonly number[], noise: readonly number[]): number {
    let best = 0;
    let bestValue = -Infinity;
    for (let i = 0; i < scores.length; i++) {
      if (scores[i] === -INF) continue;
      const v = (scores[i] as number) + (noise[i] ?? 0);
      if (v > bestValue) {
        bestValue = v;
        best = i;
      }
    }
    return best;
  }

  private tick(): void {
    if (this.nodes >= this.nodeLimit) throw ABORT;
    this.nodes++;
    if ((this.nodes & (CLOCK_EVERY - 1)) === 0 && performance.now() > this.deadline) throw ABORT;
  }

  private negamax(s: S, depth: number, alpha: number, beta: number, ply: number): number {
    const a = this.a;
    this.pvs[ply] = [];
    this.tick();
    const end = this.terminal(s, ply);
    if (end !== undefined) return end;
    if (a.marginBounds && a.marginBounds(s, this.bounds)) {
      // Safe pruning: no line can end outside these margins (mancala: seeds only move to stores).
      const hi = marginValue(this.bounds[1] as number, true);
      if (hi <= alpha) return hi;
      const lo = marginValue(this.bounds[0] as number, false);
      if (lo >= beta) return lo;
    }
    if (depth <= 0) return this.quiesce(s, alpha, beta, ply, 0);
    if (ply >= MAX_PLY) return a.evaluate(s);

    const key = this.key;
    a.hash(s, key);
    const slot = this.tt.probe(key);
    let ttBest = -1;
    if (slot >= 0) {
      ttBest = this.tt.best[slot] as number;
      if ((this.tt.depth[slot] as number) >= Math.min(depth, INFINITE_DEPTH)) {
        const v = fromTable(this.tt.score[slot] as number, ply);
        const flag = this.tt.flag[slot];
        if (flag === EXACT || (flag === LOWER && v >= beta) || (flag === UPPER && v <= alpha)) return v;
      }
    }
    const k0 = key[0] as number;
    const k1 = key[1] as number;

    const moves = a.moves(s, ply);
    const order = this.order(s, moves, ttBest, ply);
    const me = a.turn(s);
    const alpha0 = alpha;
    let best = -INF;
    let bestIndex = -1;
    const childDepth = depth >= INFINITE_DEPTH ? depth : depth - 1;
    for (const i of order) {
      const m = moves[i] as M;
      const child = a.play(s, m);
      const same = a.turn(child) === me;
      let v: number;
      if (bestIndex < 0) {
        v = same
          ? this.negamax(child, childDepth, alpha, beta, ply + 1)
          : -this.negamax(child, childDepth, -beta, -alpha, ply + 1);
      } else {
        // Principal variation search: a null window proves the move no better, else search again.
        v = same
          ? this.negamax(child, childDepth, alpha, alpha + 1, ply + 1)
          : -this.negamax(child, childDepth, -alpha - 1, -alpha, ply + 1);
        if (v > alpha && v < beta) {
          v = same
            ? this.negamax(child, childDepth, alpha, beta, ply + 1)
            : -this.negamax(child, childDepth, -beta, -alpha, ply + 1);
        }
      }
      if (v > best) {
        best = v;
        bestIndex = i;
        if (v > alpha) {
          alpha = v;
          this.pvs[ply] = [i, ...(this.pvs[ply + 1] ?? [])];
          if (alpha >= beta) {
            if (!a.noisy(s, m)) this.rememberCutoff(me, a.moveKey(s, m), ply, depth);
            break;
          }
        }
      }
    }
    key[0] = k0;
    key[1] = k1;
    const flag = best <= alpha0 ? UPPER : best >= beta ? LOWER : EXACT;
    this.tt.store(key, Math.min(depth, INFINITE_DEPTH), flag, best, bestIndex, ply);
    return best;
  }

  private quiesce(s: S, alpha: number, beta: number, ply: number, qply: number): number {
    const a = this.a;
    if (!a.quiescence || qply >= QUIESCENCE_PLIES || ply >= MAX_PLY) return a.evaluate(s);
    const moves = a.moves(s, ply);
    const noisy: number[] = [];
    for (let i = 0; i < moves.length; i++) if (a.noisy(s, moves[i] as M)) noisy.push(i);
    let best = -INF;
    if (!(a.forcedCaptures && noisy.length > 0)) {
      best = a.evaluate(s);
      if (best >= beta || noisy.length === 0) return best;
      if (best > alpha) alpha = best;
    }
    const me = a.turn(s);
    for (const i of noisy) {
      const child = a.play(s, moves[i] as M);
      this.pvs[ply + 1] = [];
      this.tick();
      const end = this.terminal(child, ply + 1);
      let v: number;
      if (end !== undefined) v = a.turn(child) === me ? end : -end;
      else
        v =
          a.turn(child) === me
            ? this.quiesce(child, alpha, beta, ply + 1, qply + 1)
            : -this.quiesce(child, -beta, -alpha, ply + 1, qply + 1);
      if (v > best) {
        best = v;
        if (v > alpha) alpha = v;
        if (alpha >= beta) break;
      }
    }
    return best;
  }

  private rememberCutoff(side: number, moveKey: number, ply: number, depth: number): void {
    const k = 2 * ply;
    if (this.killers[k] !== moveKey) {
      this.killers[k + 1] = this.killers[k] as number;
      this.killers[k] = moveKey;
    }
    const h = side * 4096 + moveKey;
    const bonus = Math.min(depth, 20);
    this.history[h] = Math.min((this.history[h] as number) + bonus * bonus, 1 << 24);
  }

  /** Move indices, best first: TT move, captures, killers, then by history. */
  private order(s: S, moves: readonly M[], ttBest: number, ply: number): number[] {
    const a = this.a;
    const n = moves.length;
    const keys = new Array<number>(n);
    const side = a.turn(s);
    const k1 = this.killers[2 * ply];
    const k2 = this.killers[2 * ply + 1];
    for (let i = 0; i < n; i++) {
      const m = moves[i] as M;
      const mk = a.moveKey(s, m);
      let key: number;
      if (i === ttBest) key = 1 << 30;
      else if (a.noisy(s, m)) key = 1 << 29;
      else if (mk === k1) key = 1 << 28;
      else if (mk === k2) key = (1 << 28) - 1;
      else key = this.history[side * 4096 + mk] as number;
      keys[i] = key;
    }
    const idx = Array.from({ length: n }, (_, i) => i);
    return idx.sort((x, y) => (keys[y] as number) - (keys[x] as number) || x - y);
  }
}

/**
 * The best (`upper`) or worst score a game ending with final margin `margin` can have, whatever the
 * plies to its end: see outcomeScore in ./adapter.ts.
 */
function marginValue(margin: number, upper: boolean): number {
  if (margin === 0) return 0;
  if (margin > 0) return WIN + margin * MARGIN_UNIT - (upper ? 0 : MAX_PLY);
  return -(WIN - margin * MARGIN_UNIT - (upper ? MAX_PLY : 0));
}
