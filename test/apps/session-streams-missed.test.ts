// A key revocation whose notice a node missed (its subscriber connection was down) still ends the
// streams of the key's sessions and of the key acting for an account, once the node is reconnected
// and asks the store (Redis only: the memory bus cannot miss a notice).
import Redis from 'ioredis';
import request from 'supertest';
import { createApp, type App } from '../../src/app';
import { hashToken } from '../../src/service/accounts/auth';
import { createRedisStorage } from '../../src/store/redis';
import { Keys } from '../../src/store/redis/keys';
import type { Storage } from '../../src/store/store';
import { appAccount, newApp } from '../support/apps';
import { openFeed } from '../support/feed-client';
import { startRedisServer, type OwnRedis } from '../support/redis-server';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a key revocation whose notice a node missed', () => {
  let redis: OwnRedis;
  let storage: Storage;
  let app: App;
  let url: string;
  beforeAll(async () => {
    redis = await startRedisServer();
    storage = await createRedisStorage(redis.url, 'missed-key:');
    app = await createApp({ storage, sweepIntervalMs: 0, webhooks: { intervalMs: 0 } });
    url = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`;
  });
  afterAll(async () => {
    await app.stop();
    await redis.stop();
  });

  it('still ends its sessions’ streams and its own once the node is reconnected', async () => {
    const testApp = await newApp(app);
    const account = await appAccount(storage, testApp, 'missed-1');
    const minted = await request(url)
      .post('/api/v1/app/accounts/missed-1/sessions')
      .set(testApp.auth)
      .send({})
      .expect(201);
    const session = await openFeed(url, minted.body.accessToken, { format: 'ndjson' });
    const acting = await openFeed(url, testApp.key, {
      format: 'ndjson',
      headers: { 'boardhost-account': account.id },
    });
    // Let the node link the session token to its key (one store read after the stream opened).
    await delay(100);
    const admin = new Redis(redis.url);
    try {
      // The key is revoked without its notice (as if published while the node was away)…
      const key = new Keys('missed-key:').appKey(testApp.id, hashToken(testApp.key));
      const doc = JSON.parse((await admin.get(key)) as string);
      await admin.set(key, JSON.stringify({ ...doc, revokedAt: new Date().toISOString() }));
      await delay(200);
      const open = (ended: Promise<void>) =>
        Promise.race([ended.then(() => 'ended'), delay(10).then(() => 'open')]);
      expect([await open(session.ended), await open(acting.ended)]).toEqual(['open', 'open']);
      // …then the node's subscriber connection drops, and it checks its tokens and keys once back.
      await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
      await within(session.ended, 5000, 'the session’s feed');
      await within(acting.ended, 5000, 'the key’s feed');
      expect(await session.next(100)).toMatchObject({ type: 'revoked' });
      expect(await acting.next(100)).toMatchObject({ type: 'revoked' });
    } finally {
      admin.disconnect();
    }
  });
});
