// Congo board geometry and the per-square move tables every generator reads.
//
//   rank 7   42 43 44 45 46 47 48      Black castle: c5–e7 (files 2–4, ranks 4–6)
//   rank 6   35 36 37 38 39 40 41
//   rank 5   28 29 30 31 32 33 34
//   rank 4   21 22 23 24 25 26 27      river
//   rank 3   14 15 16 17 18 19 20
//   rank 2    7  8  9 10 11 12 13
//   rank 1    0  1  2  3  4  5  6      White castle: c1–e3 (files 2–4, ranks 0–2)
//             a  b  c  d  e  f  g
//
// A board is an Int8Array(49): 0 empty, +type White, −type Black.
import type { Side } from '../types';

export const SIZE = 7;
export const SQUARES = 49;
export const RIVER_RANK = 3;

export const PIECE_NAMES = [
  'lion',
  'zebra',
  'elephant',
  'giraffe',
  'crocodile',
  'monkey',
  'pawn',
  'superpawn',
] as const;
export type PieceName = (typeof PIECE_NAMES)[number];

/** Piece type codes (1-based so that the sign can carry the side). */
export const LION = 1;
export const ZEBRA = 2;
export const ELEPHANT = 3;
export const GIRAFFE = 4;
export const CROCODILE = 5;
export const MONKEY = 6;
export const PAWN = 7;
export const SUPERPAWN = 8;

/** FEN letters by type code (index 0 unused). */
export const PIECE_LETTERS = ' LZEGCMPS';

/** File index 0–6 (a–g) of a square. */
export const fileOf = (sq: number): number => sq % SIZE;
/** Rank index 0–6 (ranks 1–7) of a square. */
export const rankOf = (sq: number): number => (sq / SIZE) | 0;
const onBoard = (file: number, rank: number): boolean => file >= 0 && file < SIZE && rank >= 0 && rank < SIZE;
const at = (file: number, rank: number): number => rank * SIZE + file;

const SQUARE_NAMES: readonly string[] = Array.from(
  { length: 49 },
  (_, sq) => String.fromCharCode(97 + (sq % 7)) + String(((sq / 7) | 0) + 1),
);

/** Square name such as `d4`. */
export function squareName(sq: number): string {
  return SQUARE_NAMES[sq] as string;
}

/** Square index of a name such as `d4`, or -1. */
export function parseSquare(name: string): number {
  if (name.length !== 2) return -1;
  const file = name.charCodeAt(0) - 97;
  const rank = name.charCodeAt(1) - 49;
  return onBoard(file, rank) ? at(file, rank) : -1;
}

/** True when `sq` lies in `side`'s castle. */
export function inCastle(sq: number, side: Side): boolean {
  const f = fileOf(sq);
  const r = rankOf(sq);
  return f >= 2 && f <= 4 && (side === 0 ? r <= 2 : r >= 4);
}

/** A per-square list of target squares, flattened: targets of sq are to[start[sq]..start[sq+1]). */
export interface Table {
  readonly start: Uint16Array;
  readonly to: Int8Array;
}

function table(targets: (sq: number) => number[]): Table {
  const start = new Uint16Array(SQUARES + 1);
  const all: number[] = [];
  for (let sq = 0; sq < SQUARES; sq++) {
    start[sq] = all.length;
    all.push(...targets(sq));
  }
  start[SQUARES] = all.length;
  return { start, to: Int8Array.from(all) };
}

const ORTHO: ReadonlyArray<readonly [number, number]> = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];
const DIAG: ReadonlyArray<readonly [number, number]> = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];
const ALL8 = [...ORTHO, ...DIAG];
const KNIGHT: ReadonlyArray<readonly [number, number]> = [
  [1, 2],
  [2, 1],
  [2, -1],
  [1, -2],
  [-1, -2],
  [-2, -1],
  [-2, 1],
  [-1, 2],
];

function offsets(deltas: ReadonlyArray<readonly [number, number]>, scale = 1): (sq: number) => number[] {
  return (sq) => {
    const out: number[] = [];
    for (const [df, dr] of deltas) {
      const f = fileOf(sq) + df * scale;
      const r = rankOf(sq) + dr * scale;
      if (onBoard(f, r)) out.push(at(f, r));
    }
    return out;
  };
}

/** One step in any of the 8 directions. */
export const STEP8 = table(offsets(ALL8));
/** Knight leaps (zebra). */
export const KNIGHT_LEAP = table(offsets(KNIGHT));
/** Elephant: 1 or 2 squares orthogonally (the 2-square move is a leap). */
export const ELEPHANT_MOVES = table((sq) => [...offsets(ORTHO)(sq), ...offsets(ORTHO, 2)(sq)]);
/** Giraffe's capturing leap: exactly 2 squares in any of the 8 directions. */
export const LEAP2 = table(offsets(ALL8, 2));
/** Monkey jumps: pairs (jumped square, landing square), flattened. */
export const JUMPS = table((sq) => {
  const out: number[] = [];
  for (const [df, dr] of ALL8) {
    const f = fileOf(sq) + 2 * df;
    const r = rankOf(sq) + 2 * dr;
    if (onBoard(f, r)) out.push(at(fileOf(sq) + df, rankOf(sq) + dr), at(f, r));
  }
  return out;
});

/** Lion steps that stay inside the lion's own castle, by side. */
export const LION_STEPS: readonly [Table, Table] = [
  table((sq) => (inCastle(sq, 0) ? offsets(ALL8)(sq).filter((t) => inCastle(t, 0)) : [])),
  table((sq) => (inCastle(sq, 1) ? offsets(ALL8)(sq).filter((t) => inCastle(t, 1)) : [])),
];

/** Pawn and superpawn forward targets (straight and both diagonals), by side. */
export const PAWN_FORWARD: readonly [Table, Table] = [
  table(
    offsets([
      [-1, 1],
      [0, 1],
      [1, 1],
    ]),
  ),
  table(
    offsets([
      [-1, -1],
      [0, -1],
      [1, -1],
    ]),
  ),
];
/** Superpawn sideways steps. */
export const SIDEWAYS = table(
  offsets([
    [-1, 0],
    [1, 0],
  ]),
);
/**
 * Backward rays for the non-capturing retreat: pairs (1-step square, 2-step square or -1),
 * flattened; pawns use the straight ray only (the first pair), superpawns all three.
 */
export const BACK_RAYS: readonly [Table, Table] = [0, 1].map((side) =>
  table((sq) => {
    const out: number[] = [];
    const dr = side === 0 ? -1 : 1;
    for (const df of [0, -1, 1]) {
      const f1 = fileOf(sq) + df;
      const r1 = rankOf(sq) + dr;
      if (!onBoard(f1, r1)) continue;
      const f2 = f1 + df;
      const r2 = r1 + dr;
      out.push(at(f1, r1), onBoard(f2, r2) ? at(f2, r2) : -1);
    }
    return out;
  }),
) as unknown as readonly [Table, Table];

/** The last rank for `side`'s pawns. */
export const LAST_RANK: readonly [number, number] = [SIZE - 1, 0];
