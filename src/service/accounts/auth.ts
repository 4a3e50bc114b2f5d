import { hash as hashOnce, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Side } from '../../engines/types';
import {
  appOf,
  TOKEN_SCOPES,
  type AccountStore,
  type AppKeyScope,
  type AppStore,
  type StoredAccount,
  type StoredApp,
  type StoredAppKey,
  type StoredGame,
  type StoredToken,
  type TokenScope,
} from '../../store/store';
import { GameError } from '../errors';

// Who is asking, and what they may do. Three kinds of secret travel as `Authorization: Bearer`:
// seat tokens (`bhs_…`, one per seat of a game created without accounts), account tokens (`bhp_…`,
// one account, some scopes: personal API tokens and apps' session tokens) and app keys (`bha_…`, an
// app's backend; with `Boardhost-Account: <id>` it acts as one of its app's accounts). Only their
// sha256 is ever stored.

/** The bearer secret a request carried, if any, and where it came from. */
export interface Credential {
  readonly token?: string;
  /**
   * hashToken(token), when the transport has already worked it out for this request (see
   * tokenHashOf in transport/rate-limit.ts); never taken from anything a client sends.
   */
  readonly tokenHash?: string;
  /** The client address (as `TRUST_PROXY` resolves it): per-address quotas and idempotency scopes. */
  readonly ip?: string;
  /** The account an app key acts as (`Boardhost-Account` header, or the GraphQL/WebSocket equivalent). */
  readonly account?: string;
}

/** How an account caller came through an app: the app, its key, and the session if a session token. */
export interface AppAccess {
  readonly app: StoredApp;
  readonly key: StoredAppKey;
  /** The session id, when the caller used a session token (absent: the key with Boardhost-Account). */
  readonly session?: string;
}

/** A caller proven to be an account, with the scopes of the token it used. */
export interface AccountCaller {
  readonly kind: 'account';
  readonly account: StoredAccount;
  /**
   * The token it used. Through an app key it is the key seen as a token of the account (id
   * `key:<key id>`, the key's hash, the key's account scopes).
   */
  readonly token: StoredToken;
  /** Set when the caller came through an app (its key, or a session token the app minted). */
  readonly via?: AppAccess;
}

/** An app's backend with one of its keys, acting for no account. */
export interface AppCaller {
  readonly kind: 'app';
  readonly app: StoredApp;
  readonly key: StoredAppKey;
}

export type Caller =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'seat'; readonly token: string; /** hashToken(token) */ readonly hash: string }
  | AccountCaller
  | AppCaller;

const PERSONAL_PREFIX = 'bhp_';
const APP_KEY_PREFIX = 'bha_';
const REFRESH_PREFIX = 'bhr_';

/** Credentials made in this process for an account the service itself plays (see internalCredential). */
const INTERNAL = new WeakMap<Credential, string>();

/**
 * A credential for the service's own players (built-in AI, automatic movers): it acts as `account`
 * with that account's play scope. Only this process can make one (it is recognised by identity, not
 * by any field a request could carry), so no transport input can forge it.
 */
export function internalCredential(account: string): Credential {
  const credential: Credential = Object.freeze({});
  INTERNAL.set(credential, account);
  return credential;
}

/** A new secret seat token (shown to the creator once) and the hash that is stored. */
export function newSeatToken(): { token: string; hash: string } {
  const token = `bhs_${randomBytes(24).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

/** A new personal API token and the hash that is stored. */
export function newPersonalToken(): { token: string; hash: string } {
  const token = `${PERSONAL_PREFIX}${randomBytes(24).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

/** A new app key secret and the hash that is stored. */
export function newAppKey(): { token: string; hash: string } {
  const token = `${APP_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

/** A new session refresh token and the hash that is stored. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = `${REFRESH_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

/** The hashes whose revocation ends what `caller` opened: its token's, and its app key's when through an app. */
export function revocationHashesOf(caller: AccountCaller): string[] {
  const key = caller.via?.key.hash;
  return key !== undefined && key !== caller.token.hash ? [caller.token.hash, key] : [caller.token.hash];
}

/** The stored form of a secret token. */
export function hashToken(token: string): string {
  // One-shot (no Hash object): a sixth of createHash's time, on every request with a bearer.
  return hashOnce('sha256', token, 'hex');
}

/** A token's lastUsedAt is written at most this often (a fire-and-forget write, off the request's path). */
export const LAST_USED_RESOLUTION_MS = 60_000;
/** Tokens whose last-use write this node started recently (bounded; oldest dropped). */
const TOUCHED_MAX = 10_000;

/**
 * Turns credentials into callers: personal tokens are looked up on every request, so revocation
 * and expiry take effect at once (GameService, streams and subscriptions call this again to re-check).
 */
export class Authenticator {
  /** Per token hash: when this node last wrote its lastUsedAt (epoch ms). */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly accounts: AccountStore,
    private readonly apps: AppStore,
    private readonly now: () => Date = () => new Date(),
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  async identify(credential: Credential): Promise<Caller> {
    const internal = INTERNAL.get(credential);
    if (internal !== undefined) return this.internalCaller(internal);
    const token = credential.token;
    if (!token) {
      if (credential.account !== undefined) throw accountWithoutKey();
      return { kind: 'anonymous' };
    }
    const hash = credential.tokenHash ?? hashToken(token);
    if (token.startsWith(APP_KEY_PREFIX)) return this.appCaller(hash, credential.account);
    if (credential.account !== undefined) throw accountWithoutKey();
    if (!token.startsWith(PERSONAL_PREFIX)) return { kind: 'seat', token, hash };
    const stored = await this.accounts.tokenByHash(hash);
    if (!stored) throw new GameError('UNAUTHENTICATED', 'Unknown API token');
    if (stored.revokedAt)
      throw new GameError('UNAUTHENTICATED', `This API token was revoked at ${stored.revokedAt}`);
    const now = this.now();
    if (stored.expiresAt && Date.parse(stored.expiresAt) <= now.getTime()) {
      throw new GameError('TOKEN_EXPIRED', `This API token expired at ${stored.expiresAt}`, {
        expiredAt: stored.expiresAt,
      });
    }
    const [account, via] = await Promise.all([
      this.accounts.getAccount(stored.account),
      stored.session ? this.sessionAccess(stored.session) : undefined,
    ]);
    if (!account) throw new GameError('UNAUTHENTICATED', 'The account of this token no longer exists');
    refuseBanned(account);
    this.touch(stored, now);
    return via
      ? { kind: 'account', account, token: stored, via }
      : { kind: 'account', account, token: stored };
  }

  /** An app key's caller: the app itself, or (`account` named) that account of the app. */
  private async appCaller(hash: string, accountId: string | undefined): Promise<AppCaller | AccountCaller> {
    const key = await this.apps.keyByHash(hash);
    if (!key) throw new GameError('UNAUTHENTICATED', 'Unknown app key');
    if (key.revokedAt) throw new GameError('UNAUTHENTICATED', `This app key was revoked at ${key.revokedAt}`);
    // The app and the account it acts for in one round trip, not two.
    const [app, account] = await Promise.all([
      this.liveApp(key.app),
      accountId === undefined ? undefined : this.accounts.getAccount(accountId),
    ]);
    this.touchAppKey(key, this.now());
    if (accountId === undefined) return { kind: 'app', app, key };
    // Another app's account, or none: the same answer (nothing learnt about other apps).
    if (!account || appOf(account) !== app.id) {
      throw new GameError('ACCOUNT_NOT_FOUND', `The app has no account ${accountId}`, {
        field: 'Boardhost-Account',
      });
    }
    refuseBanned(account);
    const token: StoredToken = {
      id: `key:${key.id}`,
      account: account.id,
      hash: key.hash,
      scopes: accountScopesOf(key.scopes),
      label: key.label,
      createdAt: key.createdAt,
      revokedAt: null,
    };
    return { kind: 'account', account, token, via: { app, key } };
  }

  /** The app and key a session token came through; refused once the key is revoked or the app disabled. */
  private async sessionAccess(session: NonNullable<StoredToken['session']>): Promise<AppAccess> {
    const key = await this.apps.getKey(session.app, session.key);
    if (!key || key.revokedAt) {
      throw new GameError('UNAUTHENTICATED', 'The app key that minted this session was revoked');
    }
    return { app: await this.liveApp(session.app), key, session: session.id };
  }

  private async liveApp(id: string): Promise<StoredApp> {
    const app = await this.apps.getApp(id);
    if (!app) throw new GameError('UNAUTHENTICATED', 'The app of this credential no longer exists');
    if (app.disabledAt) throw new GameError('UNAUTHENTICATED', `The app was disabled at ${app.disabledAt}`);
    return app;
  }

  /** The app behind the credential (an app key, no account named); the key must carry one of `scopes`. */
  async requireApp(credential: Credential, ...scopes: AppKeyScope[]): Promise<AppCaller> {
    const caller = await this.identify(credential);
    if (caller.kind !== 'app') {
      throw new GameError(
        'UNAUTHENTICATED',
        caller.kind === 'account' && caller.via
          ? 'This action is the app’s own: send the app key without Boardhost-Account'
          : 'This action needs an app key (Authorization: Bearer bha_…)',
      );
    }
    if (scopes.length > 0 && !scopes.some((s) => caller.key.scopes.includes(s))) {
      throw new GameError(
        'MISSING_SCOPE',
        `This action needs an app key with the scope ${scopes.join(' or ')}`,
        {
          required: scopes,
          granted: caller.key.scopes,
        },
      );
    }
    return caller;
  }

  private async internalCaller(id: string): Promise<AccountCaller> {
    const account = await this.accounts.getAccount(id);
    if (!account) throw new GameError('UNAUTHENTICATED', `No account ${id}`);
    const token: StoredToken = {
      id: 'internal',
      account: id,
      hash: '',
      scopes: [playScope(account)],
      label: 'service',
      createdAt: '',
      revokedAt: null,
    };
    return { kind: 'account', account, token };
  }

  /** Records the use, at most once a minute per token, without waiting (no round trip on the request). */
  private touch(token: StoredToken, now: Date): void {
    if (this.due(token.hash, token.lastUsedAt, now)) {
      this.accounts.touchToken(token.hash, now.toISOString()).catch(this.onError);
    }
  }

  private touchAppKey(key: StoredAppKey, now: Date): void {
    if (this.due(key.hash, key.lastUsedAt, now))
      this.apps.touchKey(key.hash, now.toISOString()).catch(this.onError);
  }

  /** True (and noted) when the credential's last-use write is due: at most once a minute per hash. */
  private due(hash: string, lastUsedAt: string | undefined, now: Date): boolean {
    const ms = now.getTime();
    const stored = lastUsedAt ? Date.parse(lastUsedAt) : 0;
    const last = Math.max(stored, this.touched.get(hash) ?? 0);
    if (ms - last < LAST_USED_RESOLUTION_MS) return false;
    this.touched.delete(hash);
    this.touched.set(hash, ms);
    if (this.touched.size > TOUCHED_MAX) this.touched.delete(this.touched.keys().next().value as string);
    return true;
  }

  /** The account behind the credential; its token must carry one of `scopes`. */
  async requireAccount(credential: Credential, ...scopes: TokenScope[]): Promise<AccountCaller> {
    const caller = await this.identify(credential);
    if (caller.kind === 'app') {
      throw new GameError(
        'ACCOUNT_REQUIRED',
        'An app key acts for one of its accounts: name it in the Boardhost-Account header',
        { field: 'Boardhost-Account' },
      );
    }
    if (caller.kind !== 'account') {
      throw new GameError(
        'UNAUTHENTICATED',
        'This action needs an account API token (Authorization: Bearer bhp_…)',
      );
    }
    requireScope(caller, ...scopes);
    return caller;
  }
}

/** The account scopes among an app key's scopes (what it lends to the accounts it acts for). */
export function accountScopesOf(scopes: readonly AppKeyScope[]): TokenScope[] {
  return scopes.filter((s): s is TokenScope => (TOKEN_SCOPES as readonly string[]).includes(s));
}

/** A banned account's every credential is refused (ACCOUNT_RESTRICTED). */
export function refuseBanned(account: StoredAccount): void {
  if (account.status !== 'banned') return;
  throw new GameError('ACCOUNT_RESTRICTED', `The account ${account.username} is banned`, {
    status: 'banned',
    ...(account.statusReason ? { reason: account.statusReason } : {}),
  });
}

function accountWithoutKey(): GameError {
  return new GameError('INVALID_INPUT', 'Boardhost-Account names an account for an app key (bha_…) only', {
    field: 'Boardhost-Account',
  });
}

/** Refuses with MISSING_SCOPE unless the token carries one of `scopes` (none given: any token). */
export function requireScope(caller: AccountCaller, ...scopes: TokenScope[]): void {
  if (scopes.length === 0 || scopes.some((s) => caller.token.scopes.includes(s))) return;
  throw new GameError('MISSING_SCOPE', `This action needs a token with the scope ${scopes.join(' or ')}`, {
    required: scopes,
    granted: caller.token.scopes,
  });
}

/** The scope that lets an account act in its games: bots play with `bot:play`, people with `game:play`. */
export function playScope(account: StoredAccount): TokenScope {
  return account.kind === 'bot' ? 'bot:play' : 'game:play';
}

/**
 * The seat the caller holds in `game`. The one place that decides who may act for a seat: a seat
 * bound to an account answers only to that account's tokens with the play scope; a seat without an
 * account answers to its seat token.
 */
export function authorizeSeat(game: StoredGame, caller: Caller): Side {
  if (caller.kind === 'anonymous') {
    throw new GameError(
      'UNAUTHENTICATED',
      'This action needs a seat token or an account API token (Authorization: Bearer <token>)',
    );
  }
  if (caller.kind === 'app') {
    throw new GameError(
      'ACCOUNT_REQUIRED',
      'An app key plays for one of its accounts: name it in the Boardhost-Account header',
      { field: 'Boardhost-Account' },
    );
  }
  if (caller.kind === 'account') {
    const seat = game.seats.find((s) => s.account === caller.account.id);
    if (!seat) throw new GameError('FORBIDDEN', `${caller.account.username} holds no seat in this game`);
    requireScope(caller, playScope(caller.account));
    return seat.seat;
  }
  const given = Buffer.from(caller.hash, 'hex');
  for (const seat of [0, 1] as const) {
    const stored = Buffer.from(game.seatTokenHashes[seat], 'hex');
    if (stored.length === given.length && timingSafeEqual(stored, given)) return seat;
  }
  throw new GameError('FORBIDDEN', 'The token does not hold a seat in this game');
}
