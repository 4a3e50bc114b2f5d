import {
  appOf,
  OPEN_APP,
  isRootToken,
  type AccountStore,
  type AccountTombstone,
  type AppAccountResult,
  erasedNameHash,
  type RevokeResult,
  type StoredAccount,
  type StoredToken,
  type TokenScope,
} from '../store';

/** Accounts and tokens in this process. */
export class MemoryAccountStore implements AccountStore {
  private readonly accounts = new Map<string, string>();
  private readonly tokens = new Map<string, StoredToken>();
  /** `<app>\n<external id>` → account id. */
  private readonly external = new Map<string, string>();
  /** `<app>\n<lower-case username>` → account id (app accounts only). */
  private readonly usernames = new Map<string, string>();
  private readonly tombstones = new Map<string, AccountTombstone>();
  /** erasedNameHash → until when (epoch ms) an erased username stays unavailable. */
  private readonly erasedNames = new Map<string, number>();
  private tombstoneCount = 0;

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

  async getOrCreateAppAccount(account: StoredAccount): Promise<AppAccountResult> {
    const app = appOf(account);
    if (account.externalId === undefined) throw new Error('an app account needs an external id');
    const existing = this.external.get(`${app}\n${account.externalId}`);
    if (existing !== undefined) {
      const found = await this.getAccount(existing);
      if (found) return { status: 'existing', account: found };
    }
    const name = `${app}\n${account.username.toLowerCase()}`;
    if (this.usernames.has(name) || this.held(app, account.username)) return { status: 'username-taken' };
    if (this.accounts.has(account.id)) throw new Error(`account ${account.id} exists`);
    this.accounts.set(account.id, JSON.stringify(account));
    this.external.set(`${app}\n${account.externalId}`, account.id);
    this.usernames.set(name, account.id);
    return { status: 'created', account };
  }

  async accountByExternalId(app: string, externalId: string): Promise<StoredAccount | undefined> {
    const id = this.external.get(`${app}\n${externalId}`);
    return id === undefined ? undefined : this.getAccount(id);
  }

  async accountByUsername(app: string, username: string): Promise<StoredAccount | undefined> {
    if (app === OPEN_APP) return this.getAccount(username.toLowerCase());
    const id = this.usernames.get(`${app}\n${username.toLowerCase()}`);
    return id === undefined ? undefined : this.getAccount(id);
  }

  async updateAppAccount(next: StoredAccount): Promise<'saved' | 'username-taken' | 'missing'> {
    const before = await this.getAccount(next.id);
    if (!before) return 'missing';
    const app = appOf(next);
    const from = `${app}\n${before.username.toLowerCase()}`;
    const to = `${app}\n${next.username.toLowerCase()}`;
    if (from !== to) {
      const holder = this.usernames.get(to);
      if (holder !== undefined && holder !== next.id) return 'username-taken';
      if (this.held(app, next.username)) return 'username-taken';
      this.usernames.delete(from);
      this.usernames.set(to, next.id);
    }
    this.accounts.set(next.id, JSON.stringify(next));
    return 'saved';
  }

  /** Whether the username was erased in the app less than its hold ago. */
  private held(app: string, username: string): boolean {
    const until = this.erasedNames.get(erasedNameHash(app, username));
    return until !== undefined && until > Date.now();
  }

  async nextTombstone(): Promise<number> {
    return ++this.tombstoneCount;
  }

  async eraseAccount(
    account: StoredAccount,
    tombstone: AccountTombstone,
    holdSeconds: number,
  ): Promise<void> {
    const app = appOf(account);
    for (const [hash, token] of this.tokens) if (token.account === account.id) this.tokens.delete(hash);
    if (account.externalId !== undefined) this.external.delete(`${app}\n${account.externalId}`);
    const name = `${app}\n${account.username.toLowerCase()}`;
    if (this.usernames.get(name) === account.id) this.usernames.delete(name);
    this.accounts.delete(account.id);
    this.tombstones.set(account.id, tombstone);
    this.erasedNames.set(erasedNameHash(app, account.username), Date.now() + holdSeconds * 1000);
  }

  async tombstoneOf(id: string): Promise<AccountTombstone | undefined> {
    return this.tombstones.get(id);
  }

  async listAppAccounts(app: string, after: string | undefined, limit: number): Promise<StoredAccount[]> {
    const ids = [...this.external.entries()]
      .filter(([key]) => key.startsWith(`${app}\n`))
      .map(([, id]) => id)
      .filter((id) => after === undefined || id > after)
      .sort()
      .slice(0, limit);
    const found = await Promise.all(ids.map((id) => this.getAccount(id)));
    return found.filter((a): a is StoredAccount => a !== undefined);
  }
}
