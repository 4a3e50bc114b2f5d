// The lobby part of the seeks port (run by store-contract.ts on memory, Redis and Redis Cluster):
// waiting seeks listed per lobby a page at a time, the change signal, rating ranges in matching,
// and one removal however many callers race.
import { randomBytes } from 'node:crypto';
import type { LobbyChange, Storage, StoredSeek } from '../../src/store/store';

let n = 0;
const uid = (label: string) => `${label}${++n}x${Math.random().toString(36).slice(2, 8)}`;
const iso = (ms: number) => new Date(ms).toISOString();

/** A seek of `lobby` with a real seek id (12 characters), created at `at` and waiting ten minutes. */
function seekOf(
  account: string,
  pool: string,
  lobby: string,
  at: number,
  overrides: Partial<StoredSeek> = {},
): StoredSeek {
  return {
    id: randomBytes(9).toString('base64url'),
    account,
    kind: 'kalah',
    options: { seeds: 4 },
    timeControl: { type: 'unlimited' },
    pool,
    lobby,
    rating: 1500,
    createdAt: iso(at),
    expiresAt: iso(at + 10 * 60_000),
    ...overrides,
  };
}

/** Collects a lobby's changes; `until` waits for the count. */
async function watch(s: Storage, lobby: string) {
  const changes: LobbyChange[] = [];
  const stop = await s.seeks.watchLobby(lobby, (change) => changes.push(change));
  return {
    changes,
    stop,
    async until(count: number): Promise<LobbyChange[]> {
      for (let i = 0; i < 200 && changes.length < count; i++) await new Promise((r) => setTimeout(r, 10));
      return changes;
    },
  };
}

export function describeLobbyContract(storage: () => Storage): void {
  describe('lobby', () => {
    it('lists a lobby’s waiting seeks oldest first, a page at a time, filtered; other lobbies apart', async () => {
      const s = storage();
      const [lobby, other] = [uid('lobby'), uid('app_')];
      const t = Date.now();
      // Two in the same millisecond: their ids order them.
      const seeks = [
        seekOf(uid('a'), uid('pool'), lobby, t),
        seekOf(uid('b'), uid('pool'), lobby, t + 1),
        seekOf(uid('c'), uid('pool'), lobby, t + 1),
        seekOf(uid('d'), uid('pool'), lobby, t + 2, { kind: 'oware' }),
      ];
      const elsewhere = seekOf(uid('e'), uid('pool'), other, t);
      for (const seek of [...seeks].reverse()) expect(await s.seeks.matchOrAdd(seek, iso(t))).toBeUndefined();
      await s.seeks.matchOrAdd(elsewhere, iso(t));
      const ordered = [...seeks].sort((x, y) =>
        x.createdAt === y.createdAt ? (x.id < y.id ? -1 : 1) : x.createdAt < y.createdAt ? -1 : 1,
      );
      const now = iso(t + 3);
      const whole = await s.seeks.listSeeks(lobby, { now, limit: 10 });
      expect(whole).toEqual({ items: ordered });
      const pages: StoredSeek[] = [];
      let page = await s.seeks.listSeeks(lobby, { now, limit: 1 });
      for (;;) {
        pages.push(...page.items);
        if (!page.next) break;
        expect(page.next).toEqual({ createdAt: page.items[0]!.createdAt, id: page.items[0]!.id });
        page = await s.seeks.listSeeks(lobby, { now, limit: 1, after: page.next });
      }
      expect(pages).toEqual(ordered);
      const kalah = await s.seeks.listSeeks(lobby, { now, limit: 2, where: (x) => x.kind === 'kalah' });
      expect(kalah.items).toEqual(ordered.filter((x) => x.kind === 'kalah').slice(0, 2));
      expect(kalah.next).toBeDefined();
      const rest = await s.seeks.listSeeks(lobby, {
        now,
        limit: 2,
        after: kalah.next!,
        where: (x) => x.kind === 'kalah',
      });
      expect(rest).toEqual({ items: ordered.filter((x) => x.kind === 'kalah').slice(2) });
      expect(await s.seeks.listSeeks(other, { now, limit: 10 })).toEqual({ items: [elsewhere] });
      expect(await s.seeks.listSeeks(uid('empty'), { now, limit: 10 })).toEqual({ items: [] });
    });

    it('pages through many seeks of one millisecond, and finds the few a filter keeps far down', async () => {
      const s = storage();
      const lobby = uid('lobby');
      const [account, pool] = [uid('a'), uid('pool')];
      const t = Date.now();
      // One account's seeks never pair with each other: 130 waiting seeks posted in one millisecond.
      const seeks = Array.from({ length: 130 }, () => seekOf(account, pool, lobby, t));
      for (const seek of seeks) await s.seeks.matchOrAdd(seek, iso(t));
      const ordered = [...seeks].sort((x, y) => (x.id < y.id ? -1 : 1));
      const now = iso(t + 1);
      const seen: StoredSeek[] = [];
      let page = await s.seeks.listSeeks(lobby, { now, limit: 40 });
      seen.push(...page.items);
      while (page.next) {
        page = await s.seeks.listSeeks(lobby, { now, limit: 40, after: page.next });
        seen.push(...page.items);
      }
      expect(seen.map((x) => x.id)).toEqual(ordered.map((x) => x.id));
      const last = new Set(ordered.slice(-3).map((x) => x.id));
      const few = await s.seeks.listSeeks(lobby, { now, limit: 2, where: (x) => last.has(x.id) });
      expect(few.items.map((x) => x.id)).toEqual(ordered.slice(-3, -1).map((x) => x.id));
      const rest = await s.seeks.listSeeks(lobby, {
        now,
        limit: 2,
        after: few.next!,
        where: (x) => last.has(x.id),
      });
      expect(rest).toEqual({ items: ordered.slice(-1) });
    });

    it('leaves out matched, removed and expired seeks', async () => {
      const s = storage();
      const lobby = uid('lobby');
      const t = Date.now();
      const pool = uid('pool');
      const short = seekOf(uid('a'), uid('pool'), lobby, t, { expiresAt: iso(t + 1000) });
      const matched = seekOf(uid('b'), pool, lobby, t + 1);
      const removed = seekOf(uid('c'), uid('pool'), lobby, t + 2);
      const stays = seekOf(uid('d'), uid('pool'), lobby, t + 3);
      for (const seek of [short, matched, removed, stays]) await s.seeks.matchOrAdd(seek, iso(t));
      expect(await s.seeks.matchOrAdd(seekOf(uid('e'), pool, lobby, t + 4), iso(t + 4))).toEqual(matched);
      expect(await s.seeks.removeSeek(removed.id)).toBe(true);
      expect((await s.seeks.listSeeks(lobby, { now: iso(t + 5), limit: 10 })).items).toEqual([short, stays]);
      expect((await s.seeks.listSeeks(lobby, { now: short.expiresAt, limit: 10 })).items).toEqual([stays]);
    });

    it('tells the lobby’s watchers of each seek added and removed (matched, canceled), and no other lobby', async () => {
      const s = storage();
      const [lobby, other] = [uid('lobby'), uid('lobby')];
      const mine = await watch(s, lobby);
      const theirs = await watch(s, other);
      try {
        const t = Date.now();
        const pool = uid('pool');
        const a = seekOf(uid('a'), pool, lobby, t);
        const b = seekOf(uid('b'), uid('pool'), lobby, t);
        await s.seeks.matchOrAdd(a, iso(t));
        await s.seeks.matchOrAdd(b, iso(t));
        await s.seeks.removeSeek(b.id);
        expect(await s.seeks.removeSeek(b.id)).toBe(false);
        await s.seeks.matchOrAdd(seekOf(uid('c'), pool, lobby, t), iso(t));
        await s.seeks.removeSeek(a.id, 'matched');
        expect(await mine.until(4)).toEqual([
          { type: 'added', seek: a },
          { type: 'added', seek: b },
          { type: 'removed', id: b.id, reason: 'canceled' },
          { type: 'removed', id: a.id, reason: 'matched' },
        ]);
        expect(theirs.changes).toEqual([]);
      } finally {
        await mine.stop();
        await theirs.stop();
      }
    });

    it('matches only seeks whose ranges admit each other’s seeker', async () => {
      const s = storage();
      const lobby = uid('lobby');
      const pool = uid('pool');
      const t = Date.now();
      const now = iso(t);
      // Waits: admits 1400–1600, rated 1500.
      const a = seekOf(uid('a'), pool, lobby, t, { ratingRange: { min: 1400, max: 1600 } });
      expect(await s.seeks.matchOrAdd(a, now)).toBeUndefined();
      // Rated 1700: outside a's range. Waits.
      const b = seekOf(uid('b'), pool, lobby, t, { rating: 1700 });
      expect(await s.seeks.matchOrAdd(b, now)).toBeUndefined();
      // Rated 1550, admitting at most 1499: a (1500) is outside its range; b (1700) too. Waits.
      const c = seekOf(uid('c'), pool, lobby, t, { rating: 1550, ratingRange: { max: 1499 } });
      expect(await s.seeks.matchOrAdd(c, now)).toBeUndefined();
      // Rated 1450, admitting at least 1500: a admits it and it admits a (the oldest).
      const d = seekOf(uid('d'), pool, lobby, t, { rating: 1450, ratingRange: { min: 1500 } });
      expect(await s.seeks.matchOrAdd(d, now)).toEqual(a);
      // No rating to hold (a seek from before ranges) is admitted only where there is no range.
      const { rating: _none, ...unrated } = seekOf(uid('e'), pool, lobby, t);
      expect(await s.seeks.matchOrAdd(unrated, now)).toEqual(b);
      const left = (await s.seeks.listSeeks(lobby, { now, limit: 10 })).items;
      expect(left).toEqual([c]);
    });

    it('removes a seek once however many callers race', async () => {
      const s = storage();
      const lobby = uid('lobby');
      const seek = seekOf(uid('a'), uid('pool'), lobby, Date.now());
      await s.seeks.matchOrAdd(seek, seek.createdAt);
      const watcher = await watch(s, lobby);
      try {
        const results = await Promise.all(
          Array.from({ length: 8 }, () => s.seeks.removeSeek(seek.id, 'matched')),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await watcher.until(1)).toEqual([{ type: 'removed', id: seek.id, reason: 'matched' }]);
        await new Promise((r) => setTimeout(r, 50));
        expect(watcher.changes).toHaveLength(1);
      } finally {
        await watcher.stop();
      }
    });
  });
}
