import type Redis from 'ioredis';
import type { IdempotencyClaim, IdempotencyStore } from '../store';
import { Keys } from './keys';
import { claimIdempotency, releaseIdempotency } from './lua';

/** Idempotency records of creates: p idemcreate:<key>, a hash of state, fingerprint and response. */
export class RedisIdempotencyStore implements IdempotencyStore {
  private readonly keys: Keys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = new Keys(prefix);
  }

  private key(key: string): string {
    return this.keys.createIdempotency(key);
  }

  async claim(key: string, fingerprint: string, pendingMs: number): Promise<IdempotencyClaim> {
    const [state, seen, response] = await claimIdempotency.run(
      this.redis,
      { record: this.key(key) },
      { fingerprint, pendingMs: Math.max(1, Math.ceil(pendingMs)) },
    );
    if (state === 'claimed') return { status: 'claimed' };
    if (state === 'done') return { status: 'done', fingerprint: seen ?? '', response: response ?? '' };
    return { status: 'pending', fingerprint: seen ?? '' };
  }

  async complete(key: string, fingerprint: string, response: string, ttlSeconds: number): Promise<void> {
    await this.redis
      .multi()
      .hset(this.key(key), 'state', 'done', 'fingerprint', fingerprint, 'response', response)
      .expire(this.key(key), ttlSeconds)
      .exec();
  }

  async release(key: string, fingerprint?: string): Promise<void> {
    await releaseIdempotency.run(this.redis, { record: this.key(key) }, { fingerprint: fingerprint ?? '' });
  }
}
