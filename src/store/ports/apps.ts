import type { AppKeyScope, TokenScope } from '../../vocabulary';
import type { StoredToken } from './accounts';
export { APP_KEY_SCOPES, APP_SCOPES, type AppKeyScope, type AppScope } from '../../vocabulary';

// Apps: the products that put Boardhost behind their own users. The operator (OPERATOR_KEY) creates
// them; each has keys (its backend's credentials), accounts (by external id, see ports/accounts.ts)
// and sessions (short-lived tokens its clients use for one account, renewed with a refresh token).

/**
 * The app every account belongs to when it names none: accounts made by open sign-up, the AI's,
 * and every account stored before apps existed. Its accounts' ids are their lower-case usernames.
 */
export const OPEN_APP = 'open';

/** The pool of an app's settings (service/apps/pools.ts): the open pool, or the app's own (its id). */
export function poolOfApp(app: StoredApp | undefined): string {
  return app === undefined || app.settings.sharedPool ? OPEN_APP : app.id;
}

/** How much one app may create and ask (set by the operator; 429 QUOTA_EXCEEDED / RATE_LIMITED past them). */
export interface AppQuotas {
  /** Accounts the app may create per day (get-or-create calls that create). */
  readonly accountsPerDay: number;
  /** Games its accounts may start per day (all of them together). */
  readonly gamesPerDay: number;
  /** Requests per second of its keys and sessions together (every node, through the store). */
  readonly requestsPerSecond: number;
}

export interface AppSettings {
  /**
   * In the shared pool, the app's accounts and public games are seen by, and play with, the open
   * app's and every other pooled app's; outside it (default) the app is an island.
   */
  readonly sharedPool: boolean;
  /** Origins (scheme://host[:port]) whose browsers may call the API with the app's session tokens (CORS). */
  readonly corsOrigins: readonly string[];
  readonly quotas: AppQuotas;
  /** Lifetime of the session tokens it mints, in seconds (default 3600; at most 86 400). */
  readonly sessionSeconds: number;
  /** Lifetime of a session's refresh token, in seconds (default 30 days; at most 365 days). */
  readonly refreshSeconds: number;
  /**
   * Whether its games have chat (default true; false: CHAT_DISABLED with `by` app). Absent in apps
   * stored before chat: true.
   */
  readonly chat?: boolean;
}

export const DEFAULT_APP_SETTINGS: AppSettings = {
  sharedPool: false,
  corsOrigins: [],
  quotas: { accountsPerDay: 10_000, gamesPerDay: 100_000, requestsPerSecond: 200 },
  sessionSeconds: 3600,
  refreshSeconds: 30 * 24 * 60 * 60,
  chat: true,
};

export interface StoredApp {
  /** `app_` and 16 lower-case letters or digits; OPEN_APP for the open app. */
  readonly id: string;
  /** The operator's name for it (1–60 characters). */
  readonly name: string;
  readonly settings: AppSettings;
  readonly createdAt: string;
  /** Set: the app's keys and sessions are refused (the operator disabled it). */
  readonly disabledAt?: string | null;
}

/** A secret credential of an app's backend (`bha_…`); only its sha256 is stored. */
export interface StoredAppKey {
  /** Public id (for listing and revoking); not the secret. */
  readonly id: string;
  readonly app: string;
  /** sha256 of the secret. */
  readonly hash: string;
  readonly scopes: readonly AppKeyScope[];
  readonly label: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
  /** About when it last authenticated a request (updated at most once a minute); absent: never. */
  readonly lastUsedAt?: string;
}

/**
 * A session of one app account, minted by the app's backend with a key: an access token (a
 * StoredToken of the account naming this session and the key) and a refresh token that trades
 * itself for a new pair. Neither outlives the key; the refresh token is single use (reusing a used
 * one revokes the session: it was stolen or replayed).
 */
export interface StoredSession {
  /** `ses_…`: public id, for revoking. */
  readonly id: string;
  readonly app: string;
  readonly account: string;
  /** The app key that minted it (revoking the key ends the session). */
  readonly key: string;
  readonly scopes: readonly TokenScope[];
  /** The app's name for it (1–60 characters; its access tokens carry it too); absent: 'session'. */
  readonly label?: string;
  /** sha256 of the current refresh token (`bhr_…`). */
  readonly refreshHash: string;
  /** The id of the current access token (a StoredToken of the account). */
  readonly accessToken: string;
  /** How many times it was refreshed (0: as minted). */
  readonly generation: number;
  readonly createdAt: string;
  /** When the refresh token stops working. */
  readonly expiresAt: string;
  readonly revokedAt: string | null;
}

export interface AppStore {
  /** Stores a new app; false when its id is taken. */
  createApp(app: StoredApp): Promise<boolean>;
  getApp(id: string): Promise<StoredApp | undefined>;
  /** Every app, oldest first (the operator's listing; the open app is not stored). */
  listApps(): Promise<StoredApp[]>;
  /** Overwrites an existing app (name, settings, disabledAt). */
  saveApp(app: StoredApp): Promise<void>;

  addKey(key: StoredAppKey): Promise<void>;
  /** The key with this hash, revoked ones included. */
  keyByHash(hash: string): Promise<StoredAppKey | undefined>;
  getKey(app: string, id: string): Promise<StoredAppKey | undefined>;
  /** The app's keys, oldest first, revoked ones included. */
  listKeys(app: string): Promise<StoredAppKey[]>;
  /**
   * Marks the key revoked (a revoked one keeps its first time) and, in the same step, publishes its
   * hash on the event bus (every node's `subscribeRevocations`: streams opened with the key or with a
   * session it minted end). undefined: no such key.
   */
  revokeKey(app: string, id: string, at: string): Promise<StoredAppKey | undefined>;
  /** Records that the key authenticated a request at `at`; cheap, last write wins. */
  touchKey(hash: string, at: string): Promise<void>;

  /** Stores a new session and its first access token (AccountStore.addToken is not called separately). */
  createSession(session: StoredSession, accessToken: StoredToken): Promise<void>;
  getSession(app: string, id: string): Promise<StoredSession | undefined>;
  /**
   * The session whose current *or any earlier* refresh token has this hash: `current` false means a
   * used refresh token came back (the caller revokes the session).
   */
  sessionByRefreshHash(hash: string): Promise<{ session: StoredSession; current: boolean } | undefined>;
  /**
   * Replaces the session's refresh token and access token, if its refresh hash is still
   * `expectedRefreshHash` (compare-and-set: of two refreshes with one token, one wins); the old access
   * token is revoked (published) in the same step. false: it had changed.
   */
  rotateSession(next: StoredSession, expectedRefreshHash: string, accessToken: StoredToken): Promise<boolean>;
  /** Revokes the session and its current access token (published); the revoked session as it is now. */
  revokeSession(app: string, id: string, at: string): Promise<StoredSession | undefined>;
  /** The account's sessions (active and not), oldest first. */
  listSessions(account: string): Promise<StoredSession[]>;
  /**
   * Forgets the account's sessions and their refresh hashes (an erased account's; revoke them first:
   * this publishes nothing). Their access tokens go with AccountStore.eraseAccount.
   */
  deleteSessions(account: string): Promise<void>;
}
