import type { FeedEvent, Storage } from '../../store/store';
import type { Authenticator, Credential } from '../accounts/auth';
import type { Pools } from '../apps/pools';
import { GameError } from '../errors';
import type { GameHeadView } from './view';

// The games of chosen accounts, live (what a tournament broadcaster or a bot's author watches; as
// lichess's games-by-users stream): when a game of any of them starts or ends. Public information
// only: it follows those accounts' feeds on this node and forwards `game.started` and
// `game.finished` with the game's head (what anyone may read at GET /games/{id}), nothing else of
// the feeds (challenges, draw offers, ratings…). A game of two watched accounts is sent once. Only
// public games are forwarded (an unlisted or private game is nobody's to announce: audience.ts).

/** At most this many accounts per stream. */
export const MAX_WATCHED_ACCOUNTS = 300;

export interface AccountGameMessage {
  readonly type: 'game.started' | 'game.finished';
  readonly game: GameHeadView;
}

/** How many public games' ids a node remembers. */
const PUBLIC_IDS = 10_000;

const FORWARDED = new Set<FeedEvent['type']>(['game.started', 'game.finished']);

export class AccountGames {
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly pools: Pools,
  ) {}

  /**
   * The accounts of a comma-separated list of usernames: INVALID_INPUT / ACCOUNT_NOT_FOUND (also for
   * an account of another pool than the credential's).
   */
  async resolve(list: string, credential?: Credential): Promise<string[]> {
    const names = [
      ...new Set(
        list
          .split(',')
          .map((n) => n.trim().toLowerCase())
          .filter((n) => n !== ''),
      ),
    ];
    if (names.length === 0) {
      throw new GameError('INVALID_INPUT', 'accounts: name at least one username', { field: 'accounts' });
    }
    if (names.length > MAX_WATCHED_ACCOUNTS) {
      throw new GameError('INVALID_INPUT', `accounts: at most ${MAX_WATCHED_ACCOUNTS} usernames`, {
        field: 'accounts',
        max: MAX_WATCHED_ACCOUNTS,
      });
    }
    const pool = await this.pools.ofReader(this.auth, credential);
    const found = await Promise.all(
      names.map(async (name) => this.pools.visible(pool, await this.storage.accounts.getAccount(name))),
    );
    const missing = names.filter((_, i) => found[i] === undefined);
    if (missing.length > 0) {
      throw new GameError('ACCOUNT_NOT_FOUND', `No account named ${missing.slice(0, 5).join(', ')}`, {
        usernames: missing,
      });
    }
    return names;
  }

  /** Games this node found public (visibility never changes): no read to repeat. */
  private readonly publicIds = new Set<string>();

  /** Whether a game is public (read once per node and game). */
  private async isPublic(id: string): Promise<boolean> {
    if (this.publicIds.has(id)) return true;
    const game = await this.storage.games.get(id);
    if (!game || (game.visibility ?? 'public') !== 'public') return false;
    this.publicIds.add(id);
    if (this.publicIds.size > PUBLIC_IDS)
      this.publicIds.delete(this.publicIds.values().next().value as string);
    return true;
  }

  /**
   * Calls `deliver` for each game of `accounts` (from resolve) that starts or ends from now on;
   * resolves once every feed is followed, to the function that stops following them.
   */
  async watch(
    accounts: readonly string[],
    deliver: (message: AccountGameMessage) => void,
  ): Promise<() => Promise<void>> {
    // Both players' feeds carry the same event: the second copy is not sent (a bounded memory).
    const sent = new Set<string>();
    // In order: each event waits for the one before (whose game may need a read to know it is public).
    let chain: Promise<void> = Promise.resolve();
    const listener = (event: FeedEvent) => {
      chain = chain.then(() => forward(event)).catch(() => undefined);
    };
    const forward = async (event: FeedEvent) => {
      if (!FORWARDED.has(event.type)) return;
      const game = event.data.game as GameHeadView | undefined;
      if (!game) return;
      const key = `${event.type}:${game.id}`;
      if (sent.has(key)) return;
      sent.add(key);
      if (sent.size > 2 * MAX_WATCHED_ACCOUNTS) sent.delete(sent.values().next().value as string);
      if (!(await this.isPublic(game.id))) return;
      deliver({ type: event.type as AccountGameMessage['type'], game });
    };
    const settled = await Promise.allSettled(
      accounts.map((account) => this.storage.feed.subscribe(account, listener)),
    );
    const stops = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      // One feed could not be followed (the store is down): follow none.
      await Promise.all(stops.map((stop) => stop().catch(() => undefined)));
      throw failed.reason;
    }
    return async () => {
      await Promise.all(stops.map((stop) => stop()));
    };
  }
}
