// Congo for the search, over the engine's board code, with an evaluation that reads the mailbox board: material, pawns over the river, pieces standing
// in the river (they drown if they stay), and the safety of each lion in its castle.
import type { CongoMove } from '../engines/congo';
import { CROCODILE, LION, MONKEY, PAWN, SQUARES, fileOf, inCastle, rankOf } from '../engines/congo/board';
import {
  JUMP_FLAG,
  LION_TAKEN,
  MoveList,
  PROMOTED,
  generate,
  lionFacing,
  makeMove,
} from '../engines/congo/movegen';
import { CONGO_MOVE_LIMIT, lionSquare, makeState, pieceCount, type CongoState } from '../engines/congo/state';
import type { AnyEngine } from '../engines/engine';
import { other, type Outcome } from '../engines/types';
import { EVAL_LIMIT, outcomeScore, type Adapter } from './adapter';
import { mix32 } from './rng';

/** Material by piece code (index 1 lion … 8 superpawn), hundredths of a pawn; the lion is the game. */
const VALUE = [0, 0, 300, 250, 280, 320, 350, 100, 330] as const;

const W = {
  /** A pawn past the river (it may also step back, and is close to promotion). */
  pawnAcross: 35,
  /** Per rank a pawn has advanced. */
  pawnAdvance: 6,
  /** A piece other than a crocodile in the river: it drowns unless it leaves next move. */
  inRiver: 60,
  /** An enemy piece within two squares of the lion. */
  lionAttacker: 30,
  /** An enemy piece inside the own castle. */
  castleIntruder: 25,
  /** Per rank a piece other than a pawn or the lion stands forward of its own first rank (up to 4). */
  pieceAdvance: 5,
  /** Per square such a piece is closer than 4 (Chebyshev distance) to the enemy lion. */
  lionPressure: 8,
} as const;

/**
 * A third of a pawn: without it, levels 7 and 8 repeated into threefold-repetition draws from
 * balanced openings in 4 games out of 5 (both sides shuffling a piece back and forth by ply 34).
 */
const CONTEMPT = 30;

function lionSafety(board: Int8Array, lion: number, sign: number): number {
  if (lion < 0) return 0;
  const lf = fileOf(lion);
  const lr = rankOf(lion);
  const side = sign > 0 ? 0 : 1;
  let penalty = 0;
  for (let sq = 0; sq < SQUARES; sq++) {
    const p = board[sq] as number;
    if (p * sign >= 0) continue; // empty or own
    const d = Math.max(Math.abs(fileOf(sq) - lf), Math.abs(rankOf(sq) - lr));
    if (d <= 2) penalty += W.lionAttacker;
    if (inCastle(sq, side)) penalty += W.castleIntruder;
  }
  return penalty;
}

export function evaluateCongo(s: CongoState): number {
  const board = s.board;
  const whiteLion = lionSquare(board, 0);
  const blackLion = lionSquare(board, 1);
  let score = 0;
  for (let sq = 0; sq < SQUARES; sq++) {
    const p = board[sq] as number;
    if (p === 0) continue;
    const sign = p > 0 ? 1 : -1;
    const type = p * sign;
    if (type === LION) continue;
    let v = VALUE[type] as number;
    const rank = rankOf(sq);
    if (type === PAWN) {
      const advanced = sign > 0 ? rank - 1 : 5 - rank;
      v += W.pawnAdvance * advanced;
      if (sign > 0 ? rank > 3 : rank < 3) v += W.pawnAcross;
    } else {
      // Activity: forward, and near the enemy lion (what a locked, balanced position needs to be
      // played for a win rather than shuffled).
      v += W.pieceAdvance * Math.min(sign > 0 ? rank : 6 - rank, 4);
      const enemyLion = sign > 0 ? blackLion : whiteLion;
      if (enemyLion >= 0) {
        const d = Math.max(Math.abs(fileOf(sq) - fileOf(enemyLion)), Math.abs(rank - rankOf(enemyLion)));
        if (d < 4) v += W.lionPressure * (4 - d);
      }
    }
    if (rank === 3 && type !== CROCODILE) v -= W.inRiver;
    score += sign * v;
  }
  score -= lionSafety(board, whiteLion, 1);
  score += lionSafety(board, blackLion, -1);
  if (s.side === 1) score = -score;
  return Math.max(-EVAL_LIMIT, Math.min(EVAL_LIMIT, score));
}

/** A listed move: its path (for notation) and where the generator left it (for makeMove). */
export interface CongoSearchMove extends CongoMove {
  readonly list: MoveList;
  readonly i: number;
}

// One move buffer per ply of the search line (generation at ply p never touches another ply's),
// and the state each was last filled for: terminal() generates, moves() at the same ply reuses.
const LISTS: MoveList[] = [];
const FILLED: (CongoState | undefined)[] = [];

function listAt(ply: number): MoveList {
  while (LISTS.length <= ply) LISTS.push(new MoveList());
  return LISTS[ply] as MoveList;
}

function fill(s: CongoState, ply: number): MoveList {
  const list = listAt(ply);
  if (FILLED[ply] !== s) {
    list.reset();
    generate(s.board, s.side, list);
    FILLED[ply] = s;
  }
  return list;
}

/** The engine's end-of-game rules (congo/index.ts endOf), in the same order. */
function outcomeOf(s: CongoState, ply: number): Outcome | undefined {
  const lion = lionSquare(s.board, s.side);
  if (lion < 0) return { winner: other(s.side), reason: 'lion-captured' };
  if (pieceCount(s.board) === 2 && lionFacing(s.board, s.side === 0 ? 1 : -1, lion) < 0) {
    return { reason: 'bare-lions' };
  }
  if (s.repeats >= 2) return { reason: 'threefold-repetition' };
  const list = fill(s, ply);
  if (list.n === 0) return { winner: other(s.side), reason: 'no-moves' };
  if (s.ply >= CONGO_MOVE_LIMIT || list.overflow) return { reason: 'move-limit' };
  return undefined;
}

/**
 * Congo over the engine's board code: moves generated into per-ply buffers and played with
 * makeMove, states built with the engine's makeState (Zobrist key and repetition count), so every
 * state is one the engine itself would build; the contract test compares with engine.play.
 */
export function congoAdapter(engine: AnyEngine): Adapter<CongoState, CongoSearchMove> {
  return {
    engine,
    forcedCaptures: false,
    quiescence: true,
    contempt: CONTEMPT,
    moves(s, ply) {
      if (outcomeOf(s, ply)) return [];
      const list = fill(s, ply);
      const moves = new Array<CongoSearchMove>(list.n);
      for (let i = 0; i < list.n; i++) moves[i] = { path: list.path(i), list, i };
      return moves;
    },
    play(s, m) {
      const board = s.board.slice();
      const r = makeMove(board, s.side, m.list, m.i);
      const irreversible = (r & 255) > 0 || (r & (PROMOTED | LION_TAKEN)) !== 0;
      return makeState(board, other(s.side), irreversible ? undefined : s, s.ply + 1);
    },
    turn: (s) => s.side,
    terminal(s, ply) {
      const o = outcomeOf(s, ply);
      return o ? outcomeScore(o.winner, s.side, 0, ply) : undefined;
    },
    evaluate: evaluateCongo,
    hash(s, out) {
      out[0] = s.hash;
      let h = s.side === 0 ? 0x2545f491 : 0x6c8e9cf5;
      const b = s.board;
      for (let sq = 0; sq < SQUARES; sq++) if (b[sq] !== 0) h = mix32(h ^ ((b[sq] as number) * 64 + sq));
      out[1] = h;
    },
    noisy(s, m) {
      const path = m.path;
      if (path.length > 2) return true; // a monkey capture sequence
      const from = path[0] as number;
      const to = path[1] as number;
      const own = s.side === 0 ? 1 : -1;
      if ((s.board[to] as number) * own < 0) return true;
      // A single monkey jump over an enemy piece lands two squares away on an empty square.
      return (
        ((m.list.mv[m.i] as number) & JUMP_FLAG) !== 0 ||
        ((s.board[from] as number) * own === MONKEY &&
          Math.max(Math.abs(fileOf(from) - fileOf(to)), Math.abs(rankOf(from) - rankOf(to))) === 2)
      );
    },
    moveKey: (_s, m) => (m.path[0] as number) * 49 + (m.path[m.path.length - 1] as number),
  };
}
