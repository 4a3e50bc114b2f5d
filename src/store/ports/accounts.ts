import type { GameKind } from '../../engines/types';
import type { TimeControlType } from './time-control';
import type { AccountKind, AccountStatus, TokenScope } from '../../vocabulary';
import { createHash } from 'node:crypto';
import { OPEN_APP } from './apps';
export {
  ACCOUNT_KINDS,
  ACCOUNT_STATUSES,
  TOKEN_SCOPES,
  type AccountKind,
  type AccountStatus,
  type TokenScope,
} from '../../vocabulary';

// Accounts and personal API tokens.

/** What a bot account accepts; the service declines other challenges on its behalf. */
export interface BotPolicy {
  readonly kinds: readonly GameKind[];
  readonly timeControls: readonly TimeControlType[];
  /** Per kind, per option name: the values accepted (an option not listed accepts any value). */
  readonly options: Readonly<Partial<Record<GameKind, Readonly<Record<string, readonly unknown[]>>>>>;
  /** Ongoing games at most; more challenges are declined with reason `tooManyGames`. */
  readonly maxGames: number;
}

export interface StoredAccount {
  /**
   * What seats, feeds and every index refer to; never changes. Open accounts (no `app`): the
   * username in lower case. App accounts: `<app id>.<16 letters or digits>`, opaque (a `.` no
   * username has), so that renames break nothing and no app's id meets another's.
   */
  readonly id: string;
  /** The handle: unique ignoring case in its app (open accounts: among open accounts). */
  readonly username: string;
  readonly kind: AccountKind;
  /** Bots only: what the bot accepts; null accepts every challenge. */
  readonly bot: BotPolicy | null;
  readonly createdAt: string;
  /** The app the account belongs to; absent: OPEN_APP (ports/apps.ts). */
  readonly app?: string;
  /** App accounts: the app's own id for its user (unique in the app; 1–128 printable characters). */
  readonly externalId?: string;
  /** A name to show (1–50 characters); absent: the username. */
  readonly displayName?: string;
  /** App accounts: the app's string pairs about its user (at most 20 keys, 4 kB in all). */
  readonly metadata?: Readonly<Record<string, string>>;
  /** absent: active. */
  readonly status?: AccountStatus;
  /** Why it was suspended or banned (shown to the account in ACCOUNT_RESTRICTED). */
  readonly statusReason?: string;
}

/** The app of an account (OPEN_APP when it names none). */
export function appOf(account: Pick<StoredAccount, 'app'>): string {
  return account.app ?? OPEN_APP;
}

/** The app of an account id without reading it: app ids come before the `.` no username has. */
export function appOfAccountId(id: string): string {
  const dot = id.indexOf('.');
  return dot < 0 ? OPEN_APP : id.slice(0, dot);
}

/**
 * What is left of an erased account (service/apps/lifecycle.ts): its id (seats, ratings and
 * histories of other accounts name it), its app and the name its finished games now show. No
 * personal data. The account document itself is deleted, so every read of the account answers
 * "no such account"; the tombstone is what says why, and keeps the id from being taken again.
 */
export interface AccountTombstone {
  readonly id: string;
  readonly app: string;
  /** `deleted-<n>`: shown where the username was stored (leaderboards, tournament standings). */
  readonly name: string;
  readonly erasedAt: string;
}

/** How long an erased username stays unavailable in its app. */
export const ERASED_NAME_HOLD_SECONDS = 30 * 24 * 60 * 60;

/**
 * What is kept of an erased username while it is held: sha256 of its app and its lower-case form
 * (the name itself is personal data and is not kept).
 */
export function erasedNameHash(app: string, username: string): string {
  return createHash('sha256').update(`${app}\n${username.toLowerCase()}`).digest('hex');
}

export interface StoredToken {
  /** Public id (for listing and revoking); not the secret. */
  readonly id: string;
  readonly account: string;
  /** sha256 of the secret token. */
  readonly hash: string;
  readonly scopes: readonly TokenScope[];
  readonly label: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
  /** When the token stops working (ISO); absent or null: never. */
  readonly expiresAt?: string | null;
  /** About when the token last authenticated a request (updated at most once a minute); absent: never. */
  readonly lastUsedAt?: string;
  /** A session's access token: the app, the app key that minted it and the session (ports/apps.ts). */
  readonly session?: { readonly app: string; readonly key: string; readonly id: string };
}

/**
 * A token that keeps an account usable: not revoked, never expiring, holding every one of `scopes`
 * (the scopes of the account's kind). An account's last such token cannot be revoked.
 */
export function isRootToken(token: StoredToken, scopes: readonly TokenScope[]): boolean {
  return (
    token.revokedAt === null && !token.expiresAt && scopes.every((scope) => token.scopes.includes(scope))
  );
}

export type RevokeResult =
  | { readonly status: 'revoked'; readonly token: StoredToken }
  /** No token with that id on the account. */
  | { readonly status: 'missing' }
  /** The token is the account's last root token (isRootToken): nothing changed. */
  | { readonly status: 'last-root'; readonly token: StoredToken };

export interface AccountStore {
  /** Stores a new account; false when its id (lower-case username) is taken. */
  createAccount(account: StoredAccount, firstToken: StoredToken): Promise<boolean>;
  getAccount(id: string): Promise<StoredAccount | undefined>;
  /** Overwrites an existing account (the bot policy is the only thing that changes). */
  saveAccount(account: StoredAccount): Promise<void>;
  addToken(token: StoredToken): Promise<void>;
  /** The token with this hash, revoked ones included (so callers can say "revoked"). */
  tokenByHash(hash: string): Promise<StoredToken | undefined>;
  /** The account's tokens, oldest first, revoked ones included. */
  listTokens(account: string): Promise<StoredToken[]>;
  /**
   * Marks the token revoked (a revoked one keeps its first time), atomically refusing when
   * `rootScopes` is given and the token is the account's last root token with those scopes; in the
   * same step it publishes the token's hash on the event bus (every node's `subscribeRevocations`).
   * A token revoked before is returned as it is, and not published again.
   */
  revokeToken(
    account: string,
    tokenId: string,
    at: string,
    rootScopes?: readonly TokenScope[],
  ): Promise<RevokeResult>;
  /** Records that the token authenticated a request at `at` (lastUsedAt); cheap, last write wins. */
  touchToken(hash: string, at: string): Promise<void>;

  /**
   * The account of `account.app` whose external id is `account.externalId`, made in one atomic step
   * if there is none: an existing one is returned as it is (`existing`); else `account` is stored with
   * its username reserved in its app (`username-taken` when another account of the app holds it,
   * ignoring case: nothing stored). Concurrent calls for one external id make one account.
   */
  getOrCreateAppAccount(account: StoredAccount): Promise<AppAccountResult>;
  accountByExternalId(app: string, externalId: string): Promise<StoredAccount | undefined>;
  /** The account of `app` with this username (ignoring case); the open app: getAccount(lower case). */
  accountByUsername(app: string, username: string): Promise<StoredAccount | undefined>;
  /**
   * Overwrites an app account, moving its username reservation when the username changed
   * (`username-taken`: another account of the app holds the new one; nothing changed).
   */
  updateAppAccount(next: StoredAccount): Promise<'saved' | 'username-taken' | 'missing'>;
  /** The app's accounts by id, after `after` (exclusive), at most `limit`. */
  listAppAccounts(app: string, after: string | undefined, limit: number): Promise<StoredAccount[]>;

  /** The next tombstone number (1, 2, …; one counter for the store): erased accounts' `deleted-<n>`. */
  nextTombstone(): Promise<number>;
  /**
   * Erases `account` in one step: its document, every token (documents, pointers, index, last use),
   * its external-id and username entries go, `tombstone` is stored in their place, and the
   * username's erasedNameHash is held for `holdSeconds` (getOrCreateAppAccount and updateAppAccount
   * answer `username-taken` for it meanwhile). Open accounts' usernames are their ids and cannot be
   * released: the service does not erase them.
   */
  eraseAccount(account: StoredAccount, tombstone: AccountTombstone, holdSeconds: number): Promise<void>;
  /** The tombstone of an erased account; undefined for others. */
  tombstoneOf(id: string): Promise<AccountTombstone | undefined>;
}

export type AppAccountResult =
  | { readonly status: 'created' | 'existing'; readonly account: StoredAccount }
  | { readonly status: 'username-taken' };
