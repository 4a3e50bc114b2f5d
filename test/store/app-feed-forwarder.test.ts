// The Redis forwarder of app feeds (src/store/redis/feed/forwarder.ts) where it could go wrong: a
// pass repeated after a crash (the account still marked after its events reached the app feed), a
// stale forwarder appending what another already did, and an account feed that came back older
// (a new epoch reusing seqs the app feed already holds: those are new events, not duplicates).
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { createRedisStorage } from '../../src/store/redis';
import { appendAppFeed } from '../../src/store/redis/feed/scripts';
import { Keys, shardOf } from '../../src/store/redis/keys';
import { defineScripts } from '../../src/store/redis/script';
import { SCRIPTS } from '../../src/store/redis/scripts';
import { appFeedOwner, type FeedEvent, type Notice, type Storage } from '../../src/store/store';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';

const prefix = uniquePrefix('appfeed');
const keys = new Keys(prefix);
let storage: Storage;
let redis: Redis;
afterAll(async () => {
  await storage.games.close();
  await storage.events.close();
  redis.disconnect();
  await deletePrefix(prefix);
});
beforeAll(async () => {
  storage = await createRedisStorage(REDIS_URL, prefix);
  redis = new Redis(REDIS_URL);
  defineScripts(redis, SCRIPTS);
});

const app = `app_${randomBytes(8).toString('hex')}`;
const owner = appFeedOwner(app);
const at = () => new Date().toISOString();
const notice = (to: string, n: number): Notice => ({
  to: [to],
  type: 'challenge.received',
  at: at(),
  data: { n },
});

async function appFeed(): Promise<FeedEvent[]> {
  return (await storage.feed.read(owner, 0, 1000)).events.slice();
}

test('a repeated or stale pass appends nothing twice', async () => {
  const account = `${app}.${randomBytes(8).toString('hex')}`;
  await storage.feed.append([notice(account, 1), notice(account, 2), notice(account, 3)]);
  await storage.feed.forwardApps();
  expect((await appFeed()).filter((e) => e.account === account).map((e) => e.data.n)).toEqual([1, 2, 3]);
  // A node died after appending, before taking the account off the dirty set: the next pass.
  await redis.zadd(keys.appFeedDirty(shardOf(account)), 0, account);
  await storage.feed.forwardApps();
  // A stale forwarder that read the same events: its append is refused event by event.
  const page = await storage.feed.read(account, 0, 10);
  const events = JSON.stringify({
    max: 1000,
    notices: page.events.map((e) => ({
      src_epoch: e.epoch,
      src_seq: e.seq,
      account,
      type: e.type,
      at: e.at,
      ms: String(Date.parse(e.at)),
      cutoff: 0,
      data: JSON.stringify(e.data),
      rest: '}',
    })),
  });
  const [appended] = await appendAppFeed.run(
    redis,
    { ...keys.feedWrite(owner), applied: keys.appFeedApplied(owner) },
    {
      account,
      events,
      epochs: JSON.stringify(page.epochs.map((e) => e.id)),
      candidate: 'c',
      publish: 'PUBLISH',
      live: keys.feedChannel(owner),
    },
  );
  expect(appended).toBe(0);
  expect((await appFeed()).filter((e) => e.account === account).map((e) => e.data.n)).toEqual([1, 2, 3]);
  expect(await redis.zscore(keys.appFeedDirty(shardOf(account)), account)).toBeNull();
});

test('events of an account feed that came back older are forwarded as new', async () => {
  const account = `${app}.${randomBytes(8).toString('hex')}`;
  await storage.feed.append([1, 2, 3, 4].map((n) => notice(account, n)));
  await storage.feed.forwardApps();
  // The account's shard comes back from an older copy: seqs 3 and 4 lost, a new epoch begins when
  // another Redis (here: a changed origin) touches the feed.
  const kept = (await redis.xrange(keys.feed(account), '-', '+')).slice(0, 2);
  await redis.del(keys.feed(account));
  for (const [id, fields] of kept) await redis.xadd(keys.feed(account), id, ...fields);
  await redis.set(keys.feedSeq(account), '2');
  await redis.hset(keys.feedEpoch(account), 'origin', 'another-redis');
  await storage.feed.append([notice(account, 5), notice(account, 6)]);
  await storage.feed.forwardApps();
  const mine = (await appFeed()).filter((e) => e.account === account).map((e) => e.data.n);
  expect(mine).toEqual([1, 2, 3, 4, 5, 6]);
  // Settled: nothing more to forward, and a further pass adds nothing.
  await storage.feed.forwardApps();
  expect((await appFeed()).filter((e) => e.account === account)).toHaveLength(6);
});
