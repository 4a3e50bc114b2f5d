import type { AnyEngine } from '../../engines/engine';
import type { BoardView } from '../../engines/types';
import type { GameHead, MoveRecord, StoredGame } from '../../store/store';
import { GameError } from '../errors';
import { abandonClaimAt } from '../time/clock';
import type * as Views from '../views/game';
import { taggedDetails } from '../views/move-details';
import { settingsView } from './settings';
import type { ViewOf } from '../views/schema';

// The views' shapes and descriptions are declared once, as schemas (./views/game.ts); these types
// are inferred from them. The board is the engines' BoardView, narrower than its schema (tuples).
export type SeatView = ViewOf<typeof Views.Seat>;
export type ClockView = ViewOf<typeof Views.GameClock>;
export type ResultView = ViewOf<typeof Views.GameResult>;
export type MoveView = ViewOf<typeof Views.Move>;

/** The game as every read returns it and every update pushes it. */
export interface GameView extends Omit<ViewOf<typeof Views.Game>, 'board'> {
  readonly board: BoardView;
}

/**
 * The game without its moves: what live updates and feed events carry, O(1) in the length of the
 * game (the board is the position's, the legal moves the side to move's).
 */
export type GameHeadView = Omit<GameView, 'moves'>;

/** What a move's view needs of its engine. */
export type MoveViewer = Pick<AnyEngine, 'kind' | 'seatNames'>;

/** A played move as clients see it (details stored before they carried `family` get it here). */
export function toMoveView(engine: MoveViewer, m: MoveRecord): MoveView {
  return {
    ply: m.ply,
    notation: m.notation,
    seat: m.seat,
    seatName: engine.seatNames[m.seat] as string,
    at: m.at,
    details: m.details ? taggedDetails(engine.kind, m.details) : null,
  };
}

/** The public view of a stored game (no secrets), with its structured board and every move. */
export function toGameView(engine: AnyEngine, game: StoredGame, abandonClaimMs: number): GameView {
  return withMoves(
    toGameHeadView(engine, game, abandonClaimMs),
    game.moves.map((m) => toMoveView(engine, m)),
  );
}

/** The head view with its moves, in the order of the GameView document (moves after legalMoves). */
export function withMoves(head: GameHeadView, moves: readonly MoveView[]): GameView {
  const {
    drawOffer,
    takebackOffer,
    timeControl,
    clock,
    deadlineAt,
    claimableAt,
    createdAt,
    updatedAt,
    ...start
  } = head;
  return {
    ...start,
    moves,
    drawOffer,
    takebackOffer,
    timeControl,
    clock,
    deadlineAt,
    claimableAt,
    createdAt,
    updatedAt,
  };
}

/**
 * The public view of a game without its moves: the same fields as toGameView, but `moves`.
 * `abandonClaimMs` is the server's abandon period (claimableAt).
 */
export function toGameHeadView(
  engine: AnyEngine,
  game: GameHead,
  abandonClaimMs: number,
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
    settings: settingsView(game),
    board: engine.board(state.value),
    legalMoves: game.legalMoves,
    drawOffer: game.drawOffer,
    rematch: {
      offeredBy: game.rematch?.offeredBy ?? null,
      declinedBy: game.rematch?.declinedBy ?? null,
      game: game.rematch?.game ?? null,
    },
    rematchOf: game.rematchOf ?? null,
    takebackOffer: game.takebackOffer
      ? { seat: game.takebackOffer.seat, plies: game.ply - game.takebackOffer.toPly }
      : null,
    timeControl: game.timeControl ?? { type: 'unlimited' },
    clock: game.clock
      ? {
          remainingMs: [...game.clock.remainingMs],
          runningSeat: game.clock.runningSince === null ? null : game.toMove,
          runningSince: game.clock.runningSince,
        }
      : null,
    deadlineAt: game.deadlineAt ?? null,
    claimableAt: isoOrNull(abandonClaimAt(game, abandonClaimMs)),
    createdAt: game.createdAt,
    updatedAt: game.updatedAt,
  };
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
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
