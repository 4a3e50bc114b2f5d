import { CHAT_MODES, GAME_STATUSES, kindIds, OUTCOME_REASONS } from '../../vocabulary';
import { MoveDetails } from './move-details';
import { orNull, z } from './schema';

// The game as clients see it, declared once: its fields, their descriptions and the names of its
// parts. REST serves these schemas (src/transport/rest/schemas.ts); GraphQL's classes
// (src/transport/graphql/types.ts) take their descriptions from here, and a test keeps their fields
// the same (test/transport/view-shapes.test.ts). The service's view types are inferred from them
// (../game-view.ts).

const dateTime = (description?: string) =>
  z.string().openapi({ format: 'date-time', ...(description ? { description } : {}) });

export const GameId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{12}$/)
  .openapi({ description: 'Game id (12 characters)', example: 'Xq3v9Lk2aB0c' });

export const Seat = z
  .object({
    seat: z.number().int().openapi({ description: '0 moves first in the standard game' }),
    name: z.string().openapi({ description: 'white/black or south/north', example: 'south' }),
    account: z.string().nullable().openapi({ description: 'The account holding the seat, if bound' }),
    vacationUntil: z.string().nullable().openapi({
      format: 'date-time',
      description:
        "Correspondence: the end of the seat account's vacation, during which its clock stands still (as of the last write)",
    }),
    rating: z.number().int().nullable().openapi({
      description: "Rated games: the account's rating in the game's perf when the game began; null otherwise",
    }),
    provisional: z
      .boolean()
      .nullable()
      .openapi({ description: 'Rated games: that rating was provisional (RD ≥ 110); null otherwise' }),
  })
  .openapi('Seat', { description: 'A seat of a game: 0 moves first in the standard game' });

export const GameResult = z
  .object({
    winner: z.number().int().nullable().openapi({ description: 'The winning seat; null for a draw' }),
    winnerName: z.string().nullable(),
    reason: z.enum(OUTCOME_REASONS).openapi({ description: 'Why the game ended' }),
    score: z
      .array(z.number().int())
      .nullable()
      .openapi({ description: 'Final score where the game has one (mancala)' }),
  })
  .openapi('GameResult');

export const Board = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('mancala'),
      houses: z.array(z.array(z.number().int())).openapi({ description: 'Per seat, house 1 first' }),
      stores: z.array(z.number().int()),
    }),
    z.object({
      type: z.literal('grid'),
      files: z.number().int(),
      ranks: z.number().int(),
      pieces: z.array(z.object({ square: z.string(), side: z.number().int(), piece: z.string() })),
      zones: z.array(
        z.object({
          name: z.enum(['river', 'castle']),
          side: z.number().int().optional(),
          squares: z.array(z.string()),
        }),
      ),
    }),
  ])
  .openapi('Board');

export const Move = z
  .object({
    ply: z.number().int(),
    notation: z.string().openapi({ description: "The move in the game's notation" }),
    seat: z.number().int(),
    seatName: z.string(),
    at: dateTime('Server time of the move'),
    details: orNull(z.lazy(() => MoveDetails)),
  })
  .openapi('Move');

/** A game's clock rules (chosen in a challenge or seek). */
export const TimeControl = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('unlimited') }),
    z.object({
      type: z.literal('realtime'),
      initialSeconds: z
        .number()
        .int()
        .openapi({ description: 'realtime: seconds on each clock at the start' }),
      incrementSeconds: z.number().int().openapi({ description: 'realtime: seconds added after each move' }),
    }),
    z.object({
      type: z.literal('correspondence'),
      daysPerMove: z.number().int().openapi({ description: 'correspondence: days per move' }),
    }),
  ])
  .openapi('TimeControl');

/** Realtime clocks (Fischer). */
export const GameClock = z
  .object({
    remainingMs: z.array(z.number().int()).openapi({
      description: 'Per seat: milliseconds left, as of runningSince for the running seat',
    }),
    runningSeat: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'The seat whose clock runs (the side to move); null once over' }),
    runningSince: z.string().nullable().openapi({
      format: 'date-time',
      description:
        "When the running clock started: the last move's server time (the start for the first mover)",
    }),
  })
  .openapi('GameClock', {
    description:
      'Realtime clocks (Fischer): the running seat has remainingMs[runningSeat] − (now − runningSince) left; it flags at deadlineAt',
  });

/** A finished game's rematch (docs/rematch.md). */
export const RematchState = z
  .object({
    offeredBy: z.number().int().nullable().openapi({ description: 'The seat whose rematch offer stands' }),
    declinedBy: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'The seat that declined the last rematch offer' }),
    game: z
      .string()
      .nullable()
      .openapi({ description: 'The rematch, once accepted: the new game’s id; null before' }),
  })
  .openapi('RematchState', {
    description:
      'A finished game’s rematch: who offers, who declined, the new game once accepted (all null before any offer)',
  });

/** What a game allows, chosen at creation (settings input of every create). */
export const GameSettings = z
  .object({
    takeback: z.boolean().openapi({
      description: 'Seats may ask to take back moves (never in rated games; default true in casual ones)',
    }),
    chat: z.enum(CHAT_MODES).openapi({
      description:
        'Who may chat: seats (the two players, the default), everyone (players and readers with an account), off',
    }),
  })
  .openapi('GameSettings', { description: 'What a game allows, chosen at creation' });

/** A pending takeback offer. */
export const TakebackOffer = z
  .object({
    seat: z.number().int().openapi({ description: 'The seat that asks' }),
    plies: z.number().int().openapi({
      description: "How many plies would leave the move list: the asker's last move and every one after it",
    }),
  })
  .openapi('TakebackOffer', { description: 'A pending takeback offer; any move clears it' });

export const Game = z
  .object({
    id: GameId,
    kind: z.enum(kindIds()),
    rulesVersion: z.string(),
    options: z
      .record(z.string(), z.union([z.number(), z.boolean(), z.string()]))
      .openapi({ description: 'Creation options with defaults filled in' }),
    seats: z.array(Seat),
    status: z.enum(GAME_STATUSES),
    result: orNull(GameResult),
    ply: z.number().int(),
    version: z.number().int().openapi({
      description: 'Bumped by every change; send it back (If-Match, expectedVersion) to guard a write',
    }),
    toMove: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'The seat to move; null once the game is over' }),
    toMoveName: z.string().nullable(),
    position: z.string().openapi({ description: "The position in the game's notation" }),
    initialPosition: z
      .string()
      .nullable()
      .openapi({
        description:
          'A game from a position: the position it started from; null for the standard start. ' +
          'A game with an initial position is never rated.',
      }),
    rated: z.boolean().openapi({
      description: "A rated game: its result changes both accounts' ratings once, when it ends",
    }),
    settings: GameSettings,
    board: Board,
    legalMoves: z.array(z.string()),
    moves: z.array(Move),
    drawOffer: z.number().int().nullable().openapi({ description: 'The seat with a standing draw offer' }),
    rematch: RematchState,
    rematchOf: z.string().nullable().openapi({
      description: 'A rematch: the id of the finished game it was offered from; null otherwise',
    }),
    takebackOffer: orNull(TakebackOffer).openapi({
      description:
        'A standing takeback offer (POST /games/{id}/takeback/accept takes the moves back); null: none',
    }),
    timeControl: TimeControl,
    clock: orNull(GameClock).openapi({ description: 'Realtime games: the clocks; null otherwise' }),
    deadlineAt: z
      .string()
      .nullable()
      .openapi({
        format: 'date-time',
        description:
          'When the side to move runs out of time (realtime: flags; correspondence: the move deadline, ' +
          'later by any vacation); null without a time limit or once over. Past it, the game ends by timeout.',
      }),
    claimableAt: z
      .string()
      .nullable()
      .openapi({
        format: 'date-time',
        description:
          'Games without a time control: from when the player waiting (not to move) may claim the game ' +
          'abandoned (claimVictory or claimDraw): the abandon period (ABANDON_CLAIM_DAYS) after the turn of ' +
          'the side to move began. Null for games with a time control (their deadlines end them) and once over.',
      }),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  })
  .openapi('Game');

/** The game without its moves: what feed events and the later messages of game streams carry. */
export const GameHead = Game.omit({ moves: true }).openapi('GameHead', {
  description: 'A Game without `moves`: the same fields, O(1) in the length of the game',
});

/** A page of games, newest first. */
export const GamePage = z
  .object({
    items: z.array(Game),
    next: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `after` for the next page; null: this is the last page' }),
  })
  .openapi('GamePage');

/** What a move would do, computed without storing anything: the game after it, and its details. */
export const MoveCheck = z
  .object({
    move: z.string().openapi({ description: 'The move in canonical notation' }),
    ...Game.pick({
      position: true,
      board: true,
      legalMoves: true,
      toMove: true,
      toMoveName: true,
      status: true,
      result: true,
    }).shape,
    details: orNull(z.lazy(() => MoveDetails)),
  })
  .openapi('MoveCheck', { description: 'What a move would do, computed without storing anything' });
