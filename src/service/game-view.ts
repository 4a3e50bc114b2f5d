import type { AnyEngine } from '../engines/engine';
import type { BoardView, GameKind, Options, OutcomeReason } from '../engines/types';
import type { GameHead, GameStatus, MoveRecord, StoredGame, TimeControl } from '../store/store';
import { GameError } from './errors';

/** A seat as clients see it. */
export interface SeatView {
  readonly seat: number;
  readonly name: string;
  readonly account: string | null;
  /** Correspondence: the end of the account's vacation that pauses its clock (as of the last write). */
  readonly vacationUntil: string | null;
  /** Rated games: the account's rating in the game's perf when the game began; null otherwise. */
  readonly rating: number | null;
  /** Rated games: that rating was provisional (RD ≥ 110); null otherwise. */
  readonly provisional: boolean | null;
}

/** Realtime clocks: the running side has `remainingMs[runningSeat]` minus the time since `runningSince`. */
export interface ClockView {
  /** Milliseconds left per seat, as of `runningSince` for the running seat. */
  readonly remainingMs: readonly number[];
  /** The seat whose clock runs (the side to move); null once the game is over. */
  readonly runningSeat: number | null;
  /** When the running clock started (the last move's server time, or the start). */
  readonly runningSince: string | null;
}

export interface ResultView {
  /** The winning seat, or null for a draw. */
  readonly winner: number | null;
  readonly winnerName: string | null;
  readonly reason: OutcomeReason;
  readonly score: readonly number[] | null;
}

export interface MoveView {
  readonly ply: number;
  readonly notation: string;
  readonly seat: number;
  readonly seatName: string;
  readonly at: string;
  readonly details: Readonly<Record<string, unknown>> | null;
}

/** The game as every read returns it and every update pushes it. */
export interface GameView {
  readonly id: string;
  readonly kind: GameKind;
  readonly rulesVersion: string;
  readonly options: Options;
  readonly seats: readonly SeatView[];
  readonly status: GameStatus;
  readonly result: ResultView | null;
  readonly ply: number;
  readonly version: number;
  readonly toMove: number | null;
  readonly toMoveName: string | null;
  readonly position: string;
  /**
   * A game from a position: the position it started from; null for the standard start. A game with
   * an initial position is never rated.
   */
  readonly initialPosition: string | null;
  /** A rated game: its result changes both accounts' ratings once it ends. */
  readonly rated: boolean;
  readonly board: BoardView;
  readonly legalMoves: readonly string[];
  readonly moves: readonly MoveView[];
  readonly drawOffer: number | null;
  readonly timeControl: TimeControl;
  /** Realtime games: the clocks; null otherwise. */
  readonly clock: ClockView | null;
  /** When the side to move runs out of time; null without a time limit or once over. */
  readonly deadlineAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * The game without its moves: what live updates and feed events carry, O(1) in the length of the
 * game (the board is the position's, the legal moves the side to move's).
 */
export type GameHeadView = Omit<GameView, 'moves'>;

/** A played move as clients see it. */
export function toMoveView(seatNames: readonly string[], m: MoveRecord): MoveView {
  return {
    ply: m.ply,
    notation: m.notation,
    seat: m.seat,
    seatName: seatNames[m.seat] as string,
    at: m.at,
    details: m.details ?? null,
  };
}

/** The public view of a stored game (no secrets), with its structured board and every move. */
export function toGameView(engine: AnyEngine, game: StoredGame): GameView {
  const names = engine.seatNames;
  return withMoves(
    toGameHeadView(engine, game),
    game.moves.map((m) => toMoveView(names, m)),
  );
}

/** The head view with its moves, in the order of the GameView document (moves after legalMoves). */
export function withMoves(head: GameHeadView, moves: readonly MoveView[]): GameView {
  const { drawOffer, timeControl, clock, deadlineAt, createdAt, updatedAt, ...start } = head;
  return { ...start, moves, drawOffer, timeControl, clock, deadlineAt, createdAt, updatedAt };
}

/** The public view of a game without its moves: the same fields as toGameView, but `moves`. */
export function toGameHeadView(
  engine: AnyEngine,
  game: GameHead,
  /** The engine state of `game.position`, when the caller has it (its board is then not re-read). */
  known?: { readonly state: unknown },
): GameHeadView {
  const names = engine.seatNames;
  const state = known
    ? { ok: true as const, value: known.state }
    : engine.parseState(game.position, game.options);
  if (!state.ok) throw new Error(`stored position of ${game.id} does not parse: ${state.error.message}`);
  const outcome = game.outcome;
  return {
    id: game.id,
    kind: game.kind,
    rulesVersion: game.rulesVersion,
    options: game.options,
    seats: game.seats.map((s) => ({
      seat: s.seat,
      name: s.name,
      account: s.account,
      vacationUntil: s.vacationUntil ?? null,
      rating: s.rating ?? null,
      provisional: s.provisional ?? null,
    })),
    status: game.status,
    result: outcome
      ? {
          winner: outcome.winner ?? null,
          winnerName: outcome.winner === undefined ? null : names[outcome.winner],
          reason: outcome.reason,
          score: outcome.score ?? null,
        }
      : null,
    ply: game.ply,
    version: game.version,
    toMove: game.toMove,
    toMoveName: game.toMove === null ? null : names[game.toMove],
    position: game.position,
    initialPosition: game.initialPosition ?? null,
    rated: game.rated === true,
    board: engine.board(state.value),
    legalMoves: game.legalMoves,
    drawOffer: game.drawOffer,
    timeControl: game.timeControl ?? { type: 'unlimited' },
    clock: game.clock
      ? {
          remainingMs: [...game.clock.remainingMs],
          runningSeat: game.clock.runningSince === null ? null : game.toMove,
          runningSince: game.clock.runningSince,
        }
      : null,
    deadlineAt: game.deadlineAt ?? null,
    createdAt: game.createdAt,
    updatedAt: game.updatedAt,
  };
}

/** What a live update offers besides its head: its moves, built only when asked for. */
export interface MovesSource {
  /** The moves after ply `after` (default 0), at most `limit` (default all); O(what it returns). */
  moves(after?: number, limit?: number): readonly MoveView[];
  /** The game's last move (null before the first). */
  readonly lastMove: MoveView | null;
}

/** The key under which a live game (GameUpdate.root) keeps its moves. */
export const LIVE_MOVES: unique symbol = Symbol('live moves');

/** A live update's game as GraphQL resolves it: the head, with the moves on demand. */
export type LiveGameView = GameHeadView & { readonly [LIVE_MOVES]: MovesSource };

/** The most moves one page holds (GET /games/{id}/moves, Game.moves(limit:)). */
export const MOVE_PAGE_MAX = 500;

/** INVALID_INPUT unless `after` is a ply ≥ 0 and `limit` 1–MOVE_PAGE_MAX (when given). */
export function checkMovePage(after: number | undefined, limit: number | undefined): void {
  if (after !== undefined && (!Number.isInteger(after) || after < 0)) {
    throw new GameError('INVALID_INPUT', 'after must be a whole number ≥ 0 (a ply)', { field: 'after' });
  }
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > MOVE_PAGE_MAX)) {
    throw new GameError('INVALID_INPUT', `limit must be a whole number from 1 to ${MOVE_PAGE_MAX}`, {
      field: 'limit',
    });
  }
}

/** The moves of a game (a view, or a live game) after ply `after`, at most `limit` (default all). */
export function movesOf(game: GameView | LiveGameView, after?: number, limit?: number): readonly MoveView[] {
  checkMovePage(after, limit);
  if (LIVE_MOVES in game) return game[LIVE_MOVES].moves(after, limit);
  const from = Math.min(after ?? 0, game.moves.length);
  return game.moves.slice(from, limit === undefined ? undefined : from + limit);
}

/** The last move of a game (a view, or a live game); null before the first. */
export function lastMoveOf(game: GameView | LiveGameView): MoveView | null {
  if (LIVE_MOVES in game) return game[LIVE_MOVES].lastMove;
  return game.moves[game.moves.length - 1] ?? null;
}
