// Games' visibility and pools: a private game answers as a missing one to everyone but its seats, its
// app's bare key and invited spectators, on every read; unlisted games are read by id but never
// listed; only public games of the open pool are in the public listings and on TV.
import request from 'supertest';
import { appHarness, type Running } from '../support/app';
import { signUp, type TestAccount } from '../support/accounts';
import { appAccount, newApp, type TestApp } from '../support/apps';

const harness = appHarness();
afterAll(() => harness.stopAll());

type Headers = Record<string, string>;
type Id = { readonly id: string };

describe.each(['memory', 'redis'] as const)('visibility (%s)', (store) => {
  let running: Running;
  let a: TestApp;
  let b: TestApp;
  let a1: Id, a2: Id, a3: Id, b1: Id;
  let stranger: TestAccount;
  const api = () => request(running.url);

  beforeAll(async () => {
    running = await harness.start(store);
    [a, b] = await Promise.all([newApp(running.app), newApp(running.app)]);
    [a1, a2, a3, b1] = await Promise.all([
      appAccount(running.storage, a, 'one'),
      appAccount(running.storage, a, 'two'),
      appAccount(running.storage, a, 'three'),
      appAccount(running.storage, b, 'other'),
    ]);
    stranger = await signUp(running.app, 'stranger', 'human');
  });

  /** A game of app A between a1 and a2 (a challenge a1 → a2, accepted), with this visibility. */
  async function appGame(visibility?: string): Promise<string> {
    const made = await api()
      .post('/api/v1/challenges')
      .set(a.as(a1.id))
      .send({ to: a2.id, kind: 'kalah', ...(visibility ? { visibility } : {}) });
    expect(made.status).toBe(201);
    expect(made.body.visibility).toBe(visibility ?? 'public');
    const accepted = await api().post(`/api/v1/challenges/${made.body.id}/accept`).set(a.as(a2.id));
    expect(accepted.status).toBe(200);
    return accepted.body.gameId as string;
  }

  const missing = async (id: string, headers: Headers = {}) => {
    const res = await api().get(`/api/v1/games/${id}`).set(headers);
    return { status: res.status, code: res.body.code, detail: res.body.detail };
  };

  test('a private game: 404 as a missing one to strangers, 200 to its seats, app key and spectators', async () => {
    const id = await appGame('private');
    const stored = await running.storage.games.get(id);
    expect(stored).toMatchObject({ app: a.id, pool: a.id, visibility: 'private' });
    const absent = await missing('AAAAAAAAAAAA');
    const asMissing = (r: { status: number; code: string; detail: string }) =>
      expect(r).toEqual({
        status: 404,
        code: 'GAME_NOT_FOUND',
        detail: absent.detail.replace('AAAAAAAAAAAA', id),
      });
    asMissing(await missing(id));
    asMissing(await missing(id, stranger.auth));
    asMissing(await missing(id, b.auth));
    asMissing(await missing(id, b.as(b1.id)));
    asMissing(await missing(id, a.as(a3.id))); // the app acting for a non-seat account
    asMissing(await missing(id, { authorization: 'Bearer bhp_unknown' }));
    for (const headers of [a.as(a1.id), a.as(a2.id), a.auth]) {
      expect((await missing(id, headers)).status).toBe(200);
    }

    // An invited spectator reads it; uninvited, no more.
    const invite = await api().put(`/api/v1/app/games/${id}/spectators/${a3.id}`).set(a.auth);
    expect(invite.status).toBe(200);
    expect(invite.body).toEqual({ gameId: id, spectators: [a3.id] });
    expect((await missing(id, a.as(a3.id))).status).toBe(200);
    const again = await api().put(`/api/v1/app/games/${id}/spectators/${a3.id}`).set(a.auth);
    expect(again.body.spectators).toEqual([a3.id]);
    const gone = await api().delete(`/api/v1/app/games/${id}/spectators/${a3.id}`).set(a.auth);
    expect(gone.body).toEqual({ gameId: id, spectators: [] });
    asMissing(await missing(id, a.as(a3.id)));
    // The invitation made a version, but no feed event and no new updatedAt.
    const after = await running.storage.games.get(id);
    expect(after?.version).toBe((stored?.version ?? 0) + 2);
    expect(after?.updatedAt).toBe(stored?.updatedAt);
    expect(after?.spectators).toBeUndefined();
  });

  test('only the game’s app invites, only its own accounts, at most 50', async () => {
    const id = await appGame('private');
    const other = await api().put(`/api/v1/app/games/${id}/spectators/${b1.id}`).set(b.auth);
    expect([other.status, other.body.code]).toEqual([404, 'GAME_NOT_FOUND']);
    const foreign = await api().put(`/api/v1/app/games/${id}/spectators/${b1.id}`).set(a.auth);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
    const acting = await api().put(`/api/v1/app/games/${id}/spectators/${a3.id}`).set(a.as(a1.id));
    expect(acting.status).toBe(401);
    const many = await Promise.all(
      Array.from({ length: 51 }, (_, i) => appAccount(running.storage, a, `watcher-${id}-${i}`)),
    );
    for (const w of many.slice(0, 50)) {
      const res = await api().put(`/api/v1/app/games/${id}/spectators/${w.id}`).set(a.auth);
      expect(res.status).toBe(200);
    }
    const over = await api().put(`/api/v1/app/games/${id}/spectators/${many[50]?.id}`).set(a.auth);
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'APP_LIMIT_REACHED', what: 'spectators', max: 50 });
    // The players play on (their write retries past the invitations' versions).
    const move = await api().post(`/api/v1/games/${id}/moves`).set(a.as(a1.id)).send({ move: '1' });
    const seat2 = await api().post(`/api/v1/games/${id}/moves`).set(a.as(a2.id)).send({ move: '1' });
    expect([move.status, seat2.status]).toContain(200);
    expect((await running.storage.games.get(id))?.spectators).toHaveLength(50);
  });

  test('a private seat-token game answers its seat tokens only', async () => {
    const made = await api().post('/api/v1/games').send({ kind: 'kalah', visibility: 'private' });
    expect(made.status).toBe(201);
    const id = made.body.game.id as string;
    const other = await api().post('/api/v1/games').send({ kind: 'kalah' });
    for (const seat of made.body.seatTokens as Array<{ token: string }>) {
      expect((await missing(id, { authorization: `Bearer ${seat.token}` })).status).toBe(200);
    }
    const otherSeat = `Bearer ${other.body.seatTokens[0].token}`;
    expect((await missing(id, { authorization: otherSeat })).code).toBe('GAME_NOT_FOUND');
    expect((await missing(id)).code).toBe('GAME_NOT_FOUND');
    expect((await running.storage.games.get(id))?.app).toBeUndefined();
  });

  test('unlisted: read by id, never listed nor on TV; its players still list it', async () => {
    const made = await api().post('/api/v1/games').send({ kind: 'oware', visibility: 'unlisted' });
    const id = made.body.game.id as string;
    const listed = await api().post('/api/v1/games').send({ kind: 'oware' });
    expect((await missing(id)).status).toBe(200);
    const ids = await publicIds('oware');
    expect(ids).toContain(listed.body.game.id);
    expect(ids).not.toContain(id);
    expect(await running.storage.featured.top('oware', 1000)).not.toContain(id);
    // An app game, unlisted: its seats list it, a stranger does not see it listed.
    const appId = await appGame('unlisted');
    expect(await accountIds(a1.id, a.as(a1.id))).toContain(appId);
    expect(await accountIds(a1.id, stranger.auth)).not.toContain(appId);
    expect(await accountIds(a1.id, {})).not.toContain(appId);
  });

  test('an island pool’s public game: readable by anyone, not on GET /games nor TV', async () => {
    const id = await appGame();
    expect(await running.storage.games.get(id)).toMatchObject({ app: a.id, pool: a.id });
    expect((await running.storage.games.get(id))?.visibility).toBeUndefined();
    expect((await missing(id)).status).toBe(200);
    expect(await publicIds('kalah')).not.toContain(id);
    expect(await running.storage.featured.top('kalah', 1000)).not.toContain(id);
    // Its account's game list is its pool's (another pool, anonymous too, sees a missing account's).
    expect(await accountIds(a1.id, a.auth)).toContain(id);
    expect(await accountIds(a1.id, {})).toEqual([]);
    // GraphQL's listing is the same one.
    const gql = await api()
      .post('/graphql')
      .send({ query: '{ games(kind: "kalah", limit: 100) { items { id } } }' });
    expect(gql.body.data.games.items.map((g: Id) => g.id)).not.toContain(id);
  });

  test('an open-pool public game is listed and on TV as before, its document as small', async () => {
    const o1 = await signUp(running.app, 'open-one', 'human');
    const o2 = await signUp(running.app, 'open-two', 'human');
    const made = await api().post('/api/v1/challenges').set(o1.auth).send({ to: o2.username, kind: 'kalah' });
    const accepted = await api().post(`/api/v1/challenges/${made.body.id}/accept`).set(o2.auth);
    const id = accepted.body.gameId as string;
    const stored = await running.storage.games.get(id);
    expect(stored && ['app', 'pool', 'visibility', 'spectators'].filter((k) => k in stored)).toEqual([]);
    expect(await publicIds('kalah')).toContain(id);
    expect(await running.storage.featured.top('kalah', 1000)).toContain(id);
  });

  async function publicIds(kind: string): Promise<string[]> {
    const res = await api().get(`/api/v1/games?kind=${kind}&limit=100`);
    expect(res.status).toBe(200);
    return res.body.items.map((g: Id) => g.id);
  }

  async function accountIds(account: string, headers: Headers): Promise<string[]> {
    const res = await api().get(`/api/v1/games?account=${account}&limit=100`).set(headers);
    expect(res.status).toBe(200);
    return res.body.items.map((g: Id) => g.id);
  }
});
