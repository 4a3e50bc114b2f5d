import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { GAME_KINDS, OUTCOME_REASONS } from '../../engines/types';
import { GAME_ERROR_CODES } from '../../service/errors';
import { TIME_CONTROL_TYPES } from '../../store/store';

// Request and response shapes of the REST API. Handlers validate input with these and
// openapi/openapi.json is generated from them (npm run openapi), so the two cannot drift.
extendZodWithOpenApi(z);

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

export const Move = z
  .object({
    ply: z.number().int(),
    notation: z.string(),
    seat: z.number().int(),
    seatName: z.string(),
    at: z.string().openapi({ format: 'date-time' }),
    details: z.record(z.string(), z.unknown()).nullable(),
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
    kind: z.enum(GAME_KINDS),
    rulesVersion: z.string(),
    options: z.record(z.string(), z.union([z.number(), z.boolean(), z.string()])),
    seats: z.array(Seat),
    status: z.enum(['ongoing', 'finished']),
    result: GameResult.nullable(),
    ply: z.number().int(),
    version: z.number().int().openapi({ description: 'Send back in If-Match to guard a write' }),
    toMove: z.number().int().nullable(),
    toMoveName: z.string().nullable(),
    position: z.string(),
    board: Board,
    legalMoves: z.array(z.string()),
    moves: z.array(Move),
    drawOffer: z.number().int().nullable(),
    timeControl: TimeControl,
    // A union, not .nullable(): zod-to-openapi drops `null` from a nullable reference.
    clock: z
      .union([GameClock, z.null()])
      .openapi({ description: 'Realtime games: the clocks; null otherwise' }),
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

export const CreateGameBody = z
  .object({
    kind: z.string().openapi({ example: 'kalah', description: `One of ${GAME_KINDS.join(', ')}` }),
    options: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ example: { seeds: 4 } }),
    first: z
      .union([z.number().int(), z.string()])
      .optional()
      .openapi({ description: 'Seat that moves first: 0, 1, its name, or "random"' }),
    timeControl: TimeControlInput.nullable().optional().openapi({ description: 'Default: unlimited' }),
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
    status: z.enum(['ongoing', 'finished']),
    result: GameResult.nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
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
    status: z.enum(['ongoing', 'finished']).optional(),
    cursor: z.string().max(64).optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
  })
  .strict();

export const GamePage = z
  .object({ items: z.array(Game), nextCursor: z.string().nullable() })
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
  })
  .catchall(z.unknown())
  .openapi('Problem', {
    description:
      'RFC 9457 problem details; `code` is the same as GraphQL extensions.code. Further members carry the ' +
      'error’s details (currentVersion, candidates, required, first…); a detail named like a standard member ' +
      'is prefixed with the code’s subject (CHALLENGE_CLOSED: `challengeStatus` is open, accepted, declined, ' +
      'canceled or expired).',
  });

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
