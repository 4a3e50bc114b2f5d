// Who may read a game: the one place that decides it (every read of a game, its moves, its record,
// its stream, goes through GameService.readable or `mayRead`). Public and unlisted games: anyone
// with the id. A private game: its seats (seat tokens, or the seats' accounts however they come:
// their own tokens, sessions, or their app's key acting for them), the bare key of the game's app,
// and the accounts its app invited as spectators; to everyone else it answers exactly as a missing
// game (GAME_NOT_FOUND), so nothing tells a private game from no game.
import { timingSafeEqual } from 'node:crypto';
import { OPEN_APP, type GameHead, type StoredAccount, type StoredGame } from '../../store/store';
import { GAME_VISIBILITIES, type GameVisibility } from '../../vocabulary';
import type { Authenticator, Caller, Credential } from '../accounts/auth';
import type { Pools } from '../apps/pools';
import { GameError } from '../errors';

/** The service reading a game for itself (TV, the AI, push bots): no audience check. */
export const SERVICE_READ: unique symbol = Symbol('service read');

/**
 * Who reads: a request's credential (none: anonymous), or the service itself. Every read of the
 * game service takes one; left out, it reads as ANONYMOUS (the safe default: public games only).
 */
export type Viewer = Credential | typeof SERVICE_READ;

/** No credential: reads public and unlisted games only. */
export const ANONYMOUS: Credential = Object.freeze({});

/** The most spectators an app may invite to one game. */
export const MAX_SPECTATORS = 50;

/** What a game records about its audience: absent fields are the defaults (open app, open pool, public). */
export interface GameAudience {
  readonly app?: string;
  readonly pool?: string;
  readonly visibility?: GameVisibility;
}

/** The answer to anyone who may not read the game: the missing game's, word for word. */
export function gameNotFound(id: string): GameError {
  return new GameError('GAME_NOT_FOUND', `No game with id ${id}`);
}

/** A visibility as inputs give it (absent: public); INVALID_INPUT otherwise. */
export function visibilityOf(input: unknown): GameVisibility {
  if (input === undefined || input === null) return 'public';
  if (typeof input === 'string' && (GAME_VISIBILITIES as readonly string[]).includes(input)) {
    return input as GameVisibility;
  }
  throw new GameError('INVALID_INPUT', `visibility must be one of ${GAME_VISIBILITIES.join(', ')}`, {
    field: 'visibility',
  });
}

/** The stricter of two visibilities (a seek's game takes the stricter of its two seeks'). */
export function stricter(a: GameVisibility, b: GameVisibility): GameVisibility {
  return GAME_VISIBILITIES.indexOf(a) >= GAME_VISIBILITIES.indexOf(b) ? a : b;
}

/**
 * The fields a new game records: its app and pool (omitted when open) and its visibility (omitted
 * when public), so that an open public game's document is as small as before apps.
 */
export async function audienceOf(
  pools: Pools,
  app: string,
  visibility: GameVisibility = 'public',
): Promise<GameAudience> {
  const pool = await pools.ofApp(app);
  return {
    ...(app === OPEN_APP ? {} : { app }),
    ...(pool === OPEN_APP ? {} : { pool }),
    ...(visibility === 'public' ? {} : { visibility }),
  };
}

/** The app of the account that creates a game (absent: the open app). */
export function appOfCreator(account: Pick<StoredAccount, 'app'> | undefined): string {
  return account?.app ?? OPEN_APP;
}

/** Whether only the game's members may read it (see `mayRead`). */
export function isPrivate(game: Pick<StoredGame, 'visibility'>): boolean {
  return game.visibility === 'private';
}

/**
 * Whether `caller` may read `game`. Public and unlisted: everyone. Private: a seat (its seat token,
 * or an account seated in it, whatever credential proved the account), an invited spectator, or
 * the game's own app's bare key. An app key acting for one of its accounts reads as that account.
 */
export function mayRead(game: GameHead, caller: Caller): boolean {
  if (!isPrivate(game)) return true;
  switch (caller.kind) {
    case 'anonymous':
      return false;
    case 'app':
      return caller.app.id === (game.app ?? OPEN_APP);
    case 'account': {
      const id = caller.account.id;
      return game.seats.some((s) => s.account === id) || (game.spectators ?? []).includes(id);
    }
    case 'seat': {
      const given = Buffer.from(caller.hash, 'hex');
      return game.seatTokenHashes.some((hash) => {
        const stored = Buffer.from(hash, 'hex');
        return stored.length > 0 && stored.length === given.length && timingSafeEqual(stored, given);
      });
    }
  }
}

/**
 * The caller behind a viewer's credential, for reading: a credential that does not identify
 * (unknown, revoked, expired, banned) reads as anonymous, so that a private game answers
 * GAME_NOT_FOUND to it as to anyone (never an error that tells the game exists).
 */
export async function readerOf(auth: Authenticator, credential: Credential): Promise<Caller> {
  try {
    return await auth.identify(credential);
  } catch (error) {
    if (error instanceof GameError) return { kind: 'anonymous' };
    throw error;
  }
}

/**
 * Throws GAME_NOT_FOUND unless `viewer` may read `game` (the caller is identified only for a
 * private game: reading a public one costs nothing more than before).
 */
export async function checkRead(auth: Authenticator, game: GameHead, viewer: Viewer): Promise<void> {
  if (!isPrivate(game) || viewer === SERVICE_READ) return;
  if (!mayRead(game, await readerOf(auth, viewer))) throw gameNotFound(game.id);
}

/**
 * The games of an account's listing that `viewer` may see listed: public ones to anyone, unlisted
 * and private ones only to those who may read a private game (its seats, its app, its spectators).
 */
export async function listedTo(
  auth: Authenticator,
  games: readonly StoredGame[],
  viewer: Viewer,
): Promise<StoredGame[]> {
  const hidden = (g: StoredGame) => (g.visibility ?? 'public') !== 'public';
  if (viewer === SERVICE_READ || !games.some(hidden)) return [...games];
  const caller = await readerOf(auth, viewer);
  return games.filter((g) => !hidden(g) || mayRead({ ...g, visibility: 'private' }, caller));
}

/** How many ids of games anyone may read a node remembers. */
const OPEN_IDS = 10_000;

/**
 * The read check of one node's game service, remembering the games it found anyone may read
 * (public or unlisted: visibility never changes), so a read that costs O(page) need not read the game.
 */
export class ReadChecks {
  private readonly open = new Set<string>();

  constructor(private readonly auth: Authenticator) {}

  /** GAME_NOT_FOUND unless `viewer` may read `game` (see checkRead). */
  async check(game: GameHead, viewer: Viewer): Promise<void> {
    await checkRead(this.auth, game, viewer);
    if (isPrivate(game) || this.open.has(game.id)) return;
    this.open.add(game.id);
    if (this.open.size > OPEN_IDS) this.open.delete(this.open.values().next().value as string);
  }

  /** Whether this node knows anyone may read the game. */
  known(id: string): boolean {
    return this.open.has(id);
  }
}
