import type Redis from 'ioredis';
import { createHash } from 'node:crypto';
import type { SeekStore, StoredSeek } from '../../store';
import { msOf } from '../games/arguments';
import { matchOrAdd, removeSeek } from './scripts';
import { Keys } from '../keys';

// Seeks (docs/data-model.md): a pool (list of seek ids, oldest first) and its seeks live in the
// shard of the pool's sha1, so that matching is one step. A seek is found by id through a pointer
// in the shard of its id (`seekat`: id → the pool's sha1, expiring with the seek), written once the
// seek waits: seek ids are the service's (12 characters, handed out before this layout), so the
// shard cannot be read off them; cancelling a seek is rare, so its extra GET is cheap.

/** How long a seek's pointer outlives the seek's expiry. */
export const SEEK_POINTER_MARGIN_MS = 60 * 60 * 1000;

export class RedisSeekStore implements SeekStore {
  private readonly keys: Keys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = new Keys(prefix);
  }

  async matchOrAdd(
    seek: StoredSeek,
    now: string,
    avoid: readonly string[] = [],
  ): Promise<StoredSeek | undefined> {
    // Pools are free text: hashed, they make a key of fixed shape.
    const pool = createHash('sha1').update(seek.pool).digest('hex');
    const nowMs = msOf(now, 'now');
    const expires = msOf(seek.expiresAt, 'seek expiresAt');
    const matched = await matchOrAdd.run(
      this.redis,
      { pool: this.keys.seekPool(pool), seek: this.keys.seek(pool, seek.id) },
      {
        now: nowMs,
        id: seek.id,
        account: seek.account,
        doc: JSON.stringify(seek),
        expires,
        poolSha: pool,
        seekKeyPrefix: this.keys.seek(pool, ''),
      },
      avoid,
    );
    if (matched) return JSON.parse(matched) as StoredSeek;
    // Waiting: findable by id while in its pool. The pointer outlives the seek by a margin (times
    // here are the caller's clock, the TTL the server's); one left behind by a match finds nothing.
    const ttl = Math.max(0, Number(expires) - Number(nowMs)) + SEEK_POINTER_MARGIN_MS;
    await this.redis.set(this.keys.seekPoolOf(seek.id), pool, 'PX', ttl);
    return undefined;
  }

  /** The pool (sha1) of a seek, or undefined when it waits in none. */
  private async poolOf(id: string): Promise<string | undefined> {
    return (await this.redis.get(this.keys.seekPoolOf(id))) ?? undefined;
  }

  async getSeek(id: string): Promise<StoredSeek | undefined> {
    const pool = await this.poolOf(id);
    if (pool === undefined) return undefined;
    const doc = await this.redis.hget(this.keys.seek(pool, id), 'doc');
    return doc ? (JSON.parse(doc) as StoredSeek) : undefined;
  }

  async removeSeek(id: string): Promise<boolean> {
    const pool = await this.poolOf(id);
    if (pool === undefined) return false;
    const removed = await removeSeek.run(
      this.redis,
      { seek: this.keys.seek(pool, id), pool: this.keys.seekPool(pool) },
      { id },
    );
    if (removed === 1) await this.redis.del(this.keys.seekPoolOf(id));
    return removed === 1;
  }
}
