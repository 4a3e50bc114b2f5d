import type Redis from 'ioredis';
import { createHash } from 'node:crypto';
import type { SeekStore, StoredSeek } from '../store';
import { msOf } from './arguments';
import { scripted, type ScriptedRedis } from './client';

export class RedisSeekStore implements SeekStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.redis = scripted(redis);
  }

  private seekKey(id: string): string {
    return `${this.prefix}seek:${id}`;
  }

  async matchOrAdd(seek: StoredSeek, now: string): Promise<StoredSeek | undefined> {
    // Pools are free text: hashed, they make a key of fixed shape.
    const pool = createHash('sha1').update(seek.pool).digest('hex');
    const matched = await this.redis.boardhostMatchOrAdd(
      `${this.prefix}seeks:pool:${pool}`,
      this.seekKey(seek.id),
      this.prefix,
      msOf(now, 'now'),
      seek.id,
      seek.account,
      JSON.stringify(seek),
      msOf(seek.expiresAt, 'seek expiresAt'),
      pool,
    );
    return matched ? (JSON.parse(matched) as StoredSeek) : undefined;
  }

  async getSeek(id: string): Promise<StoredSeek | undefined> {
    const doc = await this.redis.hget(this.seekKey(id), 'doc');
    return doc ? (JSON.parse(doc) as StoredSeek) : undefined;
  }

  async removeSeek(id: string): Promise<boolean> {
    return (await this.redis.boardhostRemoveSeek(this.seekKey(id), this.prefix, id)) === 1;
  }
}
