import type { GameKind } from '../../engines/types';
import type { TimeControlType } from './time-control';
import type { AccountKind, TokenScope } from '../../vocabulary';
export { ACCOUNT_KINDS, TOKEN_SCOPES, type AccountKind, type TokenScope } from '../../vocabulary';

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
  /** The username in lower case: unique, and what seats and feeds refer to. */
  readonly id: string;
  readonly username: string;
  readonly kind: AccountKind;
  /** Bots only: what the bot accepts; null accepts every challenge. */
  readonly bot: BotPolicy | null;
  readonly createdAt: string;
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
}
