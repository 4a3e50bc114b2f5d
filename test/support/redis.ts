// Tests reach a real Redis at REDIS_URL (default redis://127.0.0.1:6379), each run under its own
// key prefix; cleanup deletes only that prefix's keys, never the whole server.
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test run uses. */
export function uniquePrefix(label: string): string {
  return `bhtest:${label}:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under `prefix` (SCAN + UNLINK). */
export async function deletePrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis.connect();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
  await redis.quit();
}
