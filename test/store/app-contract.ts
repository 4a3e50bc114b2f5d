// The apps port's contract and the account port's app accounts (run by store-contract.ts on memory,
// Redis and Redis Cluster).
import {
  DEFAULT_APP_SETTINGS,
  type Storage,
  type StoredAccount,
  type StoredApp,
  type StoredAppKey,
  type StoredSession,
  type StoredToken,
} from '../../src/store/store';

let n = 0;
const hex = (label: string) => `${label}${(++n).toString(16)}${Math.random().toString(16).slice(2, 10)}`;
const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();

function newApp(): StoredApp {
  return {
    id: hex('app_'),
    name: 'Game night',
    settings: DEFAULT_APP_SETTINGS,
    createdAt: at(n % 50),
    disabledAt: null,
  };
}

function newKey(app: string, label = 'key'): StoredAppKey {
  const id = hex('key_');
  return {
    id,
    app,
    hash: `h${id}`,
    scopes: ['game:read', 'app:accounts'],
    label,
    createdAt: at(n % 50),
    revokedAt: null,
  };
}

function appAccount(app: string, externalId: string, username = hex('user')): StoredAccount {
  return {
    id: `${app}.${hex('')}`,
    username,
    kind: 'human',
    bot: null,
    createdAt: at(1),
    app,
    externalId,
    displayName: 'Ann Ó',
    metadata: { tier: 'gold' },
  };
}

function session(account: string, app: string, refreshHash: string, accessToken: string): StoredSession {
  return {
    id: hex('ses_'),
    app,
    account,
    key: 'key_1',
    scopes: ['game:read'],
    refreshHash,
    accessToken,
    generation: 0,
    createdAt: at(2),
    expiresAt: at(59),
    revokedAt: null,
  };
}

function accessToken(account: string, sessionRef: { app: string; id: string }): StoredToken {
  const id = hex('tok');
  return {
    id,
    account,
    hash: `th${id}`,
    scopes: ['game:read'],
    label: 'session',
    createdAt: at(3),
    revokedAt: null,
    expiresAt: at(40),
    session: { app: sessionRef.app, key: 'key_1', id: sessionRef.id },
  };
}

export function describeAppContract(storage: () => Storage): void {
  it('creates an app once, reads, lists and saves it', async () => {
    const s = storage();
    const app = newApp();
    expect(await s.apps.createApp(app)).toBe(true);
    expect(await s.apps.createApp({ ...app, name: 'again' })).toBe(false);
    expect(await s.apps.getApp(app.id)).toEqual(app);
    expect((await s.apps.listApps()).map((a) => a.id)).toContain(app.id);
    const renamed = { ...app, name: 'Renamed', disabledAt: at(9) };
    await s.apps.saveApp(renamed);
    expect(await s.apps.getApp(app.id)).toEqual(renamed);
    await expect(s.apps.saveApp(newApp())).rejects.toThrow(/does not exist/);
    expect(await s.apps.getApp(hex('app_'))).toBeUndefined();
  });

  it('keeps keys by hash, lists them oldest first, revokes once and publishes the hash', async () => {
    const s = storage();
    const app = newApp();
    await s.apps.createApp(app);
    const first = newKey(app.id, 'first');
    const second = { ...newKey(app.id, 'second'), createdAt: at(55) };
    await s.apps.addKey(second);
    await s.apps.addKey(first);
    expect(await s.apps.keyByHash(first.hash)).toEqual(first);
    expect(await s.apps.keyByHash('nope')).toBeUndefined();
    expect((await s.apps.listKeys(app.id)).map((k) => k.label)).toEqual(
      first.createdAt < second.createdAt ? ['first', 'second'] : ['second', 'first'],
    );
    expect(await s.apps.getKey(app.id, second.id)).toEqual(second);
    expect(await s.apps.getKey(newApp().id, second.id)).toBeUndefined();
    const heard: string[] = [];
    const stop = await s.events.subscribeRevocations((hash) => heard.push(hash));
    try {
      const revoked = await s.apps.revokeKey(app.id, first.id, at(30));
      expect(revoked?.revokedAt).toBe(at(30));
      // A second revocation keeps the first time and tells no one again.
      expect((await s.apps.revokeKey(app.id, first.id, at(40)))?.revokedAt).toBe(at(30));
      expect(await s.apps.revokeKey(app.id, 'key_none', at(40))).toBeUndefined();
      expect((await s.apps.keyByHash(first.hash))?.revokedAt).toBe(at(30));
      const deadline = Date.now() + 2000;
      while (!heard.includes(first.hash) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      expect(heard.filter((h) => h === first.hash)).toHaveLength(1);
    } finally {
      await stop();
    }
    await s.apps.touchKey(second.hash, at(44));
    expect((await s.apps.keyByHash(second.hash))?.lastUsedAt).toBe(at(44));
  });

  it('tells every node of a token’s revocation (a Cluster listens with sharded pub/sub)', async () => {
    const s = storage();
    const account = appAccount(newApp().id, 'rev');
    await s.accounts.getOrCreateAppAccount(account);
    const token: StoredToken = {
      id: hex('t'),
      account: account.id,
      hash: hex('th'),
      scopes: ['game:read'],
      label: 'x',
      createdAt: at(1),
      revokedAt: null,
    };
    await s.accounts.addToken(token);
    const heard: string[] = [];
    const stop = await s.events.subscribeRevocations((hash) => heard.push(hash));
    try {
      expect((await s.accounts.revokeToken(account.id, token.id, at(2))).status).toBe('revoked');
      const deadline = Date.now() + 2000;
      while (!heard.includes(token.hash) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      expect(heard).toEqual([token.hash]);
    } finally {
      await stop();
    }
  });

  it('gets or creates an app account by external id: once, even when called 20 times at once', async () => {
    const s = storage();
    const app = newApp().id;
    const attempts = Array.from({ length: 20 }, () => appAccount(app, 'ext-1'));
    const results = await Promise.all(attempts.map((a) => s.accounts.getOrCreateAppAccount(a)));
    const created = results.filter((r) => r.status === 'created');
    expect(created).toHaveLength(1);
    const ids = new Set(results.map((r) => (r.status === 'username-taken' ? 'taken' : r.account.id)));
    expect(ids.size).toBe(1);
    const id = [...ids][0] as string;
    expect(await s.accounts.accountByExternalId(app, 'ext-1')).toMatchObject({ id, externalId: 'ext-1' });
    expect(await s.accounts.accountByExternalId(newApp().id, 'ext-1')).toBeUndefined();
    expect((await s.accounts.listAppAccounts(app, undefined, 10)).map((a) => a.id)).toEqual([id]);
  });

  it('keeps usernames unique per app, ignoring case; another app may hold the same one', async () => {
    const s = storage();
    const [a, b] = [newApp().id, newApp().id];
    const ann = appAccount(a, 'e1', 'Ann');
    expect((await s.accounts.getOrCreateAppAccount(ann)).status).toBe('created');
    expect((await s.accounts.getOrCreateAppAccount(appAccount(a, 'e2', 'ANN'))).status).toBe(
      'username-taken',
    );
    expect(await s.accounts.accountByExternalId(a, 'e2')).toBeUndefined();
    expect((await s.accounts.getOrCreateAppAccount(appAccount(b, 'e1', 'ann'))).status).toBe('created');
    expect((await s.accounts.accountByUsername(a, 'aNN'))?.id).toBe(ann.id);
    // Renaming frees the old name and takes the new one; a taken name changes nothing.
    const bob = appAccount(a, 'e3', 'Bob');
    await s.accounts.getOrCreateAppAccount(bob);
    expect(await s.accounts.updateAppAccount({ ...bob, username: 'ann' })).toBe('username-taken');
    expect((await s.accounts.getAccount(bob.id))?.username).toBe('Bob');
    expect(await s.accounts.updateAppAccount({ ...ann, username: 'Anna', displayName: 'A.' })).toBe('saved');
    expect(await s.accounts.accountByUsername(a, 'ann')).toBeUndefined();
    expect(await s.accounts.getAccount(ann.id)).toMatchObject({ username: 'Anna', displayName: 'A.' });
    expect((await s.accounts.getOrCreateAppAccount(appAccount(a, 'e4', 'ann'))).status).toBe('created');
    expect(await s.accounts.updateAppAccount(appAccount(a, 'e9'))).toBe('missing');
  });

  it('pages an app’s accounts by id', async () => {
    const s = storage();
    const app = newApp().id;
    const made = await Promise.all(
      Array.from({ length: 5 }, (_, i) => s.accounts.getOrCreateAppAccount(appAccount(app, `p${i}`))),
    );
    const ids = made.map((r) => (r.status === 'username-taken' ? '' : r.account.id)).sort();
    const first = await s.accounts.listAppAccounts(app, undefined, 3);
    expect(first.map((a) => a.id)).toEqual(ids.slice(0, 3));
    const rest = await s.accounts.listAppAccounts(app, first[2]?.id, 3);
    expect(rest.map((a) => a.id)).toEqual(ids.slice(3));
  });

  it('sessions: create with the access token, find by refresh hash, rotate once, revoke', async () => {
    const s = storage();
    const app = newApp().id;
    const created = await s.accounts.getOrCreateAppAccount(appAccount(app, 'sess'));
    if (created.status === 'username-taken') throw new Error('taken');
    const account = created.account.id;
    const draft = session(account, app, hex('r'), '');
    const token = accessToken(account, draft);
    const first = { ...draft, accessToken: token.id };
    await s.apps.createSession(first, token);
    expect(await s.apps.getSession(app, first.id)).toEqual(first);
    expect(await s.apps.getSession(newApp().id, first.id)).toBeUndefined();
    expect(await s.accounts.tokenByHash(token.hash)).toMatchObject({
      id: token.id,
      session: { id: first.id },
    });
    expect(await s.apps.sessionByRefreshHash(first.refreshHash)).toEqual({ session: first, current: true });
    expect(await s.apps.sessionByRefreshHash('unknown')).toBeUndefined();

    const heard: string[] = [];
    const stop = await s.events.subscribeRevocations((hash) => heard.push(hash));
    try {
      const nextToken = accessToken(account, first);
      const next = { ...first, refreshHash: hex('r'), accessToken: nextToken.id, generation: 1 };
      const rivalToken = accessToken(account, first);
      const rival = { ...first, refreshHash: hex('r'), accessToken: rivalToken.id, generation: 1 };
      const rotations = await Promise.all([
        s.apps.rotateSession(next, first.refreshHash, nextToken),
        s.apps.rotateSession(rival, first.refreshHash, rivalToken),
      ]);
      expect(rotations.filter(Boolean)).toHaveLength(1);
      const now = await s.apps.getSession(app, first.id);
      expect(now?.generation).toBe(1);
      expect(await s.apps.sessionByRefreshHash(first.refreshHash)).toMatchObject({ current: false });
      expect((await s.accounts.tokenByHash(token.hash))?.revokedAt).not.toBeNull();
      const deadline = Date.now() + 2000;
      while (!heard.includes(token.hash) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      expect(heard).toContain(token.hash);

      const current = now as StoredSession;
      const currentToken = await s.accounts.listTokens(account);
      const live = currentToken.find((t) => t.id === current.accessToken);
      expect(live?.revokedAt).toBeNull();
      const revoked = await s.apps.revokeSession(app, first.id, at(50));
      expect(revoked?.revokedAt).toBe(at(50));
      expect((await s.apps.revokeSession(app, first.id, at(51)))?.revokedAt).toBe(at(50));
      expect((await s.accounts.tokenByHash(live?.hash ?? ''))?.revokedAt).toBe(at(50));
      expect(
        await s.apps.rotateSession(
          { ...current, refreshHash: hex('r') },
          current.refreshHash,
          accessToken(account, first),
        ),
      ).toBe(false);
      expect((await s.apps.listSessions(account)).map((x) => x.id)).toEqual([first.id]);
    } finally {
      await stop();
    }
  });
}
