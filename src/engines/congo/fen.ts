// Congo FEN: seven ranks from rank 7 down to rank 1, digits for empty runs, upper case White,
// then the side to move (`gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w`).
import { err, ok, type EngineError, type Result, type Side } from '../types';
import {
  CROCODILE,
  LAST_RANK,
  LION,
  PAWN,
  PIECE_LETTERS,
  RIVER_RANK,
  SIZE,
  SQUARES,
  SUPERPAWN,
  inCastle,
  rankOf,
  squareName,
} from './board';

export const START_FEN = 'gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w';

/** A parsed position: the board and the side to move. */
export interface Position {
  readonly board: Int8Array;
  readonly side: Side;
}

const WHITE_LETTERS = PIECE_LETTERS.slice(1);
const BLACK_LETTERS = WHITE_LETTERS.toLowerCase();

const invalid = (
  code: 'INVALID_NOTATION' | 'INVALID_POSITION',
  message: string,
): Result<never, EngineError> => err({ code, message });

/** The most pieces of each type a side can have (index = type code; pawns and superpawns share 7). */
const MOST = [0, 1, 1, 2, 1, 1, 1, 7, 7];
const TYPE_NAMES = ['', 'lion', 'zebra', 'elephant', 'giraffe', 'crocodile', 'monkey', 'pawn', 'superpawn'];
const SIDE_NAMES = ['White', 'Black'] as const;

/** Reads a Congo FEN without the position checks of `parseFen` (syntax only). */
export function readFen(text: string): Result<Position, EngineError> {
  if (typeof text !== 'string') return invalid('INVALID_NOTATION', 'position must be a string');
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 2) return invalid('INVALID_NOTATION', 'expected "<ranks> <w|b>"');
  const [placement, turn] = parts as [string, string];
  if (turn !== 'w' && turn !== 'b') return invalid('INVALID_NOTATION', 'side to move must be w or b');
  const rows = placement.split('/');
  if (rows.length !== SIZE) return invalid('INVALID_NOTATION', 'expected 7 ranks separated by /');
  const board = new Int8Array(SQUARES);
  for (let i = 0; i < SIZE; i++) {
    const rank = SIZE - 1 - i;
    let file = 0;
    for (const ch of rows[i] as string) {
      if (ch >= '1' && ch <= '7') {
        file += Number(ch);
      } else {
        const white = WHITE_LETTERS.indexOf(ch);
        const black = BLACK_LETTERS.indexOf(ch);
        if (ch.length !== 1 || (white < 0 && black < 0)) {
          return invalid('INVALID_NOTATION', `unknown piece letter ${ch}`);
        }
        if (file >= SIZE) return invalid('INVALID_NOTATION', `rank ${rank + 1} has more than 7 squares`);
        board[rank * SIZE + file] = white >= 0 ? white + 1 : -(black + 1);
        file++;
      }
      if (file > SIZE) return invalid('INVALID_NOTATION', `rank ${rank + 1} has more than 7 squares`);
    }
    if (file !== SIZE) return invalid('INVALID_NOTATION', `rank ${rank + 1} does not have 7 squares`);
  }
  return ok({ board, side: turn === 'w' ? 0 : 1 });
}

/**
 * Reads a Congo FEN and checks that the position can arise (docs/rules/congo.md, "Position strings"):
 * - per side at most the pieces of the start (1 lion, zebra, giraffe, crocodile and monkey, 2
 *   elephants, 7 pawns and superpawns together: no piece is ever added);
 * - the side that just moved has its lion; the side to move has its lion, or none when it has just
 *   been captured (a finished game); lions stand in their own castles, except a lion that has just
 *   captured the other by the facing-lions move;
 * - no pawn on its last rank (it would be a superpawn) nor on its own first rank (pawns only step
 *   back when past the river, and never beyond their own third rank);
 * - each side has at most one non-crocodile piece in the river (the drowning rule removes the others
 *   at the end of their owner's move).
 */
export function parseFen(text: string): Result<Position, EngineError> {
  const read = readFen(text);
  if (!read.ok) return read;
  const { board, side } = read.value;
  const counts = [new Array<number>(9).fill(0), new Array<number>(9).fill(0)] as const;
  const lionAt: [number, number] = [-1, -1];
  const inRiver: [string[], string[]] = [[], []];
  for (let sq = 0; sq < SQUARES; sq++) {
    const p = board[sq] as number;
    if (p === 0) continue;
    const owner: Side = p > 0 ? 0 : 1;
    const type = Math.abs(p);
    (counts[owner][type] as number)++;
    if (type === LION) lionAt[owner] = sq;
    if (type === PAWN && rankOf(sq) === LAST_RANK[owner]) {
      return invalid('INVALID_POSITION', `pawn on ${squareName(sq)} should have been promoted`);
    }
    if (type === PAWN && rankOf(sq) === LAST_RANK[owner === 0 ? 1 : 0]) {
      return invalid(
        'INVALID_POSITION',
        `${SIDE_NAMES[owner].toLowerCase()} pawn on ${squareName(sq)}: a pawn never stands on its own first rank`,
      );
    }
    if (rankOf(sq) === RIVER_RANK && type !== CROCODILE) inRiver[owner].push(squareName(sq));
  }
  for (const owner of [0, 1] as const) {
    const c = counts[owner];
    const name = SIDE_NAMES[owner];
    for (let type = 1; type <= 6; type++) {
      if ((c[type] as number) > (MOST[type] as number)) {
        return invalid(
          'INVALID_POSITION',
          `${name} has ${c[type]} ${TYPE_NAMES[type]}s; a side has at most ${MOST[type]} (no piece is ever added)`,
        );
      }
    }
    const pawns = (c[PAWN] as number) + (c[SUPERPAWN] as number);
    if (pawns > 7) {
      return invalid('INVALID_POSITION', `${name} has ${pawns} pawns and superpawns; a side has at most 7`);
    }
    if (inRiver[owner].length > 1) {
      return invalid(
        'INVALID_POSITION',
        `${name} has ${inRiver[owner].length} pieces other than crocodiles in the river (${inRiver[owner].join(', ')}); ` +
          'at most one can be there (the others would have drowned)',
      );
    }
  }
  const mover: Side = side === 0 ? 1 : 0;
  if (lionAt[mover] < 0) {
    return invalid('INVALID_POSITION', `${SIDE_NAMES[mover]} has just moved but has no lion`);
  }
  for (const owner of [0, 1] as const) {
    const sq = lionAt[owner];
    // A lion that has just captured the other lion by the facing-lions move stands in the other castle.
    const allowed =
      sq < 0 || inCastle(sq, owner) || (lionAt[side] < 0 && owner === mover && inCastle(sq, side));
    if (!allowed) {
      return invalid(
        'INVALID_POSITION',
        `the ${SIDE_NAMES[owner].toLowerCase()} lion on ${squareName(sq)} is outside its castle`,
      );
    }
  }
  return ok({ board, side });
}

/** Writes a Congo FEN. */
export function formatFen(board: Int8Array, side: Side): string {
  const rows: string[] = [];
  for (let rank = SIZE - 1; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < SIZE; file++) {
      const p = board[rank * SIZE + file] as number;
      if (p === 0) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      const letter = PIECE_LETTERS[Math.abs(p)] as string;
      row += p > 0 ? letter : letter.toLowerCase();
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return `${rows.join('/')} ${side === 0 ? 'w' : 'b'}`;
}
