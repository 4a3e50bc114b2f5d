// The bulk pairings' store contract (ports/bulks.ts), run by describeStoreContract on memory, Redis
// and Redis Cluster: the state machine, leases of due bulks, and reservations in the ongoing sets.
import type { Storage, StoredBulk } from '../../src/store/store';

let made = 0;

function sampleBulk(creator: string, overrides: Partial<StoredBulk> = {}): StoredBulk {
  made++;
  const id = `bulk${String(made).padStart(4, '0')}${Math.random().toString(36).slice(2, 6)}`.slice(0, 12);
  const at = new Date().toISOString();
  return {
    id,
    creator,
    kind: 'kalah',
    options: { seeds: 4 },
    timeControl: { type: 'unlimited' },
    rated: false,
    first: 0,
    pairs: [
      { accounts: [`${id}a`, `${id}b`], game: `${id}g0` },
      { accounts: [`${id}c`, `${id}d`], game: `${id}g1` },
    ],
    startAt: at,
    createdAt: at,
    updatedAt: at,
    state: 'reserving',
    ...overrides,
  };
}

export function describeBulkContract(storage: () => Storage): void {
  describe('bulk pairings', () => {
    const claim = async (now: number, ids: readonly string[]) =>
      (await storage().bulks.claimDue(now, now + 1000, 1000)).filter((b) => ids.includes(b.id));

    it('begins reserving, commits to creating when startAt has come, finishes created, then is no longer due', async () => {
      const bulks = storage().bulks;
      const bulk = sampleBulk('org1');
      const now = Date.now();
      await bulks.begin(bulk, now + 60_000);
      await expect(bulks.begin(bulk, now + 60_000)).rejects.toThrow();
      expect(await bulks.get(bulk.id)).toEqual(bulk);
      const committed = await bulks.commit(bulk.id, now, now + 60_000);
      expect(committed).toMatchObject({
        id: bulk.id,
        state: 'creating',
        pairs: bulk.pairs,
        options: { seeds: 4 },
      });
      expect(await bulks.commit(bulk.id, now, now + 60_000)).toBeUndefined();
      expect(await bulks.refuse(bulk.id, { code: 'X', message: 'x', details: {} }, now)).toBe(false);
      await bulks.finish(bulk.id, now);
      expect((await bulks.get(bulk.id))?.state).toBe('created');
      expect(await claim(now + 120_000, [bulk.id])).toEqual([]);
    });

    it('a scheduled bulk is due at startAt (claimed: creating, leased), cancelable only before', async () => {
      const bulks = storage().bulks;
      const now = Date.now();
      const later = sampleBulk('org2', { startAt: new Date(now + 5000).toISOString() });
      const other = sampleBulk('org2', { startAt: new Date(now + 50_000).toISOString() });
      for (const b of [later, other]) {
        await bulks.begin(b, now + 1000);
        expect((await bulks.commit(b.id, now, now + 1000))?.state).toBe('scheduled');
      }
      expect(await claim(now + 4000, [later.id, other.id])).toEqual([]);
      const claimed = await claim(now + 5000, [later.id]);
      expect(claimed.map((b) => [b.id, b.state])).toEqual([[later.id, 'creating']]);
      // Leased: not claimed again before the lease ends (now + 5000 + 1000).
      expect(await claim(now + 5500, [later.id])).toEqual([]);
      expect((await claim(now + 6000, [later.id])).map((b) => b.state)).toEqual(['creating']);
      expect(await bulks.cancel(later.id, now)).toBeUndefined();
      const canceled = await bulks.cancel(other.id, now);
      expect(canceled?.state).toBe('canceled');
      // A canceled bulk stays due until its places are released (settle).
      expect((await claim(now + 100_000, [other.id])).map((b) => b.state)).toEqual(['canceled']);
      await bulks.settle(other.id);
      expect(await claim(now + 200_000, [other.id])).toEqual([]);
      await bulks.finish(later.id, now);
    });

    it('a reserving bulk whose lease ran out is claimed; refused, it keeps its refusal', async () => {
      const bulks = storage().bulks;
      const now = Date.now();
      const bulk = sampleBulk('org3');
      await bulks.begin(bulk, now + 100);
      expect(await claim(now + 50, [bulk.id])).toEqual([]);
      expect((await claim(now + 100, [bulk.id])).map((b) => b.state)).toEqual(['reserving']);
      const refusal = { code: 'TOO_MANY_GAMES', message: 'full', details: { index: 1 } };
      expect(await bulks.refuse(bulk.id, refusal, now)).toBe(true);
      expect(await bulks.commit(bulk.id, now, now)).toBeUndefined();
      expect(await bulks.get(bulk.id)).toMatchObject({ state: 'refused', refusal });
      await bulks.settle(bulk.id);
      expect(await claim(now + 100_000, [bulk.id])).toEqual([]);
    });

    it("lists a creator's bulks newest first, in pages", async () => {
      const bulks = storage().bulks;
      const base = Date.now();
      const mine = [0, 1, 2].map((i) =>
        sampleBulk('org4', { createdAt: new Date(base + i * 10).toISOString() }),
      );
      for (const b of mine) await bulks.begin(b, base + 60_000);
      await bulks.begin(sampleBulk('org5'), base + 60_000);
      const first = await bulks.list('org4', 2);
      expect(first.items.map((b) => b.id)).toEqual([mine[2]?.id, mine[1]?.id]);
      expect(first.next).not.toBeNull();
      const second = await bulks.list('org4', 2, first.next ?? undefined);
      expect(second).toEqual({ items: [expect.objectContaining({ id: mine[0]?.id })], next: null });
    });

    it('reserves a game among its accounts’ ongoing games within their caps; release gives the places back', async () => {
      const games = storage().games;
      const tag = Math.random().toString(36).slice(2, 8);
      const [a, b] = [`ra${tag}`, `rb${tag}`];
      expect(
        await games.reserve(`g1${tag}`, [
          { account: a, max: 1 },
          { account: b, max: 2 },
        ]),
      ).toEqual({
        status: 'created',
      });
      // Again for the same game: no change.
      expect(await games.reserve(`g1${tag}`, [{ account: a, max: 1 }])).toEqual({ status: 'created' });
      expect(
        await games.reserve(`g2${tag}`, [
          { account: b, max: 2 },
          { account: a, max: 1 },
        ]),
      ).toEqual({
        status: 'too-many-games',
        account: a,
      });
      // The refused reservation took nothing (b's place released).
      expect([await games.countOngoing(a), await games.countOngoing(b)]).toEqual([1, 1]);
      await games.release(`g1${tag}`, [a, b]);
      expect([await games.countOngoing(a), await games.countOngoing(b)]).toEqual([0, 0]);
    });
  });
}
