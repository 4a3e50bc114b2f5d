import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { RATING_RANGE_BOUNDS } from '../../service/challenges/rating-range';

extendZodWithOpenApi(z);

const { lowest, highest } = RATING_RANGE_BOUNDS;
const bound = z.number().int().min(lowest).max(highest);

/** A seek's rating range as posted (either bound may be left out). */
export const RatingRangeInput = z
  .object({
    min: bound
      .nullable()
      .optional()
      .openapi({ description: `The lowest opponent rating admitted (${lowest}–${highest})` }),
    max: bound
      .nullable()
      .optional()
      .openapi({ description: `The highest opponent rating admitted (${lowest}–${highest})` }),
  })
  .strict()
  .openapi('RatingRangeInput', {
    description:
      "The opponent ratings a seek admits, absolute, in the seek's perf (kind and speed). Pairing honours both " +
      "seeks' ranges; accepting a listed seek needs a rating inside it",
    example: { min: 1300, max: 1700 },
  });

/** A seek's rating range as shown (null bound: open on that side). */
export const RatingRange = z.object({ min: bound.nullable(), max: bound.nullable() }).openapi('RatingRange', {
  description: 'The opponent ratings the seeker admits (a null bound: open on that side)',
});
