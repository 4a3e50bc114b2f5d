// A stalled Redis (CLIENT PAUSE on a redis-server of the test's own) makes requests answer 503
// STORE_UNAVAILABLE with Retry-After once the command timeout passes, instead of hanging for the
// whole stall; a move whose outcome is unknown is resolved by retrying it with the same key.
import request from 'supertest';
import { createApp, type App } from '../../src/app';
import { toGameError } from '../../src/service/errors';
import { createRedisStorage } from '../../src/store/redis';
import { gql } from '../support/app';
import { startRedisServer, type OwnRedis } from '../support/redis-server';

const TIMEOUT_MS = 400;
const PAUSE_MS = 3000;

describe('when Redis stalls', () => {
  let redis: OwnRedis;
  let app: App;
  let url: string;
  beforeAll(async () => {
    redis = await startRedisServer();
    const storage = await createRedisStorage(redis.url, 'stall:', { commandTimeoutMs: TIMEOUT_MS });
    app = await createApp({ storage, sweepIntervalMs: 0, webhooks: { intervalMs: 0 } });
    url = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`;
  });
  afterAll(async () => {
    await app.stop();
    await redis.stop();
  });

  /** A Kalah game where South has played 3 (and, ending in its store, is to move again). */
  async function gameAfterOneMove(): Promise<{ id: string; south: string }> {
    const created = await request(url).post('/api/v1/games').send({ kind: 'kalah' }).expect(201);
    const id = created.body.game.id as string;
    const south = created.body.seatTokens[0].token as string;
    await request(url)
      .post(`/api/v1/games/${id}/moves`)
      .set('Authorization', `Bearer ${south}`)
      .send({ move: '3' })
      .expect(200);
    return { id, south };
  }

  const move = (id: string, token: string, key: string) =>
    request(url)
      .post(`/api/v1/games/${id}/moves`)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', key)
      .send({ move: '6' });

  it('answers a REST move and a GraphQL query 503 with Retry-After within the timeout; the retry with the same key plays once', async () => {
    const { id, south } = await gameAfterOneMove();
    await redis.pause(PAUSE_MS);
    const started = Date.now();
    const [rest, graphql] = await Promise.all([
      move(id, south, 'stalled-1').then((res) => ({ res, ms: Date.now() - started })),
      gql(url, `{ game(id: "${id}") { id version } }`).then((res) => ({ res, ms: Date.now() - started })),
    ]);
    expect(rest.res.status).toBe(503);
    expect(rest.res.headers['retry-after']).toBe('2');
    expect(rest.res.body.code).toBe('STORE_UNAVAILABLE');
    expect(graphql.res.status).toBe(503);
    expect(graphql.res.body.errors?.[0]?.extensions?.code).toBe('STORE_UNAVAILABLE');
    // Within a few timeouts (each request makes a few commands in turn), far below the stall.
    expect(rest.ms).toBeLessThan(PAUSE_MS - 1000);
    expect(graphql.ms).toBeLessThan(PAUSE_MS - 1000);

    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS - (Date.now() - started) + 100));
    const retried = await move(id, south, 'stalled-1').expect(200);
    expect(retried.body.version).toBe(2);
    const again = await move(id, south, 'stalled-1').expect(200);
    expect(again.body).toEqual(retried.body);
    const game = await request(url).get(`/api/v1/games/${id}`).expect(200);
    expect(game.body.version).toBe(2);
    expect(game.body.ply).toBe(2);
  });

  it('a move whose write timed out may still apply: the retry with the same key answers it, never a second move', async () => {
    const { id, south } = await gameAfterOneMove();
    // Writes (scripts) wait, reads go on: the move's script is sent and then times out.
    await redis.pause(1500, 'WRITE');
    const started = Date.now();
    const failure = await app.service
      .submitMove(id, '6', { credential: { token: south }, idempotencyKey: 'unknown-1' })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    // What the transports answer for it (503, Retry-After):
    expect(toGameError(failure).code).toBe('STORE_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(1400);
    await new Promise((resolve) => setTimeout(resolve, 1500 - (Date.now() - started) + 100));
    // The script ran when the pause ended: the move was played although its request failed.
    expect((await request(url).get(`/api/v1/games/${id}`).expect(200)).body.version).toBe(2);
    const retried = await move(id, south, 'unknown-1').expect(200);
    expect(retried.body).toMatchObject({ version: 2, ply: 2 });
    const game = await request(url).get(`/api/v1/games/${id}`).expect(200);
    expect(game.body.ply).toBe(2);
  });
});
