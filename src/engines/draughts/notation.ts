// Move notation: `c3-d4` for a quiet move, every landing square of a capture joined by `:`
// (`e3:g5:e7`). Input is lenient: `x` or `-` also separate squares, squares may be lidraughts numbers
// (1–32), and a capture may skip landing squares (`e3:e7`) as long as exactly one legal move fits.
import { err, ok, type EngineError, type Result } from '../types';
import { parseSquare, squareName } from './board';

/** A legal move: origin, landing squares (the last is the destination), captured set, crowning. */
export interface DraughtsMove {
  readonly from: number;
  readonly path: readonly number[];
  readonly captured: number;
  readonly promotes: boolean;
}

/** The canonical notation of a move. */
export function formatMoveText(move: DraughtsMove): string {
  const sep = move.captured === 0 ? '-' : ':';
  return [move.from, ...move.path].map(squareName).join(sep);
}

/** True if `squares` (origin first) is the move's full square list or an ordered part of it
 *  keeping the origin and the destination. */
function fits(move: DraughtsMove, squares: readonly number[]): boolean {
  const full = [move.from, ...move.path];
  if (squares[0] !== full[0] || squares[squares.length - 1] !== full[full.length - 1]) return false;
  let i = 1;
  for (let j = 1; j < squares.length - 1; j++) {
    while (i < full.length - 1 && full[i] !== squares[j]) i++;
    if (i >= full.length - 1) return false;
    i++;
  }
  return true;
}

/** Finds the legal move meant by `text` among `legal`. */
export function parseMoveText(
  legal: readonly DraughtsMove[],
  text: string,
): Result<DraughtsMove, EngineError> {
  if (typeof text !== 'string') return err({ code: 'INVALID_NOTATION', message: 'move must be a string' });
  const tokens = text.trim().toLowerCase().split(/[-:x]/);
  const squares = tokens.map(parseSquare);
  if (tokens.length < 2 || squares.some((s) => s < 0)) {
    return err({ code: 'INVALID_NOTATION', message: `not a move: ${JSON.stringify(text)}` });
  }
  const exact = legal.find(
    (m) =>
      m.path.length === squares.length - 1 &&
      m.from === squares[0] &&
      m.path.every((s, i) => s === squares[i + 1]),
  );
  if (exact) return ok(exact);
  const matches = legal.filter((m) => fits(m, squares));
  if (matches.length === 1) return ok(matches[0] as DraughtsMove);
  if (matches.length > 1) {
    const candidates = matches.map(formatMoveText);
    return err({
      code: 'AMBIGUOUS_MOVE',
      message: `${text} could be ${candidates.join(', ')}`,
      candidates,
    });
  }
  return err({ code: 'ILLEGAL_MOVE', message: `${text} is not a legal move here` });
}
