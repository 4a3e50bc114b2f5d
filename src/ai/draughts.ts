// Russian draughts for the search: the engine's bitboard states, its cached legal-move lists, and
// applyMove directly (a listed move needs no re-check). Captures are compulsory, so the quiescence
// search follows them without a stand-pat.
import type { DraughtsMove, DraughtsState } from '../engines/draughts';
import { MoveList, countKingSteps, countManSteps, generate } from '../engines/draughts/movegen';
import { applyMove } from '../engines/draughts/state';
import { popcount } from '../engines/draughts/board';
import type { AnyEngine } from '../engines/engine';
import { EVAL_LIMIT, outcomeScore, type Adapter } from './adapter';
import { mix32 } from './rng';

/** Weights, in hundredths of a man. */
const W = {
  man: 100,
  king: 300,
  /** Per row a man has advanced. */
  advance: 4,
  /** A man still on its own back rank (it guards the promotion squares). */
  backRank: 10,
  /** A man or king on the four central squares (c3–f6 region). */
  centre: 6,
  /** Per quiet move available (a cheap mobility count). */
  mobility: 2,
} as const;

const ROW_1 = 0x0000000f;
const ROW_8 = 0xf0000000 | 0;
/** d4, f4, c5, e5 and their neighbours in the middle (rows 3–4, inner files). */
const CENTRE = (0x6 << 12) | (0x6 << 16) | (0x6 << 8) | (0x6 << 20);

/** Sum over the men of `men` of their rows (0–7). */
function rowSum(men: number): number {
  let sum = 0;
  for (let rest = men; rest !== 0; rest &= rest - 1) sum += (31 - Math.clz32(rest & -rest)) >> 2;
  return sum;
}

export function evaluateDraughts(s: DraughtsState): number {
  const { white, black, kings } = s;
  const wm = white & ~kings;
  const bm = black & ~kings;
  const empty = ~(white | black);
  let score =
    W.man * (popcount(wm) - popcount(bm)) +
    W.king * (popcount(white & kings) - popcount(black & kings)) +
    W.advance * (rowSum(wm) - (7 * popcount(bm) - rowSum(bm))) +
    W.backRank * (popcount(wm & ROW_1) - popcount(bm & ROW_8)) +
    W.centre * (popcount(white & CENTRE) - popcount(black & CENTRE)) +
    W.mobility *
      (countManSteps(wm, empty, true) +
        countKingSteps(white & kings, empty) -
        countManSteps(bm, empty, false) -
        countKingSteps(black & kings, empty));
  if (s.side === 1) score = -score;
  return Math.max(-EVAL_LIMIT, Math.min(EVAL_LIMIT, score));
}

const LIST = new MoveList();
const NONE: readonly DraughtsMove[] = [];

/**
 * The legal moves, generated as the engine's legalMoves does (same generator, same order, same
 * drop-duplicates convention) into one reused buffer: the engine's per-state list allocates a
 * buffer and caches it in a WeakMap, which costs more than the search's whole node.
 */
function movesOf(s: DraughtsState): readonly DraughtsMove[] {
  if (s.outcome !== null) return NONE;
  const list = LIST;
  list.paths = [];
  generate(
    s.side === 0 ? s.white : s.black,
    s.side === 0 ? s.black : s.white,
    s.kings,
    s.side === 0,
    list,
    false,
  );
  const paths = list.paths;
  const moves = new Array<DraughtsMove>(list.n);
  for (let i = 0; i < list.n; i++) {
    moves[i] = {
      from: list.from[i] as number,
      path: paths[i] as number[],
      captured: list.captured[i] as number,
      promotes: list.promotes[i] === 1,
    };
  }
  return moves;
}

export function draughtsAdapter(engine: AnyEngine): Adapter<DraughtsState, DraughtsMove> {
  return {
    engine,
    forcedCaptures: true,
    quiescence: true,
    // A fifth of a man: between levels 7 and 6, 45 of 100 games from balanced openings were drawn.
    contempt: 20,
    moves: movesOf,
    play: (s, m) => applyMove(s, m.from, m.path[m.path.length - 1] as number, m.captured, m.promotes),
    turn: (s) => s.side,
    terminal: (s, ply) => (s.outcome ? outcomeScore(s.outcome.winner, s.side, 0, ply) : undefined),
    evaluate: evaluateDraughts,
    hash(s, out) {
      out[0] = mix32(
        mix32(s.white ^ 0x27d4eb2d) ^ mix32(s.black + 0x165667b1) ^ mix32(s.kings ^ 0x3c6ef372) ^ s.side,
      );
      out[1] = mix32(
        Math.imul(s.white, 31) ^ Math.imul(s.black, 0x01000193) ^ (s.kings + 0x7f4a7c15) ^ (s.side << 7),
      );
    },
    noisy: (_s, m) => m.captured !== 0,
    moveKey: (_s, m) => m.from * 32 + (m.path[m.path.length - 1] as number),
  };
}
