// The lobby over REST on both stores (issue #31): GET /seeks (filters, pages, usernames and
// ratings), GET /seeks/stream (a seek added, then removed: canceled, matched, expired), rating
// ranges honoured by pairing (both sides) and by accept, POST /seeks/{id}/accept (exactly once under
// two accepters; blocks, own seeks, restrictions), and pools (an island app's lobby is its own).
import request from 'supertest';
import * as A from '../../src/transport/rest/accounts.schemas';
import { LobbyPage } from '../../src/transport/rest/lobby.routes';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type Running, type StoreKind } from '../support/app';
import { appAccount, newApp } from '../support/apps';
import { expectProblem } from '../support/problem';
import { readStream, type StreamReader } from '../support/stream-reader';

const harness = appHarness();
afterAll(() => harness.stopAll());

let optionSeed = 0;
/** Settings no other test of this file seeks (kalah with its own realtime clock). */
function uniqueSeek(extra: object = {}) {
  optionSeed++;
  return {
    kind: 'kalah',
    timeControl: { type: 'realtime', initialSeconds: 600 + optionSeed, incrementSeconds: 0 },
    ...extra,
  };
}

describe.each<StoreKind>(['memory', 'redis'])('the lobby over REST on the %s store', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });

  const post = (path: string, who: { authorization: string } | null, body: object = {}) => {
    const req = request(run.url).post(`/api/v1${path}`);
    return (who ? req.set(who) : req).send(body);
  };
  const get = (path: string, who?: { authorization: string } | Record<string, string>) => {
    const req = request(run.url).get(`/api/v1${path}`);
    return who ? req.set(who) : req;
  };
  /** Every listed seek of these accounts (all pages), as GET /seeks answers `query`. */
  async function listedOf(accounts: readonly TestAccount[], query = '', who?: { authorization: string }) {
    const ids = new Set(accounts.map((a) => a.id));
    const out: Array<Record<string, any>> = [];
    let after: string | null = null;
    do {
      const sep: string = query ? '&' : '';
      const path: string = `/seeks?${query}${sep}limit=100${after ? `&after=${after}` : ''}`;
      const page = await get(path, who).expect(200);
      expect(LobbyPage.parse(page.body)).toEqual(page.body);
      out.push(...page.body.items.filter((s: { account: string }) => ids.has(s.account)));
      after = page.body.next;
    } while (after);
    return out;
  }

  it('lists waiting seeks with their seekers, filtered and paged; matched and withdrawn ones leave', async () => {
    const [ann, bob, cat] = await Promise.all([
      signUp(run.app, 'ann', 'human'),
      signUp(run.app, 'bob', 'human'),
      signUp(run.app, 'cat', 'human'),
    ]);
    const casual = uniqueSeek({ ratingRange: { min: 1200, max: 1800 } });
    const a = await post('/seeks', ann.auth, casual).expect(201);
    expect(a.body.ratingRange).toEqual({ min: 1200, max: 1800 });
    const b = await post('/seeks', bob.auth, { kind: 'oware', rated: true }).expect(201);
    expect(b.body.ratingRange).toBeNull();
    const c = await post('/seeks', cat.auth, uniqueSeek({ timeControl: null })).expect(201);

    const all = await listedOf([ann, bob, cat]);
    expect(all.map((s) => s.id)).toEqual([a.body.id, b.body.id, c.body.id]);
    expect(all[0]).toMatchObject({
      username: ann.username,
      rating: 1500,
      provisional: true,
      status: 'waiting',
      game: null,
      ratingRange: { min: 1200, max: 1800 },
    });
    // Filters, alone and together.
    expect((await listedOf([ann, bob, cat], 'kind=oware')).map((s) => s.id)).toEqual([b.body.id]);
    expect((await listedOf([ann, bob, cat], 'rated=true')).map((s) => s.id)).toEqual([b.body.id]);
    expect((await listedOf([ann, bob, cat], 'rated=false&kind=kalah')).map((s) => s.id)).toEqual([
      a.body.id,
      c.body.id,
    ]);
    expect((await listedOf([ann, bob, cat], 'timeControl=unlimited&kind=kalah')).map((s) => s.id)).toEqual([
      c.body.id,
    ]);
    expect((await listedOf([ann, bob, cat], 'timeControl=realtime')).map((s) => s.id)).toEqual([a.body.id]);
    // `rating`: only seeks whose range admits it (no range admits every rating).
    expect((await listedOf([ann, bob, cat], 'rating=1100')).map((s) => s.id)).toEqual([b.body.id, c.body.id]);
    expect((await listedOf([ann, bob, cat], 'rating=1800')).map((s) => s.id)).toEqual([
      a.body.id,
      b.body.id,
      c.body.id,
    ]);

    // Pages of one: the cursor walks the same order.
    const first = await get('/seeks?limit=1').expect(200);
    expect(first.body.items).toHaveLength(1);
    expect(typeof first.body.next).toBe('string');
    const second = await get(`/seeks?limit=1&after=${first.body.next}`).expect(200);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);

    // Withdrawn and matched seeks leave the lobby.
    await request(run.url).delete(`/api/v1/seeks/${c.body.id}`).set(cat.auth).expect(204);
    const matched = await post('/seeks', cat.auth, { kind: 'oware', rated: true }).expect(200);
    expect(matched.body.status).toBe('matched');
    expect(await listedOf([ann, bob, cat])).toEqual([expect.objectContaining({ id: a.body.id })]);
  });

  it('refuses bad filters, pages and ranges with INVALID_INPUT, changing nothing', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'after=nope',
      'timeControl=blitz',
      'rated=maybe',
      'rating=-1',
      'rating=4001',
      'colour=white',
    ]) {
      expectProblem(await get(`/seeks?${query}`), 400, 'INVALID_INPUT');
    }
    expectProblem(await get('/seeks?kind=chess'), 400, 'UNKNOWN_GAME_KIND');
    const ann = await signUp(run.app, 'ann', 'human');
    for (const ratingRange of [
      { min: 1800, max: 1200 },
      { min: -5 },
      { max: 4001 },
      { min: 1500.5 },
      { low: 1 },
    ]) {
      expectProblem(await post('/seeks', ann.auth, uniqueSeek({ ratingRange })), 400, 'INVALID_INPUT');
    }
    expect(await listedOf([ann])).toEqual([]);
  });

  it('pairs seeks only when both ranges admit the other seeker', async () => {
    const [ann, bob, cat] = await Promise.all([
      signUp(run.app, 'ann', 'human'),
      signUp(run.app, 'bob', 'human'),
      signUp(run.app, 'cat', 'human'),
    ]);
    const seek = uniqueSeek();
    // Ann (1500) admits anyone from 1000 to 2000; Bob (1500) admits at most 1400: no pair, either way.
    const a = await post('/seeks', ann.auth, { ...seek, ratingRange: { min: 1000, max: 2000 } }).expect(201);
    await post('/seeks', bob.auth, { ...seek, ratingRange: { max: 1400 } }).expect(201);
    // Cat admits 1450–1550; Ann's range admits Cat: they pair (Bob still waits).
    const matched = await post('/seeks', cat.auth, { ...seek, ratingRange: { min: 1450, max: 1550 } }).expect(
      200,
    );
    expect(matched.body.game.seats.map((s: { account: string }) => s.account).sort()).toEqual(
      [ann.id, cat.id].sort(),
    );
    expect((await listedOf([ann, bob, cat])).map((s) => s.account)).toEqual([bob.id]);
    expect(a.body.id).not.toBe(matched.body.id);
  });

  it('accepts a listed seek exactly once under two accepters; refuses own, blocked and out-of-range', async () => {
    const [ann, bob, cat, dan] = (await Promise.all(
      ['ann', 'bob', 'cat', 'dan'].map((label) => signUp(run.app, label, 'human')),
    )) as [TestAccount, TestAccount, TestAccount, TestAccount];
    const seek = await post('/seeks', ann.auth, uniqueSeek({ ratingRange: { min: 1400 } })).expect(201);
    const id = seek.body.id;
    expectProblem(await post(`/seeks/${id}/accept`, null), 401, 'UNAUTHENTICATED');
    expectProblem(await post(`/seeks/${id}/accept`, ann.auth), 403, 'FORBIDDEN');
    expectProblem(await post('/seeks/bad/accept', bob.auth), 400, 'INVALID_INPUT');
    await request(run.url)
      .put(`/api/v1/account/blocks/${dan.username}`)
      .set(ann.auth)
      .expect((r) => {
        expect([200, 201, 204]).toContain(r.status);
      });
    expectProblem(await post(`/seeks/${id}/accept`, dan.auth), 403, 'BLOCKED');

    const [one, two] = await Promise.all([
      post(`/seeks/${id}/accept`, bob.auth),
      post(`/seeks/${id}/accept`, cat.auth),
    ]);
    const statuses = [one.status, two.status].sort();
    expect(statuses).toEqual([200, 404]);
    const won = one.status === 200 ? one : two;
    const lost = one.status === 200 ? two : one;
    const winner = one.status === 200 ? bob : cat;
    expectProblem(lost, 404, 'SEEK_NOT_FOUND');
    expect(A.Seek.parse(won.body)).toEqual(won.body);
    expect(won.body).toMatchObject({ id, status: 'matched', account: ann.id });
    const game = won.body.game;
    expect(game.seats.map((s: { account: string }) => s.account).sort()).toEqual([ann.id, winner.id].sort());
    // One game: each player has exactly this one ongoing game.
    for (const who of [ann, winner]) {
      const mine = await get('/account/games?filter=ongoing', who.auth).expect(200);
      expect(mine.body.items.map((g: { id: string }) => g.id)).toEqual([game.id]);
    }
    const loser = winner === bob ? cat : bob;
    const theirs = await get('/account/games?filter=ongoing', loser.auth).expect(200);
    expect(theirs.body.items).toEqual([]);
    // Gone from the lobby; accepting again: not found.
    expect(await listedOf([ann])).toEqual([]);
    expectProblem(await post(`/seeks/${id}/accept`, loser.auth), 404, 'SEEK_NOT_FOUND');

    // A range the accepter's rating (1500) is outside of.
    const narrow = await post(
      '/seeks',
      ann.auth,
      uniqueSeek({ ratingRange: { min: 1600, max: 1700 } }),
    ).expect(201);
    const refused = await post(`/seeks/${narrow.body.id}/accept`, bob.auth);
    expectProblem(refused, 403, 'RATING_OUT_OF_RANGE');
    expect(refused.body).toMatchObject({ rating: 1500, min: 1600, max: 1700 });
    expect((await listedOf([ann])).map((s) => s.id)).toEqual([narrow.body.id]);
  });

  it('answers a retried accept (same Idempotency-Key) with the same game', async () => {
    const [ann, bob] = await Promise.all([signUp(run.app, 'ann', 'human'), signUp(run.app, 'bob', 'human')]);
    const seek = await post('/seeks', ann.auth, uniqueSeek()).expect(201);
    const key = { ...bob.auth, 'idempotency-key': `accept-${seek.body.id}` };
    const first = await post(`/seeks/${seek.body.id}/accept`, key).expect(200);
    const again = await post(`/seeks/${seek.body.id}/accept`, key).expect(200);
    expect(again.body.game.id).toBe(first.body.game.id);
  });

  it('streams the lobby: the waiting seeks, ready, then seeks added and removed (NDJSON and SSE)', async () => {
    const [ann, bob, cat] = await Promise.all([
      signUp(run.app, 'ann', 'human'),
      signUp(run.app, 'bob', 'human'),
      signUp(run.app, 'cat', 'human'),
    ]);
    const seek = uniqueSeek();
    const waiting = await post('/seeks', ann.auth, seek).expect(201);
    const filter = `kind=kalah&timeControl=realtime`;
    const ndjson = await readStream(`${run.url}/api/v1/seeks/stream?${filter}`, {
      accept: 'application/x-ndjson',
    });
    const sse = await readStream(`${run.url}/api/v1/seeks/stream?${filter}`, { accept: 'text/event-stream' });
    try {
      const readyOf = async (stream: StreamReader, sseForm: boolean) => {
        const seen: string[] = [];
        for (;;) {
          const item = await stream.next(5000);
          const type = sseForm ? item.event : item.type;
          if (type === 'ready') return { seen, ready: sseForm ? item.data : item };
          expect(type).toBe('seek.added');
          seen.push(sseForm ? item.data.id : item.seek.id);
        }
      };
      const [n, s] = [await readyOf(ndjson, false), await readyOf(sse, true)];
      expect(n.seen).toContain(waiting.body.id);
      expect(s.seen).toContain(waiting.body.id);
      expect(n.ready).toMatchObject({ listed: n.seen.length, more: false });

      // Added (with the seeker), then withdrawn.
      const added = await post('/seeks', bob.auth, uniqueSeek()).expect(201);
      expect(await ndjson.next(5000)).toMatchObject({
        type: 'seek.added',
        seek: { id: added.body.id, username: bob.username, rating: 1500 },
      });
      expect(await sse.next(5000)).toMatchObject({ event: 'seek.added', data: { id: added.body.id } });
      await request(run.url).delete(`/api/v1/seeks/${added.body.id}`).set(bob.auth).expect(204);
      expect(await ndjson.next(5000)).toEqual({
        type: 'seek.removed',
        id: added.body.id,
        reason: 'canceled',
      });
      expect(await sse.next(5000)).toEqual({
        event: 'seek.removed',
        data: { id: added.body.id, reason: 'canceled' },
      });

      // Matched by a seek of the same settings: removed, matched (the matching seek is never listed).
      await post('/seeks', cat.auth, seek).expect(200);
      expect(await ndjson.next(5000)).toEqual({
        type: 'seek.removed',
        id: waiting.body.id,
        reason: 'matched',
      });
      expect(await sse.next(5000)).toEqual({
        event: 'seek.removed',
        data: { id: waiting.body.id, reason: 'matched' },
      });
      // A seek the filter leaves out is not sent: the next message is the kalah one after it.
      await post('/seeks', bob.auth, { kind: 'oware' }).expect(201);
      const later = await post('/seeks', bob.auth, uniqueSeek()).expect(201);
      expect(await ndjson.next(5000)).toMatchObject({ type: 'seek.added', seek: { id: later.body.id } });
      await request(run.url).delete(`/api/v1/seeks/${later.body.id}`).set(bob.auth).expect(204);
      expect(await ndjson.next(5000)).toMatchObject({ type: 'seek.removed', id: later.body.id });
    } finally {
      ndjson.close();
      sse.close();
    }
  });

  it('counts the lobby stream in the open-stream caps', async () => {
    const capped = await harness.start(store, {
      app: { streams: { perIp: 1, perToken: 10, maxBufferBytes: 1 << 20 } },
    });
    const first = await readStream(`${capped.url}/api/v1/seeks/stream`, { accept: 'application/x-ndjson' });
    try {
      expect(await first.next(5000)).toMatchObject({ type: 'ready' });
      const refused = await request(capped.url)
        .get('/api/v1/seeks/stream')
        .set('accept', 'application/x-ndjson');
      expectProblem(refused, 429, 'TOO_MANY_STREAMS');
    } finally {
      first.close();
    }
  });

  it("keeps an island app's seeks in its own lobby", async () => {
    const island = await newApp(run.app);
    const [x, y] = await Promise.all([
      appAccount(run.storage, island, 'x'),
      appAccount(run.storage, island, 'y'),
    ]);
    const open = await signUp(run.app, 'open', 'human');
    const seek = await post('/seeks', island.as(x.id), uniqueSeek()).expect(201);
    const openSeek = await post('/seeks', open.auth, uniqueSeek()).expect(201);
    const ids = async (who?: Record<string, string>) => {
      const page = await get('/seeks?limit=100', who).expect(200);
      return page.body.items.map((s: { id: string }) => s.id) as string[];
    };
    // Anonymous viewers and open-pool accounts see the open pool; the app's accounts and key their own.
    expect(await ids()).not.toContain(seek.body.id);
    expect(await ids()).toContain(openSeek.body.id);
    expect(await ids(open.auth)).not.toContain(seek.body.id);
    expect(await ids(island.as(y.id))).toEqual([seek.body.id]);
    expect(await ids(island.auth)).toEqual([seek.body.id]);
    // Neither side takes the other pool's seek.
    expectProblem(await post(`/seeks/${seek.body.id}/accept`, open.auth), 404, 'SEEK_NOT_FOUND');
    expectProblem(await post(`/seeks/${openSeek.body.id}/accept`, island.as(y.id)), 404, 'SEEK_NOT_FOUND');
    const taken = await post(`/seeks/${seek.body.id}/accept`, island.as(y.id)).expect(200);
    expect(taken.body.game.seats.map((s: { account: string }) => s.account).sort()).toEqual(
      [x.id, y.id].sort(),
    );
    await request(run.url).delete(`/api/v1/seeks/${openSeek.body.id}`).set(open.auth).expect(204);
  });

  it("hides a suspended seeker's seek, and refuses a suspended accepter", async () => {
    const island = await newApp(run.app);
    const tag = Math.random().toString(36).slice(2, 8);
    const [x, y, z] = await Promise.all(
      ['x', 'y', 'z'].map((label) => appAccount(run.storage, island, `${label}-${tag}`)),
    );
    const suspend = (label: string) =>
      post(`/app/accounts/${label}-${tag}/suspend`, island.auth, { reason: 'test' }).expect(200);
    const fromX = await post('/seeks', island.as(x!.id), uniqueSeek()).expect(201);
    const fromZ = await post('/seeks', island.as(z!.id), uniqueSeek()).expect(201);
    await suspend('x');
    const page = await get('/seeks?limit=100', island.as(y!.id)).expect(200);
    expect(page.body.items.map((s: { id: string }) => s.id)).toEqual([fromZ.body.id]);
    expectProblem(await post(`/seeks/${fromX.body.id}/accept`, island.as(y!.id)), 404, 'SEEK_NOT_FOUND');
    await suspend('y');
    expectProblem(await post(`/seeks/${fromZ.body.id}/accept`, island.as(y!.id)), 403, 'ACCOUNT_RESTRICTED');
    // Z's seek still waits.
    expect((await get('/seeks?limit=100', island.as(z!.id)).expect(200)).body.items).toHaveLength(1);
  });
});
