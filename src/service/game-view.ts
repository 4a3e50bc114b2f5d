import type { AnyEngine } from '../engines/engine';
import type { BoardView, GameKind, Options, OutcomeReason } from '../engines/types';
import type { GameStatus, StoredGame, TimeControl } from '../store/store';

/** A seat as clients see it. */
export interface SeatView {
  readonly seat: number;
  readonly name: string;
  readonly account: string | null;
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
  readonly board: BoardView;
  readonly legalMoves: readonly string[];
  readonly moves: readonly MoveView[];
  readonly drawOffer: number | null;
  readonly timeControl: TimeControl;
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
    seats: game.seats.map((s) => ({ seat: s.seat, name: s.name, account: s.account })),
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
    createdAt: game.createdAt,
    updatedAt: game.updatedAt,
  };
}
