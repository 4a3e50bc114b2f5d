// Kalah, Oware and Congkak for the search: moves are house numbers, a move is one `step` of the
// engine's own sowing code (no legality re-check, no notation), and the evaluation reads the pits.
import type { AnyEngine } from '../engines/engine';
import type { Ruleset } from '../engines/mancala/rules';
import { EXTRA_MOVE, capturedOf, legalMask, sow } from '../engines/mancala/sow';
import { step, type MancalaState } from '../engines/mancala/state';
import type { Side } from '../engines/types';
import { EVAL_LIMIT, outcomeScore, type Adapter } from './adapter';
import { mix32 } from './rng';

const MOVES: number[][] = Array.from({ length: 1 << 10 }, (_, mask) => {
  const list: number[] = [];
  for (let i = 0; i < 10; i++) if (mask & (1 << i)) list.push(i + 1);
  return list;
});

/** Weights, in hundredths of a seed. */
const W = {
  store: 100,
  /** Seeds in one's own row (they go to the owner when a row-empty game ends). */
  rowRowEmpty: 25,
  /** A house whose seeds end exactly in the own store (an extra move), Kalah. */
  extraMove: 45,
  /** Congkak: the best immediate gain of the side to move (relays make it hard to see statically). */
  tempo: 50,
  /** Oware: seeds on one's own side (mobility, and seeds the opponent cannot reach yet). */
  rowOware: 8,
  /** Oware: a house of 1 or 2 seeds the opponent may capture. */
  vulnerable: 20,
} as const;

const scratch = new Uint16Array(32);

function rowSum(p: Uint16Array, base: number, h: number): number {
  let sum = 0;
  for (let i = base; i < base + h; i++) sum += p[i] as number;
  return sum;
}

/** Static evaluation of `p` for `me` (the side to move). */
export function evaluateMancala(r: Ruleset, p: Uint16Array, me: Side): number {
  const h = r.houses;
  const myBase = me === 0 ? 0 : h + 1;
  const opBase = me === 0 ? h + 1 : 0;
  const myStore = myBase + h;
  const opStore = opBase + h;
  let score = W.store * ((p[myStore] as number) - (p[opStore] as number));
  if (r.end === 'row-empty') {
    score += W.rowRowEmpty * (rowSum(p, myBase, h) - rowSum(p, opBase, h));
    if (!r.relay) {
      for (let i = 0; i < h; i++) {
        if (p[myBase + i] === h - i) score += W.extraMove;
        if (p[opBase + i] === h - i) score -= W.extraMove >> 1; // the opponent moves later
      }
    } else {
      score += (W.tempo * bestGain(r, p, me)) / 100;
    }
  } else {
    score += W.rowOware * (rowSum(p, myBase, h) - rowSum(p, opBase, h));
    for (let i = 0; i < h; i++) {
      const mine = p[myBase + i] as number;
      const theirs = p[opBase + i] as number;
      if (theirs === 1 || theirs === 2) score += W.vulnerable;
      if (mine === 1 || mine === 2) score -= W.vulnerable;
    }
  }
  return Math.max(-EVAL_LIMIT, Math.min(EVAL_LIMIT, Math.round(score)));
}

/** The most one move of `me` adds to his store now (in hundredths; an extra move counts a seed). */
function bestGain(r: Ruleset, p: Uint16Array, me: Side): number {
  const h = r.houses;
  const store = me === 0 ? h : 2 * h + 1;
  const buf = scratch.length >= r.n ? scratch.subarray(0, r.n) : new Uint16Array(r.n);
  let best = 0;
  for (let m = legalMask(r, p, me), house = 0; m !== 0; m >>>= 1, house++) {
    if ((m & 1) === 0) continue;
    buf.set(p);
    const packed = sow(r, buf, me, house);
    const gain =
      100 * ((buf[store] as number) - (p[store] as number)) + ((packed & EXTRA_MOVE) !== 0 ? 100 : 0);
    if (gain > best) best = gain;
  }
  return best;
}

export function mancalaAdapter(engine: AnyEngine): Adapter<MancalaState, number> {
  return {
    engine,
    forcedCaptures: false,
    quiescence: false,
    moves: (s) => (s.outcome ? [] : (MOVES[legalMask(s.rules, s.pits, s.toMove)] as number[])),
    play: (s, m) => step(s, m - 1).state,
    turn: (s) => s.toMove,
    terminal(s, ply) {
      const o = s.outcome;
      if (!o) return undefined;
      const margin = o.score ? Math.abs((o.score[0] as number) - (o.score[1] as number)) : 0;
      return outcomeScore(o.winner, s.toMove, margin, ply);
    },
    evaluate: (s) => evaluateMancala(s.rules, s.pits, s.toMove),
    hash(s, out) {
      let a = s.toMove === 0 ? 0x1234567 : 0x7654321;
      let b = s.toMove === 0 ? 0x2545f491 : 0x3c6ef372;
      const p = s.pits;
      for (let i = 0; i < p.length; i++) {
        a = mix32(a ^ ((p[i] as number) + (i << 16)));
        b = Math.imul(b ^ (p[i] as number), 0x01000193) + i;
      }
      out[0] = a;
      out[1] = mix32(b);
    },
    noisy(s, m) {
      // A move ending in the own store or capturing: sow it on a scratch copy.
      const r = s.rules;
      const buf = scratch.length >= r.n ? scratch.subarray(0, r.n) : new Uint16Array(r.n);
      buf.set(s.pits);
      const packed = sow(r, buf, s.toMove, m - 1);
      return (packed & EXTRA_MOVE) !== 0 || capturedOf(packed) > 0;
    },
    moveKey: (_s, m) => m,
    marginBounds(s, out) {
      // Row-empty games: every seed in a house ends in one of the two stores.
      if (s.rules.end !== 'row-empty') return false;
      const h = s.rules.houses;
      const p = s.pits;
      const mine = (s.toMove === 0 ? p[h] : p[2 * h + 1]) as number;
      const theirs = (s.toMove === 0 ? p[2 * h + 1] : p[h]) as number;
      const left = rowSum(p, 0, h) + rowSum(p, h + 1, h);
      out[0] = mine - theirs - left;
      out[1] = mine - theirs + left;
      return true;
    },
  };
}
