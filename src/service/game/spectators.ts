// Spectators of a private game: the accounts its app invites to read and watch it (audience.ts reads
// the list). Only the bare key of the game's own app invites (scope game:read), and only its own
// accounts; at most MAX_SPECTATORS per game.
//
// The list is part of the game document, so a change is a compare-and-set on the game's version like
// every write (GameStore.update): a change that kept the version would let a move made at the same
// time (its compare-and-set on that same version) write back the list it read and lose the
// invitation. So a change makes a new version, but nothing else a player sees: no feed event
// (no game.updated), no change of updatedAt, clocks, deadlines or listings; the account indexes are
// written as they are (the relay keeps its per-game order). A client that pinned the old version
// (If-Match) gets one VERSION_CONFLICT and retries; watchers get a version without a move.
import {
  accountEffectsOf,
  appOf,
  clockIndexOf,
  OPEN_APP,
  type Storage,
  type StoredGame,
} from '../../store/store';
import type { Authenticator, Credential } from '../accounts/auth';
import { GameError } from '../errors';
import { gameNotFound, MAX_SPECTATORS, SERVICE_READ } from './audience';
import type { GameService } from './service';

/** A game's invited spectators, as the invite routes answer. */
export interface SpectatorsView {
  readonly gameId: string;
  /** Account ids, in the order invited. */
  readonly spectators: readonly string[];
}

/** How often a change retries after losing a race with another write of the game. */
const ATTEMPTS = 8;

export class GameSpectators {
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
  ) {}

  /** Invites `accountId` (an account of the caller's app) to read and watch the game; again: no change. */
  invite(credential: Credential, gameId: string, accountId: string): Promise<SpectatorsView> {
    return this.change(credential, gameId, accountId, true);
  }

  /** Takes the invitation back; an account not invited: no change. */
  uninvite(credential: Credential, gameId: string, accountId: string): Promise<SpectatorsView> {
    return this.change(credential, gameId, accountId, false);
  }

  private async change(
    credential: Credential,
    gameId: string,
    accountId: string,
    add: boolean,
  ): Promise<SpectatorsView> {
    const { app } = await this.auth.requireApp(credential, 'game:read');
    // Another app's game, or none: the same answer (nothing learnt about other apps' games).
    const owned = (game: StoredGame) => (game.app ?? OPEN_APP) === app.id;
    const first = await this.games.readable(gameId, SERVICE_READ);
    if (!owned(first)) throw gameNotFound(gameId);
    const account = await this.storage.accounts.getAccount(accountId);
    if (!account || appOf(account) !== app.id) {
      throw new GameError('ACCOUNT_NOT_FOUND', `The app has no account ${accountId}`, { field: 'accountId' });
    }
    let game = first;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const before = game.spectators ?? [];
      const listed = before.includes(account.id);
      if (listed === add) return { gameId, spectators: before };
      if (add && before.length >= MAX_SPECTATORS) {
        throw new GameError('APP_LIMIT_REACHED', `A game has at most ${MAX_SPECTATORS} spectators`, {
          what: 'spectators',
          max: MAX_SPECTATORS,
        });
      }
      const spectators = add ? [...before, account.id] : before.filter((s) => s !== account.id);
      const { spectators: _old, ...rest } = game;
      const next: StoredGame = {
        ...rest,
        ...(spectators.length > 0 ? { spectators } : {}),
        version: game.version + 1,
      };
      const clock = clockIndexOf(next);
      const result = await this.storage.games.update(next, game.version, undefined, {
        notices: [],
        accounts: accountEffectsOf(next, [], clock),
        clock,
      });
      if (result.status === 'updated') return { gameId, spectators };
      if (result.status === 'missing') throw gameNotFound(gameId);
      game = await this.games.readable(gameId, SERVICE_READ);
    }
    throw new GameError('VERSION_CONFLICT', 'The game is changing too fast; retry');
  }
}
