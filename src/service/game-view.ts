import type { AnyEngine } from '../engines/engine';
import type { BoardView, GameKind, Options, OutcomeReason } from '../engines/types';
import type { GameStatus, StoredGame, TimeControl } from '../store/store';

/** A seat as clients see it. */
export interface SeatView {
  readonly seat: number;
  readonly name: string;
  readonly account: string | null;
  /** Correspondence: the end of the account's vacation that pauses its clock (as of the last write). */
  readonly vacationUntil: string | null;
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

/** The public view of a stored game (no secrets), with its structured board. */
export function toGameView(engine: AnyEngine, game: StoredGame): GameView {
  const names = engine.seatNames;
  const state = engine.parseState(game.position, game.options);
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
    board: engine.board(state.value),
    legalMoves: game.legalMoves,
    moves: game.moves.map((m) => ({
      ply: m.ply,
      notation: m.notation,
      seat: m.seat,
      seatName: names[m.seat],
      at: m.at,
      details: m.details ?? null,
    })),
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
