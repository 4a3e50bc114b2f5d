import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  GAME_ERROR_CODES,
  BOARD_FAMILIES,
  kindIds,
  GAME_STATUSES,
  TIME_CONTROL_TYPES,
  GAME_VISIBILITIES,
  CHAT_MODES,
} from '../../vocabulary';
import { Board, Game, GameId, GameHead as GameHeadView, Move } from '../../service/views/game';
import { orNull } from '../../service/views/schema';

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
    .openapi({ type: 'integer', description: `1–${max}, default ${byDefault}`, example: byDefault });
}

// The game's shapes and their descriptions are the service's view schemas (src/service/views):
// REST serves them as declared, names included.
export { orNull } from '../../service/views/schema';
export {
  GameId,
  Seat,
  GameResult,
  Board,
  Move,
  TimeControl,
  GameClock,
  Game,
  GamePage,
  MoveCheck,
  GameSettings,
  TakebackOffer,
} from '../../service/views/game';
export {
  MoveDetails,
  CongoMoveDetails,
  DraughtsMoveDetails,
  MancalaMoveDetails,
} from '../../service/views/move-details';

/** The game without its moves: what feed events and the later messages of game streams carry. */
export const GameHead = GameHeadView.openapi({
  description:
    'A Game without `moves`: the same fields, O(1) in the length of the game. The moves are in ' +
    'GET /games/{id} and, a page at a time, GET /games/{id}/moves',
});

export const TimeControlInput = z
  .object({
    type: z.enum(TIME_CONTROL_TYPES),
    initialSeconds: z.number().int().optional().openapi({ description: 'realtime: 10–10800' }),
    incrementSeconds: z.number().int().optional().openapi({ description: 'realtime: 0–180, default 0' }),
    daysPerMove: z.number().int().optional().openapi({ description: 'correspondence: 1–14' }),
  })
  .strict()
  .openapi('TimeControlInput');

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
  // A Kalah position (the kind the other examples name): South sowed house 3 into its store and moves again.
  example: '4,4,0,5,5,5/1/4,4,4,4,4,4/0 S',
});

/** Who may read a game (see GAME_VISIBILITIES). */
export const GameVisibility = z.enum(GAME_VISIBILITIES).openapi('GameVisibility', {
  description:
    'Who may read and watch the game. public (default): anyone, and it is listed and on TV when it is of ' +
    'the open pool; unlisted: anyone with its id, never listed nor on TV; private: only its seats, its ' +
    "app's key and the accounts the app invites as spectators (to anyone else it answers 404 GAME_NOT_FOUND)",
});

/** What a new game allows (every create takes it; rematches copy it). */
export const GameSettingsInput = z
  .object({
    takeback: z.boolean().optional().openapi({
      description:
        'Seats may ask to take back moves (default true; rated games never allow it, and refuse true here)',
    }),
    chat: z.enum(CHAT_MODES).optional().openapi({
      description:
        'Who may chat: seats (the two players, the default), everyone (players and readers with an account), off',
    }),
  })
  .strict()
  .openapi('GameSettingsInput', {
    description: 'What the game allows; omitted fields take their defaults',
    example: { takeback: false, chat: 'everyone' },
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
    visibility: GameVisibility.optional(),
    settings: GameSettingsInput.optional(),
  })
  .strict()
  .openapi('CreateGameBody', {
    example: { kind: 'kalah', options: { seeds: 4, houses: 6 }, first: 'south', visibility: 'public' },
  });

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
  .openapi('MoveBody', { example: { move: '3', expectedVersion: 0 } });

export const ValidateBody = z
  .object({ move: z.string().min(1).max(200) })
  .strict()
  .openapi('ValidateBody', { example: { move: '3' } });

export const ActionBody = z
  .object({
    expectedVersion: z.number().int().min(0).optional().openapi({ description: 'Same as If-Match' }),
  })
  .strict()
  // No version in the example: the action applies to whatever version the game is at.
  .openapi('ActionBody', { example: {} });

export const ListQuery = z
  .object({
    account: z
      .string()
      .max(64)
      .optional()
      .openapi({ description: 'Only games with a seat held by this username', example: 'ada' }),
    kind: z.string().optional().openapi({ example: 'kalah' }),
    status: z.enum(GAME_STATUSES).optional().openapi({ example: 'ongoing' }),
    after: z.string().max(64).optional().openapi({ description: '`next` of the previous page' }),
    limit: pageLimit(20),
  })
  .strict();

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
  .openapi('StartBody', { example: { options: { seeds: 5 }, first: 'north' } });

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
