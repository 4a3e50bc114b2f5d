import type { StoredAccount } from '../../store/store';
import { GameError } from '../errors';

// Small checks of challenge and seek inputs.

/** A whole number of seconds from `min` to `max` (`fallback` when absent), else INVALID_INPUT. */
export function seconds(value: number | undefined, min: number, max: number, fallback: number): number {
  const s = value ?? fallback;
  if (!Number.isInteger(s) || s < min || s > max) {
    throw new GameError('INVALID_INPUT', `expiresInSeconds must be a whole number from ${min} to ${max}`, {
      field: 'expiresInSeconds',
    });
  }
  return s;
}

/** `value` if it is one of `allowed`, else INVALID_INPUT naming `field`. */
export function oneOf<T extends string>(value: string, allowed: readonly T[], field: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new GameError('INVALID_INPUT', `${field} must be one of ${allowed.join(', ')}`, { field });
  }
  return value as T;
}

/** An account known only by id: no bot declaration, so only the quota limits it. */
export function unknownAccount(id: string): StoredAccount {
  return { id, username: id, kind: 'human', bot: null, createdAt: '' };
}
