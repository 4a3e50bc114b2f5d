import { randomBytes } from 'node:crypto';
import { getEngine, kindIds } from '../../engines/kinds';
import type { GameKind } from '../../engines/types';
import {
  ACCOUNT_KINDS,
  TIME_CONTROL_TYPES,
  TOKEN_SCOPES,
  type AccountKind,
  type BotPolicy,
  type Storage,
  isRootToken,
  type StoredAccount,
  type StoredToken,
  type TokenScope,
} from '../../store/store';
import { newPersonalToken, requireScope, type Authenticator, type Credential } from './auth';
import { isAiUsername } from '../bots/ai-games';
import { GameError } from '../errors';
import type { CreateOptions } from '../game/service';
import { once, tokenScope } from '../idempotency';
import { checkText, reservedNameOf } from './names';
import { DailyQuota, DEFAULT_QUOTAS, type Quotas } from './quotas';
import { Pools } from '../apps/pools';

/** Usernames: 2–30 letters, digits, _ or -, starting with a letter or digit; unique ignoring case. */
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_-]{1,29}$/;
const TOKEN_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** The scopes of an account's first token: everything its kind can use. */
const DEFAULT_SCOPES: Record<AccountKind, readonly TokenScope[]> = {
  human: ['game:read', 'game:play', 'challenge:write'],
  bot: ['game:read', 'bot:play', 'challenge:write'],
};

export interface AccountView {
  readonly id: string;
  readonly username: string;
  readonly kind: AccountKind;
  readonly bot: BotPolicy | null;
  /** A name to show (app accounts may set one); null: show the username. */
  readonly displayName: string | null;
  readonly createdAt: string;
}

export interface TokenView {
  readonly id: string;
  readonly label: string;
  readonly scopes: readonly TokenScope[];
  readonly createdAt: string;
  readonly revokedAt: string | null;
  /** When the token stops working; null: never. */
  readonly expiresAt: string | null;
  /** About when it last authenticated a request (to the minute); null: never since this was tracked. */
  readonly lastUsedAt: string | null;
}

/** Seconds a token may be made to last: one minute to a year (omitted: it never expires). */
const TOKEN_LIFETIME = { min: 60, max: 366 * 24 * 60 * 60 } as const;

/** A token as issued: its view and the secret, shown only once. */
export interface IssuedToken extends TokenView {
  readonly token: string;
}

export interface BotPolicyInput {
  readonly kinds?: readonly string[];
  readonly timeControls?: readonly string[];
  readonly options?: Readonly<Record<string, Readonly<Record<string, readonly unknown[]>>>>;
  readonly maxGames?: number;
}

/** Accounts, their API tokens, and bot declarations. */
export class AccountService {
  private readonly accountsPerIp: DailyQuota;

  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly now: () => Date = () => new Date(),
    private readonly quotas: Quotas = DEFAULT_QUOTAS,
    /** false: open sign-up is closed (OPEN_SIGNUP=false): SIGNUP_CLOSED; apps make the accounts. */
    private readonly openSignup = true,
    private readonly pools: Pools = new Pools(storage),
  ) {
    this.accountsPerIp = new DailyQuota(storage, 'accounts', quotas.accountsPerIpPerDay);
  }

  /**
   * A new account and its first API token (shown only in this answer); counts against the
   * address's daily accounts quota. Its first token never expires and holds every scope of its kind.
   */
  async createAccount(
    input: { username: string; kind?: string },
    options: CreateOptions = {},
  ): Promise<{ account: AccountView; token: IssuedToken }> {
    if (!this.openSignup) {
      throw new GameError(
        'SIGNUP_CLOSED',
        'Open sign-up is closed on this server: accounts are made by the apps that use it',
      );
    }
    const call = {
      scope: `ip:${options.ip ?? 'unknown'}`,
      key: options.idempotencyKey,
      operation: 'createAccount',
      input,
    };
    return once(this.storage.idempotency, call, () => this.signUp(input, options.ip));
  }

  private async signUp(
    input: { username: string; kind?: string },
    ip: string | undefined,
  ): Promise<{ account: AccountView; token: IssuedToken }> {
    checkUsername(input.username);
    const kind = input.kind ?? 'human';
    if (!(ACCOUNT_KINDS as readonly string[]).includes(kind)) {
      throw new GameError('INVALID_INPUT', 'kind must be human or bot', { field: 'kind' });
    }
    const at = this.now().toISOString();
    const account: StoredAccount = {
      id: input.username.toLowerCase(),
      username: input.username,
      kind: kind as AccountKind,
      bot: null,
      createdAt: at,
    };
    const { token, stored } = this.issue(account.id, 'first token', DEFAULT_SCOPES[account.kind], at, null);
    if (await this.storage.accounts.getAccount(account.id)) throw usernameTaken(input.username);
    await this.accountsPerIp.consume(ip);
    if (!(await this.storage.accounts.createAccount(account, stored))) {
      throw usernameTaken(input.username);
    }
    return { account: accountView(account), token: { ...tokenView(stored), token } };
  }

  /** The caller's own account (any token may ask whose it is). */
  async me(credential: Credential): Promise<AccountView> {
    return accountView((await this.auth.requireAccount(credential)).account);
  }

  /**
   * Any account's public profile, by username (open accounts) or account id (any account), as the
   * caller's pool sees it (another pool's answers as a missing one).
   */
  async getAccount(username: string, credential?: Credential): Promise<AccountView> {
    const pool = await this.pools.ofReader(this.auth, credential);
    const account = await this.pools.visible(
      pool,
      await this.storage.accounts.getAccount(username.toLowerCase()),
    );
    if (!account) throw new GameError('ACCOUNT_NOT_FOUND', `No account named ${username}`);
    return accountView(account);
  }

  /**
   * A further token; its scopes must be among the calling token's (no token can widen itself), and
   * it expires no later than the calling token (a token that expires mints only tokens that expire
   * by then: TOKEN_OUTLIVES_CALLER otherwise, never clamped). Optionally it expires after
   * `expiresInSeconds`. At most `tokensPerAccount` active tokens. Everything about the caller is
   * checked before the idempotent block, whose records are the calling token's own (tokenScope).
   */
  async createToken(
    credential: Credential,
    input: { label?: string; scopes: readonly string[]; expiresInSeconds?: number },
    options: { idempotencyKey?: string } = {},
  ): Promise<IssuedToken> {
    const caller = await this.auth.requireAccount(credential);
    // A token made through an app would outlive its session or key (revoking them would not end it).
    if (caller.via) {
      throw new GameError(
        'FORBIDDEN',
        'Session tokens and app keys make no API tokens: the app mints sessions (POST /app/accounts/{externalId}/sessions)',
      );
    }
    const scopes = parseScopes(input.scopes);
    // challenge:bulk is no root scope: a token with challenge:write may grant it (or one that has it).
    for (const scope of scopes) {
      requireScope(
        caller,
        ...(scope === 'challenge:bulk' ? (['challenge:bulk', 'challenge:write'] as const) : [scope]),
      );
    }
    const lifetime = input.expiresInSeconds;
    if (
      lifetime !== undefined &&
      (!Number.isInteger(lifetime) || lifetime < TOKEN_LIFETIME.min || lifetime > TOKEN_LIFETIME.max)
    ) {
      throw new GameError(
        'INVALID_INPUT',
        `expiresInSeconds must be a whole number from ${TOKEN_LIFETIME.min} to ${TOKEN_LIFETIME.max}`,
        { field: 'expiresInSeconds' },
      );
    }
    outlivesNoCaller(caller.token, lifetime, this.now());
    const label = checkText('label', input.label ?? '')
      .trim()
      .slice(0, 100);
    const call = {
      scope: tokenScope(caller),
      key: options.idempotencyKey,
      operation: 'createToken',
      input,
    };
    return once(this.storage.idempotency, call, async () => {
      const now = this.now();
      const expiresAt =
        lifetime === undefined ? null : new Date(now.getTime() + lifetime * 1000).toISOString();
      const active = (await this.storage.accounts.listTokens(caller.account.id)).filter(
        (t) => t.revokedAt === null && !(t.expiresAt && Date.parse(t.expiresAt) <= now.getTime()),
      );
      const max = this.quotas.tokensPerAccount;
      if (active.length >= max) {
        throw new GameError(
          'TOO_MANY_TOKENS',
          `The account already has ${max} active API tokens; revoke one first`,
          { max },
        );
      }
      const { token, stored } = this.issue(caller.account.id, label, scopes, now.toISOString(), expiresAt);
      await this.storage.accounts.addToken(stored);
      return { ...tokenView(stored), token };
    });
  }

  /** The caller's tokens (ids, labels, scopes; never secrets). */
  async listTokens(credential: Credential): Promise<TokenView[]> {
    const caller = await this.auth.requireAccount(credential);
    return (await this.storage.accounts.listTokens(caller.account.id)).map(tokenView);
  }

  /**
   * Revokes one of the caller's tokens; effective at once. A token may revoke itself; another token
   * only if the caller's token holds every scope of it (a read-only token cannot lock out the
   * player's). A root token (isRootToken: never expiring, every scope of its kind) is revoked only by
   * itself or another root token (ROOT_TOKEN_REQUIRED), so no expiring or narrower token can lock
   * the owner out. The account's last root token cannot be revoked (LAST_ROOT_TOKEN): create a new
   * one first, then revoke the old.
   */
  async revokeToken(credential: Credential, tokenId: string): Promise<TokenView> {
    const caller = await this.auth.requireAccount(credential);
    if (!TOKEN_ID.test(tokenId)) throw new GameError('INVALID_INPUT', `Malformed token id "${tokenId}"`);
    const rootScopes = DEFAULT_SCOPES[caller.account.kind];
    if (tokenId !== caller.token.id) {
      const target = (await this.storage.accounts.listTokens(caller.account.id)).find(
        (t) => t.id === tokenId,
      );
      if (!target) throw new GameError('NOT_FOUND', `No token ${tokenId} on this account`);
      const missing = target.scopes.filter((scope) => !caller.token.scopes.includes(scope));
      if (missing.length > 0) {
        throw new GameError(
          'MISSING_SCOPE',
          `Revoking this token needs a token with its scopes too (${missing.join(', ')})`,
          { required: target.scopes, granted: caller.token.scopes },
        );
      }
      // Tokens never change scopes or expiry, so a root target stays one until revoked.
      if (isRootToken(target, rootScopes) && !isRootToken(caller.token, rootScopes)) {
        throw new GameError(
          'ROOT_TOKEN_REQUIRED',
          'Only a root token (never expiring, with every scope: ' +
            `${rootScopes.join(', ')}) may revoke a root token`,
          { scopes: rootScopes },
        );
      }
    }
    const result = await this.storage.accounts.revokeToken(
      caller.account.id,
      tokenId,
      this.now().toISOString(),
      rootScopes,
    );
    if (result.status === 'missing') throw new GameError('NOT_FOUND', `No token ${tokenId} on this account`);
    if (result.status === 'last-root') {
      throw new GameError(
        'LAST_ROOT_TOKEN',
        'This is the account’s last token that never expires and holds every scope ' +
          `(${rootScopes.join(', ')}); revoking it would lock the account. Create another such token first.`,
        { scopes: rootScopes },
      );
    }
    return tokenView(result.token);
  }

  /** A bot declares what it accepts; the server declines other challenges for it. */
  async setBotPolicy(credential: Credential, input: BotPolicyInput): Promise<AccountView> {
    const caller = await this.auth.requireAccount(credential, 'bot:play');
    if (caller.account.kind !== 'bot') {
      throw new GameError('FORBIDDEN', 'Only bot accounts declare what they accept');
    }
    const account = { ...caller.account, bot: parseBotPolicy(input) };
    await this.storage.accounts.saveAccount(account);
    return accountView(account);
  }

  private issue(
    account: string,
    label: string,
    scopes: readonly TokenScope[],
    at: string,
    expiresAt: string | null,
  ) {
    const { token, hash } = newPersonalToken();
    const stored: StoredToken = {
      id: randomBytes(8).toString('base64url'),
      account,
      hash,
      scopes,
      label,
      createdAt: at,
      revokedAt: null,
      ...(expiresAt ? { expiresAt } : {}),
    };
    return { token, stored };
  }
}

/**
 * Refuses a username that is malformed (INVALID_INPUT), holds unsafe characters (INVALID_CHARACTER),
 * is an AI's (USERNAME_TAKEN) or looks like a reserved name (USERNAME_RESERVED): sign-up's rules,
 * also those of app accounts.
 */
export function checkUsername(username: string): void {
  checkText('username', username);
  if (!USERNAME.test(username)) {
    throw new GameError(
      'INVALID_INPUT',
      'username must be 2–30 letters, digits, _ or -, starting with a letter or digit',
      { field: 'username' },
    );
  }
  if (isAiUsername(username)) throw usernameTaken(username);
  const reserved = reservedNameOf(username);
  if (reserved !== undefined) {
    throw new GameError(
      'USERNAME_RESERVED',
      `The username ${username} is too like the reserved name ${reserved}`,
      {
        field: 'username',
        reserved,
      },
    );
  }
}

export function accountView(account: StoredAccount): AccountView {
  return {
    id: account.id,
    username: account.username,
    kind: account.kind,
    bot: account.bot,
    displayName: account.displayName ?? null,
    createdAt: account.createdAt,
  };
}

export function tokenView(token: StoredToken): TokenView {
  return {
    id: token.id,
    label: token.label,
    scopes: token.scopes,
    createdAt: token.createdAt,
    revokedAt: token.revokedAt,
    expiresAt: token.expiresAt ?? null,
    lastUsedAt: token.lastUsedAt ?? null,
  };
}

/**
 * Refuses (TOKEN_OUTLIVES_CALLER) a token of `lifetime` seconds (undefined: never expiring) that
 * would outlive the expiring `caller` token: a token can hand on no more time than it has.
 */
function outlivesNoCaller(caller: StoredToken, lifetime: number | undefined, now: Date): void {
  if (!caller.expiresAt) return;
  const callerEnd = Date.parse(caller.expiresAt);
  if (lifetime !== undefined && now.getTime() + lifetime * 1000 <= callerEnd) return;
  const left = Math.max(0, Math.floor((callerEnd - now.getTime()) / 1000));
  throw new GameError(
    'TOKEN_OUTLIVES_CALLER',
    `A token that expires (at ${caller.expiresAt}) can only create tokens that expire no later: ` +
      (left >= TOKEN_LIFETIME.min
        ? `give expiresInSeconds of at most ${left}`
        : `it has ${left} s left, less than the shortest lifetime (${TOKEN_LIFETIME.min} s)`),
    { field: 'expiresInSeconds', callerExpiresAt: caller.expiresAt, maxExpiresInSeconds: left },
  );
}

export function usernameTaken(username: string): GameError {
  return new GameError('USERNAME_TAKEN', `The username ${username} is taken`, { field: 'username' });
}

function parseScopes(scopes: readonly string[]): TokenScope[] {
  if (!Array.isArray(scopes) || scopes.length === 0) {
    throw new GameError('INVALID_INPUT', `scopes must list at least one of ${TOKEN_SCOPES.join(', ')}`, {
      field: 'scopes',
    });
  }
  for (const scope of scopes) {
    if (!(TOKEN_SCOPES as readonly string[]).includes(scope)) {
      throw new GameError('INVALID_INPUT', `Unknown scope "${scope}"; scopes: ${TOKEN_SCOPES.join(', ')}`, {
        field: 'scopes',
      });
    }
  }
  return [...new Set(scopes)] as TokenScope[];
}

function parseBotPolicy(input: BotPolicyInput): BotPolicy {
  const kinds = input.kinds ?? [...kindIds()];
  for (const kind of kinds) {
    if (!getEngine(kind))
      throw new GameError('UNKNOWN_GAME_KIND', `Unknown game kind "${kind}"`, { field: 'kinds' });
  }
  const timeControls = input.timeControls ?? [...TIME_CONTROL_TYPES];
  for (const tc of timeControls) {
    if (!(TIME_CONTROL_TYPES as readonly string[]).includes(tc)) {
      throw new GameError('INVALID_INPUT', `timeControls must be among ${TIME_CONTROL_TYPES.join(', ')}`, {
        field: 'timeControls',
      });
    }
  }
  const options: Record<string, Record<string, unknown[]>> = {};
  for (const [kind, byName] of Object.entries(input.options ?? {})) {
    const engine = getEngine(kind);
    if (!engine)
      throw new GameError('UNKNOWN_GAME_KIND', `Unknown game kind "${kind}"`, { field: 'options' });
    options[kind] = {};
    for (const [name, values] of Object.entries(byName)) {
      if (!Array.isArray(values) || values.length === 0) {
        throw new GameError('INVALID_INPUT', `options.${kind}.${name} must list the accepted values`, {
          field: 'options',
        });
      }
      for (const value of values) {
        const parsed = engine.parseOptions({ [name]: value });
        if (!parsed.ok)
          throw new GameError('INVALID_INPUT', parsed.error.message, { field: `options.${kind}.${name}` });
      }
      (options[kind] as Record<string, unknown[]>)[name] = [...values];
    }
  }
  const maxGames = input.maxGames ?? 10;
  if (!Number.isInteger(maxGames) || maxGames < 1 || maxGames > 1000) {
    throw new GameError('INVALID_INPUT', 'maxGames must be a whole number from 1 to 1000', {
      field: 'maxGames',
    });
  }
  return {
    kinds: [...new Set(kinds)] as GameKind[],
    timeControls: [...new Set(timeControls)] as BotPolicy['timeControls'],
    options,
    maxGames,
  };
}
