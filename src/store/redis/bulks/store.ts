import type Redis from 'ioredis';
import type { BulkPage, BulkRefusal, BulkState, BulkStore, StoredBulk } from '../../store';
import { beginBulk, claimBulks, moveBulk } from './scripts';
import { dueShards, Keys, shardOf } from '../keys';

// Bulk pairings (docs/data-model.md, "Bulk pairings"): a bulk's hash and its shard's due set change
// together in one script (scripts.ts); its creator's list is written beside the creator.

type Fields = [doc: string, state: string, updatedAt: string, refusal: string | false | null];

const iso = (ms: number) => new Date(ms).toISOString();

export class RedisBulkStore implements BulkStore {
  private readonly keys: Keys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = new Keys(prefix);
  }

  async begin(bulk: StoredBulk, leaseUntil: number): Promise<void> {
    const { state: _state, updatedAt, refusal: _refusal, ...doc } = bulk;
    // Listed first: a list entry whose bulk was never written is skipped by list().
    await this.redis.zadd(this.keys.bulksOf(bulk.creator), Date.parse(bulk.createdAt), bulk.id);
    const begun = await beginBulk.run(this.redis, this.at(bulk.id), {
      id: bulk.id,
      doc: JSON.stringify(doc),
      updatedAt,
      startAt: Date.parse(bulk.startAt),
      leaseEnd: leaseUntil,
    });
    if (begun !== 1) throw new Error(`bulk ${bulk.id} exists`);
  }

  async commit(id: string, now: number, leaseUntil: number): Promise<StoredBulk | undefined> {
    return this.move(id, ['reserving'], 'commit', now, String(leaseUntil));
  }

  async refuse(id: string, refusal: BulkRefusal, now: number): Promise<boolean> {
    return (await this.move(id, ['reserving'], 'refused', now, String(now), refusal)) !== undefined;
  }

  async cancel(id: string, now: number): Promise<StoredBulk | undefined> {
    return this.move(id, ['scheduled'], 'canceled', now, String(now));
  }

  async finish(id: string, now: number): Promise<void> {
    await this.move(id, ['creating'], 'created', now, '');
  }

  async settle(id: string): Promise<void> {
    const bulk = await this.get(id);
    if (bulk) await this.move(id, ['refused', 'canceled'], bulk.state, Date.parse(bulk.updatedAt), '');
  }

  async claimDue(now: number, leaseUntil: number, limit: number): Promise<StoredBulk[]> {
    const found: StoredBulk[] = [];
    // One claiming script per shard with something due (dueShards reads each shard's earliest first).
    const due = await dueShards(this.redis, (shard) => this.keys.bulksDue(shard), now);
    const claims = await Promise.all(
      due.map((shard) =>
        claimBulks.run(
          this.redis,
          { due: this.keys.bulksDue(shard) },
          {
            bulkKeyPrefix: this.keys.bulkKeyPrefix(shard),
            now,
            leaseEnd: leaseUntil,
            limit,
            updatedAt: iso(now),
          },
        ),
      ),
    );
    // Every bulk claimed is answered (dropping one would leave it leased, untouched, until its lease ends).
    for (const claimed of claims) for (const fields of claimed) found.push(bulkOf(fields));
    return found;
  }

  async get(id: string): Promise<StoredBulk | undefined> {
    const fields = await this.redis.hmget(this.keys.bulk(id), 'doc', 'state', 'updatedAt', 'refusal');
    return fields[0] ? bulkOf(fields as Fields) : undefined;
  }

  async list(creator: string, limit: number, before?: number): Promise<BulkPage> {
    const max = before === undefined ? '+inf' : `(${before}`;
    const found = await this.redis.zrevrangebyscore(
      this.keys.bulksOf(creator),
      max,
      '-inf',
      'WITHSCORES',
      'LIMIT',
      0,
      limit + 1,
    );
    const ids: string[] = [];
    for (let i = 0; i < found.length; i += 2) ids.push(found[i] as string);
    const page = ids.slice(0, limit);
    const bulks = await Promise.all(page.map((id) => this.get(id)));
    const last = page.length === limit && ids.length > limit ? Number(found[2 * limit - 1]) : null;
    return { items: bulks.filter((b): b is StoredBulk => b !== undefined), next: last };
  }

  private at(id: string): { bulk: string; due: string } {
    return { bulk: this.keys.bulk(id), due: this.keys.bulksDue(shardOf(id)) };
  }

  private async move(
    id: string,
    from: readonly BulkState[],
    to: BulkState | 'commit',
    now: number,
    score: string,
    refusal?: BulkRefusal,
  ): Promise<StoredBulk | undefined> {
    const fields = await moveBulk.run(this.redis, this.at(id), {
      id,
      from: from.join(','),
      to,
      updatedAt: iso(now),
      now,
      score,
      refusal: refusal ? JSON.stringify(refusal) : '',
    });
    return fields ? bulkOf(fields) : undefined;
  }
}

function bulkOf([doc, state, updatedAt, refusal]: Fields): StoredBulk {
  return {
    ...(JSON.parse(doc) as Omit<StoredBulk, 'state' | 'updatedAt' | 'refusal'>),
    state: state as BulkState,
    updatedAt,
    ...(refusal ? { refusal: JSON.parse(refusal) as BulkRefusal } : {}),
  };
}
