import {
  appOf,
  appOfAccountId,
  OPEN_APP,
  poolOfApp,
  type Storage,
  type StoredAccount,
} from '../../store/store';
import type { Authenticator, Caller, Credential } from '../accounts/auth';
import { aiLevelOf } from '../bots/ai-games';
import { GameError } from '../errors';

// Pools: who sees and plays whom. The open app's accounts and those of apps in the shared pool are in
// the open pool (OPEN_APP); every other app is a pool of its own (its id). Listings, TV, leaderboards,
// seeks and tournaments are kept per pool; challenges and pairings never cross pools; an account of
// another pool answers as if it did not exist.

/** How long a node trusts an app's sharedPool setting it read (an operator's change shows within this). */
export const POOL_CACHE_MS = 5_000;
const CACHED_APPS = 10_000;

export { poolOfApp };

export class Pools {
  private readonly cache = new Map<string, { pool: string; at: number }>();

  constructor(
    private readonly storage: Storage,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The pool of the app `appId` (OPEN_APP for the open app, or an app that no longer exists). */
  async ofApp(appId: string): Promise<string> {
    if (appId === OPEN_APP) return OPEN_APP;
    const now = this.clock();
    const cached = this.cache.get(appId);
    if (cached && now - cached.at < POOL_CACHE_MS) return cached.pool;
    const pool = poolOfApp(await this.storage.apps.getApp(appId));
    this.cache.delete(appId);
    this.cache.set(appId, { pool, at: now });
    if (this.cache.size > CACHED_APPS) this.cache.delete(this.cache.keys().next().value as string);
    return pool;
  }

  /** The pool of an account, from its id alone (app accounts' ids name their app). */
  ofAccount(accountId: string): Promise<string> {
    return this.ofApp(appOfAccountId(accountId));
  }

  /** The pool of a caller: its account's, or its app's; anonymous and seat-token callers are in the open pool. */
  async ofCaller(caller: Caller): Promise<string> {
    if (caller.kind === 'account') return this.ofApp(appOf(caller.account));
    if (caller.kind === 'app') return poolOfApp(caller.app);
    return OPEN_APP;
  }

  /**
   * The pool a public read answers in: the credential's when it proves an account or an app; without
   * one, with a seat token or with one that proves nothing, the open pool (what anyone sees), so that
   * open-pool reads answer as they always did.
   */
  async ofReader(auth: Authenticator, credential: Credential | undefined): Promise<string> {
    if (credential?.token === undefined) return OPEN_APP;
    try {
      return await this.ofCaller(await auth.identify(credential));
    } catch (error) {
      if (error instanceof GameError) return OPEN_APP;
      throw error;
    }
  }

  /**
   * Whether `pool` sees (and may play) the account `id`: an account of its own pool, or a built-in
   * AI account (everyone's opponent).
   */
  async sees(pool: string, id: string): Promise<boolean> {
    return aiLevelOf(id) !== undefined || (await this.ofAccount(id)) === pool;
  }

  /**
   * Whether whoever reads with `credential` (ofReader) sees the account `id` (an account's game list
   * read from another pool answers as a missing account's: empty). A symbol is the service's own
   * read (game/audience.ts SERVICE_READ): it sees every account.
   */
  async readerSees(
    auth: Authenticator,
    credential: Credential | symbol | undefined,
    id: string,
  ): Promise<boolean> {
    return typeof credential === 'symbol' || this.sees(await this.ofReader(auth, credential), id);
  }

  /** `account` if `pool` sees it, else undefined: another pool's account answers as a missing one. */
  async visible(pool: string, account: StoredAccount | undefined): Promise<StoredAccount | undefined> {
    return account && (await this.sees(pool, account.id)) ? account : undefined;
  }

  /** Forgets what this node read of an app (after the operator changed it here). */
  forget(appId: string): void {
    this.cache.delete(appId);
  }
}
