import type Redis from 'ioredis';
import {
  appOf,
  erasedNameHash,
  OPEN_APP,
  type AccountStore,
  type AccountTombstone,
  type AppAccountResult,
  type RevokeResult,
  type StoredAccount,
  type StoredToken,
  type TokenScope,
} from '../store';
import { moveAppUsername, reserveAppAccount, settleAppAccount } from './apps/scripts';
import { msOf } from './games/arguments';
import { Keys } from './keys';
import type { Revocations } from './revocations';
import { addToken, createAccount, forgetAppAccount, revokeToken } from './lua';

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
    prefix: string,
    private readonly revocations: Revocations,
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

  /** Writes a token's pointer (before its doc: a doc is always findable); the app store's sessions too. */
  async point(token: StoredToken): Promise<void> {
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
          channel: this.revocations.scriptChannel,
        },
      );
      if (result === 'revoked') await this.revocations.after(found.token.hash);
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
    const app = appOf(account);
    const indexes = this.keys.appAccountIndexes(app);
    await forgetAppAccount.run(
      this.redis,
      { ...indexes, held: this.keys.erasedName(app, erasedNameHash(app, account.username)) },
      {
        externalId: account.externalId ?? '',
        username: account.username.toLowerCase(),
        id,
        holdSeconds,
      },
    );
    await this.redis.set(this.keys.accountTombstone(id), JSON.stringify(tombstone));
    await this.redis.del(this.keys.tokens(id), this.keys.account(id));
  }

  /** Whether the username was erased in the app less than its hold ago. */
  private async held(app: string, username: string): Promise<boolean> {
    return (await this.redis.exists(this.keys.erasedName(app, erasedNameHash(app, username)))) === 1;
  }

  async tombstoneOf(id: string): Promise<AccountTombstone | undefined> {
    const json = await this.redis.get(this.keys.accountTombstone(id));
    return json ? (JSON.parse(json) as AccountTombstone) : undefined;
  }

  async getOrCreateAppAccount(account: StoredAccount): Promise<AppAccountResult> {
    const app = appOf(account);
    if (account.externalId === undefined) throw new Error('an app account needs an external id');
    const indexes = this.keys.appAccountIndexes(app);
    // An erased username is held: a new account may not take it (an existing one is found as ever).
    if (
      (await this.held(app, account.username)) &&
      (await this.redis.hget(indexes.external, account.externalId)) === null
    ) {
      return { status: 'username-taken' };
    }
    const [outcome, known] = await reserveAppAccount.run(this.redis, indexes, {
      externalId: account.externalId,
      username: account.username.toLowerCase(),
      id: account.id,
      doc: JSON.stringify(account),
    });
    if (outcome === 'taken') return { status: 'username-taken' };
    if (outcome === 'reserved') {
      await this.settle(account, indexes.external);
      return { status: 'created', account };
    }
    // Known: its document, or (the creator stopped between the two steps) the one it meant to write.
    if (known === undefined) throw new Error('reserveAppAccount answered existing without a value');
    if (known.startsWith('~')) {
      const meant = JSON.parse(known.slice(1)) as StoredAccount;
      await this.settle(meant, indexes.external);
      const stored = await this.getAccount(meant.id);
      if (!stored) throw new Error(`account ${meant.id} vanished while being created`);
      return { status: 'existing', account: stored };
    }
    const stored = await this.getAccount(known);
    if (!stored) throw new Error(`account ${known} of external id is missing`);
    return { status: 'existing', account: stored };
  }

  /** Writes a reserved account's document (if not there yet) and points its external id at it. */
  private async settle(account: StoredAccount, external: string): Promise<void> {
    await this.redis.set(this.keys.account(account.id), JSON.stringify(account), 'NX');
    await settleAppAccount.run(
      this.redis,
      { external },
      { externalId: account.externalId ?? '', id: account.id },
    );
  }

  async accountByExternalId(app: string, externalId: string): Promise<StoredAccount | undefined> {
    const known = await this.redis.hget(this.keys.appAccountIndexes(app).external, externalId);
    if (known === null) return undefined;
    const id = known.startsWith('~') ? (JSON.parse(known.slice(1)) as StoredAccount).id : known;
    return this.getAccount(id);
  }

  async accountByUsername(app: string, username: string): Promise<StoredAccount | undefined> {
    if (app === OPEN_APP) return this.getAccount(username.toLowerCase());
    const id = await this.redis.hget(this.keys.appAccountIndexes(app).usernames, username.toLowerCase());
    return id === null ? undefined : this.getAccount(id);
  }

  async updateAppAccount(next: StoredAccount): Promise<'saved' | 'username-taken' | 'missing'> {
    const before = await this.getAccount(next.id);
    if (!before) return 'missing';
    const from = before.username.toLowerCase();
    const to = next.username.toLowerCase();
    if (from !== to) {
      if (await this.held(appOf(next), next.username)) return 'username-taken';
      const moved = await moveAppUsername.run(
        this.redis,
        { usernames: this.keys.appAccountIndexes(appOf(next)).usernames },
        { from, to, id: next.id },
      );
      if (moved !== 1) return 'username-taken';
    }
    const saved = await this.redis.set(this.keys.account(next.id), JSON.stringify(next), 'XX');
    return saved === 'OK' ? 'saved' : 'missing';
  }

  async listAppAccounts(app: string, after: string | undefined, limit: number): Promise<StoredAccount[]> {
    const ids = await this.redis.zrangebylex(
      this.keys.appAccountIndexes(app).accounts,
      after === undefined ? '-' : `(${after}`,
      '+',
      'LIMIT',
      0,
      limit,
    );
    const found = await Promise.all(ids.map((id) => this.getAccount(id)));
    return found.filter((a): a is StoredAccount => a !== undefined);
  }
}

function withUse(token: StoredToken, used: string | null | undefined): StoredToken {
  return used ? { ...token, lastUsedAt: used } : token;
}
