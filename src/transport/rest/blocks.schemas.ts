import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { pageLimit } from './schemas';
import { Username } from './accounts.schemas';

// Request and response shapes of an account's blocks.
extendZodWithOpenApi(z);

export const BlockParams = z.object({ username: Username });

export const Block = z
  .object({
    username: Username,
    createdAt: z.string().openapi({ format: 'date-time', description: 'Blocked since' }),
  })
  .openapi('Block');

export const BlockList = z
  .object({
    items: z.array(Block),
    next: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `after` for the next page; null on the last page' }),
  })
  .openapi('BlockList', {
    example: { items: [{ username: 'mallory', createdAt: '2026-03-01T12:00:00.000Z' }], next: 'mallory' },
  });

export const BlockListQuery = z
  .object({
    limit: pageLimit(50),
    after: Username.optional().openapi({ description: '`next` of the previous page' }),
  })
  .strict();
