import type Redis from 'ioredis';
import { appOf, erasedNameHash } from '../store';
import type {
  AccountStore,
  AccountTombstone,
  AppAccountResult,
  RevokeResult,
  StoredAccount,
  StoredToken,
  TokenScope,
} from '../store';
import { msOf } from './games/arguments';
import { Keys } from './keys';
import { addToken, createAccount, revokeToken } from './lua';

/** The pub/sub channel carrying the hash of each revoked token (see RedisEventBus). */
export function revocationChannel(prefix: string): string {
  return new Keys(prefix).revocations();
}

/** Token hashes whose account this node remembers (the pointer never changes; oldest dropped). */
const ACCOUNT_OF_TOKEN_MAX = 10_000;

// Accounts and tokens (docs/data-model.md): an account, its token index, its token docs and their
// last-use times live in the account's shard, so that revoking reads every token of the account
// and writes one in one step (the last-root guard). A request presents a token, not an account:
// a pointer in the shard of the token's hash (`tokenat`: hash → account id) finds the account. It
// is written before the token doc and never changes, so a node keeps the ones it has read.

export class RedisAccountStore implements AccountStore {
  private readonly keys: Keys;
  private readonly accountOfToken = new Map<string, string>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.keys = new Keys(prefix);
  }

  /** The account a token hash belongs to (its pointer), or undefined. */
  private async accountOf(hash: string): Promise<string | undefined> {
    const known = this.accountOfToken.get(hash);
    if (known !== undefined) return known;
    const account = await this.redis.get(this.keys.tokenAccount(hash));
    if (account === null) return undefined;
    this.accountOfToken.set(hash, account);
    if (this.accountOfToken.size > ACCOUNT_OF_TOKEN_MAX) {
      this.accountOfToken.delete(this.accountOfToken.keys().next().value as string);
    }
    return account;
  }

  /** Writes a token's pointer (before its doc: a doc is always findable). */
  private async point(token: StoredToken): Promise<void> {
    await this.redis.set(this.keys.tokenAccount(token.hash), token.account);
  }

  async createAccount(account: StoredAccount, firstToken: StoredToken): Promise<boolean> {
    if (firstToken.account !== account.id) throw new Error('the first token must be the account’s');
    await this.point(firstToken);
    const created = await createAccount.run(
      this.redis,
      {
        account: this.keys.account(account.id),
        token: this.keys.token(account.id, firstToken.hash),
        tokens: this.keys.tokens(account.id),
      },
      {
        accountDoc: JSON.stringify(account),
        tokenDoc: JSON.stringify(firstToken),
        hash: firstToken.hash,
        createdAt: msOf(firstToken.createdAt, 'token createdAt'),
      },
    );
    // The id is taken: the pointer leads to no doc; drop it unless the doc exists after all (a retry).
    if (created !== 1 && (await this.redis.exists(this.keys.token(account.id, firstToken.hash))) === 0) {
      await this.redis.del(this.keys.tokenAccount(firstToken.hash));
    }
    return created === 1;
  }

  async getAccount(id: string): Promise<StoredAccount | undefined> {
    const json = await this.redis.get(this.keys.account(id));
    return json ? (JSON.parse(json) as StoredAccount) : undefined;
  }

  async saveAccount(account: StoredAccount): Promise<void> {
    const saved = await this.redis.set(this.keys.account(account.id), JSON.stringify(account), 'XX');
    if (saved !== 'OK') throw new Error(`account ${account.id} does not exist`);
  }

  async addToken(token: StoredToken): Promise<void> {
    await this.point(token);
    await addToken.run(
      this.redis,
      { token: this.keys.token(token.account, token.hash), tokens: this.keys.tokens(token.account) },
      { doc: JSON.stringify(token), hash: token.hash, createdAt: msOf(token.createdAt, 'token createdAt') },
    );
  }

  async tokenByHash(hash: string): Promise<StoredToken | undefined> {
    const account = await this.accountOf(hash);
    if (account === undefined) return undefined;
    // One round trip for the doc and its last use (one slot).
    const [json, used] = await this.redis.mget(
      this.keys.token(account, hash),
      this.keys.tokenUsed(account, hash),
    );
    return json ? withUse(JSON.parse(json) as StoredToken, used) : undefined;
  }

  async listTokens(account: string): Promise<StoredToken[]> {
    const tokens = await this.readTokens(account);
    if (tokens.length === 0) return [];
    const used = await this.redis.mget(tokens.map((t) => this.keys.tokenUsed(account, t.token.hash)));
    return tokens.map((t, i) => withUse(t.token, used[i]));
  }

  async touchToken(hash: string, at: string): Promise<void> {
    const account = await this.accountOf(hash);
    if (account === undefined) return;
    // Kept as long as a token is useful without a use; a token unused for a year shows none.
    await this.redis.set(this.keys.tokenUsed(account, hash), at, 'EX', 366 * 24 * 60 * 60);
  }

  /** The account's tokens with the JSON each was read as (for compare-and-set). */
  private async readTokens(account: string): Promise<Array<{ token: StoredToken; json: string }>> {
    const hashes = await this.redis.zrange(this.keys.tokens(account), 0, -1);
    if (hashes.length === 0) return [];
    const docs = await this.redis.mget(hashes.map((h) => this.keys.token(account, h)));
    return docs.flatMap((json) => {
      if (!json) return [];
      const token = JSON.parse(json) as StoredToken;
      return token.account === account ? [{ token, json }] : [];
    });
  }

  async revokeToken(
    account: string,
    tokenId: string,
    at: string,
    rootScopes?: readonly TokenScope[],
  ): Promise<RevokeResult> {
    // Read, change in JS (no re-encoding in Lua), write only if unchanged meanwhile (the script
    // also keeps the last root token); retry otherwise.
    for (let attempt = 0; attempt < 10; attempt++) {
      const found = (await this.readTokens(account)).find((t) => t.token.id === tokenId);
      if (!found) return { status: 'missing' };
      const used = await this.redis.get(this.keys.tokenUsed(account, found.token.hash));
      if (found.token.revokedAt !== null) return { status: 'revoked', token: withUse(found.token, used) };
      const revoked: StoredToken = { ...found.token, revokedAt: at };
      const result = await revokeToken.run(
        this.redis,
        { token: this.keys.token(account, found.token.hash), tokens: this.keys.tokens(account) },
        {
          read: found.json,
          revoked: JSON.stringify(revoked),
          tokenKeyPrefix: this.keys.token(account, ''),
          rootScopes: rootScopes ? JSON.stringify(rootScopes) : '',
          hash: found.token.hash,
          channel: revocationChannel(this.prefix),
        },
      );
      if (result === 'revoked') return { status: 'revoked', token: withUse(revoked, used) };
      if (result === 'last-root') return { status: 'last-root', token: withUse(found.token, used) };
    }
    throw new Error(`token ${tokenId} kept changing while being revoked`);
  }

  async nextTombstone(): Promise<number> {
    return this.redis.incr(this.keys.tombstoneSeq());
  }

  async eraseAccount(
    account: StoredAccount,
    tombstone: AccountTombstone,
    holdSeconds: number,
  ): Promise<void> {
    // The account document goes last: an erasure that failed half way is found and retried whole.
    const id = account.id;
    const hashes = await this.redis.zrange(this.keys.tokens(id), 0, -1);
    for (const hash of hashes) {
      await this.redis.del(this.keys.token(id, hash), this.keys.tokenUsed(id, hash));
      await this.redis.del(this.keys.tokenAccount(hash));
      this.accountOfToken.delete(hash);
    }
    const hold = this.keys.erasedName(erasedNameHash(appOf(account), account.username));
    await this.redis.set(hold, '1', 'EX', holdSeconds);
    // The external-id and username entries are the app account store's (built by the store
    // helper): its eraseAccount part removes them here, before the document.
    await this.redis.set(this.keys.accountTombstone(id), JSON.stringify(tombstone));
    await this.redis.del(this.keys.tokens(id), this.keys.account(id));
  }

  async tombstoneOf(id: string): Promise<AccountTombstone | undefined> {
    const json = await this.redis.get(this.keys.accountTombstone(id));
    return json ? (JSON.parse(json) as AccountTombstone) : undefined;
  }

  // Base stubs: the store helper builds these.
  getOrCreateAppAccount(_account: StoredAccount): Promise<AppAccountResult> {
    throw new Error('not built yet');
  }
  accountByExternalId(_app: string, _externalId: string): Promise<StoredAccount | undefined> {
    throw new Error('not built yet');
  }
  accountByUsername(_app: string, _username: string): Promise<StoredAccount | undefined> {
    throw new Error('not built yet');
  }
  updateAppAccount(_next: StoredAccount): Promise<'saved' | 'username-taken' | 'missing'> {
    throw new Error('not built yet');
  }
  listAppAccounts(_app: string, _after: string | undefined, _limit: number): Promise<StoredAccount[]> {
    throw new Error('not built yet');
  }
}

function withUse(token: StoredToken, used: string | null | undefined): StoredToken {
  return used ? { ...token, lastUsedAt: used } : token;
}
