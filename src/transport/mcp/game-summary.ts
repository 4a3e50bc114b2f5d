import type { GameView } from '../../service/game/view';

/** How many of the last moves a game summary shows (the whole list: get_game with allMoves). */
export const RECENT_MOVES = 12;

/**
 * A game as an agent needs it to choose a move: whose turn it is (and whether it is the caller's),
 * the legal moves, the position and board, the clock, the last moves and the result. Seats are
 * named (south/north, white/black) the way the game's notation and rules page name them.
 */
export function gameSummary(game: GameView, me: string, allMoves = false): Record<string, unknown> {
  const mine = game.seats.find((s) => s.account === me);
  const names = game.seats.map((s) => s.name);
  const name = (seat: number | null) => (seat === null ? null : (names[seat] ?? null));
  const moves = allMoves ? game.moves : game.moves.slice(-RECENT_MOVES);
  return {
    id: game.id,
    kind: game.kind,
    options: game.options,
    status: game.status,
    version: game.version,
    ply: game.ply,
    seats: game.seats.map((s) => ({ seat: s.name, account: s.account })),
    you: mine ? mine.name : null,
    toMove: game.toMoveName,
    yourTurn: mine !== undefined && game.status === 'ongoing' && game.toMove === mine.seat,
    legalMoves: game.legalMoves,
    position: game.position,
    board: game.board,
    timeControl: game.timeControl,
    clock: game.clock
      ? {
          remainingMs: Object.fromEntries(game.clock.remainingMs.map((ms, seat) => [name(seat), ms])),
          running: name(game.clock.runningSeat),
          runningSince: game.clock.runningSince,
        }
      : null,
    deadlineAt: game.deadlineAt,
    drawOfferedBy: name(game.drawOffer),
    takebackOfferedBy: game.takebackOffer ? name(game.takebackOffer.seat) : null,
    settings: game.settings,
    result: game.result
      ? { winner: game.result.winnerName, reason: game.result.reason, score: game.result.score }
      : null,
    [allMoves ? 'moves' : 'lastMoves']: moves.map((m) => `${m.ply}. ${m.seatName} ${m.notation}`),
  };
}

/** One line of a game list: enough to pick the game to look at next. */
export function gameLine(game: GameView, me: string): Record<string, unknown> {
  const mine = game.seats.find((s) => s.account === me);
  const opponent = game.seats.find((s) => s !== mine);
  return {
    id: game.id,
    kind: game.kind,
    status: game.status,
    you: mine ? mine.name : null,
    opponent: opponent?.account ?? null,
    toMove: game.toMoveName,
    yourTurn: mine !== undefined && game.status === 'ongoing' && game.toMove === mine.seat,
    ply: game.ply,
    deadlineAt: game.deadlineAt,
    result: game.result ? { winner: game.result.winnerName, reason: game.result.reason } : null,
  };
}
