import type { AppStore, StoredApp, StoredAppKey, StoredSession, StoredToken } from '../store';
import type { MemoryAccountStore } from './accounts';

/** Apps, their keys and sessions in this process. */
export class MemoryAppStore implements AppStore {
  private readonly apps = new Map<string, string>();
  private readonly keys = new Map<string, StoredAppKey>();
  private readonly sessions = new Map<string, StoredSession>();
  /** Every refresh hash a session ever had → session id (a used one coming back is a replay). */
  private readonly refreshes = new Map<string, string>();

  /** `revoked` tells the event bus of each revocation (a key's or an access token's hash). */
  constructor(
    private readonly accounts: MemoryAccountStore,
    private readonly revoked: (hash: string) => void = () => undefined,
  ) {}

  async createApp(app: StoredApp): Promise<boolean> {
    if (this.apps.has(app.id)) return false;
    this.apps.set(app.id, JSON.stringify(app));
    return true;
  }

  async getApp(id: string): Promise<StoredApp | undefined> {
    const json = this.apps.get(id);
    return json ? (JSON.parse(json) as StoredApp) : undefined;
  }

  async listApps(): Promise<StoredApp[]> {
    return [...this.apps.values()]
      .map((json) => JSON.parse(json) as StoredApp)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async saveApp(app: StoredApp): Promise<void> {
    if (!this.apps.has(app.id)) throw new Error(`app ${app.id} does not exist`);
    this.apps.set(app.id, JSON.stringify(app));
  }

  async addKey(key: StoredAppKey): Promise<void> {
    this.keys.set(key.hash, key);
  }

  async keyByHash(hash: string): Promise<StoredAppKey | undefined> {
    return this.keys.get(hash);
  }

  async getKey(app: string, id: string): Promise<StoredAppKey | undefined> {
    return [...this.keys.values()].find((k) => k.app === app && k.id === id);
  }

  async listKeys(app: string): Promise<StoredAppKey[]> {
    return [...this.keys.values()]
      .filter((k) => k.app === app)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async revokeKey(app: string, id: string, at: string): Promise<StoredAppKey | undefined> {
    const key = await this.getKey(app, id);
    if (!key || key.revokedAt !== null) return key;
    const revoked = { ...key, revokedAt: at };
    this.keys.set(key.hash, revoked);
    this.revoked(key.hash);
    return revoked;
  }

  async touchKey(hash: string, at: string): Promise<void> {
    const key = this.keys.get(hash);
    if (key) this.keys.set(hash, { ...key, lastUsedAt: at });
  }

  async createSession(session: StoredSession, accessToken: StoredToken): Promise<void> {
    await this.accounts.addToken(accessToken);
    this.sessions.set(session.id, session);
    this.refreshes.set(session.refreshHash, session.id);
  }

  async getSession(app: string, id: string): Promise<StoredSession | undefined> {
    const session = this.sessions.get(id);
    return session?.app === app ? session : undefined;
  }

  async sessionByRefreshHash(
    hash: string,
  ): Promise<{ session: StoredSession; current: boolean } | undefined> {
    const id = this.refreshes.get(hash);
    const session = id === undefined ? undefined : this.sessions.get(id);
    return session ? { session, current: session.refreshHash === hash } : undefined;
  }

  async rotateSession(
    next: StoredSession,
    expectedRefreshHash: string,
    accessToken: StoredToken,
  ): Promise<boolean> {
    const current = this.sessions.get(next.id);
    if (!current || current.refreshHash !== expectedRefreshHash || current.revokedAt !== null) return false;
    // The compare and the set before any await: of two rotations with one hash, one wins.
    this.sessions.set(next.id, next);
    this.refreshes.set(next.refreshHash, next.id);
    await this.accounts.addToken(accessToken);
    await this.accounts.revokeToken(current.account, current.accessToken, accessToken.createdAt);
    return true;
  }

  async revokeSession(app: string, id: string, at: string): Promise<StoredSession | undefined> {
    const session = await this.getSession(app, id);
    if (!session || session.revokedAt !== null) return session;
    const revoked = { ...session, revokedAt: at };
    // Set before any await (a second revocation keeps the first time).
    this.sessions.set(id, revoked);
    await this.accounts.revokeToken(session.account, session.accessToken, at);
    return revoked;
  }

  async deleteSessions(account: string): Promise<void> {
    for (const [id, session] of this.sessions) {
      if (session.account !== account) continue;
      this.sessions.delete(id);
      for (const [hash, of] of this.refreshes) if (of === id) this.refreshes.delete(hash);
    }
  }

  async listSessions(account: string): Promise<StoredSession[]> {
    return [...this.sessions.values()]
      .filter((s) => s.account === account)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }
}
