// Entering a move by clicking, from the API's list of legal moves only: the page never decides
// legality. A grid move is the squares it visits (Congo `c2-e4-e2`, draughts `c3-d4` or `c3:e5:g7`);
// the squares clicked so far (`path`) are a prefix of some legal moves, whose next squares are the
// targets offered. A mancala move is a house number, entered by clicking the house.
// Pure functions, no DOM: test/web/moves.test.ts checks them.

/** The squares of a grid move in notation, lower case: `c3:e5:g7` → ['c3', 'e5', 'g7']. */
export function moveSquares(notation: string): string[] {
  return notation
    .toLowerCase()
    .split(/[-:x]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export interface GridChoices {
  /** Squares that start some legal move (offered when nothing is selected). */
  readonly starts: ReadonlySet<string>;
  /** The next squares of the legal moves that begin with the path. */
  readonly targets: ReadonlySet<string>;
  /** The legal move whose squares are exactly the path, if any (a move that may stop here). */
  readonly complete: string | undefined;
}

/** What may be clicked next, given the legal moves and the squares clicked so far. */
export function gridChoices(legalMoves: readonly string[], path: readonly string[]): GridChoices {
  const moves = legalMoves.map((notation) => ({ notation, squares: moveSquares(notation) }));
  const starts = new Set(moves.map((m) => m.squares[0]).filter((s): s is string => s !== undefined));
  const targets = new Set<string>();
  let complete: string | undefined;
  if (path.length > 0) {
    for (const move of moves) {
      if (move.squares.length < path.length || !path.every((sq, i) => move.squares[i] === sq)) continue;
      const next = move.squares[path.length];
      if (next === undefined) {
        if (path.length >= 2) complete = move.notation;
      } else {
        targets.add(next);
      }
    }
  }
  return { starts, targets, complete };
}

export type ClickOutcome =
  /** Play this legal move now. */
  | { readonly play: string }
  /** Keep entering: the new path (empty: nothing selected). */
  | { readonly path: readonly string[] };

/**
 * The result of clicking `square` with `path` entered so far: a target extends the path, and a path
 * that is a whole legal move with no continuation is played at once (a path that is a legal move
 * but could go on, such as a monkey that may stop or jump again, waits: `gridChoices(...).complete`
 * is then offered as a "stop here" action). Clicking a start square selects it (again: deselects);
 * anything else clears the selection.
 */
export function clickSquare(
  legalMoves: readonly string[],
  path: readonly string[],
  square: string,
): ClickOutcome {
  const sq = square.toLowerCase();
  const here = gridChoices(legalMoves, path);
  if (path.length > 0 && here.targets.has(sq)) {
    const next = [...path, sq];
    const after = gridChoices(legalMoves, next);
    if (after.complete !== undefined && after.targets.size === 0) return { play: after.complete };
    return { path: next };
  }
  if (path.length === 1 && path[0] === sq) return { path: [] };
  if (path.length <= 1 && here.starts.has(sq)) return { path: [sq] };
  return { path: [] };
}

/** Pit ids (as in sowing traces) of a seat's houses: seat 0 `S<n>`, seat 1 `N<n>`. */
export function pitId(seat: number, house: number | string): string {
  return `${seat === 0 ? 'S' : 'N'}${house}`;
}

/** The legal mancala move a click on pit `id` plays for `seat`, if any. */
export function clickPit(legalMoves: readonly string[], seat: number, id: string): string | undefined {
  return legalMoves.find((move) => pitId(seat, move.trim()) === id);
}
