// App feeds in the store contract (memory, Redis, the test Cluster): every event appended to an app
// account's feed reaches its app's feed exactly once, in the account's order, naming the account;
// open accounts' events reach no app feed; another app's feed never holds them.
import { randomBytes } from 'node:crypto';
import { appFeedOwner, type FeedEvent, type Notice, type Storage } from '../../src/store/store';

async function readAll(storage: Storage, owner: string): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  let after = 0;
  for (;;) {
    const page = await storage.feed.read(owner, after, 500);
    events.push(...page.events);
    if (page.events.length < 500) return events;
    after = page.events[page.events.length - 1]!.seq;
  }
}

export function describeAppFeedContract(storage: () => Storage): void {
  describe('app feeds', () => {
    const app = `app_${randomBytes(8).toString('hex')}`;
    const other = `app_${randomBytes(8).toString('hex')}`;
    // Accounts of one app spread over shards (their ids hash apart).
    const accounts = Array.from({ length: 12 }, () => `${app}.${randomBytes(8).toString('hex')}`);
    const theirs = `${other}.${randomBytes(8).toString('hex')}`;
    const open = `open${randomBytes(4).toString('hex')}`;
    const at = new Date().toISOString();
    const notice = (to: string[], n: number): Notice => ({ to, type: 'challenge.received', at, data: { n } });

    it('holds every event of its accounts once, in each account’s order, naming the account', async () => {
      const s = storage();
      for (let n = 1; n <= 5; n++) {
        // One event per account, and one notice addressed to several feeds at once.
        await s.feed.append([
          ...accounts.map((a) => notice([a], n)),
          notice([accounts[0]!, theirs, open], 100 + n),
        ]);
      }
      await s.feed.forwardApps();
      const events = await readAll(s, appFeedOwner(app));
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      const per = new Map<string, number[]>();
      for (const e of events) per.set(e.account!, [...(per.get(e.account!) ?? []), e.data.n as number]);
      expect([...per.keys()].sort()).toEqual([...accounts].sort());
      expect(per.get(accounts[0]!)).toEqual([1, 101, 2, 102, 3, 103, 4, 104, 5, 105]);
      for (const a of accounts.slice(1)) expect(per.get(a)).toEqual([1, 2, 3, 4, 5]);
      // The other app's feed: its account's events only; the open account's own feed names none.
      const theirFeed = await readAll(s, appFeedOwner(other));
      expect(theirFeed.map((e) => [e.account, e.data.n])).toEqual(
        [101, 102, 103, 104, 105].map((n) => [theirs, n]),
      );
      const openFeed = await readAll(s, open);
      expect(openFeed).toHaveLength(5);
      expect(openFeed.every((e) => e.account === undefined)).toBe(true);
      // The account's own feed is unchanged (no `account` field there).
      const own = await readAll(s, accounts[1]!);
      expect(own.map((e) => [e.seq, e.account, e.data.n])).toEqual(
        [1, 2, 3, 4, 5].map((n) => [n, undefined, n]),
      );

      // Forwarding again adds nothing.
      await s.feed.forwardApps();
      expect(await readAll(s, appFeedOwner(app))).toHaveLength(events.length);
    });

    it('follows the app feed live', async () => {
      const s = storage();
      const seen: FeedEvent[] = [];
      // Only this test's event (live messages of earlier appends may still be on their way).
      const stop = await s.feed.subscribe(appFeedOwner(app), (e) => {
        if (e.data.n === 7) seen.push(e);
      });
      try {
        await s.feed.append([notice([accounts[2]!], 7)]);
        await s.feed.forwardApps();
        const until = Date.now() + 5000;
        while (seen.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
        expect(seen).toHaveLength(1);
        expect(seen[0]).toMatchObject({ account: accounts[2], type: 'challenge.received', data: { n: 7 } });
      } finally {
        await stop();
      }
    });
  });
}
