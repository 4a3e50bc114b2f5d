// Congo FEN: seven ranks from rank 7 down to rank 1, digits for empty runs, upper case White,
// then the side to move (`gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ w`).
import { err, ok, type EngineError, type Result, type Side } from '../types';
import { LAST_RANK, LION, PAWN, PIECE_LETTERS, SIZE, SQUARES, inCastle, rankOf, squareName } from './board';

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

/**
 * Reads a Congo FEN. The side that just moved has exactly one lion; the side to move at most one
 * (none: the game is over). Lions stand in their own castles, except a lion that has just captured
 * the other by the facing-lions move. No pawn stands on its last rank.
 */
export function parseFen(text: string): Result<Position, EngineError> {
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
  const side: Side = turn === 'w' ? 0 : 1;
  const lions: [number, number] = [0, 0];
  const lionAt: [number, number] = [-1, -1];
  for (let sq = 0; sq < SQUARES; sq++) {
    const p = board[sq] as number;
    const owner: Side = p > 0 ? 0 : 1;
    if (Math.abs(p) === LION) {
      lions[owner]++;
      lionAt[owner] = sq;
    }
    if (Math.abs(p) === PAWN && rankOf(sq) === LAST_RANK[owner]) {
      return invalid('INVALID_POSITION', `pawn on ${squareName(sq)} should have been promoted`);
    }
  }
  const mover: Side = side === 0 ? 1 : 0;
  if (lions[0] > 1 || lions[1] > 1) return invalid('INVALID_POSITION', 'each side has at most one lion');
  if (lions[mover] !== 1) return invalid('INVALID_POSITION', 'the side that just moved must have its lion');
  for (const owner of [0, 1] as const) {
    const sq = lionAt[owner];
    // A lion that has just captured the other lion by the facing-lions move stands in the other castle.
    const allowed =
      sq < 0 || inCastle(sq, owner) || (lions[side] === 0 && owner === mover && inCastle(sq, side));
    if (!allowed) return invalid('INVALID_POSITION', `lion on ${squareName(sq)} is outside its castle`);
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
