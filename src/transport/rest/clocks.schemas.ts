import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { pageLimit } from './schemas';
import { GAME_STATUSES, MY_GAMES_FILTERS } from '../../vocabulary';
import { VACATION_DAYS_PER_YEAR } from '../../service/time/clocks';

// Request and response shapes of an account's own game lists, its export and its vacations.
extendZodWithOpenApi(z);

const DateTime = z.string().openapi({ format: 'date-time' });

export const MyGamesQuery = z
  .object({
    filter: z
      .enum(MY_GAMES_FILTERS)
      .optional()
      .openapi({
        description:
          'my-turn: ongoing games where the account is to move, earliest deadline first (no deadline last); ' +
          'ongoing, finished, all (default): newest first',
      }),
    kind: z.string().optional(),
    after: z.string().max(120).optional().openapi({ description: '`next` of the previous page' }),
    limit: pageLimit(20),
  })
  .strict();

export const ExportQuery = z
  .object({
    kind: z.string().optional(),
    status: z.enum(GAME_STATUSES).optional(),
  })
  .strict();

export const VacationWindow = z.object({ from: DateTime, until: DateTime }).openapi('VacationWindow');

export const Vacation = z
  .object({
    allowanceDays: z.number().int().openapi({ description: 'Vacation days per calendar year (UTC)' }),
    year: z.number().int().openapi({ description: 'The year the days are counted in (this year)' }),
    usedDays: z.number().int(),
    remainingDays: z.number().int(),
    current: z.union([VacationWindow, z.null()]).openapi({ description: 'The vacation in progress, if any' }),
  })
  .openapi('Vacation');

export const VacationBody = z
  .object({
    days: z
      .number()
      .int()
      .openapi({ description: `Whole days from now, 1–${VACATION_DAYS_PER_YEAR} and within the days left` }),
  })
  .strict()
  .openapi('VacationBody', { example: { days: 7 } });
