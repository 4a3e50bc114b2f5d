import type Redis from 'ioredis';
import { pageOfBlocks, type BlockPage, type BlockResult, type BlockStore } from '../../store';
import { block } from './scripts';
import { Keys } from '../keys';

// Blocks: `p blocks:{s}:a` (hash: blocked id → since, ISO; in the blocker's shard; at most the
// setting's count, so read whole) and `p blockedby:{s}:b` (set of b's blockers, in b's shard). The
// hash is the truth; the reverse set, written after it and removed after it, only steers seeks.

export class RedisBlockStore implements BlockStore {
  private readonly keys: Keys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = new Keys(prefix);
  }

  async block(blocker: string, blocked: string, at: string, max: number): Promise<BlockResult> {
    const result = await block.run(
      this.redis,
      { blocks: this.keys.blocks(blocker) },
      { blocked, since: at, max },
    );
    if (result !== 'full') await this.redis.sadd(this.keys.blockedBy(blocked), blocker);
    return result;
  }

  async unblock(blocker: string, blocked: string): Promise<boolean> {
    const removed = await this.redis.hdel(this.keys.blocks(blocker), blocked);
    await this.redis.srem(this.keys.blockedBy(blocked), blocker);
    return removed === 1;
  }

  async isBlocked(blocker: string, blocked: string): Promise<boolean> {
    return (await this.redis.hexists(this.keys.blocks(blocker), blocked)) === 1;
  }

  async listBlocks(blocker: string, limit: number, after?: string): Promise<BlockPage> {
    const all = await this.redis.hgetall(this.keys.blocks(blocker));
    return pageOfBlocks(
      Object.entries(all).map(([account, createdAt]) => ({ account, createdAt })),
      limit,
      after,
    );
  }

  async blockersOf(account: string): Promise<string[]> {
    return this.redis.smembers(this.keys.blockedBy(account));
  }
}
