// Bulk pairings on a real Redis: many games between pairs of accounts in one all-or-nothing call,
// each player consenting with its own token (docs/data-model.md, "Bulk pairings").
import request from 'supertest';
import { BULK_LOOKUP_BATCH, bulkGameId } from '../../src/service/challenges/bulks';
import type { StoredBulk } from '../../src/store/store';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type Running } from '../support/app';
import { failure, ok } from '../support/graphql';
import { expectProblem } from '../support/problem';
import { uniquePrefix } from '../support/redis';

const harness = appHarness();
afterAll(() => harness.stopAll());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A token of `account` with the bulk scope (an account's first token lacks it). */
async function bulkToken(run: Running, account: TestAccount): Promise<{ authorization: string }> {
  const issued = await run.app.services.accounts.createToken(
    { token: account.token },
    { label: 'bulk', scopes: ['challenge:bulk'] },
  );
  return { authorization: `Bearer ${issued.token}` };
}

async function players(run: Running, n: number, label = 'p'): Promise<TestAccount[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => signUp(run.app, `${label}${i}`, 'human')));
}

const pairsOf = (accounts: readonly TestAccount[]) =>
  Array.from({ length: accounts.length / 2 }, (_, i) => [
    (accounts[2 * i] as TestAccount).token,
    (accounts[2 * i + 1] as TestAccount).token,
  ]);

async function ongoing(run: Running, accounts: readonly TestAccount[]): Promise<number[]> {
  return Promise.all(accounts.map((a) => run.storage.games.countOngoing(a.id)));
}

async function startedGames(run: Running, account: TestAccount): Promise<string[]> {
  const feed = await run.app.services.feed.read({ token: account.token }, 0, 100);
  return feed.events
    .filter((e) => e.type === 'game.started')
    .map((e) => (e.data as { game: { id: string } }).game.id);
}

/** How many of a bulk's games exist (all or none, always). */
async function gamesOf(run: Running, bulk: StoredBulk | { games: Array<{ id: string }> }): Promise<number> {
  const ids = 'pairs' in bulk ? bulk.pairs.map((p) => p.game) : bulk.games.map((g) => g.id);
  const found = await Promise.all(ids.map((id) => run.storage.games.get(id)));
  return found.filter(Boolean).length;
}

describe('bulk pairing on Redis', () => {
  let run: Running;
  let creator: TestAccount;
  let auth: { authorization: string };
  beforeAll(async () => {
    run = await harness.start('redis');
    creator = await signUp(run.app, 'organizer', 'human');
    auth = await bulkToken(run, creator);
  });

  it('creates every game: seats bound, source bulk, game.started in both feeds, listed and readable', async () => {
    const accounts = await players(run, 6);
    const res = await request(run.url)
      .post('/api/v1/bulk-pairings')
      .set(auth)
      .send({ pairs: pairsOf(accounts), kind: 'kalah', options: { seeds: 3 }, rated: true })
      .expect(201);
    expect(res.body).toMatchObject({ state: 'created', creator: creator.id, rated: true, refusal: null });
    expect(res.body.games).toHaveLength(3);
    for (const [i, entry] of (res.body.games as Array<{ id: string; players: string[] }>).entries()) {
      expect(entry.id).toBe(bulkGameId(res.body.id, i));
      const game = await run.storage.games.get(entry.id);
      expect(game?.seats.map((s) => s.account)).toEqual([accounts[2 * i]?.id, accounts[2 * i + 1]?.id]);
      expect(game).toMatchObject({
        source: { type: 'bulk', id: res.body.id },
        rated: true,
        options: { seeds: 3 },
      });
      // A rated game's seats carry their ratings as it began (new accounts: provisional).
      for (const seat of game?.seats ?? []) expect(seat).toMatchObject({ provisional: true });
      expect(game?.seats.map((s) => typeof s.rating)).toEqual(['number', 'number']);
      expect(await startedGames(run, accounts[2 * i] as TestAccount)).toEqual([entry.id]);
      expect(await startedGames(run, accounts[2 * i + 1] as TestAccount)).toEqual([entry.id]);
    }
    expect(await ongoing(run, accounts)).toEqual([1, 1, 1, 1, 1, 1]);
    const got = await request(run.url).get(`/api/v1/bulk-pairings/${res.body.id}`).set(auth).expect(200);
    expect(got.body).toEqual(res.body);
    const list = await request(run.url).get('/api/v1/bulk-pairings').set(auth).expect(200);
    expect(list.body.items.map((b: { id: string }) => b.id)).toContain(res.body.id);
    // Another account's bulk is not found; a player's own moves work in its game.
    await request(run.url)
      .get(`/api/v1/bulk-pairings/${res.body.id}`)
      .set((accounts[0] as TestAccount).auth)
      .expect(404);
  });

  describe('refusals: typed, with the failing pair, and nothing created', () => {
    let accounts: TestAccount[];
    beforeAll(async () => {
      accounts = await players(run, 4, 'r');
    });
    afterEach(async () => {
      expect(await ongoing(run, accounts)).toEqual([0, 0, 0, 0]);
      for (const a of accounts) expect(await startedGames(run, a)).toEqual([]);
    });

    it('an unknown or revoked token: 422 BULK_TOKEN_INVALID with index and seat', async () => {
      const pairs = pairsOf(accounts);
      const bad = [pairs[0], [pairs[1]?.[0], 'bhp_nosuchtoken']];
      const res = await request(run.url)
        .post('/api/v1/bulk-pairings')
        .set(auth)
        .send({ pairs: bad, kind: 'kalah' });
      expectProblem(res, 422, 'BULK_TOKEN_INVALID');
      expect(res.body).toMatchObject({ index: 1, seat: 1, reason: 'UNAUTHENTICATED' });
      const spare = await run.app.services.accounts.createToken(
        { token: (accounts[0] as TestAccount).token },
        { label: 'x', scopes: ['challenge:write'] },
      );
      await run.app.services.accounts.revokeToken({ token: (accounts[0] as TestAccount).token }, spare.id);
      const revoked = await request(run.url)
        .post('/api/v1/bulk-pairings')
        .set(auth)
        .send({ pairs: [[spare.token, pairs[1]?.[1]]], kind: 'kalah' });
      expectProblem(revoked, 422, 'BULK_TOKEN_INVALID');
      expect(revoked.body).toMatchObject({ index: 0, seat: 0 });
    });

    // Issue #28 item 11: every token of a bulk was looked up, all at once, whatever the first one
    // was: 500 pairs led by an unknown token cost 1,000 token lookups for one refused request.
    it('stops looking tokens up at the first bad one: 500 pairs led by an unknown token cost a few lookups', async () => {
      const pairs = pairsOf(accounts);
      const good = pairs[0] as string[];
      const many = [['bhp_nosuchtoken', good[1]], ...Array.from({ length: 499 }, () => good)];
      const lookups = jest.spyOn(run.storage.accounts, 'tokenByHash');
      try {
        const res = await request(run.url)
          .post('/api/v1/bulk-pairings')
          .set(auth)
          .send({ pairs: many, kind: 'kalah' });
        expectProblem(res, 422, 'BULK_TOKEN_INVALID');
        expect(res.body).toMatchObject({ index: 0, seat: 0, reason: 'UNAUTHENTICATED' });
        // The creator's own token, and at most one batch of the bulk's (BULK_LOOKUP_BATCH pairs).
        expect(lookups.mock.calls.length).toBeLessThanOrEqual(1 + 2 * BULK_LOOKUP_BATCH);
      } finally {
        lookups.mockRestore();
      }
      // A bad token further on is still found, and named by its place.
      const late = [...Array.from({ length: 60 }, () => good), [good[0], 'bhp_nosuchtoken']];
      const res = await request(run.url)
        .post('/api/v1/bulk-pairings')
        .set(auth)
        .send({ pairs: late, kind: 'kalah' });
      expectProblem(res, 422, 'BULK_TOKEN_INVALID');
      expect(res.body).toMatchObject({ index: 60, seat: 1 });
    });

    it('a token without challenge:write: 422 BULK_TOKEN_SCOPE', async () => {
      const readOnly = await run.app.services.accounts.createToken(
        { token: (accounts[3] as TestAccount).token },
        { label: 'ro', scopes: ['game:read'] },
      );
      const pairs = pairsOf(accounts);
      const res = await request(run.url)
        .post('/api/v1/bulk-pairings')
        .set(auth)
        .send({ pairs: [pairs[0], [pairs[1]?.[0], readOnly.token]], kind: 'kalah' });
      expectProblem(res, 422, 'BULK_TOKEN_SCOPE');
      expect(res.body).toMatchObject({ index: 1, seat: 1, required: ['challenge:write'] });
    });

    it('an account twice: 422 BULK_DUPLICATE_ACCOUNT', async () => {
      const [a, b, c] = accounts as [TestAccount, TestAccount, TestAccount];
      const res = await request(run.url)
        .post('/api/v1/bulk-pairings')
        .set(auth)
        .send({
          pairs: [
            [a.token, b.token],
            [c.token, a.token],
          ],
          kind: 'kalah',
        });
      expectProblem(res, 422, 'BULK_DUPLICATE_ACCOUNT');
      expect(res.body).toMatchObject({ index: 1, seat: 1, account: a.id, firstIndex: 0 });
    });

    it('unknown kind, bad options, more than 500 pairs, a creator token without challenge:bulk', async () => {
      const pairs = pairsOf(accounts);
      const send = (body: object, headers = auth) =>
        request(run.url).post('/api/v1/bulk-pairings').set(headers).send(body);
      expectProblem(await send({ pairs, kind: 'chess' }), 400, 'UNKNOWN_GAME_KIND');
      expectProblem(await send({ pairs, kind: 'kalah', options: { seeds: 99 } }), 400, 'INVALID_INPUT');
      const many = Array.from({ length: 501 }, () => pairs[0]);
      expectProblem(await send({ pairs: many, kind: 'kalah' }), 400, 'INVALID_INPUT');
      expectProblem(await send({ pairs, kind: 'kalah' }, creator.auth), 403, 'MISSING_SCOPE');
    });

    it("an account's cap of ongoing games: 409 TOO_MANY_GAMES with the pair; places given back", async () => {
      const capped = await harness.start('redis', {
        app: {
          quotas: {
            ongoingGamesPerAccount: 1,
            tokensPerAccount: 99,
            accountsPerIpPerDay: 1e6,
            gamesPerIpPerDay: 1e6,
          },
        },
      });
      const four = await players(capped, 4, 'cap');
      const [a, b, c, d] = four as [TestAccount, TestAccount, TestAccount, TestAccount];
      const boss = await bulkToken(capped, await signUp(capped.app, 'boss', 'human'));
      // d already plays one game: the bulk's second pair cannot start.
      await request(capped.url)
        .post('/api/v1/bulk-pairings')
        .set(boss)
        .send({ pairs: [[d.token, (await signUp(capped.app, 'o', 'human')).token]], kind: 'kalah' })
        .expect(201);
      const res = await request(capped.url)
        .post('/api/v1/bulk-pairings')
        .set(boss)
        .send({
          pairs: [
            [a.token, b.token],
            [c.token, d.token],
          ],
          kind: 'kalah',
        });
      expectProblem(res, 409, 'TOO_MANY_GAMES');
      expect(res.body).toMatchObject({ index: 1, account: d.username, max: 1 });
      expect(await ongoing(capped, four)).toEqual([0, 0, 0, 1]);
      const list = await request(capped.url).get('/api/v1/bulk-pairings').set(boss).expect(200);
      const refused = list.body.items.find((x: { state: string }) => x.state === 'refused');
      expect(refused.refusal).toMatchObject({ code: 'TOO_MANY_GAMES', details: { index: 1 } });
      expect(await gamesOf(capped, refused)).toBe(0);
    });
  });

  it('two bulks over the same accounts at once, on two nodes: each is all or nothing', async () => {
    const prefix = uniquePrefix('bulkrace');
    const quotas = {
      ongoingGamesPerAccount: 1,
      tokensPerAccount: 99,
      accountsPerIpPerDay: 1e6,
      gamesPerIpPerDay: 1e6,
    };
    const [one, two] = [
      await harness.start('redis', { prefix, app: { quotas } }),
      await harness.start('redis', { prefix, app: { quotas } }),
    ] as [Running, Running];
    const boss = await bulkToken(one, await signUp(one.app, 'boss', 'human'));
    const outcomes: number[] = [];
    for (let round = 0; round < 6; round++) {
      const accounts = await players(one, 12, `race${round}`);
      // Bulk A pairs 0-1, 2-3, …; bulk B pairs 1-2, 3-4, …: every account is in both.
      const a = pairsOf(accounts);
      const b = pairsOf([...accounts.slice(1), accounts[0] as TestAccount]);
      const [ra, rb] = await Promise.all([
        request(one.url).post('/api/v1/bulk-pairings').set(boss).send({ pairs: a, kind: 'oware' }),
        request(two.url).post('/api/v1/bulk-pairings').set(boss).send({ pairs: b, kind: 'oware' }),
      ]);
      for (const res of [ra, rb]) {
        if (res.status === 201) expect(await gamesOf(one, res.body)).toBe(6);
        else expectProblem(res, 409, 'TOO_MANY_GAMES');
      }
      outcomes.push([ra, rb].filter((r) => r.status === 201).length);
      // Every account plays exactly one game if a bulk won, none if both lost.
      const counts = await ongoing(one, accounts);
      expect(new Set(counts)).toEqual(new Set([outcomes[round] === 1 ? 1 : 0]));
    }
    // Every bulk of the boss, refused or created, has all or none of its games.
    const list = await request(one.url).get('/api/v1/bulk-pairings?limit=100').set(boss).expect(200);
    expect(list.body.items).toHaveLength(12);
    for (const bulk of list.body.items) {
      expect(await gamesOf(one, bulk)).toBe(bulk.state === 'created' ? 6 : 0);
    }
    expect(outcomes.every((n) => n <= 1)).toBe(true);
  });

  it("a node that died midway: another node's sweep refuses a reserving bulk and finishes a committed one", async () => {
    const prefix = uniquePrefix('bulkcrash');
    const node = await harness.start('redis', { prefix, app: { bulks: { sweepMs: 100, leaseMs: 300 } } });
    const accounts = await players(node, 8, 'crash');
    const ids = (i: number) =>
      [(accounts[i] as TestAccount).id, (accounts[i + 1] as TestAccount).id] as const;
    const now = Date.now();
    const base = {
      creator: creator.id,
      kind: 'kalah' as const,
      options: { seeds: 4 },
      timeControl: { type: 'unlimited' as const },
      rated: false,
      first: 0 as const,
      startAt: new Date(now).toISOString(),
      createdAt: new Date(now).toISOString(),
      updatedAt: new Date(now).toISOString(),
      state: 'reserving' as const,
    };
    // The dead node's steps, done through the store as it would have: A reserved and died;
    // B committed, created its first game and died.
    const a: StoredBulk = {
      ...base,
      id: 'crashAbulk01',
      pairs: [0, 2].map((i) => ({ accounts: ids(i), game: bulkGameId('crashAbulk01', i) })),
    };
    const b: StoredBulk = {
      ...base,
      id: 'crashBbulk01',
      pairs: [4, 6].map((i) => ({ accounts: ids(i), game: bulkGameId('crashBbulk01', i) })),
    };
    for (const bulk of [a, b]) {
      await node.storage.bulks.begin(bulk, now + 3000);
      for (const pair of bulk.pairs) {
        const limits = pair.accounts.map((account) => ({ account, max: 10 }));
        expect(await node.storage.games.reserve(pair.game, limits)).toEqual({ status: 'created' });
      }
    }
    expect((await node.storage.bulks.commit(b.id, now, now + 3000))?.state).toBe('creating');
    const first = node.app.services.games.newGame({
      id: b.pairs[0]?.game as string,
      kind: 'kalah',
      options: { seeds: 4 },
      first: 0,
      accounts: ids(4),
      timeControl: { type: 'unlimited' },
      at: base.createdAt,
    });
    await node.storage.games.create({ ...first, source: { type: 'bulk', id: b.id } });
    expect(await ongoing(node, accounts)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    // The live node's sweep takes over once the leases end (3 s after the dead node's start).
    let states: string[] = [];
    for (let i = 0; i < 100 && states.join() !== 'refused,created'; i++) {
      await sleep(100);
      states = await Promise.all([a, b].map(async (x) => (await node.storage.bulks.get(x.id))?.state ?? ''));
    }
    expect(states).toEqual(['refused', 'created']);
    expect((await node.storage.bulks.get(a.id))?.refusal?.code).toBe('INTERRUPTED');
    expect(await gamesOf(node, a)).toBe(0);
    expect(await gamesOf(node, b)).toBe(2);
    expect(await ongoing(node, accounts)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    // The game the dead node created is kept as it was (not made again).
    expect((await node.storage.games.get(first.id))?.createdAt).toBe(base.createdAt);
  });

  it('a scheduled bulk reserves now and creates its games at startAt; one can be canceled before', async () => {
    const accounts = await players(run, 4, 'sched');
    const startAt = new Date(Date.now() + 1500).toISOString();
    const res = await request(run.url)
      .post('/api/v1/bulk-pairings')
      .set(auth)
      .send({ pairs: pairsOf(accounts.slice(0, 2)), kind: 'congkak', startAt })
      .expect(201);
    expect(res.body).toMatchObject({ state: 'scheduled', startAt });
    expect(await gamesOf(run, res.body)).toBe(0);
    expect(await ongoing(run, accounts.slice(0, 2))).toEqual([1, 1]);
    const later = await request(run.url)
      .post('/api/v1/bulk-pairings')
      .set(auth)
      .send({
        pairs: pairsOf(accounts.slice(2)),
        kind: 'kalah',
        startAt: new Date(Date.now() + 60_000).toISOString(),
      })
      .expect(201);
    const canceled = await request(run.url)
      .delete(`/api/v1/bulk-pairings/${later.body.id}`)
      .set(auth)
      .expect(200);
    expect(canceled.body.state).toBe('canceled');
    expect(await ongoing(run, accounts.slice(2))).toEqual([0, 0]);
    expectProblem(
      await request(run.url).delete(`/api/v1/bulk-pairings/${later.body.id}`).set(auth),
      409,
      'BULK_NOT_CANCELABLE',
    );
    let state = 'scheduled';
    for (let i = 0; i < 60 && state !== 'created'; i++) {
      await sleep(100);
      state = (await request(run.url).get(`/api/v1/bulk-pairings/${res.body.id}`).set(auth)).body.state;
    }
    expect(state).toBe('created');
    const game = await run.storage.games.get(res.body.games[0].id);
    expect(Date.parse(game?.createdAt ?? '')).toBeGreaterThanOrEqual(Date.parse(startAt));
    expect(await startedGames(run, accounts[0] as TestAccount)).toEqual([res.body.games[0].id]);
    expectProblem(
      await request(run.url).delete(`/api/v1/bulk-pairings/${res.body.id}`).set(auth),
      409,
      'BULK_NOT_CANCELABLE',
    );
  });

  it('over GraphQL: createBulkPairing, its refusal in extensions, bulkPairing, myBulkPairings, cancel', async () => {
    const accounts = await players(run, 4, 'gql');
    const token = auth.authorization.slice('Bearer '.length);
    const FIELDS = 'id state rated games { id players } refusal { code }';
    const create = `mutation($input: CreateBulkPairingInput!) { createBulkPairing(input: $input) { ${FIELDS} } }`;
    const made = await ok(run.url, token, create, {
      input: { pairs: pairsOf(accounts.slice(0, 2)), kind: 'oware', rated: false },
    });
    expect(made.createBulkPairing).toMatchObject({ state: 'created', rated: false, refusal: null });
    expect(made.createBulkPairing.games[0].players).toEqual([accounts[0]?.id, accounts[1]?.id]);
    expect(await startedGames(run, accounts[1] as TestAccount)).toEqual([made.createBulkPairing.games[0].id]);
    const twice = await failure(run.url, token, create, {
      input: {
        pairs: [
          [accounts[2]?.token, accounts[3]?.token],
          [accounts[3]?.token, accounts[2]?.token],
        ],
        kind: 'oware',
      },
    });
    expect(twice).toMatchObject({ code: 'BULK_DUPLICATE_ACCOUNT', index: 1, seat: 0, firstIndex: 0 });
    const read = await ok(run.url, token, `query($id: ID!) { bulkPairing(id: $id) { ${FIELDS} } }`, {
      id: made.createBulkPairing.id,
    });
    expect(read.bulkPairing).toEqual(made.createBulkPairing);
    const mine = await ok(run.url, token, `{ myBulkPairings(limit: 100) { id } }`);
    expect(mine.myBulkPairings.map((b: { id: string }) => b.id)).toContain(made.createBulkPairing.id);
    const scheduled = await ok(run.url, token, create, {
      input: {
        pairs: pairsOf(accounts.slice(2)),
        kind: 'kalah',
        startAt: new Date(Date.now() + 60_000).toISOString(),
      },
    });
    const cancel = `mutation($id: ID!) { cancelBulkPairing(id: $id) { state } }`;
    expect(
      (await ok(run.url, token, cancel, { id: scheduled.createBulkPairing.id })).cancelBulkPairing.state,
    ).toBe('canceled');
    expect(await failure(run.url, token, cancel, { id: made.createBulkPairing.id })).toMatchObject({
      code: 'BULK_NOT_CANCELABLE',
    });
    expect(await ongoing(run, accounts)).toEqual([1, 1, 0, 0]);
  });

  it('500 pairs in one call, within the body limit', async () => {
    const accounts = await players(run, 1000, 'm');
    const body = JSON.stringify({ pairs: pairsOf(accounts), kind: 'kalah' });
    expect(Buffer.byteLength(body)).toBeLessThan(64 * 1024);
    const res = await request(run.url)
      .post('/api/v1/bulk-pairings')
      .set(auth)
      .set('content-type', 'application/json')
      .send(body);
    expect(res.status).toBe(201);
    expect(res.body.state).toBe('created');
    expect(await gamesOf(run, res.body)).toBe(500);
    expect(new Set(await ongoing(run, accounts))).toEqual(new Set([1]));
  }, 120_000);
});

describe('bulk pairing on the memory store', () => {
  it('creates every game at once, or schedules them for startAt, as on Redis', async () => {
    const run = await harness.start('memory');
    const creator = await signUp(run.app, 'organizer', 'human');
    const auth = await bulkToken(run, creator);
    const accounts = await players(run, 4, 'mem');
    const now = await request(run.url)
      .post('/api/v1/bulk-pairings')
      .set(auth)
      .send({ pairs: pairsOf(accounts.slice(0, 2)), kind: 'kalah' })
      .expect(201);
    expect(now.body.state).toBe('created');
    expect(await startedGames(run, accounts[0] as TestAccount)).toEqual([now.body.games[0].id]);
    const startAt = new Date(Date.now() + 1200).toISOString();
    const later = await request(run.url)
      .post('/api/v1/bulk-pairings')
      .set(auth)
      .send({ pairs: pairsOf(accounts.slice(2)), kind: 'oware', startAt })
      .expect(201);
    expect(later.body.state).toBe('scheduled');
    expect(await ongoing(run, accounts)).toEqual([1, 1, 1, 1]);
    let state = 'scheduled';
    for (let i = 0; i < 60 && state !== 'created'; i++) {
      await sleep(100);
      state = (await request(run.url).get(`/api/v1/bulk-pairings/${later.body.id}`).set(auth)).body.state;
    }
    expect(state).toBe('created');
    expect(await gamesOf(run, later.body)).toBe(1);
  });
});
