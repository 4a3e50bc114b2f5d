// With Redis unreachable every request answers 503 STORE_UNAVAILABLE with Retry-After, never hangs.
import Redis from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import request from 'supertest';
import { createApp, type App } from '../../src/app';
import { MemoryEventBus } from '../../src/store/memory';
import { createRedisStorage, redisClientOptions, redisStorage } from '../../src/store/redis';
import { gql } from '../support/app';

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function expectOutage(res: request.Response) {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('2');
  expect(res.body.code).toBe('STORE_UNAVAILABLE');
}

describe('when Redis cannot be reached', () => {
  let app: App;
  let url: string;
  let deadSubscriber: Redis;
  beforeAll(async () => {
    const port = await freePort();
    const deadClient = () => {
      const client = new Redis(`redis://127.0.0.1:${port}`, { ...redisClientOptions(), lazyConnect: true });
      client.on('error', () => undefined);
      return client;
    };
    deadSubscriber = deadClient();
    // Every store on the unreachable Redis; game updates fan out in memory as before.
    app = await createApp({
      storage: { ...redisStorage(deadClient(), deadSubscriber, 'x:'), events: new MemoryEventBus() },
    });
    url = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`;
  });
  afterAll(async () => {
    await app.stop();
    deadSubscriber.disconnect();
  });

  it('answers REST reads and writes with 503 and Retry-After', async () => {
    expectOutage(await request(url).get('/api/v1/games/AAAAAAAAAAAA'));
    expectOutage(await request(url).post('/api/v1/games').send({ kind: 'kalah' }));
    expectOutage(await request(url).get('/api/v1/games'));
  });

  it('answers GraphQL with STORE_UNAVAILABLE, HTTP 503 and Retry-After', async () => {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ game(id: "AAAAAAAAAAAA") { id } }' }),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    const body = (await res.json()) as { errors: Array<{ extensions: { code: string } }> };
    expect(body.errors[0]?.extensions.code).toBe('STORE_UNAVAILABLE');
  });

  it('reports not ready on /readyz while /healthz stays up', async () => {
    expect((await request(url).get('/readyz')).status).toBe(503);
    expect((await request(url).get('/healthz')).status).toBe(200);
  });
});

describe('when Redis goes away under a running server', () => {
  let redis: ChildProcess | undefined;
  let app: App | undefined;
  afterAll(async () => {
    redis?.kill('SIGKILL');
    await app?.stop();
  });

  it('turns store failures into 503s and serves again once Redis is back', async () => {
    const port = await freePort();
    const start = () =>
      spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
    redis = start();
    for (let i = 0; i < 50; i++) {
      const probe = new Redis(port, { lazyConnect: true, retryStrategy: () => null });
      probe.on('error', () => undefined);
      const up = await probe.connect().then(
        () => true,
        () => false,
      );
      probe.disconnect();
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const storage = await createRedisStorage(`redis://127.0.0.1:${port}`, 'outage:');
    app = await createApp({ storage });
    const url = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`;
    const created = await request(url).post('/api/v1/games').send({ kind: 'kalah' }).expect(201);
    redis.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    expectOutage(await request(url).get(`/api/v1/games/${created.body.game.id}`));
    redis = start();
    let status = 0;
    for (let i = 0; i < 50 && status !== 201; i++) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await request(url).post('/api/v1/games').send({ kind: 'kalah' })).status;
    }
    expect(status).toBe(201);
    const graphql = await gql(url, '{ kinds { kind } }');
    expect(graphql.body.data?.kinds.map((k: { kind: string }) => k.kind)).toContain('kalah');
  });
});
