// Draw-rule test tools: search for quiet lines of play, and assert the exact ply a draw falls on.
import {
  russianDraughts as engine,
  type DraughtsMove,
  type DraughtsState,
} from '../../../src/engines/draughts';
import type { DraughtsMoveDetails } from '../../../src/engines/move-details';
import type { OutcomeReason } from '../../../src/engines/types';

export const LONG_DIAGONAL = new Set(['a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'g7', 'h8']);
export const boardKey = (s: DraughtsState): string => engine.formatState(s).split(':D')[0] as string;
const details = (s: DraughtsState, m: DraughtsMove): DraughtsMoveDetails =>
  engine.describeMove?.(s, m) as DraughtsMoveDetails;
export const isCapture = (s: DraughtsState, m: DraughtsMove): boolean => details(s, m).captured.length > 0;
export const isKingMove = (s: DraughtsState, m: DraughtsMove): boolean => {
  const from = details(s, m).path[0];
  return engine.board(s).type === 'grid' && moverPiece(s, from) === 'king';
};
export function moverPiece(s: DraughtsState, square: string | undefined): string | undefined {
  const view = engine.board(s);
  return view.type === 'grid' ? view.pieces.find((p) => p.square === square)?.piece : undefined;
}

export interface WalkOptions {
  /** Extra condition on every position reached. */
  readonly allow?: (s: DraughtsState) => boolean;
  /** Only moves passing this filter. */
  readonly only?: (s: DraughtsState, m: DraughtsMove) => boolean;
  /** Move order: lower first. */
  readonly rank?: (s: DraughtsState, m: DraughtsMove) => number;
}

/**
 * A line of `plies` quiet, non-crowning moves from `start` that never repeats a position, never
 * offers a capture, and never ends the game before its last move (depth-first search).
 */
export function walk(start: DraughtsState, plies: number, options: WalkOptions = {}): DraughtsState[] {
  const line = [start];
  const seen = new Set([boardKey(start)]);
  const search = (s: DraughtsState, left: number): boolean => {
    if (left === 0) return true;
    const candidates = engine
      .moves(s)
      .filter((m) => !isCapture(s, m) && !m.promotes && (options.only?.(s, m) ?? true))
      .sort((a, b) => (options.rank?.(s, a) ?? 0) - (options.rank?.(s, b) ?? 0));
    for (const move of candidates) {
      const played = engine.play(s, move);
      if (!played.ok) throw new Error('listed move did not play');
      const next = played.value;
      if (seen.has(boardKey(next)) || (options.allow && !options.allow(next))) continue;
      if (left > 1 && (engine.outcome(next) || engine.moves(next).some((m) => isCapture(next, m)))) continue;
      seen.add(boardKey(next));
      line.push(next);
      if (search(next, left - 1)) return true;
      line.pop();
      seen.delete(boardKey(next));
    }
    return false;
  };
  if (!search(start, plies)) throw new Error(`no line of ${plies} plies from ${engine.formatState(start)}`);
  return line;
}

/** Asserts the game is still on after `plies - 1` moves of the line and ends with `reason` at `plies`. */
export function expectDrawAt(line: DraughtsState[], plies: number, reason: OutcomeReason): void {
  expect(engine.outcome(line[plies - 1] as DraughtsState)).toBeUndefined();
  expect(engine.outcome(line[plies] as DraughtsState)).toEqual({ reason });
  expect(engine.moves(line[plies] as DraughtsState)).toEqual([]);
}

/** Eight pieces: neither 7.2.6 nor a lone-king rule applies, only 7.2.5. */
export const EIGHT_PIECES = 'W:WKa3,a1,c1,e1:BKh6,b8,d8,h8';
export const kingsOnly = (s: DraughtsState, m: DraughtsMove): number => (isKingMove(s, m) ? 0 : 1);
export const lonePiece = (s: DraughtsState, side: number) => {
  const view = engine.board(s);
  return view.type === 'grid' ? view.pieces.filter((p) => p.side === side) : [];
};
