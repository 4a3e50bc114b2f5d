import {
  appOfAccountId,
  OPEN_APP,
  type AppQuotas,
  type RateLimiter,
  type Storage,
  type StoredApp,
} from '../../store/store';
import { GameError } from '../errors';

// Per-app quotas and usage. Each app's counts live in the store's limiter (shared by every node):
// accounts and games it made in its current day window, requests in its current second and day.
// The limiters hold no limit of their own (an app's quotas differ and change); the count they
// answer is compared with the app's settings, read at most every APP_CACHE_MS per node.

/** How long a node trusts the app settings it read (an operator's change of quotas shows within this). */
export const APP_CACHE_MS = 5_000;
/** Credentials whose app a node remembers (the least recently asked are dropped first). */
const CACHED_CREDENTIALS = 10_000;
const CACHED_APPS = 10_000;
const DAY_SECONDS = 24 * 60 * 60;
/** Far above any quota: the limiters only count; the app's own quota decides. */
const UNLIMITED = 1e15;
/** This node sends its request counts to the store at most this often per app (or every FLUSH_COUNT). */
const FLUSH_MS = 1_000;
const FLUSH_COUNT = 100;

/** What the usage counters count (also the `what` label of the app metrics). */
export const APP_USAGE = ['requests', 'games', 'accounts'] as const;
export type AppUsageKind = (typeof APP_USAGE)[number];

export interface AppUsageView {
  readonly app: string;
  /** Counts of the app's current day window (24 h from its first count). */
  readonly requests: number;
  readonly gamesCreated: number;
  readonly accountsCreated: number;
  readonly quotas: AppQuotas;
}

type UsageListener = (app: string, what: AppUsageKind, count: number) => void;

/** The app a request's bearer credential belongs to, its quotas, and its usage counts. */
export class AppUsage {
  private readonly credentials = new Map<string, string | null>();
  private readonly apps = new Map<string, { app: StoredApp | undefined; at: number }>();
  private readonly daily: Record<AppUsageKind, RateLimiter>;
  private readonly perSecond: RateLimiter;
  private readonly pending = new Map<string, { count: number; since: number }>();
  private readonly listeners = new Set<UsageListener>();

  constructor(
    private readonly storage: Storage,
    private readonly clock: () => number = Date.now,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    const daily = (name: string) =>
      storage.limiter({ name: `app-${name}`, points: UNLIMITED, windowSeconds: DAY_SECONDS });
    this.daily = { requests: daily('requests'), games: daily('games'), accounts: daily('accounts') };
    this.perSecond = storage.limiter({ name: 'app', points: UNLIMITED, windowSeconds: 1 });
  }

  /** Told of every count (the Prometheus metrics labelled by app). */
  onUsage(listener: UsageListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The app of a bearer credential: an app key's (bha_), a session token's (bhp_ with a session);
   * null for any other (personal and seat tokens, unknown ones). Cached per node: a credential's
   * app never changes, and unknown hashes are remembered too (secrets are random: one never becomes known).
   */
  async appOfCredential(token: string, hash: string): Promise<string | null> {
    if (!token.startsWith('bha_') && !token.startsWith('bhp_')) return null;
    const known = this.credentials.get(hash);
    if (known !== undefined) {
      this.credentials.delete(hash);
      this.credentials.set(hash, known);
      return known;
    }
    const app = token.startsWith('bha_')
      ? ((await this.storage.apps.keyByHash(hash))?.app ?? null)
      : ((await this.storage.accounts.tokenByHash(hash))?.session?.app ?? null);
    this.credentials.set(hash, app);
    if (this.credentials.size > CACHED_CREDENTIALS) {
      this.credentials.delete(this.credentials.keys().next().value as string);
    }
    return app;
  }

  /** The app's stored record (cached APP_CACHE_MS); undefined for the open app or none. */
  async app(id: string): Promise<StoredApp | undefined> {
    if (id === OPEN_APP) return undefined;
    const now = this.clock();
    const cached = this.apps.get(id);
    if (cached && now - cached.at < APP_CACHE_MS) return cached.app;
    const app = await this.storage.apps.getApp(id);
    this.apps.delete(id);
    this.apps.set(id, { app, at: now });
    if (this.apps.size > CACHED_APPS) this.apps.delete(this.apps.keys().next().value as string);
    return app;
  }

  /**
   * Counts `points` requests of the app in its second: the verdict against its requestsPerSecond
   * (undefined for an app that no longer exists). Also counts them in its day (batched per node).
   */
  async request(
    appId: string,
    points = 1,
  ): Promise<{ allowed: boolean; limit: number; remaining: number; resetMs: number } | undefined> {
    const app = await this.app(appId);
    if (!app) return undefined;
    const limit = app.settings.quotas.requestsPerSecond;
    const verdict = await this.perSecond.consume(app.id, points);
    this.countRequests(app.id, points);
    return {
      allowed: verdict.consumed <= limit,
      limit,
      remaining: Math.max(0, limit - verdict.consumed),
      resetMs: verdict.resetMs,
    };
  }

  /** Counts one account made by the app; QUOTA_EXCEEDED (with `app`) past its accountsPerDay. */
  async account(appId: string): Promise<void> {
    const app = await this.app(appId);
    if (!app) return;
    await this.consume(app, 'accounts', 1, app.settings.quotas.accountsPerDay);
  }

  /** Gives back the count of an account `account` did not make after all (it existed, or its name was taken). */
  async accountNotMade(appId: string): Promise<void> {
    await this.daily.accounts.consume(appId, -1).catch(this.onError);
  }

  /** An account counted with `account` was made (the metrics count it). */
  accountMade(appId: string): void {
    this.tell(appId, 'accounts', 1);
  }

  /**
   * Counts a game whose creator is `creator` (an account id), before it is written: against the
   * creator's app's gamesPerDay (QUOTA_EXCEEDED with `app`). Open accounts' games count nowhere.
   */
  async game(creator: string | null | undefined, count = 1): Promise<void> {
    if (!creator) return;
    const app = await this.app(appOfAccountId(creator));
    if (!app) return;
    await this.consume(app, 'games', count, app.settings.quotas.gamesPerDay);
    this.tell(app.id, 'games', count);
  }

  /** The app's counts in its current day window (this node's requests not yet sent included). */
  async usage(appId: string): Promise<AppUsageView> {
    const app = await this.storage.apps.getApp(appId);
    if (!app) throw new GameError('APP_NOT_FOUND', `No app has the id ${appId}`);
    await this.flush(app.id);
    const [requests, games, accounts] = await Promise.all(
      APP_USAGE.map((what) => this.daily[what].consume(app.id, 0).then((v) => v.consumed)),
    );
    return {
      app: app.id,
      requests: requests ?? 0,
      gamesCreated: games ?? 0,
      accountsCreated: accounts ?? 0,
      quotas: app.settings.quotas,
    };
  }

  private async consume(app: StoredApp, what: 'games' | 'accounts', count: number, limit: number) {
    const verdict = await this.daily[what].consume(app.id, count);
    if (verdict.consumed > limit) {
      // Refused creations do not count: the next one is judged on what was made.
      await this.daily[what].consume(app.id, -count).catch(this.onError);
      const retryAfterSeconds = Math.max(1, Math.ceil(verdict.resetMs / 1000));
      throw new GameError(
        'QUOTA_EXCEEDED',
        `The app ${app.id} has created ${limit} ${what} in the last day, the most it may; retry in ${retryAfterSeconds} s`,
        { quota: what === 'games' ? 'appGames' : 'appAccounts', app: app.id, limit, retryAfterSeconds },
      );
    }
  }

  private countRequests(app: string, points: number): void {
    this.tell(app, 'requests', points);
    const now = this.clock();
    const held = this.pending.get(app) ?? { count: 0, since: now };
    held.count += points;
    this.pending.set(app, held);
    if (held.count >= FLUSH_COUNT || now - held.since >= FLUSH_MS) this.flush(app).catch(this.onError);
  }

  private async flush(app: string): Promise<void> {
    const held = this.pending.get(app);
    if (!held || held.count === 0) return;
    this.pending.delete(app);
    await this.daily.requests.consume(app, held.count);
  }

  private tell(app: string, what: AppUsageKind, count: number): void {
    for (const listener of this.listeners) listener(app, what, count);
  }
}
