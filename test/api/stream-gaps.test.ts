// Game watchers never miss a version silently when their node's pub/sub connection drops: what
// was published meanwhile is filled in from the store, or, when more than the store's current
// version was lost, the stream ends with UPDATES_LOST (watch again for the game as it is now).
// Each test cuts the watching node off a redis-server of its own: its subscriber connection is
// killed and, in the first two, kept from reconnecting (its ACL user is disabled) while moves are
// made on the other node.
import { createClient } from 'graphql-ws';
import Redis from 'ioredis';
import request from 'supertest';
import WebSocket from 'ws';
import { createApp, type App } from '../../src/app';
import { createRedisStorage } from '../../src/store/redis';
import { openGameStream, versionOf } from '../support/game-stream';
import { subscriptionFailure } from '../support/graphql';
import { startRedisServer, type OwnRedis } from '../support/redis-server';

interface Node {
  readonly app: App;
  readonly url: string;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('game watchers when the node loses its pub/sub connection', () => {
  let redis: OwnRedis;
  let admin: Redis;
  let watching: Node;
  let playing: Node;
  const nodes: Node[] = [];
  const node = async (url: string): Promise<Node> => {
    const storage = await createRedisStorage(url, 'gaps:');
    const app = await createApp({ storage, sweepIntervalMs: 0, webhooks: { intervalMs: 0 } });
    const started = { app, url: `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}` };
    nodes.push(started);
    return started;
  };
  beforeAll(async () => {
    redis = await startRedisServer();
    admin = new Redis(redis.url);
    // The watching node connects as its own user, so that it alone can be kept out.
    await admin.call('ACL', 'SETUSER', 'watcher', 'on', '>watcher-pw', '~*', '&*', '+@all');
    watching = await node(`redis://watcher:watcher-pw@127.0.0.1:${redis.port}`);
    playing = await node(redis.url);
  });
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.app.stop()));
    admin.disconnect();
    await redis.stop();
  });

  /** A new Oware game on the playing node and a function that plays its next legal move there. */
  async function newGame() {
    const created = await request(playing.url).post('/api/v1/games').send({ kind: 'oware' }).expect(201);
    const id = created.body.game.id as string;
    const tokens = created.body.seatTokens.map((t: { token: string }) => t.token) as string[];
    let game = created.body.game;
    const play = async () => {
      const res = await request(playing.url)
        .post(`/api/v1/games/${id}/moves`)
        .set('Authorization', `Bearer ${tokens[game.toMove]}`)
        .send({ move: game.legalMoves[0] });
      expect(res.status).toBe(200);
      game = res.body;
      return game.version as number;
    };
    return { id, play };
  }

  /** Drops every subscriber connection (both nodes'); ioredis reconnects them within ~200 ms. */
  const dropSubscribers = () => admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');

  /** Runs `meanwhile` while the watching node's subscriber is disconnected and cannot reconnect. */
  async function cutOff(meanwhile: () => Promise<void>): Promise<void> {
    await admin.call('ACL', 'SETUSER', 'watcher', 'off');
    try {
      await admin.call('CLIENT', 'KILL', 'USER', 'watcher', 'TYPE', 'pubsub');
      await meanwhile();
    } finally {
      await admin.call('ACL', 'SETUSER', 'watcher', 'on');
    }
  }

  it('fills in the one version published while it was away, from the store (SSE and gameUpdated)', async () => {
    const { id, play } = await newGame();
    const sse = await openGameStream(watching.url, id);
    const gql = subscribeGame(watching.url, id);
    await sse.until((m) => m.type === 'game');
    expect(await gql.next()).toBe(0);
    // Published while the watching node is away: no message reaches it.
    await cutOff(async () => {
      expect(await play()).toBe(1);
    });
    await sse.until((m) => versionOf(m) === 1, 5000);
    expect(await gql.next()).toBe(1);
    // And it goes on live afterwards.
    expect(await play()).toBe(2);
    await sse.until((m) => versionOf(m) === 2, 5000);
    expect(await gql.next()).toBe(2);
    expect(sse.versions()).toEqual([0, 1, 2]);
    sse.close();
    await gql.close();
  });

  it('ends the streams with UPDATES_LOST when versions it can no longer get were lost', async () => {
    const { id, play } = await newGame();
    const sse = await openGameStream(watching.url, id);
    const gql = subscribeGame(watching.url, id);
    await sse.until((m) => m.type === 'game');
    expect(await gql.next()).toBe(0);
    await cutOff(async () => {
      expect(await play()).toBe(1);
      expect(await play()).toBe(2);
    });
    const error = await sse.until((m) => m.type === 'error', 5000);
    expect(error.data).toMatchObject({ code: 'UPDATES_LOST', lastVersion: 0, currentVersion: 2 });
    await sse.ended;
    expect(sse.versions()).toEqual([0]);
    expect(await subscriptionFailure(gql.next())).toMatchObject({
      code: 'UPDATES_LOST',
      extensions: expect.objectContaining({ lastVersion: 0, currentVersion: 2 }),
    });
    await gql.close();
    // Watching again starts from the game as it is now.
    const again = await openGameStream(watching.url, id);
    await again.until((m) => versionOf(m) === 2);
    again.close();
  });

  it('under moves and repeated drops, each watcher gets consecutive versions up to the last, or UPDATES_LOST after its last', async () => {
    const { id, play } = await newGame();
    const watchers = await Promise.all(Array.from({ length: 5 }, () => openGameStream(watching.url, id)));
    await Promise.all(watchers.map((w) => w.until((m) => m.type === 'game')));
    let last = 0;
    for (let round = 0; round < 6; round++) {
      if (round % 2 === 1) await dropSubscribers();
      for (let i = 0; i < 3; i++) last = await play();
      await delay(150);
    }
    await delay(1000);
    for (const watcher of watchers) {
      const versions = watcher.versions();
      expect(versions).toEqual(versions.map((_, i) => i));
      const error = watcher.messages.find((m) => m.type === 'error');
      if (error) {
        expect(error.data).toMatchObject({
          code: 'UPDATES_LOST',
          lastVersion: versions[versions.length - 1],
        });
      } else {
        expect(versions[versions.length - 1]).toBe(last);
      }
      watcher.close();
    }
  });
});

/** `gameUpdated` over graphql-ws: the versions one at a time; a mid-stream error rejects with the errors. */
function subscribeGame(url: string, id: string) {
  const client = createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  const iterator = client.iterate<{ gameUpdated: { version: number } }>({
    query: `subscription { gameUpdated(id: "${id}") { version } }`,
  });
  return {
    async next(): Promise<number> {
      const result = await iterator.next();
      if (result.done) throw new Error('the subscription completed');
      if (result.value.errors) throw result.value.errors;
      return result.value.data!.gameUpdated.version;
    },
    async close() {
      await iterator.return?.();
      await client.dispose();
    },
  };
}
