import type { BulkPage, BulkRefusal, BulkStore, StoredBulk } from '../store';

// Bulk pairings in this process: the documents, and the due ones by time (see ports/bulks.ts).

export class MemoryBulkStore implements BulkStore {
  private readonly bulks = new Map<string, StoredBulk>();
  /** Bulk id → when it is due (ms): a lease's end, its startAt, or now for places to release. */
  private readonly due = new Map<string, number>();

  async begin(bulk: StoredBulk, leaseUntil: number): Promise<void> {
    if (this.bulks.has(bulk.id)) throw new Error(`bulk ${bulk.id} exists`);
    this.bulks.set(bulk.id, { ...bulk, state: 'reserving' });
    this.due.set(bulk.id, leaseUntil);
  }

  async commit(id: string, now: number, leaseUntil: number): Promise<StoredBulk | undefined> {
    const bulk = this.bulks.get(id);
    if (bulk?.state !== 'reserving') return undefined;
    const startAt = Date.parse(bulk.startAt);
    const next = this.put({ ...bulk, state: startAt <= now ? 'creating' : 'scheduled' }, now);
    this.due.set(id, startAt <= now ? leaseUntil : startAt);
    return next;
  }

  async refuse(id: string, refusal: BulkRefusal, now: number): Promise<boolean> {
    const bulk = this.bulks.get(id);
    if (bulk?.state !== 'reserving') return false;
    this.put({ ...bulk, state: 'refused', refusal }, now);
    this.due.set(id, now);
    return true;
  }

  async cancel(id: string, now: number): Promise<StoredBulk | undefined> {
    const bulk = this.bulks.get(id);
    if (bulk?.state !== 'scheduled') return undefined;
    this.due.set(id, now);
    return this.put({ ...bulk, state: 'canceled' }, now);
  }

  async finish(id: string, now: number): Promise<void> {
    const bulk = this.bulks.get(id);
    if (bulk?.state !== 'creating') return;
    this.put({ ...bulk, state: 'created' }, now);
    this.due.delete(id);
  }

  async settle(id: string): Promise<void> {
    const state = this.bulks.get(id)?.state;
    if (state === 'refused' || state === 'canceled') this.due.delete(id);
  }

  async claimDue(now: number, leaseUntil: number, limit: number): Promise<StoredBulk[]> {
    const ids = [...this.due]
      .filter(([, at]) => at <= now)
      .sort((a, b) => a[1] - b[1])
      .slice(0, limit)
      .map(([id]) => id);
    return ids.map((id) => {
      const bulk = this.bulks.get(id) as StoredBulk;
      this.due.set(id, leaseUntil);
      return bulk.state === 'scheduled' ? this.put({ ...bulk, state: 'creating' }, now) : bulk;
    });
  }

  async get(id: string): Promise<StoredBulk | undefined> {
    return this.bulks.get(id);
  }

  async list(creator: string, limit: number, before?: number): Promise<BulkPage> {
    const mine = [...this.bulks.values()]
      .filter((b) => b.creator === creator && (before === undefined || Date.parse(b.createdAt) < before))
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : -1));
    const items = mine.slice(0, limit);
    const last = items[items.length - 1];
    return { items, next: mine.length > limit && last ? Date.parse(last.createdAt) : null };
  }

  private put(bulk: StoredBulk, now: number): StoredBulk {
    const next = { ...bulk, updatedAt: new Date(now).toISOString() };
    this.bulks.set(bulk.id, next);
    return next;
  }
}
