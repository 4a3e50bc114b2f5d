import type Redis from 'ioredis';
import type { AccountStore, StoredAccount, StoredToken } from '../store';
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
    const json = await this.redis.get(this.tokenKey(hash));
    return json ? (JSON.parse(json) as StoredToken) : undefined;
  }

  async listTokens(account: string): Promise<StoredToken[]> {
    return (await this.readTokens(account)).map((t) => t.token);
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

  async revokeToken(account: string, tokenId: string, at: string): Promise<StoredToken | undefined> {
    // Read, change in JS (no re-encoding in Lua), write only if unchanged meanwhile; retry otherwise.
    for (let attempt = 0; attempt < 10; attempt++) {
      const found = (await this.readTokens(account)).find((t) => t.token.id === tokenId);
      if (!found) return undefined;
      if (found.token.revokedAt !== null) return found.token;
      const revoked: StoredToken = { ...found.token, revokedAt: at };
      const key = this.tokenKey(found.token.hash);
      const channel = revocationChannel(this.prefix);
      const hash = found.token.hash;
      if (
        (await this.redis.boardhostRevokeToken(key, found.json, JSON.stringify(revoked), channel, hash)) === 1
      ) {
        return revoked;
      }
    }
    throw new Error(`token ${tokenId} kept changing while being revoked`);
  }
}
