import type Redis from 'ioredis';
import type { AppStore, StoredApp, StoredAppKey, StoredSession, StoredToken } from '../../store';
import type { RedisAccountStore } from '../accounts';
import type { Revocations } from '../revocations';
import { msOf } from '../games/arguments';
import { Keys } from '../keys';
import { createSession, revokeAppKey, revokeSession, rotateSession } from './scripts';

/** Key hashes whose app this node remembers (the pointer never changes; oldest dropped). */
const APP_OF_KEY_MAX = 10_000;
/** A revocation or rotation retried this often when the document kept changing under it. */
const ATTEMPTS = 10;

// Apps in Redis (docs/data-model.md): an app's doc, its key docs and their last-use times live in the
// app's shard; a key is found from its hash by a pointer in the hash's shard (`appkeyat`), written
// before the doc and never changed, as tokens are. Sessions live in their account's shard beside the
// account's tokens, so that a rotation (new access token, old one revoked, session doc replaced) is
// one script; pointers find a session from its id (`sessionat`) and from any refresh hash it ever had
// (`refreshat`: a used one coming back is a replay).

export class RedisAppStore implements AppStore {
  private readonly keys: Keys;
  private readonly appOfKey = new Map<string, string>();

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly accounts: RedisAccountStore,
    private readonly revocations: Revocations,
  ) {
    this.keys = new Keys(prefix);
  }

  async createApp(app: StoredApp): Promise<boolean> {
    const created = await this.redis.set(this.keys.app(app.id), JSON.stringify(app), 'NX');
    if (created !== 'OK') return false;
    await this.redis.zadd(this.keys.apps(), msOf(app.createdAt, 'app createdAt'), app.id);
    return true;
  }

  async getApp(id: string): Promise<StoredApp | undefined> {
    const json = await this.redis.get(this.keys.app(id));
    return json ? (JSON.parse(json) as StoredApp) : undefined;
  }

  async listApps(): Promise<StoredApp[]> {
    const ids = await this.redis.zrange(this.keys.apps(), 0, -1);
    const apps = await Promise.all(ids.map((id) => this.getApp(id)));
    return apps.filter((a): a is StoredApp => a !== undefined);
  }

  async saveApp(app: StoredApp): Promise<void> {
    const saved = await this.redis.set(this.keys.app(app.id), JSON.stringify(app), 'XX');
    if (saved !== 'OK') throw new Error(`app ${app.id} does not exist`);
  }

  async addKey(key: StoredAppKey): Promise<void> {
    // The pointer first: a doc is always findable from its hash.
    await this.redis.set(this.keys.appKeyApp(key.hash), key.app);
    await this.redis
      .multi()
      .set(this.keys.appKey(key.app, key.hash), JSON.stringify(key))
      .zadd(this.keys.appKeys(key.app), msOf(key.createdAt, 'key createdAt'), key.hash)
      .exec();
  }

  private async appOf(hash: string): Promise<string | undefined> {
    const known = this.appOfKey.get(hash);
    if (known !== undefined) return known;
    const app = await this.redis.get(this.keys.appKeyApp(hash));
    if (app === null) return undefined;
    this.appOfKey.set(hash, app);
    if (this.appOfKey.size > APP_OF_KEY_MAX)
      this.appOfKey.delete(this.appOfKey.keys().next().value as string);
    return app;
  }

  async keyByHash(hash: string): Promise<StoredAppKey | undefined> {
    const app = await this.appOf(hash);
    if (app === undefined) return undefined;
    const [json, used] = await this.redis.mget(this.keys.appKey(app, hash), this.keys.appKeyUsed(app, hash));
    return json ? withUse(JSON.parse(json) as StoredAppKey, used) : undefined;
  }

  async getKey(app: string, id: string): Promise<StoredAppKey | undefined> {
    return (await this.listKeys(app)).find((k) => k.id === id);
  }

  async listKeys(app: string): Promise<StoredAppKey[]> {
    const hashes = await this.redis.zrange(this.keys.appKeys(app), 0, -1);
    if (hashes.length === 0) return [];
    const docs = await this.redis.mget(hashes.map((h) => this.keys.appKey(app, h)));
    const used = await this.redis.mget(hashes.map((h) => this.keys.appKeyUsed(app, h)));
    return docs.flatMap((json, i) => (json ? [withUse(JSON.parse(json) as StoredAppKey, used[i])] : []));
  }

  async revokeKey(app: string, id: string, at: string): Promise<StoredAppKey | undefined> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const key = await this.getKey(app, id);
      if (!key || key.revokedAt !== null) return key;
      const docKey = this.keys.appKey(app, key.hash);
      const read = await this.redis.get(docKey);
      if (read === null) return undefined;
      const revoked: StoredAppKey = { ...(JSON.parse(read) as StoredAppKey), revokedAt: at };
      const done = await revokeAppKey.run(
        this.redis,
        { key: docKey },
        { read, revoked: JSON.stringify(revoked), hash: key.hash, channel: this.revocations.scriptChannel },
      );
      if (done !== 1) continue;
      await this.revocations.after(key.hash);
      return withUse(revoked, key.lastUsedAt);
    }
    throw new Error(`app key ${id} kept changing while being revoked`);
  }

  async touchKey(hash: string, at: string): Promise<void> {
    const app = await this.appOf(hash);
    if (app === undefined) return;
    await this.redis.set(this.keys.appKeyUsed(app, hash), at, 'EX', 366 * 24 * 60 * 60);
  }

  async createSession(session: StoredSession, accessToken: StoredToken): Promise<void> {
    if (accessToken.account !== session.account)
      throw new Error('the access token must be the session’s account’s');
    // Pointers first (each written once): the token, the session id and the refresh hash find their docs.
    await Promise.all([
      this.accounts.point(accessToken),
      this.redis.set(this.keys.sessionAccount(session.id), session.account),
      this.redis.set(this.keys.refreshSession(session.refreshHash), `${session.account} ${session.id}`),
    ]);
    await createSession.run(
      this.redis,
      {
        session: this.keys.session(session.account, session.id),
        sessions: this.keys.sessionsOf(session.account),
        token: this.keys.token(session.account, accessToken.hash),
        tokens: this.keys.tokens(session.account),
      },
      {
        id: session.id,
        doc: JSON.stringify(session),
        createdAt: msOf(session.createdAt, 'session createdAt'),
        tokenDoc: JSON.stringify(accessToken),
        hash: accessToken.hash,
      },
    );
  }

  private async readSession(
    account: string,
    id: string,
  ): Promise<{ session: StoredSession; json: string } | undefined> {
    const json = await this.redis.get(this.keys.session(account, id));
    return json ? { session: JSON.parse(json) as StoredSession, json } : undefined;
  }

  async getSession(app: string, id: string): Promise<StoredSession | undefined> {
    const account = await this.redis.get(this.keys.sessionAccount(id));
    if (account === null) return undefined;
    const found = await this.readSession(account, id);
    return found?.session.app === app ? found.session : undefined;
  }

  async sessionByRefreshHash(
    hash: string,
  ): Promise<{ session: StoredSession; current: boolean } | undefined> {
    const pointer = await this.redis.get(this.keys.refreshSession(hash));
    if (pointer === null) return undefined;
    const [account, id] = pointer.split(' ') as [string, string];
    const found = await this.readSession(account, id);
    return found ? { session: found.session, current: found.session.refreshHash === hash } : undefined;
  }

  async rotateSession(
    next: StoredSession,
    expectedRefreshHash: string,
    accessToken: StoredToken,
  ): Promise<boolean> {
    const found = await this.readSession(next.account, next.id);
    if (!found || found.session.refreshHash !== expectedRefreshHash || found.session.revokedAt !== null)
      return false;
    const old = await this.tokenDoc(next.account, found.session.accessToken);
    await Promise.all([
      this.accounts.point(accessToken),
      this.redis.set(this.keys.refreshSession(next.refreshHash), `${next.account} ${next.id}`),
    ]);
    const done = await rotateSession.run(
      this.redis,
      {
        session: this.keys.session(next.account, next.id),
        token: this.keys.token(next.account, accessToken.hash),
        tokens: this.keys.tokens(next.account),
        oldToken: this.keys.token(next.account, old?.token.hash ?? accessToken.hash),
      },
      {
        read: found.json,
        doc: JSON.stringify(next),
        tokenDoc: JSON.stringify(accessToken),
        hash: accessToken.hash,
        createdAt: msOf(accessToken.createdAt, 'token createdAt'),
        oldRevoked:
          old && old.token.revokedAt === null
            ? JSON.stringify({ ...old.token, revokedAt: accessToken.createdAt })
            : '',
        oldHash: old?.token.hash ?? '',
        channel: this.revocations.scriptChannel,
      },
    );
    if (done === 1 && old && old.token.revokedAt === null) await this.revocations.after(old.token.hash);
    return done === 1;
  }

  /** The account's token with this id, as stored (sessions name their access token by id). */
  private async tokenDoc(
    account: string,
    tokenId: string,
  ): Promise<{ token: StoredToken; json: string } | undefined> {
    const hashes = await this.redis.zrange(this.keys.tokens(account), 0, -1);
    if (hashes.length === 0) return undefined;
    const docs = await this.redis.mget(hashes.map((h) => this.keys.token(account, h)));
    for (const json of docs) {
      if (!json) continue;
      const token = JSON.parse(json) as StoredToken;
      if (token.id === tokenId) return { token, json };
    }
    return undefined;
  }

  async revokeSession(app: string, id: string, at: string): Promise<StoredSession | undefined> {
    const account = await this.redis.get(this.keys.sessionAccount(id));
    if (account === null) return undefined;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const found = await this.readSession(account, id);
      if (!found || found.session.app !== app) return undefined;
      if (found.session.revokedAt !== null) return found.session;
      const revoked: StoredSession = { ...found.session, revokedAt: at };
      const token = await this.tokenDoc(account, found.session.accessToken);
      const done = await revokeSession.run(
        this.redis,
        {
          session: this.keys.session(account, id),
          token: this.keys.token(account, token?.token.hash ?? ''),
        },
        {
          read: found.json,
          doc: JSON.stringify(revoked),
          tokenRead: token && token.token.revokedAt === null ? token.json : '',
          tokenRevoked: token ? JSON.stringify({ ...token.token, revokedAt: at }) : '',
          hash: token?.token.hash ?? '',
          channel: this.revocations.scriptChannel,
        },
      );
      if (done !== 1) continue;
      if (token && token.token.revokedAt === null) await this.revocations.after(token.token.hash);
      return revoked;
    }
    throw new Error(`session ${id} kept changing while being revoked`);
  }

  async listSessions(account: string): Promise<StoredSession[]> {
    const ids = await this.redis.zrange(this.keys.sessionsOf(account), 0, -1);
    if (ids.length === 0) return [];
    const docs = await this.redis.mget(ids.map((id) => this.keys.session(account, id)));
    return docs.flatMap((json) => (json ? [JSON.parse(json) as StoredSession] : []));
  }
  async deleteSessions(account: string): Promise<void> {
    // Used refresh hashes' pointers (`refreshat`, account id and session id only) lead nowhere after.
    for (const session of await this.listSessions(account)) {
      await this.redis.del(this.keys.session(account, session.id));
      await this.redis.del(this.keys.sessionAccount(session.id));
      await this.redis.del(this.keys.refreshSession(session.refreshHash));
    }
    await this.redis.del(this.keys.sessionsOf(account));
  }
}

function withUse(key: StoredAppKey, used: string | null | undefined): StoredAppKey {
  return used ? { ...key, lastUsedAt: used } : key;
}
