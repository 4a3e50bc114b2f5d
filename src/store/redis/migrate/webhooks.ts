import type Redis from 'ioredis';
import { Keys, shardOf } from '../keys';
import { moveWebhook } from './scripts';

// Webhook endpoints stored by the layout before the shards (one Redis; see commit 1584958):
//   p webhook:w            hash (doc, account, cursor, epoch, pending, next, lease, logseq)
//   p webhooks:account:a   set of the account's endpoint ids
//   p webhooks:due         sorted set of endpoint ids (score: when due)
//   p webhooklog:w         stream of the endpoint's attempts
// are moved to the keys of their account's shard (../webhooks/store.ts), the hash and the log as they are
// (state, lease, log counter and entries), the due entry with its score. Each endpoint moves in one
// step, so the migration can stop anywhere and run again; a second run finds nothing to move.

export interface WebhookMigration {
  /** Endpoints moved by this run. */
  readonly moved: number;
  /** Old endpoints left where they were: without an account, or whose new key was taken. */
  readonly left: readonly string[];
}

/** A SCAN MATCH pattern for keys that begin with `prefix` (its glob characters escaped). */
function startingWith(prefix: string): string {
  return `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
}

async function scanKeys(redis: Redis, pattern: string, each: (keys: string[]) => Promise<void>) {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await each(keys);
  } while (cursor !== '0');
}

/**
 * Moves the webhook keys of the layout before the shards to their account's shard, on one Redis
 * (the old layout only ever lived on one), before any node serves. Idempotent: safe to run again,
 * also after a run that stopped halfway. Stale members of the old account sets and due set (ids
 * whose endpoint is gone) are dropped; the old sets go once empty.
 */
export async function migrateWebhooksV1(redis: Redis, prefix: string): Promise<WebhookMigration> {
  const keys = new Keys(prefix);
  const oldHash = (id: string) => `${prefix}webhook:${id}`;
  const oldLog = (id: string) => `${prefix}webhooklog:${id}`;
  const oldSet = (account: string) => `${prefix}webhooks:account:${account}`;
  const oldDue = `${prefix}webhooks:due`;
  let moved = 0;
  const left: string[] = [];

  const hashPrefix = `${prefix}webhook:`;
  await scanKeys(redis, startingWith(hashPrefix), async (found) => {
    // New endpoint keys (webhook:{s}:w) match too; old ids are base64url, never a brace.
    const ids = found.map((key) => key.slice(hashPrefix.length)).filter((id) => !id.startsWith('{'));
    for (const id of ids) {
      const [type, account] = await Promise.all([
        redis.type(oldHash(id)),
        redis.hget(oldHash(id), 'account'),
      ]);
      if (type !== 'hash') continue;
      if (!account) {
        left.push(id);
        continue;
      }
      const result = await moveWebhook.run(
        redis,
        {
          hash: oldHash(id),
          log: oldLog(id),
          set: oldSet(account),
          due: oldDue,
          newHash: keys.webhook(account, id),
          newLog: keys.webhookLog(account, id),
          newSet: keys.webhooksOf(account),
          newDue: keys.webhooksDue(shardOf(account)),
        },
        { id },
      );
      if (result === 'moved') moved++;
      if (result === 'taken') left.push(id);
    }
  });

  // What is left in the old sets names endpoints that are gone (or were left above).
  const stillThere = async (ids: string[]) =>
    Promise.all(ids.map(async (id) => (await redis.exists(oldHash(id))) === 1));
  const setPrefix = `${prefix}webhooks:account:`;
  await scanKeys(redis, startingWith(setPrefix), async (sets) => {
    for (const set of sets) {
      const members = await redis.smembers(set);
      const kept = await stillThere(members);
      const stale = members.filter((_, i) => !kept[i]);
      if (stale.length > 0) await redis.srem(set, ...stale);
    }
  });
  for (let start = 0; ;) {
    const members = await redis.zrange(oldDue, start, start + 499);
    if (members.length === 0) break;
    const kept = await stillThere(members);
    const stale = members.filter((_, i) => !kept[i]);
    if (stale.length > 0) await redis.zrem(oldDue, ...stale);
    start += members.length - stale.length;
  }
  return { moved, left };
}
