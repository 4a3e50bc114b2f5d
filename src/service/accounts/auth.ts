import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Side } from '../../engines/types';
import type { AccountStore, StoredAccount, StoredGame, StoredToken, TokenScope } from '../../store/store';
import { GameError } from '../errors';

// Who is asking, and what they may do. Two kinds of secret travel as `Authorization: Bearer`:
// seat tokens (`bhs_…`, one per seat of a game created without accounts) and personal API tokens
// (`bhp_…`, one account, some scopes). Only their sha256 is ever stored.

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
}

/** A caller proven to be an account, with the scopes of the token it used. */
export interface AccountCaller {
  readonly kind: 'account';
  readonly account: StoredAccount;
  readonly token: StoredToken;
}

export type Caller =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'seat'; readonly token: string; /** hashToken(token) */ readonly hash: string }
  | AccountCaller;

const PERSONAL_PREFIX = 'bhp_';

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

/** The stored form of a secret token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
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
    private readonly now: () => Date = () => new Date(),
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  async identify(credential: Credential): Promise<Caller> {
    const internal = INTERNAL.get(credential);
    if (internal !== undefined) return this.internalCaller(internal);
    const token = credential.token;
    if (!token) return { kind: 'anonymous' };
    const hash = credential.tokenHash ?? hashToken(token);
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
    const account = await this.accounts.getAccount(stored.account);
    if (!account) throw new GameError('UNAUTHENTICATED', 'The account of this token no longer exists');
    this.touch(stored, now);
    return { kind: 'account', account, token: stored };
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
    const ms = now.getTime();
    const stored = token.lastUsedAt ? Date.parse(token.lastUsedAt) : 0;
    const last = Math.max(stored, this.touched.get(token.hash) ?? 0);
    if (ms - last < LAST_USED_RESOLUTION_MS) return;
    this.touched.delete(token.hash);
    this.touched.set(token.hash, ms);
    if (this.touched.size > TOUCHED_MAX) this.touched.delete(this.touched.keys().next().value as string);
    this.accounts.touchToken(token.hash, now.toISOString()).catch(this.onError);
  }

  /** The account behind the credential; its token must carry one of `scopes`. */
  async requireAccount(credential: Credential, ...scopes: TokenScope[]): Promise<AccountCaller> {
    const caller = await this.identify(credential);
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
