import type { RatingRange } from '../../store/store';
import { GameError } from '../errors';

// A seek's rating range: the opponent ratings its seeker admits, absolute, in the seek's perf.

/** The lowest and highest bound a rating range may name (ratings live well inside them). */
export const RATING_RANGE_BOUNDS = { lowest: 0, highest: 4000 } as const;

export interface RatingRangeInput {
  readonly min?: number | null;
  readonly max?: number | null;
}

/**
 * A range from input: integers within RATING_RANGE_BOUNDS, min ≤ max; undefined for none (no input,
 * or neither bound). Anything else: INVALID_INPUT (field `ratingRange`).
 */
export function parseRatingRange(input: unknown): RatingRange | undefined {
  if (input === undefined || input === null) return undefined;
  if (typeof input !== 'object' || Array.isArray(input)) throw invalid('must be an object { min, max }');
  const { min, max, ...rest } = input as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw invalid(`has no field ${Object.keys(rest)[0]}`);
  const lo = bound(min, 'min');
  const hi = bound(max, 'max');
  if (lo !== undefined && hi !== undefined && lo > hi) throw invalid('min must not exceed max');
  if (lo === undefined && hi === undefined) return undefined;
  return { ...(lo === undefined ? {} : { min: lo }), ...(hi === undefined ? {} : { max: hi }) };
}

/** A rating filter (GET /seeks `rating`): an integer within RATING_RANGE_BOUNDS. */
export function parseRating(input: unknown, field = 'rating'): number {
  const { lowest, highest } = RATING_RANGE_BOUNDS;
  if (typeof input !== 'number' || !Number.isInteger(input) || input < lowest || input > highest) {
    throw new GameError('INVALID_INPUT', `${field} must be an integer from ${lowest} to ${highest}`, {
      field,
    });
  }
  return input;
}

function bound(value: unknown, name: 'min' | 'max'): number | undefined {
  if (value === undefined || value === null) return undefined;
  const { lowest, highest } = RATING_RANGE_BOUNDS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < lowest || value > highest) {
    throw invalid(`${name} must be an integer from ${lowest} to ${highest}`);
  }
  return value;
}

function invalid(message: string): GameError {
  return new GameError('INVALID_INPUT', `ratingRange ${message}`, { field: 'ratingRange' });
}
