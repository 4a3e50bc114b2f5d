import {
  isRootToken,
  type AccountStore,
  type RevokeResult,
  type StoredAccount,
  type StoredToken,
  type TokenScope,
} from '../store';

/** Accounts and tokens in this process. */
export class MemoryAccountStore implements AccountStore {
  private readonly accounts = new Map<string, string>();
  private readonly tokens = new Map<string, StoredToken>();

  /** `revoked` tells the event bus of each revocation (the hash of the token). */
  constructor(private readonly revoked: (tokenHash: string) => void = () => undefined) {}

  async createAccount(account: StoredAccount, firstToken: StoredToken): Promise<boolean> {
    if (this.accounts.has(account.id)) return false;
    this.accounts.set(account.id, JSON.stringify(account));
    this.tokens.set(firstToken.hash, firstToken);
    return true;
  }

  async getAccount(id: string): Promise<StoredAccount | undefined> {
    const json = this.accounts.get(id);
    return json ? (JSON.parse(json) as StoredAccount) : undefined;
  }

  async saveAccount(account: StoredAccount): Promise<void> {
    if (!this.accounts.has(account.id)) throw new Error(`account ${account.id} does not exist`);
    this.accounts.set(account.id, JSON.stringify(account));
  }

  async addToken(token: StoredToken): Promise<void> {
    this.tokens.set(token.hash, token);
  }

  async tokenByHash(hash: string): Promise<StoredToken | undefined> {
    return this.tokens.get(hash);
  }

  async listTokens(account: string): Promise<StoredToken[]> {
    return [...this.tokens.values()]
      .filter((t) => t.account === account)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async revokeToken(
    account: string,
    tokenId: string,
    at: string,
    rootScopes?: readonly TokenScope[],
  ): Promise<RevokeResult> {
    const mine = [...this.tokens.values()].filter((t) => t.account === account);
    const token = mine.find((t) => t.id === tokenId);
    if (!token) return { status: 'missing' };
    if (token.revokedAt !== null) return { status: 'revoked', token };
    if (
      rootScopes &&
      isRootToken(token, rootScopes) &&
      !mine.some((t) => t.id !== tokenId && isRootToken(t, rootScopes))
    ) {
      return { status: 'last-root', token };
    }
    const revoked = { ...token, revokedAt: at };
    this.tokens.set(token.hash, revoked);
    this.revoked(token.hash);
    return { status: 'revoked', token: revoked };
  }

  async touchToken(hash: string, at: string): Promise<void> {
    const token = this.tokens.get(hash);
    if (token) this.tokens.set(hash, { ...token, lastUsedAt: at });
  }
}
