// Many watchers of one game on one node share one subscription (each message parsed and viewed
// once) and each still gets every version, in order. Speed: `npm run bench -- fanout`.
import { createClient } from 'graphql-ws';
import Redis from 'ioredis';
import request from 'supertest';
import WebSocket from 'ws';
import { appHarness, type StoreKind } from '../support/app';
import { openGameStream, versionOf } from '../support/game-stream';
import { REDIS_URL, uniquePrefix } from '../support/redis';
import { Keys } from '../../src/store/redis/keys';

const SSE_WATCHERS = 200;
const GRAPHQL_WATCHERS = 20;
const MOVES = 12;

describe.each<StoreKind>(['redis', 'memory'])('many watchers of one game (%s)', (store) => {
  const harness = appHarness();
  afterAll(() => harness.stopAll());

  it(`gives each of ${SSE_WATCHERS} SSE and ${GRAPHQL_WATCHERS} gameUpdated watchers every version in order, over one subscription`, async () => {
    const prefix = uniquePrefix('fanout');
    const watching = await harness.start(store, prefix);
    const playing = store === 'redis' ? await harness.start(store, prefix) : watching;
    const created = await request(playing.url).post('/api/v1/games').send({ kind: 'kalah' }).expect(201);
    const id = created.body.game.id as string;
    const tokens = created.body.seatTokens.map((t: { token: string }) => t.token) as string[];

    const sse = await Promise.all(
      Array.from({ length: SSE_WATCHERS }, () => openGameStream(watching.url, id)),
    );
    const client = createClient({
      url: `${watching.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    const graphql = Array.from({ length: GRAPHQL_WATCHERS }, () => {
      const versions: number[] = [];
      const done = (async () => {
        for await (const result of client.iterate<{ gameUpdated: { version: number } }>({
          query: `subscription { gameUpdated(id: "${id}") { version } }`,
        })) {
          versions.push(result.data!.gameUpdated.version);
          if (versions.length === MOVES + 1) return;
        }
      })();
      return { versions, done };
    });
    await Promise.all(sse.map((w) => w.until((m) => m.type === 'game')));
    // Let the graphql-ws subscriptions start (each gets version 0 first).
    await waitFor(() => graphql.every((g) => g.versions.length > 0));

    const subscribers = async () => {
      const admin = new Redis(REDIS_URL);
      const [, count] = (await admin.call('PUBSUB', 'NUMSUB', new Keys(prefix).gameChannel(id))) as [
        string,
        number,
      ];
      admin.disconnect();
      return count;
    };
    if (store === 'redis') expect(await subscribers()).toBe(1);

    let game = created.body.game;
    for (let i = 0; i < MOVES; i++) {
      const res = await request(playing.url)
        .post(`/api/v1/games/${id}/moves`)
        .set('Authorization', `Bearer ${tokens[game.toMove]}`)
        .send({ move: game.legalMoves[0] });
      expect(res.status).toBe(200);
      game = res.body;
      if (game.status === 'finished') break;
    }
    const last = game.version as number;
    const expected = Array.from({ length: last + 1 }, (_, v) => v);
    await Promise.all(sse.map((w) => w.until((m) => versionOf(m) === last)));
    for (const watcher of sse) {
      expect(watcher.versions()).toEqual(expected);
      watcher.close();
    }
    await waitFor(() => graphql.every((g) => g.versions.length === last + 1));
    for (const g of graphql) expect(g.versions).toEqual(expected);
    await client.dispose();
    // The last watcher gone, the node unsubscribes.
    if (store === 'redis') {
      const deadline = Date.now() + 5000;
      while ((await subscribers()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await subscribers()).toBe(0);
    }
  });
});

async function waitFor(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
