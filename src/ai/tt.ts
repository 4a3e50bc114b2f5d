// A bounded transposition table: 2^bits slots in typed arrays, always-replace, keyed by two 32-bit
// halves (one picks the slot, both must match). Scores of decided games are stored relative to the
// node (plies from it) and converted back by the ply of the probing node.
import { DECIDED } from './adapter';

export const EXACT = 1;
export const LOWER = 2;
export const UPPER = 3;

export class TranspositionTable {
  private readonly mask: number;
  readonly k0: Int32Array;
  readonly k1: Int32Array;
  readonly score: Int32Array;
  readonly depth: Int16Array;
  readonly flag: Uint8Array;
  readonly best: Int16Array;

  constructor(bits: number) {
    const size = 1 << bits;
    this.mask = size - 1;
    this.k0 = new Int32Array(size);
    this.k1 = new Int32Array(size);
    this.score = new Int32Array(size);
    this.depth = new Int16Array(size);
    this.flag = new Uint8Array(size);
    this.best = new Int16Array(size);
  }

  /** The slot of `key`, or -1 if it holds another position (or nothing). */
  probe(key: Int32Array): number {
    const i = (key[0] as number) & this.mask;
    return this.flag[i] !== 0 && this.k0[i] === key[0] && this.k1[i] === key[1] ? i : -1;
  }

  store(key: Int32Array, depth: number, flag: number, score: number, best: number, ply: number): void {
    const i = (key[0] as number) & this.mask;
    this.k0[i] = key[0] as number;
    this.k1[i] = key[1] as number;
    this.depth[i] = depth;
    this.flag[i] = flag;
    this.score[i] = toTable(score, ply);
    this.best[i] = best;
  }
}

/** A root-relative score as a node-relative one (decided scores count plies from the node). */
export function toTable(score: number, ply: number): number {
  if (score >= DECIDED) return score + ply;
  if (score <= -DECIDED) return score - ply;
  return score;
}

export function fromTable(score: number, ply: number): number {
  if (score >= DECIDED) return score - ply;
  if (score <= -DECIDED) return score + ply;
  return score;
}
