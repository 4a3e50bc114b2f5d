import { GameError } from '../errors';

// Game ids, the listings' input and their page cursors (GET /games, an account's games).

/** Game ids: 12 characters of base64url. */
const GAME_ID = /^[A-Za-z0-9_-]{12}$/;

/** INVALID_INPUT unless `id` is a well-formed game id. */
export function assertGameId(id: string): void {
  if (!GAME_ID.test(id)) throw new GameError('INVALID_INPUT', `Malformed game id "${id}"`, { field: 'id' });
}

export interface ListGamesInput {
  /** Only games with a seat held by this username. */
  readonly account?: string;
  readonly kind?: string;
  readonly status?: string;
  /** `next` of the previous page. */
  readonly after?: string;
  readonly limit?: number;
}

/** Cursors are opaque to clients: base64url of the sequence number to continue below. */
export function encodeCursor(seq: number): string {
  return Buffer.from(`s${seq}`).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const match = /^s(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match)
    throw new GameError('INVALID_INPUT', 'Malformed cursor: pass the `next` of a page as `after`', {
      field: 'after',
    });
  return Number(match[1]);
}
