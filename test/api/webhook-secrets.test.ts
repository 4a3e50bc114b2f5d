// Webhook and push-bot secrets are stored encrypted under the server key (issue #28, item 14): the
// Redis value of an endpoint does not hold its secret, deliveries still verify with it, endpoints
// stored in plaintext before still work, and idempotency seals depend on the server key.
import Redis from 'ioredis';
import request from 'supertest';
import { loadConfig } from '../../src/config';
import {
  decryptSecret,
  ENCRYPTED_PREFIX,
  encryptSecret,
  sealKeyOf,
  setServerKey,
} from '../../src/service/server-key';
import { Keys } from '../../src/store/redis/keys';
import { signUp } from '../support/accounts';
import { appHarness } from '../support/app';
import { REDIS_URL, uniquePrefix } from '../support/redis';
import { startReceiver, verifies, type Receiver } from '../support/webhook-receiver';

const harness = appHarness();
let redis: Redis;
let receiver: Receiver;
beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  receiver = await startReceiver();
});
afterAll(async () => {
  await harness.stopAll();
  await receiver.stop();
  redis.disconnect();
  setServerKey(undefined);
});

const SECRET = 'client-secret-0123456789-abcdef';

describe('secrets at rest', () => {
  it('stores a webhook secret encrypted in Redis; deliveries still verify; plaintext records still work', async () => {
    setServerKey('a test server key of at least thirty-two characters');
    const prefix = uniquePrefix('secrets');
    const run = await harness.start('redis', { prefix });
    const x = await signUp(run.app, 'x');
    const res = await request(run.url)
      .post('/api/v1/account/webhooks')
      .set(x.auth)
      .send({ url: receiver.url('/new'), secret: SECRET });
    expect(res.status).toBe(201);
    expect(res.body.secret).toBe(SECRET);
    const stored = await redis.hget(new Keys(prefix).webhook(x.id, res.body.id), 'doc');
    expect(stored).not.toBeNull();
    expect(stored).not.toContain(SECRET);
    expect(JSON.parse(stored as string).secret).toMatch(new RegExp(`^${ENCRYPTED_PREFIX}`));
    // The rest of the record is readable: only the secret is encrypted.
    expect(JSON.parse(stored as string)).toMatchObject({ id: res.body.id, account: x.id });

    // An endpoint stored in plaintext (before encryption) by the same account.
    const old = { id: 'oldPlainHook', account: x.id, url: receiver.url('/old'), events: null };
    await run.storage.webhooks.createWebhook(
      { ...old, secret: `${SECRET}-old`, createdBy: 'tok', createdAt: new Date().toISOString() },
      10,
    );
    await run.storage.feed.append([
      { to: [x.id], type: 'game.updated', at: new Date().toISOString(), data: { n: 1 } },
    ]);
    expect(await run.app.deliverWebhooks()).toBe(2);
    expect(receiver.accepted).toHaveLength(2);
    const signedWith = receiver.accepted.map((r) =>
      verifies(r, SECRET) ? 'new' : verifies(r, `${SECRET}-old`) ? 'old' : 'none',
    );
    expect(signedWith.sort()).toEqual(['new', 'old']);
  });

  it('stores a push-bot secret encrypted', async () => {
    setServerKey('a test server key of at least thirty-two characters');
    const prefix = uniquePrefix('secrets');
    const run = await harness.start('redis', { prefix });
    const bot = await signUp(run.app, 'bot');
    const res = await request(run.url)
      .put('/api/v1/account/push-endpoint')
      .set(bot.auth)
      .send({ url: receiver.url('/push'), secret: SECRET });
    expect([200, 201]).toContain(res.status);
    expect(res.body.secret).toBe(SECRET);
    const stored = await redis.hget(`${prefix}pushbots`, bot.id);
    expect(stored).not.toContain(SECRET);
    expect(decryptSecret(JSON.parse(stored as string).secret)).toBe(SECRET);
  });

  it('derives idempotency seals and secret encryption from the server key', () => {
    setServerKey('the first server key, thirty-two characters or more');
    const first = sealKeyOf('account:a', 'key-1');
    const sealed = encryptSecret(SECRET);
    expect(decryptSecret(sealed)).toBe(SECRET);
    expect(decryptSecret('plain-old-secret')).toBe('plain-old-secret');
    setServerKey('the second server key, thirty-two characters or more');
    expect(sealKeyOf('account:a', 'key-1').equals(first)).toBe(false);
    expect(() => decryptSecret(sealed)).toThrow(/SECRET_KEY changed/);
    setServerKey('the first server key, thirty-two characters or more');
    expect(sealKeyOf('account:a', 'key-1').equals(first)).toBe(true);
  });

  it('requires SECRET_KEY in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /SECRET_KEY: required when NODE_ENV=production/,
    );
    expect(() => loadConfig({ SECRET_KEY: 'short' })).toThrow(/SECRET_KEY/);
    const key = 'x'.repeat(32);
    expect(loadConfig({ NODE_ENV: 'production', SECRET_KEY: key }).SECRET_KEY).toBe(key);
    expect(loadConfig({}).SECRET_KEY).toBeUndefined();
  });
});
