import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { kindIds, SEEK_STATUSES } from '../../vocabulary';
import {
  Game,
  GameSettings,
  GameSettingsInput,
  GameVisibility,
  orNull,
  StartPosition,
  TimeControl,
  TimeControlInput,
} from './schemas';
import { RatingRange, RatingRangeInput } from './rating-range.schemas';

// The shapes of seeks (POST /seeks, the lobby): split from accounts.schemas.ts, which re-exports them.
extendZodWithOpenApi(z);

const DateTime = z.string().openapi({ format: 'date-time' });
const Options = z.record(z.string(), z.union([z.number(), z.boolean(), z.string()]));

export const SeekId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{12}$/)
  .openapi({ description: 'Seek id (12 characters)', example: 'sK7mP2xQ9dLw' });

export const Seek = z
  .object({
    id: SeekId,
    account: z.string(),
    kind: z.enum(kindIds()),
    options: Options,
    timeControl: TimeControl,
    initialPosition: z
      .string()
      .nullable()
      .openapi({ description: 'A seek for a game from a position: that position; null: the standard start' }),
    rated: z.boolean().openapi({ description: 'A seek for a rated game' }),
    visibility: GameVisibility.openapi({
      description: 'Who may read the game (matched: the stricter of the two seeks)',
    }),
    ratingRange: RatingRange.nullable().openapi({ description: 'The opponent ratings admitted; null: any' }),
    settings: GameSettings.openapi({
      description: "What the seek asks the game to allow (a match's game: the stricter of the two seeks')",
    }),
    status: z.enum(SEEK_STATUSES),
    game: orNull(Game).openapi({ description: 'matched: the new game; waiting: null' }),
    createdAt: DateTime,
    expiresAt: DateTime,
  })
  .openapi('Seek');

export const CreateSeekBody = z
  .object({
    kind: z.string().openapi({ example: 'oware' }),
    options: z.record(z.string(), z.unknown()).optional(),
    timeControl: orNull(TimeControlInput).optional(),
    position: StartPosition.optional().openapi({
      description:
        "Seek a game from this position (the game's notation); it pairs only with seeks for the same position",
    }),
    expiresInSeconds: z.number().int().optional().openapi({ description: '10 s to 1 day, default 1 hour' }),
    rated: z.boolean().optional().openapi({
      description:
        'A rated game (default false; the standard start only, else 422 RATED_NOT_ALLOWED): pairs only with rated seeks',
    }),
    visibility: GameVisibility.optional(),
    ratingRange: RatingRangeInput.optional(),
    settings: GameSettingsInput.optional().openapi({
      description:
        'What the game allows; a match takes the stricter of the two seeks’ (takebacks only if both allow)',
    }),
  })
  .strict()
  .openapi('CreateSeekBody', {
    example: { kind: 'oware', timeControl: { type: 'realtime', initialSeconds: 300, incrementSeconds: 3 } },
  });
