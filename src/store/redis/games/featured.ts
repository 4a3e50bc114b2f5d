import type Redis from 'ioredis';
import type { GameKind } from '../../../engines/types';
import type { FeaturedIndex } from '../../store';
import { Keys } from '../keys';

/**
 * TV candidates: one sorted set per kind, `p tv:<kind>` (game id, score featuredScore), a slot of
 * its own; each command touches that one key.
 */
export class RedisFeaturedIndex implements FeaturedIndex {
  private readonly keys: Keys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = new Keys(prefix);
  }

  private key(kind: GameKind): string {
    return this.keys.featured(kind);
  }

  async add(kind: GameKind, game: string, score: number): Promise<void> {
    await this.redis.zadd(this.key(kind), score, game);
  }

  async remove(kind: GameKind, game: string): Promise<void> {
    await this.redis.zrem(this.key(kind), game);
  }

  async top(kind: GameKind, limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    return this.redis.zrevrange(this.key(kind), 0, limit - 1);
  }
}
