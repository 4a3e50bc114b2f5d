// The 32 dark squares of the 8×8 board as bits of a 32-bit integer, and the tables move generation
// walks. Internal index s = 4·row + k, row 0 = rank 1 (White's side); on even rows the dark squares
// are files a c e g, on odd rows b d f h. Bit s of a bitboard is square s.
//
//        a    b    c    d    e    f    g    h
//   8 |    | 28 |    | 29 |    | 30 |    | 31 |   ← White promotes here
//   7 | 24 |    | 25 |    | 26 |    | 27 |    |
//   6 |    | 20 |    | 21 |    | 22 |    | 23 |
//   5 | 16 |    | 17 |    | 18 |    | 19 |    |
//   4 |    | 12 |    | 13 |    | 14 |    | 15 |
//   3 |  8 |    |  9 |    | 10 |    | 11 |    |
//   2 |    |  4 |    |  5 |    |  6 |    |  7 |
//   1 |  0 |    |  1 |    |  2 |    |  3 |    |   ← Black promotes here
//
// Diagonal steps: from an even row NE = +4, NW = +3, SE = −4, SW = −5; from an odd row NE = +5,
// NW = +4, SE = −3, SW = −4 (edges excluded by the tables below). Public notation never sees these
// numbers: squares are algebraic (`c3`), or lidraughts' numbers on input (b8 = 1 … g1 = 32).

/** Directions: 0 NE, 1 NW, 2 SE, 3 SW (north = towards rank 8). `d ^ 3` is the opposite. */
export const NE = 0;
export const NW = 1;
export const SE = 2;
export const SW = 3;

const FILES = 'abcdefgh';

export const EVEN_ROWS = 0x0f0f0f0f;
export const ODD_ROWS = 0xf0f0f0f0 | 0;
/** Squares on file a (even rows, k = 0) and file h (odd rows, k = 3). */
export const FILE_A = 0x01010101;
export const FILE_H = 0x80808080 | 0;
export const ROW_1 = 0x0000000f;
export const ROW_8 = 0xf0000000 | 0;

/** File 0–7 and row 0–7 of square s. */
export const fileOf = (s: number): number => 2 * (s & 3) + ((s >> 2) & 1);
export const rowOf = (s: number): number => s >> 2;

/** The square at (file, row), or -1 if off the board or a light square. */
export function squareAt(file: number, row: number): number {
  if (file < 0 || file > 7 || row < 0 || row > 7 || (file + row) % 2 !== 0) return -1;
  return 4 * row + (file >> 1);
}

/** NEIGHBOUR[4·s + d]: the next square from s in direction d, or -1. */
export const NEIGHBOUR: Int8Array = (() => {
  const table = new Int8Array(128);
  const steps = [
    [1, 1],
    [-1, 1],
    [1, -1],
    [-1, -1],
  ] as const;
  for (let s = 0; s < 32; s++) {
    for (let d = 0; d < 4; d++) {
      const [df, dr] = steps[d] as readonly [number, number];
      table[4 * s + d] = squareAt(fileOf(s) + df, rowOf(s) + dr);
    }
  }
  return table;
})();

/** The algebraic name of square s (`a1`, `h8`). */
export const squareName = (s: number): string => `${FILES[fileOf(s)]}${rowOf(s) + 1}`;

/** Lidraughts' number (b8 = 1 … g1 = 32) of square s. */
export const squareNumber = (s: number): number => 4 * (7 - rowOf(s)) + (s & 3) + 1;

/** Reads `c3` or `1`–`32`; -1 for anything else (including light squares). */
export function parseSquare(text: string): number {
  if (/^[1-9]\d?$/.test(text)) {
    const n = Number(text);
    if (n > 32) return -1;
    return 4 * (7 - ((n - 1) >> 2)) + ((n - 1) & 3);
  }
  const m = /^([a-h])([1-8])$/.exec(text);
  if (!m) return -1;
  return squareAt(FILES.indexOf(m[1] as string), Number(m[2]) - 1);
}

/** Bit of square s. */
export const bit = (s: number): number => 1 << s;

/** Number of set bits. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Index of the lowest set bit of a non-zero x. */
export const lowestSquare = (x: number): number => 31 - Math.clz32(x & -x);

/** The squares of a bitboard, lowest first. */
export function squaresOf(x: number): number[] {
  const out: number[] = [];
  for (let rest = x; rest !== 0; rest &= rest - 1) out.push(lowestSquare(rest));
  return out;
}

/** The long diagonal a1–h8 (squares 0, 4, 9, 13, 18, 22, 27, 31). */
export const LONG_DIAGONAL = [0, 4, 9, 13, 18, 22, 27, 31].reduce((acc, s) => acc | bit(s), 0);
