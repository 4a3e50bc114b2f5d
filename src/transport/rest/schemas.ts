import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  BOARD_FAMILIES,
  GAME_ERROR_CODES,
  kindIds,
  GAME_STATUSES,
  OUTCOME_REASONS,
  TIME_CONTROL_TYPES,
} from '../../vocabulary';

// Request and response shapes of the REST API. Handlers validate input with these and
// openapi/openapi.json is generated from them (npm run openapi), so the two cannot drift.
extendZodWithOpenApi(z);

/** A page size query parameter: 1 to `max`, `byDefault` when absent (the route applies it). */
export function pageLimit(byDefault: number, max = 100) {
  return z.coerce
    .number()
    .int()
    .min(1)
    .max(max)
    .optional()
    .openapi({ type: 'integer', description: `1–${max}, default ${byDefault}` });
}

/**
 * `schema` or null. Not `.nullable()`: on a named (referenced) schema zod-to-openapi drops the
 * null, or wraps it in an allOf that a null fails. A union goes in as `z.lazy(() => union)`, or
 * zod-to-openapi flattens it into this one and its name is lost.
 */
export const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);

export const GameId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{12}$/)
  .openapi({ description: 'Game id (12 characters)', example: 'Xq3v9Lk2aB0c' });

export const Seat = z
  .object({
    seat: z.number().int().openapi({ description: '0 moves first in the standard game' }),
    name: z.string().openapi({ example: 'south' }),
    account: z.string().nullable(),
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
  .openapi('Seat');

export const GameResult = z
  .object({
    winner: z.number().int().nullable().openapi({ description: 'Winning seat; null for a draw' }),
    winnerName: z.string().nullable(),
    reason: z.enum(OUTCOME_REASONS),
    score: z.array(z.number().int()).nullable(),
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

const Squares = z.array(z.string());

/** What each engine tells about a legal move (its `describeMove`), one shape per game family. */
export const MoveDetails = z
  .union([
    z
      .object({
        captured: Squares.openapi({ description: 'Squares whose pieces were captured' }),
        drowned: Squares.openapi({ description: 'Squares whose pieces drowned in the river' }),
        promoted: z.boolean().openapi({ description: 'A pawn became a superpawn' }),
      })
      .strict()
      .openapi('CongoMoveDetails', { description: 'congo' }),
    z
      .object({
        captured: Squares.openapi({ description: 'Squares whose pieces were captured, in order' }),
        promoted: z.boolean().openapi({ description: 'The man became a king' }),
        path: Squares.openapi({ description: 'Every square visited, the start first' }),
      })
      .strict()
      .openapi('DraughtsMoveDetails', { description: 'russian-draughts' }),
    z
      .object({
        legal: z.literal(true),
        house: z.number().int().openapi({ description: 'The house sown, 1 first' }),
        trace: Squares.openapi({ description: 'Every pit a seed was dropped in, in order' }),
        relays: Squares.openapi({ description: 'Congkak: pits whose seeds were picked up to sow on' }),
        capturedFrom: Squares.openapi({ description: 'Pits whose seeds were captured' }),
        captured: z.number().int().openapi({ description: 'Seeds captured' }),
        extraMove: z.boolean().openapi({ description: 'The same seat moves again' }),
        gameOver: z.boolean(),
      })
      .strict()
      .openapi('MancalaMoveDetails', { description: 'kalah, oware, congkak' }),
  ])
  .openapi(
    'MoveDetails',
    { description: 'Facts a client can animate; the shape depends on the game family' },
    { unionPreferredType: 'oneOf' },
  );

export const Move = z
  .object({
    ply: z.number().int(),
    notation: z.string(),
    seat: z.number().int(),
    seatName: z.string(),
    at: z.string().openapi({ format: 'date-time' }),
    details: orNull(z.lazy(() => MoveDetails)),
  })
  .openapi('Move');

/** A game's clock rules (chosen in a challenge or seek). */
export const TimeControl = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('unlimited') }),
    z.object({
      type: z.literal('realtime'),
      initialSeconds: z.number().int(),
      incrementSeconds: z.number().int(),
    }),
    z.object({ type: z.literal('correspondence'), daysPerMove: z.number().int() }),
  ])
  .openapi('TimeControl');

export const TimeControlInput = z
  .object({
    type: z.enum(TIME_CONTROL_TYPES),
    initialSeconds: z.number().int().optional().openapi({ description: 'realtime: 10–10800' }),
    incrementSeconds: z.number().int().optional().openapi({ description: 'realtime: 0–180, default 0' }),
    daysPerMove: z.number().int().optional().openapi({ description: 'correspondence: 1–14' }),
  })
  .strict()
  .openapi('TimeControlInput');

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
      'The running seat has remainingMs[runningSeat] − (now − runningSince) left; it flags at deadlineAt',
  });

export const Game = z
  .object({
    id: GameId,
    kind: z.enum(kindIds()),
    rulesVersion: z.string(),
    options: z.record(z.string(), z.union([z.number(), z.boolean(), z.string()])),
    seats: z.array(Seat),
    status: z.enum(GAME_STATUSES),
    result: orNull(GameResult),
    ply: z.number().int(),
    version: z.number().int().openapi({ description: 'Send back in If-Match to guard a write' }),
    toMove: z.number().int().nullable(),
    toMoveName: z.string().nullable(),
    position: z.string(),
    initialPosition: z
      .string()
      .nullable()
      .openapi({
        description:
          'A game from a position: the position it started from; null for the standard start. ' +
          'A game with an initial position is never rated.',
      }),
    rated: z.boolean().openapi({
      description: "A rated game: its result changes both accounts' ratings once, when it ends (see Ratings)",
    }),
    board: Board,
    legalMoves: z.array(z.string()),
    moves: z.array(Move),
    drawOffer: z.number().int().nullable(),
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
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Game');

/** The game without its moves: what feed events and the later messages of game streams carry. */
export const GameHead = Game.omit({ moves: true }).openapi('GameHead', {
  description:
    'A Game without `moves`: the same fields, O(1) in the length of the game. The moves are in ' +
    'GET /games/{id} and, a page at a time, GET /games/{id}/moves',
});

/** A later message of a game stream, or a minimal write answer: the new version's head and its move. */
export const GameStreamUpdate = z
  .object({
    game: GameHead,
    move: orNull(Move).openapi({
      description:
        'The move that made this version; null for a version no move made (a draw offer, a resignation, a timeout…)',
    }),
  })
  .openapi('GameStreamUpdate', {
    description:
      'A version after the first message of a game stream (its moves are those of the previous version plus ' +
      '`move`), and the answer of a write sent with `Prefer: return=minimal`',
  });

export const MovesQuery = z
  .object({
    after: z.coerce.number().int().min(0).optional().openapi({
      type: 'integer',
      description: 'Only moves after this ply (`next` of the previous page); default 0: from the first move',
    }),
    limit: pageLimit(100, 500),
  })
  .strict();

export const MovePage = z
  .object({
    items: z.array(Move).openapi({ description: 'Oldest first' }),
    next: z.number().int().nullable().openapi({
      description:
        'Pass as `after` for the next page (the ply of the last move here); null: this is the last page',
    }),
  })
  .openapi('MovePage');

/** Who moves first: the same words as GraphQL's `first`, plus the JSON numbers 0 and 1. */
export const FirstInput = z.union([z.string(), z.number().int()]).openapi({
  description:
    'Who moves first: a seat name of the kind (white or black; south or north), "random", or the seat ' +
    'number "0" or "1" (also as the number 0 or 1). Default: seat 0 (white / south). With a position, ' +
    'its side to move moves first and `first` may only repeat it.',
  example: 'black',
});

/** A start position in the game's notation (a game from a position). */
export const StartPosition = z.string().openapi({
  description:
    "Start from this position, in the game's notation (see GET /kinds), instead of the standard start. " +
    'Refused with INVALID_POSITION when it does not parse, is impossible or is already decided. ' +
    'A game from a position is never rated.',
  example: 'W:WKc3:Ba7,b8,Kh8',
});

export const CreateGameBody = z
  .object({
    kind: z.string().openapi({ example: 'kalah', description: `One of ${kindIds().join(', ')}` }),
    options: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ example: { seeds: 4 } }),
    first: FirstInput.optional(),
    position: StartPosition.optional(),
    timeControl: orNull(TimeControlInput).optional().openapi({ description: 'Default: unlimited' }),
  })
  .strict()
  .openapi('CreateGameBody');

export const CreatedGame = z
  .object({
    game: Game,
    seatTokens: z.array(z.object({ seat: z.number().int(), name: z.string(), token: z.string() })).openapi({
      description: 'One secret per seat, shown only here',
    }),
  })
  .openapi('CreatedGame');

export const MoveBody = z
  .object({
    move: z.string().min(1).max(200).openapi({ example: '3' }),
    expectedVersion: z.number().int().min(0).optional().openapi({ description: 'Same as If-Match' }),
  })
  .strict()
  .openapi('MoveBody');

export const ValidateBody = z
  .object({ move: z.string().min(1).max(200) })
  .strict()
  .openapi('ValidateBody');

export const ActionBody = z
  .object({ expectedVersion: z.number().int().min(0).optional() })
  .strict()
  .openapi('ActionBody');

export const MoveCheck = z
  .object({
    move: z.string(),
    position: z.string(),
    board: Board,
    legalMoves: z.array(z.string()),
    toMove: z.number().int().nullable(),
    toMoveName: z.string().nullable(),
    status: z.enum(GAME_STATUSES),
    result: orNull(GameResult),
    details: orNull(z.lazy(() => MoveDetails)),
  })
  .openapi('MoveCheck');

export const ListQuery = z
  .object({
    account: z
      .string()
      .max(64)
      .optional()
      .openapi({ description: 'Only games with a seat held by this username' }),
    kind: z.string().optional(),
    status: z.enum(GAME_STATUSES).optional(),
    after: z.string().max(64).optional().openapi({ description: '`next` of the previous page' }),
    limit: pageLimit(20),
  })
  .strict();

export const GamePage = z
  .object({
    items: z.array(Game),
    next: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `after` for the next page; null: this is the last page' }),
  })
  .openapi('GamePage');

export const LegalMoves = z
  .object({
    id: GameId,
    version: z.number().int(),
    toMove: z.number().int().nullable(),
    moves: z.array(z.string()),
  })
  .openapi('LegalMoves');

export const Problem = z
  .object({
    type: z.string().openapi({ example: 'urn:boardhost:problem:illegal-move' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(Object.keys(GAME_ERROR_CODES) as [keyof typeof GAME_ERROR_CODES]),
    // The details some codes carry (more may come: clients should ignore members they do not know).
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .openapi({
        description: 'INVALID_INPUT of a body, query or path field: each field refused (body.kind…)',
      }),
    currentVersion: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'VERSION_CONFLICT: where the game is' }),
    legalMoves: z.array(z.string()).optional().openapi({ description: 'ILLEGAL_MOVE: the legal moves' }),
    candidates: z
      .array(z.string())
      .optional()
      .openapi({ description: 'AMBIGUOUS_MOVE: the moves the shorthand matches' }),
    required: z
      .array(z.string())
      .optional()
      .openapi({ description: 'MISSING_SCOPE: the scopes that would do (any one)' }),
    retryAfterSeconds: z.number().int().optional().openapi({ description: 'RATE_LIMITED: as Retry-After' }),
    policy: z.string().optional().openapi({ description: 'RATE_LIMITED: the limit hit (token or ip)' }),
  })
  .catchall(z.unknown())
  .openapi('Problem', {
    description:
      'RFC 9457 problem details; `code` is the same as GraphQL extensions.code. Further members carry the ' +
      'error’s details (currentVersion, candidates, required, first…); a detail named like a standard member ' +
      'is prefixed with the code’s subject (CHALLENGE_CLOSED: `challengeStatus` is open, accepted, declined, ' +
      'canceled or expired).',
  });

export const KindInfo = z
  .object({
    kind: z.enum(kindIds()),
    name: z.string().openapi({ example: 'Kalah' }),
    family: z.enum(BOARD_FAMILIES).openapi({
      description: "How its moves are described (a move's `details`) and its board drawn",
      example: 'mancala',
    }),
    seatNames: z.array(z.string()).openapi({ description: 'Seat 0 first', example: ['south', 'north'] }),
    options: z.record(z.string(), z.unknown()).openapi({
      description: 'The creation options as a JSON Schema (draft 2020-12); unknown options are refused',
    }),
    defaults: z
      .record(z.string(), z.union([z.number(), z.boolean(), z.string()]))
      .openapi({ description: 'What omitted options become' }),
    notation: z.object({
      moves: z.string().openapi({ description: 'How moves are written' }),
      position: z.string().openapi({ description: 'How positions are written (also `position` on create)' }),
      start: z.string().openapi({ description: 'The standard start with the default options' }),
    }),
    rules: z.object({
      path: z
        .string()
        .openapi({ example: 'docs/rules/kalah.md', description: 'The rules page in the repository' }),
      url: z
        .string()
        .openapi({ example: '/rules/kalah.md', description: 'The same page served as text/markdown' }),
    }),
  })
  .openapi('KindInfo');

export const KindList = z.object({ items: z.array(KindInfo) }).openapi('KindList');

export const StartBody = z
  .object({
    options: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ example: { seeds: 5 } }),
    first: FirstInput.optional(),
    position: StartPosition.optional(),
  })
  .strict()
  .openapi('StartBody');

export const KindStart = z
  .object({
    kind: z.enum(kindIds()),
    options: z
      .record(z.string(), z.union([z.number(), z.boolean(), z.string()]))
      .openapi({ description: 'The options with their defaults filled in' }),
    position: z.string().openapi({ description: "The start position in the game's notation" }),
    board: Board,
    toMove: z.number().int(),
    toMoveName: z.string(),
    legalMoves: z.array(z.string()),
  })
  .openapi('KindStart');

export const Health = z
  .object({
    status: z.string().openapi({
      description: 'ok (/livez); ready, degraded (failing within the grace window) or unavailable',
    }),
    store: z.string().optional(),
    failingForMs: z
      .number()
      .optional()
      .openapi({ description: 'degraded: how long the store has been failing' }),
  })
  .openapi('Health');
