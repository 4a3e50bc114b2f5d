// The store side of erasing an account (service/apps/erase.ts), run by store-contract.ts on memory,
// Redis and Redis Cluster: tombstones, the held username, and what each port forgets.
import { ERASED_NAME_HOLD_SECONDS, type Storage, type StoredAccount } from '../../src/store/store';
import { ratingResult } from './ratings-contract';
import { notice, sampleToken, uid } from './store-contract';

function appAccount(app: string, externalId: string, username: string): StoredAccount {
  return {
    id: `${app}.${uid('a')}`,
    username,
    kind: 'human',
    bot: null,
    createdAt: new Date().toISOString(),
    app,
    externalId,
    displayName: 'Ann',
    metadata: { tier: 'gold' },
  };
}

export function describeErasureContract(storage: () => Storage): void {
  it('erases an app account: document, tokens and indexes gone, a tombstone kept, the username held in its app', async () => {
    const s = storage();
    const app = uid('app_');
    const name = uid('Erin');
    const created = await s.accounts.getOrCreateAppAccount(appAccount(app, 'e-1', name));
    if (created.status === 'username-taken') throw new Error('taken');
    const account = created.account;
    const token = sampleToken(account.id, 1);
    await s.accounts.addToken(token);
    const [first, second] = [await s.accounts.nextTombstone(), await s.accounts.nextTombstone()];
    expect(second).toBeGreaterThan(first);
    const tombstone = { id: account.id, app, name: `deleted-${second}`, erasedAt: new Date().toISOString() };

    await s.accounts.eraseAccount(account, tombstone, ERASED_NAME_HOLD_SECONDS);
    expect(await s.accounts.getAccount(account.id)).toBeUndefined();
    expect(await s.accounts.tokenByHash(token.hash)).toBeUndefined();
    expect(await s.accounts.listTokens(account.id)).toEqual([]);
    expect(await s.accounts.accountByExternalId(app, 'e-1')).toBeUndefined();
    expect(await s.accounts.accountByUsername(app, name)).toBeUndefined();
    expect((await s.accounts.listAppAccounts(app, undefined, 10)).map((a) => a.id)).toEqual([]);
    expect(await s.accounts.tombstoneOf(account.id)).toEqual(tombstone);

    // Held in its app, in any case; free in another app; the external id itself is free again.
    const again = await s.accounts.getOrCreateAppAccount(appAccount(app, 'e-2', name.toUpperCase()));
    expect(again.status).toBe('username-taken');
    const other = await s.accounts.getOrCreateAppAccount(appAccount(uid('app_'), 'e-1', name));
    expect(other.status).toBe('created');
    const fresh = await s.accounts.getOrCreateAppAccount(appAccount(app, 'e-1', uid('Fay')));
    expect(fresh.status).toBe('created');
    if (fresh.status !== 'created') return;
    expect(await s.accounts.updateAppAccount({ ...fresh.account, username: name })).toBe('username-taken');
  });

  it('a held username is free again after its hold', async () => {
    const s = storage();
    const app = uid('app_');
    const name = uid('Gus');
    const created = await s.accounts.getOrCreateAppAccount(appAccount(app, 'g-1', name));
    if (created.status === 'username-taken') throw new Error('taken');
    const tombstone = { id: created.account.id, app, name: 'deleted-0', erasedAt: new Date().toISOString() };
    await s.accounts.eraseAccount(created.account, tombstone, 1);
    expect((await s.accounts.getOrCreateAppAccount(appAccount(app, 'g-2', name))).status).toBe(
      'username-taken',
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await s.accounts.getOrCreateAppAccount(appAccount(app, 'g-3', name))).status).toBe('created');
  });

  it('forgets an account’s feed and sessions', async () => {
    const s = storage();
    const account = uid('acc');
    await s.feed.append([notice([account]), notice([account])]);
    expect((await s.feed.read(account, 0, 10)).events).toHaveLength(2);
    await s.feed.erase(account);
    expect((await s.feed.read(account, 0, 10)).events).toEqual([]);
    await s.apps.deleteSessions(account);
    expect(await s.apps.listSessions(account)).toEqual([]);
  });

  it('writes a tombstone name in the account’s leaderboard entries, its rating unchanged', async () => {
    const s = storage();
    const perf = `${uid('kind')}.realtime`;
    const [erin, other] = [uid('erin'), uid('other')];
    for (const account of [erin, other]) {
      for (let i = 0; i < 16; i++) await s.ratings.record(ratingResult(account, { perf, score: i % 2 }));
    }
    const before = await s.ratings.leaderboard(perf, 'human', 10);
    expect(before.items.map((e) => e.name).sort()).toEqual([erin.toUpperCase(), other.toUpperCase()].sort());
    const ratings = await s.ratings.get(erin);
    await s.ratings.renameAccount(erin, 'deleted-7');
    const after = await s.ratings.leaderboard(perf, 'human', 10);
    expect(after.items).toEqual(
      before.items.map((e) => (e.account === erin ? { ...e, name: 'deleted-7' } : e)),
    );
    expect(await s.ratings.get(erin)).toEqual(ratings);
    await s.ratings.renameAccount(uid('nobody'), 'deleted-8');
  });
}
