// Webhook endpoints written by the layout before the shards (commit 1584958's webhooks.ts: one
// Redis, p webhook:w, p webhooks:account:a, p webhooks:due, p webhooklog:w) keep working after
// migrateWebhooksV1: the new store reads them, claims them, continues their logs, delivers to them.
import Redis from 'ioredis';
import { WebhookWorker } from '../../src/service/delivery/webhook-worker';
import { createRedisStorage } from '../../src/store/redis';
import { migrateWebhooksV1 } from '../../src/store/redis/migrate/webhooks';
import { defineScripts } from '../../src/store/redis/script';
import { SCRIPTS } from '../../src/store/redis/scripts';
import type { NewDeliveryAttempt, Storage, StoredWebhook } from '../../src/store/store';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

const iso = (ms: number) => new Date(ms).toISOString();

/** An endpoint as the old CREATE_WEBHOOK_SCRIPT stored it (epoch absent: stored before epochs). */
async function writeOldEndpoint(
  redis: Redis,
  p: string,
  webhook: StoredWebhook,
  state: { cursor: number; epoch?: string },
): Promise<void> {
  await redis.hset(`${p}webhook:${webhook.id}`, {
    doc: JSON.stringify(webhook),
    account: webhook.account,
    cursor: String(state.cursor),
    ...(state.epoch === undefined ? {} : { epoch: state.epoch }),
    pending: '',
    next: '',
  });
  await redis.sadd(`${p}webhooks:account:${webhook.account}`, webhook.id);
}

/** An attempt logged as the old log_attempts did (the log's counter in the endpoint's hash). */
async function writeOldAttempt(redis: Redis, p: string, id: string, attempt: NewDeliveryAttempt) {
  const n = await redis.hincrby(`${p}webhook:${id}`, 'logseq', 1);
  await redis.xadd(
    `${p}webhooklog:${id}`,
    `${n}-0`,
    'attempt',
    `{"n":${n},${JSON.stringify(attempt).slice(1)}`,
  );
}

function endpoint(id: string, account: string, url: string, createdAt: number): StoredWebhook {
  return {
    id,
    account,
    url,
    events: null,
    secret: 'whsec_migratemigratemigrate',
    createdBy: 'token1',
    createdAt: iso(createdAt),
  };
}

describe('migrateWebhooksV1', () => {
  let redis: Redis;
  let receiver: Receiver;
  let storage: Storage;
  let prefix: string;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    // What migrateV1 does before its steps.
    defineScripts(redis, SCRIPTS);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.stop();
    await redis.quit();
  });
  beforeEach(async () => {
    prefix = uniquePrefix('migrate-webhooks');
    storage = await createRedisStorage(REDIS_URL, prefix);
  });
  afterEach(async () => {
    await storage.games.close();
    await storage.events.close();
    await deletePrefix(prefix);
  });

  it('moves old endpoints, their state, logs and due entries to the shards; the new store serves them', async () => {
    const p = prefix;
    const account = 'acct-old-1';
    const t = Date.now();
    // The account's feed (moved to its shard by the startup migration before this one) has one event.
    await storage.feed.append([{ to: [account], type: 'game.moved', at: iso(t), data: { n: 1 } }]);
    const epoch = (await storage.feed.read(account, 0, 0)).epoch;
    // behind: cursor 0 and due since the event (as append_notices marked it), with a logged attempt;
    // caught: caught up and not due, stored before epochs.
    const behind = endpoint('oldBehind001', account, receiver.url('/behind'), t - 2000);
    const caught = endpoint('oldCaught001', account, receiver.url('/caught'), t - 1000);
    await writeOldEndpoint(redis, p, behind, { cursor: 0, epoch });
    await writeOldEndpoint(redis, p, caught, { cursor: 1 });
    await redis.zadd(`${p}webhooks:due`, t, behind.id);
    const old: NewDeliveryAttempt = {
      deliveryId: '11111111-2222-8333-8444-555555555555',
      seq: 1,
      epoch,
      lastSeq: null,
      reason: null,
      type: 'game.moved',
      attempt: 1,
      at: iso(t - 500),
      durationMs: 3,
      statusCode: 503,
      error: 'HTTP 503',
      outcome: 'retrying',
      nextAttemptAt: iso(t),
      redelivery: false,
    };
    await writeOldAttempt(redis, p, behind.id, old);
    // A deleted endpoint's leftovers in the old sets.
    await redis.sadd(`${p}webhooks:account:${account}`, 'goneGoneGone');
    await redis.zadd(`${p}webhooks:due`, t, 'goneGoneGone');

    expect(await migrateWebhooksV1(redis, p)).toEqual({ moved: 2, left: [] });
    expect(await migrateWebhooksV1(redis, p)).toEqual({ moved: 0, left: [] });
    const oldKeys = [
      `${p}webhook:${behind.id}`,
      `${p}webhook:${caught.id}`,
      `${p}webhooklog:${behind.id}`,
      `${p}webhooks:account:${account}`,
      `${p}webhooks:due`,
    ];
    expect(await redis.exists(...oldKeys)).toBe(0);

    const webhooks = storage.webhooks;
    expect(await webhooks.getWebhook(behind)).toEqual({
      webhook: behind,
      state: { cursor: 0, epoch, pending: null },
    });
    expect((await webhooks.listWebhooks(account)).map((r) => r.webhook)).toEqual([behind, caught]);
    expect((await webhooks.listWebhooks(account)).map((r) => r.state)).toEqual([
      { cursor: 0, epoch, pending: null },
      { cursor: 1, epoch: null, pending: null },
    ]);
    expect(await webhooks.deliveryLog(behind, 10)).toEqual({ items: [{ n: 1, ...old }], next: null });
    expect(await webhooks.findDelivery(behind, old.deliveryId)).toEqual({ n: 1, ...old });
    // The account's limit counts them.
    expect(await webhooks.createWebhook(endpoint('newEndpoint1', account, receiver.url(), t), 2)).toBe(
      undefined,
    );

    // The worker delivers the event the old endpoint is behind on (its log goes on at n = 2); the
    // caught-up one gets nothing until the next event, which marks both due in the new keys.
    const worker = new WebhookWorker(storage, () => new Date(), { allowPrivate: true });
    expect(await worker.deliverDue()).toBe(1);
    expect(receiver.accepted.map((r) => [r.payload.seq, r.answered])).toEqual([[1, 200]]);
    expect((await webhooks.getWebhook(behind))?.state).toEqual({ cursor: 1, epoch, pending: null });
    expect((await webhooks.deliveryLog(behind, 10)).items.map((i) => [i.n, i.outcome])).toEqual([
      [2, 'delivered'],
      [1, 'retrying'],
    ]);
    await storage.feed.append([{ to: [account], type: 'game.moved', at: iso(Date.now()), data: { n: 2 } }]);
    expect(await worker.deliverDue()).toBe(2);
    expect(receiver.accepted.slice(1).map((r) => r.payload.seq)).toEqual([2, 2]);
    expect((await webhooks.listWebhooks(account)).map((r) => r.state)).toEqual([
      { cursor: 2, epoch, pending: null },
      { cursor: 2, epoch, pending: null },
    ]);
    await worker.stop();

    expect(await webhooks.deleteWebhook(behind)).toBe(true);
    expect(await webhooks.deliveryLog(behind, 10)).toEqual({ items: [], next: null });
    expect((await webhooks.listWebhooks(account)).map((r) => r.webhook.id)).toEqual([caught.id]);
  });

  it('keeps a claim in progress until its lease ends, and leaves what it cannot place', async () => {
    const p = prefix;
    const account = 'acct-old-2';
    const t = Date.now();
    await storage.feed.append([{ to: [account], type: 'game.moved', at: iso(t), data: {} }]);
    const epoch = (await storage.feed.read(account, 0, 0)).epoch;
    // Claimed by a v1 node (lease token in the hash, due at the lease's end) that was then stopped.
    const leased = endpoint('oldLeased001', account, receiver.url(), t);
    await writeOldEndpoint(redis, p, leased, { cursor: 0, epoch });
    await redis.hset(`${p}webhook:${leased.id}`, 'lease', 'v1-lease-token');
    await redis.zadd(`${p}webhooks:due`, t + 30_000, leased.id);
    // An endpoint hash without its account cannot be placed in a shard: left as it was.
    await redis.hset(`${p}webhook:noAccount01`, 'doc', '{}');
    await redis.zadd(`${p}webhooks:due`, t, 'noAccount01');

    expect(await migrateWebhooksV1(redis, p)).toEqual({ moved: 1, left: ['noAccount01'] });
    expect(await migrateWebhooksV1(redis, p)).toEqual({ moved: 0, left: ['noAccount01'] });
    expect(await redis.hget(`${p}webhook:noAccount01`, 'doc')).toBe('{}');
    expect(await redis.zrange(`${p}webhooks:due`, 0, -1)).toEqual(['noAccount01']);

    const claim = (at: number) => storage.webhooks.claimDue(iso(at), 10, 30_000);
    expect(await claim(t + 29_999)).toEqual([]);
    const [taken] = await claim(t + 30_000);
    expect(taken).toMatchObject({ webhook: leased, state: { cursor: 0, epoch, pending: null } });
    const done = { cursor: 1, epoch, pending: null };
    expect(await storage.webhooks.release(leased, 'v1-lease-token', done, [], iso(t))).toBe(false);
    expect(await storage.webhooks.release(leased, taken!.lease, done, [], iso(t + 30_000))).toBe(true);
    expect(await claim(t + 60_000)).toEqual([]);
  });
});
