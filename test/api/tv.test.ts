// TV: each kind's featured game, followed live and switched when it ends; on real Redis with the
// viewer on one node and the games played on another, and in memory. Ranking: rated games first.
import request from 'supertest';
import { rankForTv } from '../../src/service/game/tv';
import { featuredScore, type StoredGame } from '../../src/store/store';
import { signUp } from '../support/accounts';
import { appHarness, wsClient, type StoreKind } from '../support/app';
import { uniquePrefix } from '../support/redis';
import { ndjsonItems, openStream, type StreamItem } from '../support/stream-reader';

const openTv = (url: string, kind: string) =>
  openStream<StreamItem>(`${url}/api/v1/tv/${kind}/stream`, { accept: 'application/x-ndjson' }, ndjsonItems, {
    source: 'the TV stream',
    ended: 'the TV stream ended',
    item: 'TV message',
  });

describe.each<StoreKind>(['redis', 'memory'])('TV (%s)', (store) => {
  const harness = appHarness();
  afterAll(() => harness.stopAll());

  it('features the top ongoing game, follows it, and switches to the next when it ends', async () => {
    const prefix = uniquePrefix('tv');
    const viewing = await harness.start(store, prefix);
    const playing = store === 'redis' ? await harness.start(store, prefix) : viewing;
    const create = async () => {
      const res = await request(playing.url).post('/api/v1/games').send({ kind: 'oware' }).expect(201);
      return {
        id: res.body.game.id as string,
        tokens: res.body.seatTokens.map((t: { token: string }) => t.token),
      };
    };

    expect((await request(viewing.url).get('/api/v1/tv/congkak').expect(200)).body).toEqual({
      kind: 'congkak',
      game: null,
    });
    const older = await create();
    const newer = await create();
    // Unrated games: the most recently active one is featured.
    const now = await request(viewing.url).get('/api/v1/tv/oware').expect(200);
    expect(now.body.game.id).toBe(newer.id);

    const tv = await openTv(viewing.url, 'oware');
    const second = await openTv(viewing.url, 'oware');
    expect(await tv.next()).toMatchObject({ type: 'featured', game: { id: newer.id, version: 0 } });
    expect(await second.next()).toMatchObject({ type: 'featured', game: { id: newer.id } });

    // A move in the featured game: an update; a move in the other one: nothing.
    const game = (await request(playing.url).get(`/api/v1/games/${newer.id}`).expect(200)).body;
    await request(playing.url)
      .post(`/api/v1/games/${newer.id}/moves`)
      .set('Authorization', `Bearer ${newer.tokens[game.toMove]}`)
      .send({ move: game.legalMoves[0] })
      .expect(200);
    expect(await tv.next()).toMatchObject({
      type: 'update',
      game: { id: newer.id, version: 1 },
      move: { ply: 1 },
    });

    // It ends: its last update, then the next game, whole.
    await request(playing.url)
      .post(`/api/v1/games/${newer.id}/resign`)
      .set('Authorization', `Bearer ${newer.tokens[0]}`)
      .expect(200);
    expect(await tv.next()).toMatchObject({ type: 'update', game: { id: newer.id, status: 'finished' } });
    expect(await tv.next()).toMatchObject({ type: 'featured', game: { id: older.id, status: 'ongoing' } });
    expect(await second.until((m) => m.type === 'featured' && m.game.id === older.id)).toBeTruthy();
    expect((await request(viewing.url).get('/api/v1/tv/oware').expect(200)).body.game.id).toBe(older.id);
    tv.close();
    second.close();
  });

  it('serves the tv subscription over graphql-ws, switching games when one ends', async () => {
    const prefix = uniquePrefix('tvgql');
    const viewing = await harness.start(store, prefix);
    const playing = store === 'redis' ? await harness.start(store, prefix) : viewing;
    const create = async () => {
      const res = await request(playing.url).post('/api/v1/games').send({ kind: 'kalah' }).expect(201);
      return {
        id: res.body.game.id as string,
        tokens: res.body.seatTokens.map((t: { token: string }) => t.token),
      };
    };
    const first = await create();
    const second = await create();
    const client = wsClient(viewing.url);
    const seen: Array<{ id: string; version: number; status: string }> = [];
    const iterator = client.iterate<{ tv: { id: string; version: number; status: string } }>({
      query: 'subscription { tv(kind: "kalah") { id version status } }',
    });
    const next = async () => {
      const result = await iterator.next();
      const game = (result.value as { data: { tv: { id: string; version: number; status: string } } }).data
        .tv;
      seen.push(game);
      return game;
    };
    expect(await next()).toMatchObject({ id: second.id, version: 0, status: 'ongoing' });
    await request(playing.url)
      .post(`/api/v1/games/${second.id}/resign`)
      .set('Authorization', `Bearer ${second.tokens[1]}`)
      .expect(200);
    expect(await next()).toMatchObject({ id: second.id, status: 'finished' });
    expect(await next()).toMatchObject({ id: first.id, status: 'ongoing' });
    await iterator.return?.();
    await client.dispose();

    // An unknown kind fails the subscription with its code.
    const bad = wsClient(viewing.url);
    const refused = bad.iterate({ query: 'subscription { tv(kind: "chess") { id } }' });
    expect(await refused.next()).toMatchObject({
      value: { errors: [{ extensions: { code: 'UNKNOWN_GAME_KIND' } }] },
    });
    await bad.dispose();
  });

  it('features a rated game over a newer casual one, and drops a finished game left in the candidates', async () => {
    const app = await harness.start(store);
    const [a, b] = [await signUp(app.app, 'tva'), await signUp(app.app, 'tvb')];
    const challenge = await request(app.url)
      .post('/api/v1/challenges')
      .set(a.auth)
      .send({ to: b.username, kind: 'kalah', rated: true })
      .expect(201);
    const accepted = await request(app.url)
      .post(`/api/v1/challenges/${challenge.body.id}/accept`)
      .set(b.auth)
      .expect(200);
    const rated = accepted.body.gameId ?? accepted.body.game?.id ?? challenge.body.id;
    // Newer, casual, and a finished game put back in the index as if a node died before removing it.
    const casual = await request(app.url).post('/api/v1/games').send({ kind: 'kalah' }).expect(201);
    const over = await request(app.url).post('/api/v1/games').send({ kind: 'kalah' }).expect(201);
    await request(app.url)
      .post(`/api/v1/games/${over.body.game.id}/resign`)
      .set('Authorization', `Bearer ${over.body.seatTokens[0].token}`)
      .expect(200);
    await app.storage.featured.add('kalah', over.body.game.id, featuredScore([3000, 3000], Date.now()));

    const tv = (await request(app.url).get('/api/v1/tv/kalah').expect(200)).body;
    expect(tv.game.id).toBe(rated);
    expect(tv.game.rated).toBe(true);
    const left = await app.storage.featured.top('kalah', 10);
    expect(left).toContain(casual.body.game.id);
    expect(left).not.toContain(over.body.game.id);
  });

  it('streams the games of chosen accounts as they start and end, once each, and nothing private', async () => {
    const prefix = uniquePrefix('byacc');
    const viewing = await harness.start(store, prefix);
    const playing = store === 'redis' ? await harness.start(store, prefix) : viewing;
    const [a, b, c, d] = await Promise.all(['ga', 'gb', 'gc', 'gd'].map((n) => signUp(playing.app, n)));
    const watch = openStream<StreamItem>(
      `${viewing.url}/api/v1/streams/games?accounts=${a!.username},${b!.username.toUpperCase()},${c!.username}`,
      { accept: 'application/x-ndjson' },
      ndjsonItems,
      { source: 'the games stream', ended: 'the games stream ended', item: 'message' },
    );
    const play = async (from: typeof a, to: typeof a) => {
      const challenge = await request(playing.url)
        .post('/api/v1/challenges')
        .set(from!.auth)
        .send({ to: to!.username, kind: 'kalah' })
        .expect(201);
      const accepted = await request(playing.url)
        .post(`/api/v1/challenges/${challenge.body.id}/accept`)
        .set(to!.auth)
        .expect(200);
      return accepted.body.gameId as string;
    };
    const stream = await watch;
    // A challenge to a watched account (private) is not sent; nor is a game of others (d alone).
    await request(playing.url)
      .post('/api/v1/challenges')
      .set(d!.auth)
      .send({ to: a!.username, kind: 'oware' });
    const ab = await play(a, b); // both watched: one message
    await request(playing.url).post(`/api/v1/games/${ab}/resign`).set(b!.auth).expect(200);
    const cd = await play(d, c); // one watched
    const dd = await request(playing.url).post('/api/v1/games').send({ kind: 'kalah' }).expect(201);
    await request(playing.url)
      .post(`/api/v1/games/${dd.body.game.id}/resign`)
      .set('Authorization', `Bearer ${dd.body.seatTokens[0].token}`)
      .expect(200);
    await request(playing.url).post(`/api/v1/games/${cd}/resign`).set(d!.auth).expect(200);
    const seen: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const m = (await stream.next()) as { type: string; game: { id: string; status: string } };
      seen.push([m.type, m.game.id, m.game.status]);
    }
    expect(seen).toEqual([
      ['game.started', ab, 'ongoing'],
      ['game.finished', ab, 'finished'],
      ['game.started', cd, 'ongoing'],
      ['game.finished', cd, 'finished'],
    ]);
    stream.close();

    const bad = async (query: string, status: number, code: string) => {
      const res = await request(viewing.url).get(`/api/v1/streams/games?${query}`).expect(status);
      expect([res.type, res.body.code]).toEqual(['application/problem+json', code]);
    };
    await bad('accounts=', 400, 'INVALID_INPUT');
    await bad(`accounts=${Array.from({ length: 301 }, (_, i) => `u${i}`).join(',')}`, 400, 'INVALID_INPUT');
    await bad(`accounts=${a!.username},nobody-${prefix.slice(-6)}`, 404, 'ACCOUNT_NOT_FOUND');
  });

  it('refuses an unknown kind with a typed problem', async () => {
    const app = await harness.start(store);
    for (const path of ['/api/v1/tv/chess', '/api/v1/tv/chess/stream']) {
      const res = await request(app.url).get(path).expect(400);
      expect(res.type).toBe('application/problem+json');
      expect(res.body.code).toBe('UNKNOWN_GAME_KIND');
    }
  });
});

describe('TV ranking', () => {
  const game = (id: string, updatedAt: string, ratings: Array<number | undefined>, status = 'ongoing') =>
    ({
      id,
      status,
      updatedAt,
      seats: ratings.map((rating, i) => ({
        seat: i,
        name: `p${i}`,
        account: null,
        ...(rating ? { rating } : {}),
      })),
    }) as unknown as StoredGame;

  it('puts the highest average rating first, then the most recent activity, and drops finished games', () => {
    const ranked = rankForTv([
      game('casual-new', '2026-01-03T00:00:00Z', [undefined, undefined]),
      game('rated-low', '2026-01-01T00:00:00Z', [1400, 1500]),
      game('rated-high', '2026-01-01T00:00:00Z', [2000, 1900]),
      game('rated-high-newer', '2026-01-02T00:00:00Z', [1950, 1950]),
      game('finished', '2026-01-04T00:00:00Z', [2500, 2500], 'finished'),
      game('casual-old', '2026-01-02T00:00:00Z', [undefined, undefined]),
    ]);
    expect(ranked.map((g) => g.id)).toEqual([
      'rated-high-newer',
      'rated-high',
      'rated-low',
      'casual-new',
      'casual-old',
    ]);
  });
});
