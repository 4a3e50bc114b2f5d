// The blocks port's contract (run by store-contract.ts on memory, Redis and Redis Cluster), with
// what seeks do with blocks (matchOrAdd's `avoid`).
import type { Storage, StoredSeek } from '../../src/store/store';

let n = 0;
const id = (label: string) => `${label}${++n}x${Math.random().toString(36).slice(2, 8)}`;

export function describeBlockContract(storage: () => Storage): void {
  it('blocks once, bounded, lists by id a page at a time, unblocks; the reverse index follows', async () => {
    const s = storage();
    const [me, x, y, z] = [id('me'), id('x'), id('y'), id('z')];
    const at = '2026-01-02T03:04:05.000Z';
    expect(await s.blocks.isBlocked(me, x)).toBe(false);
    expect(await s.blocks.block(me, y, at, 2)).toBe('blocked');
    expect(await s.blocks.block(me, y, at, 2)).toBe('exists');
    expect(await s.blocks.block(me, x, at, 2)).toBe('blocked');
    expect(await s.blocks.block(me, z, at, 2)).toBe('full');
    expect(await s.blocks.isBlocked(me, z)).toBe(false);
    expect(await s.blocks.isBlocked(me, x)).toBe(true);
    // One way only.
    expect(await s.blocks.isBlocked(x, me)).toBe(false);
    expect(await s.blocks.blockersOf(x)).toEqual([me]);
    expect(await s.blocks.blockersOf(me)).toEqual([]);

    const first = await s.blocks.listBlocks(me, 1);
    expect(first).toEqual({ items: [{ account: x, createdAt: at }], next: x });
    expect(await s.blocks.listBlocks(me, 1, first.next ?? undefined)).toEqual({
      items: [{ account: y, createdAt: at }],
      next: null,
    });
    expect((await s.blocks.listBlocks(me, 5)).items.map((b) => b.account)).toEqual([x, y]);

    expect(await s.blocks.unblock(me, x)).toBe(true);
    expect(await s.blocks.unblock(me, x)).toBe(false);
    expect(await s.blocks.isBlocked(me, x)).toBe(false);
    expect(await s.blocks.blockersOf(x)).toEqual([]);
    expect(await s.blocks.block(me, z, at, 2)).toBe('blocked');
    expect((await s.blocks.listBlocks(me, 5)).items.map((b) => b.account)).toEqual([y, z]);
    expect(await s.blocks.listBlocks(id('nobody'), 5)).toEqual({ items: [], next: null });
  });

  it('seeks pass over the accounts they avoid, which keep waiting', async () => {
    const s = storage();
    const pool = `${id('pool')} kalah{seeds:4}`;
    const now = new Date().toISOString();
    const seek = (account: string): StoredSeek => ({
      id: id('seek'),
      account,
      kind: 'kalah',
      options: { seeds: 4 },
      timeControl: { type: 'unlimited' },
      pool,
      createdAt: now,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const [a, b, c] = [id('a'), id('b'), id('c')];
    const fromA = seek(a);
    expect(await s.seeks.matchOrAdd(fromA, now)).toBeUndefined();
    const fromB = seek(b);
    expect(await s.seeks.matchOrAdd(fromB, now, [a])).toBeUndefined();
    expect(await s.seeks.getSeek(fromA.id)).toEqual(fromA);
    expect(await s.seeks.matchOrAdd(seek(c), now, [b])).toEqual(fromA);
    expect(await s.seeks.matchOrAdd(seek(a), now)).toEqual(fromB);
  });
}
