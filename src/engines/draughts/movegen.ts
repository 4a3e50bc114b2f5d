// Legal move generation over bitboards (see board.ts for the square numbering). Captures follow the
// Russian code: compulsory, free choice among sequences, Turkish strike (captured pieces stay on the
// board until the move ends: they block and cannot be jumped twice), flying kings with the landing
// restriction, and a man reaching the last rank mid-capture continues as a king.
//
// Two capture-path conventions (rules B1/B2): "keep" lists every path, a king's straight-on
// continuation being generated once (from the first landing square) while turns are tried from every
// landing square; "drop" additionally merges paths with the same origin, destination, captured set
// and promotion — the list users see.
import { EVEN_ROWS, FILE_A, FILE_H, NEIGHBOUR, ODD_ROWS, ROW_1, ROW_8, bit, popcount } from './board';

/** Room for the moves of one position (far above any reachable count). */
const CAPACITY = 2048;

/** A reusable buffer of generated moves: parallel arrays, `n` entries. */
export class MoveList {
  readonly from = new Int8Array(CAPACITY);
  readonly to = new Int8Array(CAPACITY);
  readonly captured = new Int32Array(CAPACITY);
  readonly promotes = new Uint8Array(CAPACITY);
  /** Landing squares of each move, only when collected (the API needs them; perft does not). */
  paths: number[][] | null = null;
  n = 0;
}

// Search context, module-level so the recursive capture search allocates nothing.
let gOpp = 0;
let gOcc = 0;
let gFrom = 0;
let gPromoRow = 0;
/** True while a man crowned mid-capture continues as a king. */
let gCrowned = false;
let gKeep = false;
let gOriginStart = 0;
let gList: MoveList = new MoveList();
const gPath = new Int8Array(64);

function emit(to: number, captured: number, promotes: boolean, length: number): void {
  const list = gList;
  const flag = promotes ? 1 : 0;
  if (!gKeep) {
    for (let i = gOriginStart; i < list.n; i++) {
      if (list.to[i] === to && list.captured[i] === captured && list.promotes[i] === flag) return;
    }
  }
  const i = list.n++;
  list.from[i] = gFrom;
  list.to[i] = to;
  list.captured[i] = captured;
  list.promotes[i] = flag;
  if (list.paths) list.paths.push(Array.from(gPath.subarray(0, length)));
}

/** Captures by a king standing on s, sliding along d; true if at least one capture exists. */
function kingRay(s: number, d: number, captured: number, depth: number): boolean {
  let t = NEIGHBOUR[4 * s + d] as number;
  while (t >= 0 && (gOcc & (1 << t)) === 0) t = NEIGHBOUR[4 * t + d] as number;
  if (t < 0 || (gOpp & (1 << t)) === 0 || (captured & (1 << t)) !== 0) return false;
  const first = NEIGHBOUR[4 * t + d] as number;
  if (first < 0 || (gOcc & (1 << first)) !== 0) return false;
  const taken = captured | (1 << t);
  // Straight on: once, from the first landing square (its scan passes the later ones).
  gPath[depth] = first;
  let more = kingRay(first, d, taken, depth + 1);
  const turnA = d ^ 1;
  const turnB = d ^ 2;
  for (let l = first; l >= 0 && (gOcc & (1 << l)) === 0; l = NEIGHBOUR[4 * l + d] as number) {
    gPath[depth] = l;
    if (kingRay(l, turnA, taken, depth + 1)) more = true;
    if (kingRay(l, turnB, taken, depth + 1)) more = true;
  }
  if (!more) {
    for (let l = first; l >= 0 && (gOcc & (1 << l)) === 0; l = NEIGHBOUR[4 * l + d] as number) {
      gPath[depth] = l;
      emit(l, taken, gCrowned, depth + 1);
    }
  }
  return true;
}

/** Captures by a man on s (all four directions); true if at least one exists. */
function manJumps(s: number, captured: number, depth: number): boolean {
  let found = false;
  for (let d = 0; d < 4; d++) {
    const over = NEIGHBOUR[4 * s + d] as number;
    if (over < 0 || (gOpp & (1 << over)) === 0 || (captured & (1 << over)) !== 0) continue;
    const land = NEIGHBOUR[4 * over + d] as number;
    if (land < 0 || (gOcc & (1 << land)) !== 0) continue;
    found = true;
    gPath[depth] = land;
    const taken = captured | (1 << over);
    if ((gPromoRow & (1 << land)) !== 0) {
      // Crowned mid-capture: continue as a king (straight back is blocked by the taken piece).
      gCrowned = true;
      let more = false;
      for (let e = 0; e < 4; e++) if (kingRay(land, e, taken, depth + 1)) more = true;
      if (!more) emit(land, taken, true, depth + 1);
      gCrowned = false;
    } else if (!manJumps(land, taken, depth + 1)) {
      emit(land, taken, false, depth + 1);
    }
  }
  return found;
}

/**
 * Fills `list` with the legal moves of the side to move (`own` = its pieces). `white` says which
 * side moves (men direction, promotion rank); `keep` selects the keep-duplicates convention.
 */
export function generate(
  own: number,
  opp: number,
  kings: number,
  white: boolean,
  list: MoveList,
  keep: boolean,
): void {
  list.n = 0;
  const occ = own | opp;
  gOpp = opp;
  gKeep = keep;
  gList = list;
  for (let rest = own; rest !== 0; rest &= rest - 1) {
    const s = 31 - Math.clz32(rest & -rest);
    gFrom = s;
    gOcc = occ & ~(1 << s);
    gOriginStart = list.n;
    gCrowned = false;
    if ((kings & (1 << s)) !== 0) {
      for (let d = 0; d < 4; d++) kingRay(s, d, 0, 0);
    } else {
      gPromoRow = white ? ROW_8 : ROW_1;
      manJumps(s, 0, 0);
    }
  }
  if (list.n > 0) return;
  const empty = ~occ;
  for (let rest = own; rest !== 0; rest &= rest - 1) {
    const s = 31 - Math.clz32(rest & -rest);
    if ((kings & (1 << s)) !== 0) {
      for (let d = 0; d < 4; d++) {
        for (let t = NEIGHBOUR[4 * s + d] as number; t >= 0 && (empty & (1 << t)) !== 0;) {
          push(list, s, t, false);
          t = NEIGHBOUR[4 * t + d] as number;
        }
      }
    } else {
      const promoRow = white ? ROW_8 : ROW_1;
      for (let d = white ? 0 : 2, end = d + 2; d < end; d++) {
        const t = NEIGHBOUR[4 * s + d] as number;
        if (t >= 0 && (empty & (1 << t)) !== 0) push(list, s, t, (promoRow & (1 << t)) !== 0);
      }
    }
  }
}

function push(list: MoveList, from: number, to: number, promotes: boolean): void {
  const i = list.n++;
  list.from[i] = from;
  list.to[i] = to;
  list.captured[i] = 0;
  list.promotes[i] = promotes ? 1 : 0;
  if (list.paths) list.paths.push([to]);
}

/** Number of quiet moves by men (bitboard shifts), for counting at perft leaves. */
export function countManSteps(men: number, empty: number, white: boolean): number {
  if (white) {
    const ne = ((men & EVEN_ROWS) << 4) | ((men & ODD_ROWS & ~FILE_H) << 5);
    const nw = ((men & EVEN_ROWS & ~FILE_A) << 3) | ((men & ODD_ROWS) << 4);
    return popcount(ne & empty) + popcount(nw & empty);
  }
  const se = ((men & EVEN_ROWS) >>> 4) | ((men & ODD_ROWS & ~FILE_H) >>> 3);
  const sw = ((men & EVEN_ROWS & ~FILE_A) >>> 5) | ((men & ODD_ROWS) >>> 4);
  return popcount(se & empty) + popcount(sw & empty);
}

/** Number of quiet moves by kings. */
export function countKingSteps(kings: number, empty: number): number {
  let n = 0;
  for (let rest = kings; rest !== 0; rest &= rest - 1) {
    const s = 31 - Math.clz32(rest & -rest);
    for (let d = 0; d < 4; d++) {
      for (let t = NEIGHBOUR[4 * s + d] as number; t >= 0 && (empty & (1 << t)) !== 0;) {
        n++;
        t = NEIGHBOUR[4 * t + d] as number;
      }
    }
  }
  return n;
}

/** True if the side owning `own` has a capture. */
export function hasCapture(own: number, opp: number, kings: number): boolean {
  const occ = own | opp;
  for (let rest = own; rest !== 0; rest &= rest - 1) {
    const s = 31 - Math.clz32(rest & -rest);
    if ((kings & (1 << s)) !== 0) {
      for (let d = 0; d < 4; d++) {
        let t = NEIGHBOUR[4 * s + d] as number;
        while (t >= 0 && (occ & (1 << t)) === 0) t = NEIGHBOUR[4 * t + d] as number;
        if (t < 0 || (opp & (1 << t)) === 0) continue;
        const land = NEIGHBOUR[4 * t + d] as number;
        if (land >= 0 && (occ & (1 << land)) === 0) return true;
      }
    } else {
      for (let d = 0; d < 4; d++) {
        const over = NEIGHBOUR[4 * s + d] as number;
        if (over < 0 || (opp & (1 << over)) === 0) continue;
        const land = NEIGHBOUR[4 * over + d] as number;
        if (land >= 0 && (occ & (1 << land)) === 0) return true;
      }
    }
  }
  return false;
}

/** Count of legal moves (for perft leaves): quiet moves by shifts when no capture exists. */
export function countMoves(
  own: number,
  opp: number,
  kings: number,
  white: boolean,
  scratch: MoveList,
  keep: boolean,
): number {
  if (hasCapture(own, opp, kings)) {
    generate(own, opp, kings, white, scratch, keep);
    return scratch.n;
  }
  const empty = ~(own | opp);
  return countManSteps(own & ~kings, empty, white) + countKingSteps(own & kings, empty);
}

/** The bitboards after a move: [white, black, kings]. */
export function applyBits(
  white: number,
  black: number,
  kings: number,
  whiteMoves: boolean,
  from: number,
  to: number,
  captured: number,
  promotes: boolean,
): [number, number, number] {
  const move = bit(from) | bit(to);
  const wasKing = (kings & bit(from)) !== 0;
  let k = kings & ~captured & ~bit(from);
  if (wasKing || promotes) k |= bit(to);
  if (whiteMoves) return [white ^ move, black & ~captured, k];
  return [white & ~captured, black ^ move, k];
}
