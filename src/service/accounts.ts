import { randomBytes } from 'node:crypto';
import { ENGINES, getEngine } from '../engines/registry';
import type { GameKind } from '../engines/types';
import {
  ACCOUNT_KINDS,
  TIME_CONTROL_TYPES,
  TOKEN_SCOPES,
  type AccountKind,
  type BotPolicy,
  type Storage,
  type StoredAccount,
  type StoredToken,
  type TokenScope,
} from '../store/store';
import { newPersonalToken, requireScope, type Authenticator, type Credential } from './auth';
import { GameError } from './errors';

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
  readonly createdAt: string;
}

export interface TokenView {
  readonly id: string;
  readonly label: string;
  readonly scopes: readonly TokenScope[];
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

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
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A new account and its first API token (shown only in this answer). */
  async createAccount(input: {
    username: string;
    kind?: string;
  }): Promise<{ account: AccountView; token: IssuedToken }> {
    if (!USERNAME.test(input.username)) {
      throw new GameError(
        'INVALID_INPUT',
        'username must be 2–30 letters, digits, _ or -, starting with a letter or digit',
        { field: 'username' },
      );
    }
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
    const { token, stored } = this.issue(account.id, 'first token', DEFAULT_SCOPES[account.kind], at);
    if (!(await this.storage.accounts.createAccount(account, stored))) {
      throw new GameError('USERNAME_TAKEN', `The username ${input.username} is taken`, { field: 'username' });
    }
    return { account: accountView(account), token: { ...tokenView(stored), token } };
  }

  /** The caller's own account (any token may ask whose it is). */
  async me(credential: Credential): Promise<AccountView> {
    return accountView((await this.auth.requireAccount(credential)).account);
  }

  /** Any account's public profile. */
  async getAccount(username: string): Promise<AccountView> {
    const account = await this.storage.accounts.getAccount(username.toLowerCase());
    if (!account) throw new GameError('ACCOUNT_NOT_FOUND', `No account named ${username}`);
    return accountView(account);
  }

  /** A further token; its scopes must be among the calling token's (no token can widen itself). */
  async createToken(
    credential: Credential,
    input: { label?: string; scopes: readonly string[] },
  ): Promise<IssuedToken> {
    const caller = await this.auth.requireAccount(credential);
    const scopes = parseScopes(input.scopes);
    for (const scope of scopes) requireScope(caller, scope);
    const label = (input.label ?? '').trim().slice(0, 100);
    const { token, stored } = this.issue(caller.account.id, label, scopes, this.now().toISOString());
    await this.storage.accounts.addToken(stored);
    return { ...tokenView(stored), token };
  }

  /** The caller's tokens (ids, labels, scopes; never secrets). */
  async listTokens(credential: Credential): Promise<TokenView[]> {
    const caller = await this.auth.requireAccount(credential);
    return (await this.storage.accounts.listTokens(caller.account.id)).map(tokenView);
  }

  /** Revokes one of the caller's tokens (possibly the one in use); effective at once. */
  async revokeToken(credential: Credential, tokenId: string): Promise<TokenView> {
    const caller = await this.auth.requireAccount(credential);
    if (!TOKEN_ID.test(tokenId)) throw new GameError('INVALID_INPUT', `Malformed token id "${tokenId}"`);
    const revoked = await this.storage.accounts.revokeToken(
      caller.account.id,
      tokenId,
      this.now().toISOString(),
    );
    if (!revoked) throw new GameError('NOT_FOUND', `No token ${tokenId} on this account`);
    return tokenView(revoked);
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

  private issue(account: string, label: string, scopes: readonly TokenScope[], at: string) {
    const { token, hash } = newPersonalToken();
    const stored: StoredToken = {
      id: randomBytes(8).toString('base64url'),
      account,
      hash,
      scopes,
      label,
      createdAt: at,
      revokedAt: null,
    };
    return { token, stored };
  }
}

export function accountView(account: StoredAccount): AccountView {
  return {
    id: account.id,
    username: account.username,
    kind: account.kind,
    bot: account.bot,
    createdAt: account.createdAt,
  };
}

function tokenView(token: StoredToken): TokenView {
  return {
    id: token.id,
    label: token.label,
    scopes: token.scopes,
    createdAt: token.createdAt,
    revokedAt: token.revokedAt,
  };
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
  const kinds = input.kinds ?? [...ENGINES.keys()];
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
