import { appOfAccountId, OPEN_APP, type Storage, type StoredApp } from '../../store/store';

// Pools: who sees and plays whom. The open app's accounts and those of apps in the shared pool are in
// the open pool (OPEN_APP); every other app is a pool of its own (its id). Listings, TV, leaderboards,
// seeks and tournaments are kept per pool; challenges and pairings never cross pools; an account of
// another pool answers as if it did not exist.

/** How long a node trusts an app's sharedPool setting it read (an operator's change shows within this). */
export const POOL_CACHE_MS = 5_000;
const CACHED_APPS = 10_000;

/** The pool of an app's settings. */
export function poolOfApp(app: StoredApp | undefined): string {
  return app === undefined || app.settings.sharedPool ? OPEN_APP : app.id;
}

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

  /** Forgets what this node read of an app (after the operator changed it here). */
  forget(appId: string): void {
    this.cache.delete(appId);
  }
}
