// Pools (#30): accounts of an island app play, pair, rank and meet only among themselves; the AI is
// everyone's opponent; a shared-pool app's accounts are in the open pool.
import request from 'supertest';
import { ratingResults } from '../../src/service/ratings/results';
import { appHarness, type Running } from '../support/app';
import { appAccount, newApp, type TestApp } from '../support/apps';
import { mintSession } from './isolation-world';

const harness = appHarness();
afterAll(() => harness.stopAll());

describe.each(['memory', 'redis'] as const)('pools (%s)', (store) => {
  let running: Running;
  let url: string;
  let a: TestApp;
  let b: TestApp;
  let shared: TestApp;
  let a1: { id: string; username: string };
  let a2: { id: string; username: string };
  let b1: { id: string; username: string };
  let s1: { id: string; username: string };
  let open: { username: string; token: string };

  beforeAll(async () => {
    running = await harness.start(store);
    url = running.url;
    a = await newApp(running.app, {}, 'pool-a');
    b = await newApp(running.app, {}, 'pool-b');
    shared = await newApp(running.app, { sharedPool: true }, 'pool-shared');
    a1 = await appAccount(running.storage, a, 'one');
    a2 = await appAccount(running.storage, a, 'two');
    b1 = await appAccount(running.storage, b, 'one');
    s1 = await appAccount(running.storage, shared, 'one');
    const username = `open-${Date.now().toString(36)}`;
    const made = await request(url).post('/api/v1/accounts').send({ username });
    expect(made.status).toBe(201);
    open = { username, token: made.body.token.token };
  });

  test('a profile of another pool answers as a missing account; the AI’s and one’s own pool’s answer', async () => {
    const missing = await request(url).get('/api/v1/accounts/no-such-account-here').set(a.as(a1.id));
    const other = await request(url).get(`/api/v1/accounts/${b1.id}`).set(a.as(a1.id));
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('ACCOUNT_NOT_FOUND');
    expect(Object.keys(other.body).sort()).toEqual(Object.keys(missing.body).sort());
    expect((await request(url).get(`/api/v1/accounts/${a2.id}`).set(a.as(a1.id))).status).toBe(200);
    expect((await request(url).get(`/api/v1/accounts/${a2.id}`).set(a.auth)).status).toBe(200);
    expect((await request(url).get(`/api/v1/accounts/${a2.id}`)).status).toBe(404);
    expect((await request(url).get('/api/v1/accounts/ai-level-1').set(a.as(a1.id))).status).toBe(200);
    // Shared pool: the open pool sees its accounts and they see the open ones.
    expect((await request(url).get(`/api/v1/accounts/${s1.id}`)).status).toBe(200);
    expect((await request(url).get(`/api/v1/accounts/${open.username}`).set(shared.as(s1.id))).status).toBe(
      200,
    );
    expect((await request(url).get(`/api/v1/accounts/${open.username}`).set(a.as(a1.id))).status).toBe(404);
    const ratings = await request(url).get(`/api/v1/accounts/${b1.id}/ratings`).set(a.as(a1.id));
    expect(ratings.body.code).toBe('ACCOUNT_NOT_FOUND');
  });

  test('challenges stay in a pool; an open one is accepted only there; the AI is challenged from any pool', async () => {
    const toB = await request(url)
      .post('/api/v1/challenges')
      .set(a.as(a1.id))
      .send({ to: b1.id, kind: 'kalah' });
    expect(toB.status).toBe(404);
    expect(toB.body.code).toBe('ACCOUNT_NOT_FOUND');
    const toOpen = await request(url)
      .post('/api/v1/challenges')
      .set(a.as(a1.id))
      .send({ to: open.username, kind: 'kalah' });
    expect(toOpen.body.code).toBe('ACCOUNT_NOT_FOUND');
    const sharedToOpen = await request(url)
      .post('/api/v1/challenges')
      .set(shared.as(s1.id))
      .send({ to: open.username, kind: 'kalah' });
    expect(sharedToOpen.status).toBe(201);
    const openOne = await request(url).post('/api/v1/challenges').set(a.as(a1.id)).send({ kind: 'kalah' });
    expect(openOne.status).toBe(201);
    const byB = await request(url).post(`/api/v1/challenges/${openOne.body.id}/accept`).set(b.as(b1.id));
    expect(byB.status).toBe(404);
    expect(byB.body.code).toBe('CHALLENGE_NOT_FOUND');
    const byOpen = await request(url)
      .post(`/api/v1/challenges/${openOne.body.id}/accept`)
      .set({ authorization: `Bearer ${open.token}` });
    expect(byOpen.body.code).toBe('CHALLENGE_NOT_FOUND');
    expect((await request(url).get(`/api/v1/challenges/${openOne.body.id}`)).status).toBe(404);
    expect((await request(url).get(`/api/v1/challenges/${openOne.body.id}`).set(a.auth)).status).toBe(200);
    const byA2 = await request(url).post(`/api/v1/challenges/${openOne.body.id}/accept`).set(a.as(a2.id));
    expect(byA2.status).toBe(200);
    expect(byA2.body.accepted).toEqual([a2.id]);
    const ai = await request(url)
      .post('/api/v1/challenges/ai')
      .set(a.as(a1.id))
      .send({ kind: 'kalah', level: 1 });
    expect(ai.status).toBe(201);
    // a1's game list: its pool's to read; from another pool (anonymous too) a missing account's.
    const list = (headers: Record<string, string>) =>
      request(url).get(`/api/v1/games?account=${a1.id}`).set(headers);
    expect((await list(a.auth)).body.items.length).toBeGreaterThan(0);
    expect((await list(b.auth)).body.items).toEqual([]);
    expect((await list({})).body.items).toEqual([]);
  });

  test('seeks pair within a pool only', async () => {
    const fromB = await request(url).post('/api/v1/seeks').set(b.as(b1.id)).send({ kind: 'oware' });
    expect(fromB.body.status).toBe('waiting');
    const fromOpen = await request(url)
      .post('/api/v1/seeks')
      .set({ authorization: `Bearer ${open.token}` })
      .send({ kind: 'oware' });
    expect(fromOpen.body.status).toBe('waiting');
    const first = await request(url).post('/api/v1/seeks').set(a.as(a1.id)).send({ kind: 'oware' });
    expect(first.body.status).toBe('waiting');
    const second = await request(url).post('/api/v1/seeks').set(a.as(a2.id)).send({ kind: 'oware' });
    expect(second.body.status).toBe('matched');
    expect(second.body.game.seats.map((s: { account: string }) => s.account).sort()).toEqual(
      [a1.id, a2.id].sort(),
    );
    const cancel = await request(url).delete(`/api/v1/seeks/${fromB.body.id}`).set(a.as(a1.id));
    expect(cancel.body.code).toBe('SEEK_NOT_FOUND');
    expect(await running.storage.seeks.getSeek(fromB.body.id)).toBeDefined();
  });

  test('blocks and bulk pairings name accounts of the pool only', async () => {
    const block = await request(url).put(`/api/v1/account/blocks/${b1.id}`).set(a.as(a1.id));
    expect(block.status).toBe(404);
    expect(block.body.code).toBe('ACCOUNT_NOT_FOUND');
    expect((await request(url).put(`/api/v1/account/blocks/${a2.id}`).set(a.as(a1.id))).status).toBe(204);
    expect((await request(url).delete(`/api/v1/account/blocks/${a2.id}`).set(a.as(a1.id))).status).toBe(204);
    const [ta1, ta2, tb1] = await Promise.all([
      mintSession(running, a, a1.id),
      mintSession(running, a, a2.id),
      mintSession(running, b, b1.id),
    ]);
    const mixed = await request(url)
      .post('/api/v1/bulk-pairings')
      .set(a.as(a1.id))
      .send({ kind: 'kalah', pairs: [[ta1.token, tb1.token]] });
    expect(mixed.status).toBe(404);
    expect(mixed.body.code).toBe('ACCOUNT_NOT_FOUND');
    expect(await running.storage.games.countOngoing(b1.id)).toBe(0);
    const own = await request(url)
      .post('/api/v1/bulk-pairings')
      .set(a.as(a1.id))
      .send({ kind: 'kalah', pairs: [[ta1.token, ta2.token]] });
    expect(own.status).toBe(201);
  });

  test('tournaments: listed, read and joined in their creator’s pool only', async () => {
    const made = await request(url)
      .post('/api/v1/tournaments')
      .set(a.as(a1.id))
      .send({
        name: 'A cup',
        kind: 'kalah',
        format: 'swiss',
        timeControl: { type: 'correspondence', daysPerMove: 3 },
      });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const ids = async (headers: Record<string, string>) =>
      (
        (await request(url).get('/api/v1/tournaments?limit=100').set(headers)).body.items as { id: string }[]
      ).map((t) => t.id);
    expect(await ids(a.auth)).toContain(id);
    expect(await ids({})).not.toContain(id);
    expect(await ids(b.as(b1.id))).not.toContain(id);
    expect((await request(url).get(`/api/v1/tournaments/${id}`)).body.code).toBe('TOURNAMENT_NOT_FOUND');
    expect((await request(url).get(`/api/v1/tournaments/${id}/standings`).set(b.auth)).status).toBe(404);
    const join = await request(url).post(`/api/v1/tournaments/${id}/join`).set(b.as(b1.id));
    expect(join.body.code).toBe('TOURNAMENT_NOT_FOUND');
    expect((await request(url).post(`/api/v1/tournaments/${id}/join`).set(a.as(a2.id))).status).toBe(200);
    const openCup = await request(url)
      .post('/api/v1/tournaments')
      .set({ authorization: `Bearer ${open.token}` })
      .send({
        name: 'Open cup',
        kind: 'kalah',
        format: 'swiss',
        timeControl: { type: 'correspondence', daysPerMove: 3 },
      });
    expect(await ids({})).toContain(openCup.body.id);
    expect(await ids(shared.auth)).toContain(openCup.body.id);
    expect(await ids(a.auth)).not.toContain(openCup.body.id);
  });

  test('leaderboards per pool: a rated result carries its pool (none for the open pool)', async () => {
    const storage = running.storage;
    const game = (seats: [string, string]) => {
      const games = running.app.services.games;
      return games.newGame({
        kind: 'kalah',
        options: games.parseOptions(games.engineFor('kalah'), undefined),
        first: 0,
        accounts: seats,
        timeControl: { type: 'unlimited' } as never,
        at: new Date().toISOString(),
      });
    };
    const end = (g: ReturnType<typeof game>) =>
      ({ ...g, rated: true, status: 'finished', outcome: { winner: 0, reason: 'resignation' } }) as never;
    const island = game([a1.id, a2.id]);
    const islandResults = await ratingResults(storage, { ...island, rated: true }, end(island));
    expect(islandResults.map((r) => r.pool)).toEqual([a.id, a.id]);
    const sharedGame = game([s1.id, open.username.toLowerCase()]);
    const sharedResults = await ratingResults(storage, { ...sharedGame, rated: true }, end(sharedGame));
    expect(sharedResults.map((r) => 'pool' in r)).toEqual([false, false]);
    for (let i = 0; i < 20; i++) {
      await storage.ratings.record({
        account: a1.id,
        name: a1.username,
        category: 'human',
        game: `lb${i}`,
        perf: 'oware.realtime',
        score: i % 2,
        opponent: { rating: 1500, rd: 60, volatility: 0.06 },
        at: new Date(Date.now() - (20 - i) * 60_000).toISOString(),
        pool: a.id,
      });
    }
    const board = async (headers: Record<string, string>) =>
      (
        (await request(url).get('/api/v1/leaderboards/oware/realtime').set(headers)).body.items as {
          username: string;
        }[]
      ).map((e) => e.username);
    expect(await board(a.as(a2.id))).toEqual([a1.username]);
    expect(await board(a.auth)).toEqual([a1.username]);
    expect(await board({})).toEqual([]);
    expect(await board(b.as(b1.id))).toEqual([]);
    expect(await board(shared.auth)).toEqual([]);
  });
});
