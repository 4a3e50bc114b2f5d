// An account's own games: the my-turn list by deadline, ongoing and finished lists, keyset
// pagination while games change, kind filters, the NDJSON export, and GraphQL myGames.
import request from 'supertest';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, gql, type Running, type StoreKind } from '../support/app';
import {
  DAY,
  challengeGame,
  fakeClock,
  gameOf,
  iso,
  passingMove,
  restAs,
  type FakeClock,
} from '../support/clocks';
import { expectProblem } from '../support/problem';
import * as S from '../../src/transport/rest/schemas';

const harness = appHarness();
afterAll(() => harness.stopAll());

const T0 = Date.parse('2031-07-01T10:00:00.000Z');
const ids = (games: Array<{ id: string }>) => games.map((g) => g.id);

/** The NDJSON export as parsed lines. */
async function exported(run: Running, who: TestAccount, query = ''): Promise<any[]> {
  const res = await request(run.url)
    .get(`/api/v1/account/games/export${query}`)
    .set(who.auth)
    .buffer(true)
    .parse((stream, done) => {
      let text = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (text += chunk));
      stream.on('end', () => done(null, text));
    })
    .expect(200);
  expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
  const text = res.body as string;
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

describe.each<StoreKind>(['memory', 'redis'])("an account's games on the %s store", (store) => {
  let clock: FakeClock;
  let run: Running;
  let ann: TestAccount;
  let bob: TestAccount;
  let cat: TestAccount;
  /** Ann's games: g1…g6 in creation order (see beforeAll); g7 is bob's and cat's. */
  let g: Record<string, any>;
  beforeAll(async () => {
    clock = fakeClock(T0);
    run = await harness.start(store, { now: clock.now });
    [ann, bob, cat] = await Promise.all([
      signUp(run.app, 'ann', 'human'),
      signUp(run.app, 'bob', 'human'),
      signUp(run.app, 'cat', 'human'),
    ]);
    const corr = (days: number) => ({ type: 'correspondence', daysPerMove: days });
    g = {};
    g.g1 = await challengeGame(run, ann, bob, { timeControl: corr(1) }); // ann to move, T0 + 1 d
    g.g2 = await challengeGame(run, ann, cat, { kind: 'oware', timeControl: corr(3) }); // ann, T0 + 3 d
    g.g3 = await challengeGame(run, bob, ann, { timeControl: corr(2) }); // bob to move
    g.g4 = await challengeGame(run, ann, cat, { kind: 'congkak' }); // ann, no deadline
    g.g5 = await challengeGame(run, ann, bob, {
      timeControl: { type: 'realtime', initialSeconds: 600, incrementSeconds: 0 },
    }); // ann, T0 + 10 min
    g.g6 = await challengeGame(run, ann, bob, { kind: 'congo', timeControl: corr(5) });
    await restAs(run).post(`/games/${g.g6.id}/resign`, ann).expect(200);
    g.g7 = await challengeGame(run, cat, bob);
  });

  const list = async (who: TestAccount, query: string) => {
    const res = await restAs(run).get(`/account/games${query}`, who).expect(200);
    expect(S.GamePage.parse(res.body)).toEqual(res.body);
    return res.body as { items: any[]; next: string | null };
  };
  /** Every page of a list, calling `between(n)` after page n. */
  const pages = async (
    query: string,
    limit: number,
    between: (page: number) => Promise<void> = async () => {},
  ) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 1; page <= 20; page++) {
      const body = await list(ann, `${query}&limit=${limit}${cursor ? `&after=${cursor}` : ''}`);
      expect(body.items.length).toBeLessThanOrEqual(limit);
      seen.push(...ids(body.items));
      if (body.next === null) return seen;
      cursor = body.next;
      await between(page);
    }
    throw new Error('too many pages');
  };

  it('lists my turn by deadline (none last), ongoing and finished newest first, by kind', async () => {
    const my = await list(ann, '?filter=my-turn');
    expect(ids(my.items)).toEqual(ids([g.g5, g.g1, g.g2, g.g4]));
    expect(my.items[0]).toEqual(await gameOf(run, g.g5.id));
    expect(my.items.map((x) => x.deadlineAt)).toEqual([
      iso(T0 + 600_000),
      iso(T0 + DAY),
      iso(T0 + 3 * DAY),
      null,
    ]);
    expect(ids((await list(ann, '?filter=ongoing')).items)).toEqual(ids([g.g5, g.g4, g.g3, g.g2, g.g1]));
    expect(ids((await list(ann, '?filter=finished')).items)).toEqual([g.g6.id]);
    expect(ids((await list(ann, '')).items)).toEqual(ids([g.g6, g.g5, g.g4, g.g3, g.g2, g.g1]));
    expect(ids((await list(ann, '?filter=my-turn&kind=kalah')).items)).toEqual(ids([g.g5, g.g1]));
    expect(ids((await list(ann, '?filter=all&kind=kalah')).items)).toEqual(ids([g.g5, g.g3, g.g1]));
    expect(ids((await list(bob, '?filter=my-turn')).items)).toEqual(ids([g.g3]));
    expect(ids((await list(cat, '?filter=my-turn')).items)).toEqual(ids([g.g7]));
  });

  it('pages the my-turn list exactly once through while games change between pages', async () => {
    const seen = await pages('?filter=my-turn', 1, async (page) => {
      if (page !== 2) return;
      // Bob moves in g3: it becomes ann's turn (deadline T0 + 2 d, after the cursor); ann moves in
      // g5, already listed: it leaves her list.
      const g3 = await gameOf(run, g.g3.id);
      await restAs(run)
        .post(`/games/${g3.id}/moves`, bob, { move: await passingMove(run, g3) })
        .expect(200);
      const g5 = await gameOf(run, g.g5.id);
      await restAs(run)
        .post(`/games/${g5.id}/moves`, ann, { move: await passingMove(run, g5) })
        .expect(200);
    });
    expect(seen).toEqual(ids([g.g5, g.g1, g.g3, g.g2, g.g4]));
    expect(ids((await list(ann, '?filter=my-turn')).items)).toEqual(ids([g.g1, g.g3, g.g2, g.g4]));
  });

  it('pages the ongoing list exactly once through while games change between pages', async () => {
    const seen = await pages('?filter=ongoing', 2, async (page) => {
      if (page !== 1) return;
      // g2 (not listed yet) changes; g4 (listed) ends.
      const g2 = await gameOf(run, g.g2.id);
      await restAs(run).post(`/games/${g2.id}/draw/offer`, ann).expect(200);
      await restAs(run).post(`/games/${g.g4.id}/resign`, ann).expect(200);
    });
    expect(seen).toEqual(ids([g.g5, g.g4, g.g3, g.g2, g.g1]));
    expect(ids((await list(ann, '?filter=finished')).items)).toEqual(ids([g.g6, g.g4]));
  });

  it('exports every game of the account as NDJSON, each line the game as GET returns it', async () => {
    const lines = await exported(run, ann);
    expect(ids(lines)).toEqual(ids([g.g6, g.g5, g.g4, g.g3, g.g2, g.g1]));
    for (const line of lines) expect(line).toEqual(await gameOf(run, line.id));
    expect(ids(await exported(run, bob))).toEqual(ids([g.g7, g.g6, g.g5, g.g3, g.g1]));
    expect(ids(await exported(run, ann, '?status=finished'))).toEqual(ids([g.g6, g.g4]));
    expect(ids(await exported(run, ann, '?kind=kalah&status=ongoing'))).toEqual(ids([g.g5, g.g3, g.g1]));
    const nobody = await signUp(run.app, 'dan', 'human');
    expect(await exported(run, nobody)).toEqual([]);
  });

  it('streams a long export a page at a time, without loss or repetition', async () => {
    const eve = await signUp(run.app, 'eve', 'human');
    const games = run.app.services.games;
    const options = games.parseOptions(games.engineFor('kalah'), {});
    const made: string[] = [];
    for (let i = 0; i < 230; i++) {
      const game = games.newGame({
        kind: 'kalah',
        options,
        first: 0,
        accounts: [eve.id, i % 2 === 0 ? ann.id : bob.id],
        timeControl: { type: 'unlimited' },
        at: iso(T0),
      });
      await run.storage.games.create(game);
      made.push(game.id);
    }
    const reads = jest.spyOn(run.storage.games, 'list');
    try {
      const lines = await exported(run, eve);
      expect(ids(lines)).toEqual([...made].reverse());
      expect(reads.mock.calls.map((call) => call[1])).toEqual([100, 100, 100]);
    } finally {
      reads.mockRestore();
    }
  });

  it('refuses without game:read, and bad filters, kinds and cursors', async () => {
    const rest = restAs(run);
    expectProblem(await rest.get('/account/games'), 401, 'UNAUTHENTICATED');
    expectProblem(await rest.get('/account/games/export'), 401, 'UNAUTHENTICATED');
    const writer = (await rest.post('/account/tokens', ann, { scopes: ['challenge:write'] }).expect(201)).body
      .token;
    const noRead = { ...ann, auth: { authorization: `Bearer ${writer}` } };
    expectProblem(await rest.get('/account/games', noRead), 403, 'MISSING_SCOPE');
    expectProblem(await rest.get('/account/games/export', noRead), 403, 'MISSING_SCOPE');
    expectProblem(await rest.get('/account/games?filter=mine', ann), 400, 'INVALID_INPUT');
    expectProblem(await rest.get('/account/games?kind=chess', ann), 400, 'UNKNOWN_GAME_KIND');
    expectProblem(await rest.get('/account/games?after=xyz', ann), 400, 'INVALID_INPUT');
    expectProblem(await rest.get('/account/games/export?status=lost', ann), 400, 'INVALID_INPUT');
    // A cursor of one list is no cursor of another.
    const page = await list(ann, '?filter=ongoing&limit=1');
    const wrong = await rest.get(`/account/games?filter=my-turn&after=${page.next}`, ann);
    expectProblem(wrong, 400, 'INVALID_INPUT');
  });

  it('answers the same lists over GraphQL myGames', async () => {
    const query = `query ($filter: String, $kind: String, $limit: Int, $after: String) {
      myGames(filter: $filter, kind: $kind, limit: $limit, after: $after) {
        items { id deadlineAt clock { remainingMs runningSeat runningSince } seats { account vacationUntil } }
        next
      } }`;
    for (const filter of ['my-turn', 'ongoing', 'finished', 'all']) {
      const rest = await pages(`?filter=${filter}`, 100);
      const paged: string[] = [];
      let after: string | null = null;
      for (let i = 0; i < 100; i++) {
        const res = await gql(run.url, query, { filter, limit: 2, after }, ann.auth);
        expect(res.body.errors).toBeUndefined();
        const page = res.body.data?.myGames as { items: any[]; next: string | null };
        paged.push(...ids(page.items));
        if (page.next === null) break;
        after = page.next;
      }
      expect(paged).toEqual(rest);
    }
    const one = await gql(run.url, query, { filter: 'ongoing', kind: 'kalah', limit: 1 }, ann.auth);
    const [first] = (await list(ann, '?filter=ongoing&kind=kalah')).items;
    expect(one.body.data?.myGames.items).toEqual([
      {
        id: first.id,
        deadlineAt: first.deadlineAt,
        clock: first.clock,
        seats: first.seats.map((s: any) => ({ account: s.account, vacationUntil: s.vacationUntil })),
      },
    ]);
    const refused = await gql(run.url, query, { filter: 'mine' }, ann.auth);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
    const anonymous = await gql(run.url, query, {});
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('creates seat-token games with a time control over GraphQL', async () => {
    clock.set(T0);
    const res = await gql(
      run.url,
      `mutation { createGame(input: { kind: "oware", timeControl: { type: "realtime", initialSeconds: 90, incrementSeconds: 2 } }) {
        game { id timeControl { type initialSeconds incrementSeconds } clock { remainingMs runningSeat runningSince } deadlineAt }
      } }`,
    );
    expect(res.body.data?.createGame.game).toMatchObject({
      timeControl: { type: 'realtime', initialSeconds: 90, incrementSeconds: 2 },
      clock: { remainingMs: [90_000, 90_000], runningSeat: 0, runningSince: iso(T0) },
      deadlineAt: iso(T0 + 90_000),
    });
    const bad = await gql(
      run.url,
      'mutation { createGame(input: { kind: "oware", timeControl: { type: "blitz" } }) { game { id } } }',
    );
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
  });
});
