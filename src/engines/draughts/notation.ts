// Move notation: `c3-d4` for a quiet move, every landing square of a capture joined by `:`
// (`e3:g5:e7`). Input is lenient: `x` or `-` also separate squares, squares may be lidraughts numbers
// (1–32), and a capture may skip landing squares (`e3:e7`) as long as the moves that fit all have
// one outcome. Any legal capture path is accepted, also one the move list does not show (rules B11).
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

/** Same outcome: origin, destination, captured set and crowning (rules B1 "drop"). */
export const sameOutcome = (
  a: DraughtsMove,
  b: { from: number; to: number; captured: number; promotes: boolean },
) =>
  a.from === b.from &&
  a.path[a.path.length - 1] === b.to &&
  a.captured === b.captured &&
  a.promotes === b.promotes;

/** How parseMoveText also reads capture paths that the list does not show (rules B11). */
export interface OtherPaths {
  /** Every capture path (keep convention), for shorthands. */
  readonly paths: () => readonly DraughtsMove[];
  /** The outcome of a full path written square by square, if it is a legal capture. */
  readonly follow: (
    squares: readonly number[],
  ) => { to: number; captured: number; promotes: boolean } | undefined;
}

/**
 * Finds the legal move meant by `text` among `legal` (one path per outcome). A full capture path
 * that the list does not show, and a shorthand that fits such a path, mean the listed move with the
 * same outcome; a shorthand that fits moves of different outcomes is ambiguous.
 */
export function parseMoveText(
  legal: readonly DraughtsMove[],
  text: string,
  other?: OtherPaths,
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
  const listedFor = (outcome: { from: number; to: number; captured: number; promotes: boolean }) =>
    legal.find((m) => sameOutcome(m, outcome));
  if (other && legal[0] !== undefined && legal[0].captured !== 0) {
    const outcome = other.follow(squares);
    const listed = outcome && listedFor({ from: squares[0] as number, ...outcome });
    if (listed) return ok(listed);
  }
  const fitting = (other && legal[0]?.captured ? other.paths() : legal).filter((m) => fits(m, squares));
  const matches: DraughtsMove[] = [];
  for (const m of fitting) {
    const listed = listedFor({
      from: m.from,
      to: m.path[m.path.length - 1] as number,
      captured: m.captured,
      promotes: m.promotes,
    });
    if (listed && !matches.includes(listed)) matches.push(listed);
  }
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
