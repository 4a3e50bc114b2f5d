import type Redis from 'ioredis';
import type { Keys } from '../keys';

// What every step of migrateV1 (migrate.ts) shares: its context and the scan of v1 keys (the
// scripts are in scripts.ts).

/** What a step gets: the one Redis (never a Cluster), the prefix and the v2 key builders. */
export interface V1Context {
  readonly redis: Redis;
  readonly prefix: string;
  readonly keys: Keys;
}

/**
 * One family of v1 keys moved to v2. `run` must be idempotent (it may run again after a crash, or
 * on two nodes at once) and resolves with counts for the report (e.g. { moved: 3, conflicts: 0 }).
 */
export interface V1Step {
  readonly name: string;
  run(context: V1Context): Promise<Record<string, number>>;
}

/** Keys named `prefix` + `pattern` (a SCAN glob; the prefix is escaped), a batch at a time. */
export async function* scanV1(redis: Redis, prefix: string, pattern: string): AsyncGenerator<string[]> {
  const match = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}${pattern}`;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) yield keys;
  } while (cursor !== '0');
}
