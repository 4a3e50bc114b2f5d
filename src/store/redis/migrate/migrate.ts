import type Redis from 'ioredis';
import type { Cluster } from 'ioredis';
import { Keys } from '../keys';
import { scanV1, type V1Context, type V1Step } from './base';
import { moveFeed } from './scripts';
import { defineScripts } from '../script';
import { SCRIPTS } from '../scripts';
import { gamesStep, idempotencyStep } from './games';
import { migrateAccountFamiliesV1 } from './accounts';
import { migrateWebhooksV1 } from './webhooks';

export { scanV1, type V1Context, type V1Step } from './base';

// Data written by v1 (one Redis, keys `p game:{g}`, `p feed:{a}`, global indexes; see
// `git show 1584958:src/store/redis/index.ts`) moved to the v2 layout (docs/data-model.md), once
// per deployment, before the node serves: createRedisStorage runs migrateV1.
//
// - Once: the marker `p layout` = '2' is set when every step is done; later starts read it and stop.
// - Two nodes at once, or a node that died midway and starts again: every step moves one thing
//   (a game, an account's feed, an idempotency record) in one script that does nothing when its
//   v1 key is gone, so steps run again, or side by side, without harm. The v1 global indexes (which
//   the game step reads) go last, and the marker after them.
// - v1 data never lived on a Redis Cluster: there, migrateV1 only reads the marker (and checks that
//   `p games:all` is absent).
// - v1 nodes must be stopped first: what a v1 node writes after its data was moved stays in v1 keys.

/** The layout the marker `p layout` names once the v1 data is moved. */
export const LAYOUT = '2';

export interface MigrationReport {
  /** 'done' (the steps ran), 'marked' (the marker was there) or 'cluster' (a Cluster without v1 data). */
  readonly outcome: 'done' | 'marked' | 'cluster';
  /** Each step's counts, by step name (empty unless 'done'). */
  readonly steps: Readonly<Record<string, Record<string, number>>>;
  readonly ms: number;
}

/** An account's v1 feed keys (`p feed:{a}`, `p feedseq:{a}`, `p feedepoch:{a}`); v2's carry `{s<n>}:a`. */
const V1_FEED = /^(?:feed|feedseq|feedepoch):\{([^}]+)\}$/;

/**
 * Feeds: each account's stream, seq counter and epoch hash renamed to its shard's keys, together
 * (one script per account). The epoch hash keeps the Redis origin it names, so no feed begins a
 * new epoch because of the move, and seqs go on from the last one. A v2 key already there (a v1
 * node wrote after the move) is left alone with the v1 keys beside it: counted as a conflict.
 */
export const feedsStep: V1Step = {
  name: 'feeds',
  async run({ redis, prefix, keys }) {
    const seen = new Set<string>();
    const counts = { moved: 0, conflicts: 0 };
    for await (const batch of scanV1(redis, prefix, 'feed*')) {
      const accounts = batch.flatMap((key) => {
        const account = V1_FEED.exec(key.slice(prefix.length))?.[1];
        if (account === undefined || seen.has(account)) return [];
        seen.add(account);
        return [account];
      });
      const results = await Promise.all(
        accounts.map((a) =>
          moveFeed.run(
            redis,
            {
              feed: `${prefix}feed:{${a}}`,
              seq: `${prefix}feedseq:{${a}}`,
              epoch: `${prefix}feedepoch:{${a}}`,
              newFeed: keys.feed(a),
              newSeq: keys.feedSeq(a),
              newEpoch: keys.feedEpoch(a),
            },
            {},
          ),
        ),
      );
      for (const result of results) {
        if (result === 'moved') counts.moved++;
        else if (result === 'conflict') counts.conflicts++;
      }
    }
    return counts;
  },
};

/** The v1 global indexes: `p games:<not {>…` (listings, seq, turn, ongoing, markers), `p deadlines`, `p reminders`. */
function isV1Index(name: string): boolean {
  return (name.startsWith('games:') && name[6] !== '{') || name === 'deadlines' || name === 'reminders';
}

/** Deletes the v1 global indexes (last: the game step reads games:all, deadlines and reminders). */
export const v1IndexesStep: V1Step = {
  name: 'v1-indexes',
  async run({ redis, prefix }) {
    let deleted = 0;
    const drop = async (names: string[]) => {
      if (names.length > 0) deleted += await redis.unlink(...names);
    };
    for await (const batch of scanV1(redis, prefix, 'games:*')) {
      await drop(batch.filter((key) => isV1Index(key.slice(prefix.length))));
    }
    await drop([`${prefix}deadlines`, `${prefix}reminders`]);
    return { deleted };
  },
};

/**
 * The steps in order. The other families' steps go before v1IndexesStep (which must stay last):
 * challenges, seeks, accounts and tokens (accounts.ts), webhooks (webhooks.ts).
 */
export const V1_STEPS: readonly V1Step[] = [
  feedsStep,
  gamesStep,
  idempotencyStep,
  {
    name: 'accounts',
    run: async ({ redis, prefix }) => ({ ...(await migrateAccountFamiliesV1(redis, prefix)) }),
  },
  // After the feeds: an endpoint's cursor refers to its account's feed.
  {
    name: 'webhooks',
    run: async ({ redis, prefix }) => {
      const { moved, left } = await migrateWebhooksV1(redis, prefix);
      return { moved, left: left.length };
    },
  },
  v1IndexesStep,
];

/**
 * Moves a deployment's v1 data to the v2 layout unless the marker says it is done (see the top of
 * this file). Resolves with what it did; throws (and sets no marker) if a step fails, so that the
 * next start tries again.
 */
export async function migrateV1(
  redis: Redis | Cluster,
  prefix: string,
  steps: readonly V1Step[] = V1_STEPS,
): Promise<MigrationReport> {
  const started = Date.now();
  const marker = `${prefix}layout`;
  if ((await redis.get(marker)) === LAYOUT) return { outcome: 'marked', steps: {}, ms: Date.now() - started };
  // A server in cluster mode (reached through a Cluster client or a plain one) never held v1 data.
  const clustered =
    redis.isCluster || /cluster_enabled:1/.test(await (redis as Redis).info('cluster').catch(() => ''));
  if (clustered) {
    if ((await redis.exists(`${prefix}games:all`)) === 1) {
      throw new Error(`${prefix}games:all exists on a Redis Cluster: move v1 data on one Redis first`);
    }
    await redis.set(marker, LAYOUT);
    return { outcome: 'cluster', steps: {}, ms: Date.now() - started };
  }
  // The steps' scripts (scripts.ts), with every other: migrateV1 runs before the storage
  // factory defines them (and tests run it alone).
  defineScripts(redis, SCRIPTS);
  const context: V1Context = { redis: redis as Redis, prefix, keys: new Keys(prefix) };
  const report: Record<string, Record<string, number>> = {};
  for (const step of steps) report[step.name] = await step.run(context);
  await redis.set(marker, LAYOUT);
  return { outcome: 'done', steps: report, ms: Date.now() - started };
}
