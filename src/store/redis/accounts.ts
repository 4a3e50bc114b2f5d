import type Redis from 'ioredis';
import type { AccountStore, RevokeResult, StoredAccount, StoredToken, TokenScope } from '../store';
import { msOf } from './arguments';
import { scripted, type ScriptedRedis } from './client';

/** The pub/sub channel carrying the hash of each revoked token (see RedisEventBus). */
export function revocationChannel(prefix: string): string {
  return `${prefix}revocations`;
}

export class RedisAccountStore implements AccountStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.redis = scripted(redis);
  }

  private accountKey(id: string): string {
    return `${this.prefix}account:${id}`;
  }

  private tokenKey(hash: string): string {
    return `${this.prefix}token:${hash}`;
  }

  /** When the token last authenticated a request: apart from its doc, so a touch never races a revoke. */
  private usedKey(hash: string): string {
    return `${this.prefix}tokenused:${hash}`;
  }

  private tokensKey(account: string): string {
    return `${this.prefix}tokens:${account}`;
  }

  async createAccount(account: StoredAccount, firstToken: StoredToken): Promise<boolean> {
    const created = await this.redis.boardhostCreateAccount(
      this.accountKey(account.id),
      this.tokenKey(firstToken.hash),
      this.tokensKey(firstToken.account),
      JSON.stringify(account),
      JSON.stringify(firstToken),
      firstToken.hash,
      msOf(firstToken.createdAt, 'token createdAt'),
    );
    return created === 1;
  }

  async getAccount(id: string): Promise<StoredAccount | undefined> {
    const json = await this.redis.get(this.accountKey(id));
    return json ? (JSON.parse(json) as StoredAccount) : undefined;
  }

  async saveAccount(account: StoredAccount): Promise<void> {
    const saved = await this.redis.set(this.accountKey(account.id), JSON.stringify(account), 'XX');
    if (saved !== 'OK') throw new Error(`account ${account.id} does not exist`);
  }

  async addToken(token: StoredToken): Promise<void> {
    await this.redis.boardhostAddToken(
      this.tokenKey(token.hash),
      this.tokensKey(token.account),
      JSON.stringify(token),
      token.hash,
      msOf(token.createdAt, 'token createdAt'),
    );
  }

  async tokenByHash(hash: string): Promise<StoredToken | undefined> {
    // One round trip for the doc and its last use.
    const [json, used] = await this.redis.mget(this.tokenKey(hash), this.usedKey(hash));
    return json ? withUse(JSON.parse(json) as StoredToken, used) : undefined;
  }

  async listTokens(account: string): Promise<StoredToken[]> {
    const tokens = await this.readTokens(account);
    if (tokens.length === 0) return [];
    const used = await this.redis.mget(tokens.map((t) => this.usedKey(t.token.hash)));
    return tokens.map((t, i) => withUse(t.token, used[i]));
  }

  async touchToken(hash: string, at: string): Promise<void> {
    // Kept as long as a token is useful without a use; a token unused for a year shows none.
    await this.redis.set(this.usedKey(hash), at, 'EX', 366 * 24 * 60 * 60);
  }

  /** The account's tokens with the JSON each was read as (for compare-and-set). */
  private async readTokens(account: string): Promise<Array<{ token: StoredToken; json: string }>> {
    const hashes = await this.redis.zrange(this.tokensKey(account), 0, -1);
    if (hashes.length === 0) return [];
    const docs = await this.redis.mget(hashes.map((h) => this.tokenKey(h)));
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
      const used = await this.redis.get(this.usedKey(found.token.hash));
      if (found.token.revokedAt !== null) return { status: 'revoked', token: withUse(found.token, used) };
      const revoked: StoredToken = { ...found.token, revokedAt: at };
      const result = await this.redis.boardhostRevokeToken(
        this.tokenKey(found.token.hash),
        this.tokensKey(account),
        found.json,
        JSON.stringify(revoked),
        this.prefix,
        rootScopes ? JSON.stringify(rootScopes) : '',
        found.token.hash,
        revocationChannel(this.prefix),
      );
      if (result === 'revoked') return { status: 'revoked', token: withUse(revoked, used) };
      if (result === 'last-root') return { status: 'last-root', token: withUse(found.token, used) };
    }
    throw new Error(`token ${tokenId} kept changing while being revoked`);
  }
}

function withUse(token: StoredToken, used: string | null | undefined): StoredToken {
  return used ? { ...token, lastUsedAt: used } : token;
}
