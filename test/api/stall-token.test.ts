// A stalled Redis (its process stopped with SIGSTOP: connections open, no answer) makes a
// token-authenticated request answer 503 STORE_UNAVAILABLE after one command timeout, not one per
// store call it would have made in turn (the rate limit, the token, its account).
import request from 'supertest';
import { createApp, type App } from '../../src/app';
import { createRedisStorage } from '../../src/store/redis';
import { signUp, type TestAccount } from '../support/accounts';
import { startRedisServer, type OwnRedis } from '../support/redis-server';

const TIMEOUT_MS = 1000;

describe('token-authenticated requests when Redis stalls', () => {
  let redis: OwnRedis;
  let app: App;
  let url: string;
  let account: TestAccount;
  beforeAll(async () => {
    redis = await startRedisServer();
    const storage = await createRedisStorage(redis.url, 'stall-token:', { commandTimeoutMs: TIMEOUT_MS });
    app = await createApp({ storage, sweepIntervalMs: 0, webhooks: { intervalMs: 0 } });
    url = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`;
    account = await signUp(app, 'staller', 'human');
  });
  afterAll(async () => {
    redis.freeze(false);
    await app.stop();
    await redis.stop();
  });

  it('answer 503 within one command timeout (plus a margin), on REST and GraphQL', async () => {
    // Warm: the token and the rate windows are known to this node.
    for (let i = 0; i < 3; i++) await request(url).get('/api/v1/account').set(account.auth).expect(200);
    redis.freeze(true);
    try {
      for (const call of [
        () => request(url).get('/api/v1/account').set(account.auth),
        () => request(url).get('/api/v1/challenges').set(account.auth),
        () => request(url).post('/graphql').set(account.auth).send({ query: '{ me { username } }' }),
      ]) {
        const started = Date.now();
        const res = await call();
        const ms = Date.now() - started;
        expect(res.status === 503 || res.body?.errors?.[0]?.extensions?.code === 'STORE_UNAVAILABLE').toBe(
          true,
        );
        // One timeout at most (the first; later ones fail at once), not two, whatever the load.
        expect(ms).toBeLessThan(1.6 * TIMEOUT_MS);
      }
    } finally {
      redis.freeze(false);
    }
    // Redis answers again: so does the API (the connection's probe saw it).
    const deadline = Date.now() + 5000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await request(url).get('/api/v1/account').set(account.auth)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
  });
});
