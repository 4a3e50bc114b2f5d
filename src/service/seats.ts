import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Side } from '../engines/types';
import type { StoredGame } from '../store/store';
import { GameError } from './errors';

/** Who is asking. Seat tokens today; accounts will add their own kind here. */
export interface Credential {
  readonly seatToken?: string;
}

/** A new secret seat token (shown to the creator once) and the hash that is stored. */
export function newSeatToken(): { token: string; hash: string } {
  const token = `bhs_${randomBytes(24).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

/** The stored form of a secret token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The seat the credential holds in `game`. The one place that decides who may act for a seat:
 * accounts bound to seats will be checked here too.
 */
export function authorizeSeat(game: StoredGame, credential: Credential): Side {
  if (!credential.seatToken) {
    throw new GameError(
      'UNAUTHENTICATED',
      'This action needs the seat token (Authorization: Bearer <token>)',
    );
  }
  const given = Buffer.from(hashToken(credential.seatToken), 'hex');
  for (const seat of [0, 1] as const) {
    const stored = Buffer.from(game.seatTokenHashes[seat], 'hex');
    if (stored.length === given.length && timingSafeEqual(stored, given)) return seat;
  }
  throw new GameError('FORBIDDEN', 'The token does not hold a seat in this game');
}
