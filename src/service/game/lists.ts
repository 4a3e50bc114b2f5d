import type { GameFilter, GameStatus, Storage, StoredGame, TurnCursor } from '../../store/store';
import type { Authenticator, Credential } from '../accounts/auth';
import { GameError } from '../errors';
import type { GameView } from './view';
import { decodeCursor, encodeCursor, type GameService } from './service';
import { MY_GAMES_FILTERS } from '../../vocabulary';

export interface MyGamesInput {
  /** my-turn, ongoing, finished or all (default). */
  readonly filter?: string;
  readonly kind?: string;
  /** `next` of the previous page. */
  readonly after?: string;
  readonly limit?: number;
}

/** Games per store read while exporting. */
const EXPORT_PAGE = 100;

/** The account's own game lists and their export. */
export class GameListService {
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly games: GameService,
  ) {}

  /**
   * The caller's games (scope game:read): `my-turn` (ongoing games where it is to move, earliest
   * deadline first, games without a deadline last), `ongoing`, `finished` or `all` (newest first).
   * Keyset cursors: a game that changes between pages never makes another one skipped or repeated.
   */
  async myGames(
    credential: Credential,
    input: MyGamesInput,
  ): Promise<{ items: GameView[]; next: string | null }> {
    const { account } = await this.auth.requireAccount(credential, 'game:read');
    const filter = input.filter ?? 'all';
    if (!(MY_GAMES_FILTERS as readonly string[]).includes(filter)) {
      throw new GameError('INVALID_INPUT', `filter must be one of ${MY_GAMES_FILTERS.join(', ')}`, {
        field: 'filter',
      });
    }
    const kind = input.kind === undefined ? undefined : this.games.engineFor(input.kind).kind;
    const limit = input.limit ?? 20;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw new GameError('INVALID_INPUT', 'limit must be a whole number from 1 to 100');
    }
    if (filter === 'my-turn') {
      const after = input.after === undefined ? undefined : decodeTurnCursor(input.after);
      const page = await this.storage.clocks.listTurn(account.id, kind ? { kind } : {}, limit, after);
      return {
        items: page.items.map((g) => this.games.view(g)),
        next: page.next === null ? null : encodeTurnCursor(page.next),
      };
    }
    const before = input.after === undefined ? undefined : decodeCursor(input.after);
    const page = await this.storage.games.list(
      {
        account: account.id,
        ...(kind ? { kind } : {}),
        ...(filter === 'all' ? {} : { status: parseStatus(filter) }),
      },
      limit,
      before,
    );
    return {
      items: page.items.map((g) => this.games.view(g)),
      next: page.next === null ? null : encodeCursor(page.next),
    };
  }

  /**
   * Every game of the caller (scope game:read), newest first, optionally of one kind or status:
   * read from the store a page at a time as the consumer asks for more.
   */
  async exportMyGames(
    credential: Credential,
    input: { readonly kind?: string; readonly status?: string },
  ): Promise<AsyncIterable<GameView>> {
    const { account } = await this.auth.requireAccount(credential, 'game:read');
    const filter: GameFilter = {
      account: account.id,
      ...(input.kind === undefined ? {} : { kind: this.games.engineFor(input.kind).kind }),
      ...(input.status === undefined ? {} : { status: parseStatus(input.status) }),
    };
    const list = (before?: number) => this.storage.games.list(filter, EXPORT_PAGE, before);
    const view = (game: StoredGame) => this.games.view(game);
    return (async function* () {
      let before: number | undefined;
      for (;;) {
        const page = await list(before);
        for (const game of page.items) yield view(game);
        if (page.next === null) return;
        before = page.next;
      }
    })();
  }
}

/** The my-turn list's cursor: base64url of its keyset position (score and game id). */
function encodeTurnCursor(at: TurnCursor): string {
  return Buffer.from(`t${at.score}:${at.id}`).toString('base64url');
}

function decodeTurnCursor(cursor: string): TurnCursor {
  const match = /^t(\d{1,16}):([A-Za-z0-9_-]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match)
    throw new GameError('INVALID_INPUT', 'Malformed cursor: pass the `next` of a page as `after`', {
      field: 'after',
    });
  return { score: Number(match[1]), id: match[2] as string };
}

function parseStatus(status: string): GameStatus {
  if (status !== 'ongoing' && status !== 'finished') {
    throw new GameError('INVALID_INPUT', `status must be ongoing or finished, not ${status}`, {
      field: 'status',
    });
  }
  return status;
}
