// A bot's maxGames and the per-account ongoing-games quota are checked in the write that starts a
// game (20 accepts at once: exactly maxGames games); the per-address daily quotas on sign-ups and
// seat-token games answer 429 QUOTA_EXCEEDED with Retry-After.
import request from 'supertest';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type Running, type StoreKind } from '../support/app';
import { failure } from '../support/graphql';
import { expectProblem } from '../support/problem';

const harness = appHarness();
afterAll(() => harness.stopAll());

function quotas(overrides: Partial<Record<string, number>> = {}) {
  return {
    ongoingGamesPerAccount: 1_000_000,
    tokensPerAccount: 1_000_000,
    accountsPerIpPerDay: 1_000_000,
    gamesPerIpPerDay: 1_000_000,
    ...overrides,
  };
}

async function challenge(run: Running, from: TestAccount, to: TestAccount): Promise<string> {
  const res = await request(run.url)
    .post('/api/v1/challenges')
    .set(from.auth)
    .send({ to: to.username, kind: 'kalah', starts: 'challenger' })
    .expect(201);
  expect(res.body.status).toBe('open');
  return res.body.id as string;
}

describe('maxGames when 20 challenges are accepted at once, on Redis', () => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start('redis');
  });

  it('starts exactly maxGames games; every other accept answers 409 TOO_MANY_GAMES and stays open', async () => {
    const bot = await signUp(run.app, 'busy', 'bot');
    await request(run.url).put('/api/v1/account/bot').set(bot.auth).send({ maxGames: 2 }).expect(200);
    const humans = await Promise.all(Array.from({ length: 20 }, (_, i) => signUp(run.app, `h${i}`, 'human')));
    // All 20 challenges come while the bot has no game, so none is declined on its behalf.
    const ids = await Promise.all(humans.map((h) => challenge(run, h, bot)));
    const accepts = await Promise.all(
      ids.map((id) => request(run.url).post(`/api/v1/challenges/${id}/accept`).set(bot.auth)),
    );
    const started = accepts.filter((a) => a.status === 200);
    expect(started).toHaveLength(2);
    const refused = accepts.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(18);
    for (const res of refused) {
      expectProblem(res, 409, 'TOO_MANY_GAMES');
      expect(res.body).toMatchObject({ account: bot.username, max: 2, limit: 'maxGames' });
    }
    const games = await request(run.url)
      .get('/api/v1/account/games?filter=ongoing')
      .set(bot.auth)
      .expect(200);
    expect(games.body.items).toHaveLength(2);
    expect(await run.storage.games.countOngoing(bot.id)).toBe(2);
    // The refused challenges are still open: once a game ends, one more can start.
    const refusedId = ids[accepts.indexOf(refused[0] as (typeof accepts)[number])] as string;
    expect((await request(run.url).get(`/api/v1/challenges/${refusedId}`).expect(200)).body.status).toBe(
      'open',
    );
    const gameId = started[0]?.body.gameId as string;
    const aborted = await request(run.url).post(`/api/v1/games/${gameId}/abort`).set(bot.auth);
    expect(aborted.status).toBe(200);
    await request(run.url).post(`/api/v1/challenges/${refusedId}/accept`).set(bot.auth).expect(200);
    // GraphQL answers the same code.
    const another = ids.find((id, i) => id !== refusedId && accepts[i]?.status !== 200) as string;
    const viaGraphql = await failure(
      run.url,
      bot.token,
      `mutation { acceptChallenge(id: "${another}") { id } }`,
    );
    expect(viaGraphql.code).toBe('TOO_MANY_GAMES');
  });
});

describe.each<StoreKind>(['redis', 'memory'])('quotas on the %s store', (store) => {
  it('caps every account’s ongoing games (challenges and seeks) with TOO_MANY_GAMES', async () => {
    const run = await harness.start(store, { app: { quotas: quotas({ ongoingGamesPerAccount: 1 }) } });
    const [ann, ben, cid] = await Promise.all([
      signUp(run.app, 'qa', 'human'),
      signUp(run.app, 'qb', 'human'),
      signUp(run.app, 'qc', 'human'),
    ]);
    const first = await challenge(run, ann, ben);
    await request(run.url).post(`/api/v1/challenges/${first}/accept`).set(ben.auth).expect(200);
    const second = await challenge(run, cid, ben);
    const refused = await request(run.url).post(`/api/v1/challenges/${second}/accept`).set(ben.auth);
    expectProblem(refused, 409, 'TOO_MANY_GAMES');
    expect(refused.body).toMatchObject({ account: ben.username, max: 1, limit: 'quota' });
    // Seeks: Ann (full) is refused before she waits; Cid's seek cannot meet full Ben's.
    expectProblem(
      await request(run.url).post('/api/v1/seeks').set(ann.auth).send({ kind: 'kalah' }),
      409,
      'TOO_MANY_GAMES',
    );
    const cidWaits = await request(run.url).post('/api/v1/seeks').set(cid.auth).send({ kind: 'oware' });
    expect(cidWaits.status).toBe(201);
    expectProblem(
      await request(run.url).post('/api/v1/seeks').set(ben.auth).send({ kind: 'oware' }),
      409,
      'TOO_MANY_GAMES',
    );
    expect(await run.storage.games.countOngoing(ben.id)).toBe(1);
  });

  it('answers 429 QUOTA_EXCEEDED with Retry-After past the daily sign-ups and games of an address', async () => {
    const run = await harness.start(store, {
      app: { trustProxy: 'loopback', quotas: quotas({ accountsPerIpPerDay: 2, gamesPerIpPerDay: 2 }) },
    });
    const signUpFrom = (ip: string, username: string) =>
      request(run.url).post('/api/v1/accounts').set('X-Forwarded-For', ip).send({ username });
    const suffix = Math.random().toString(36).slice(2, 8);
    await signUpFrom('192.0.2.1', `qa1-${suffix}`).expect(201);
    await signUpFrom('192.0.2.1', `qa2-${suffix}`).expect(201);
    const refused = await signUpFrom('192.0.2.1', `qa3-${suffix}`);
    expectProblem(refused, 429, 'QUOTA_EXCEEDED');
    expect(refused.body).toMatchObject({ quota: 'accounts', limit: 2 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3600);
    expect((await request(run.url).get(`/api/v1/accounts/qa3-${suffix}`)).status).toBe(404);
    await signUpFrom('192.0.2.2', `qa3-${suffix}`).expect(201);
    // A taken username does not use up the quota.
    expectProblem(await signUpFrom('192.0.2.2', `qa3-${suffix}`), 409, 'USERNAME_TAKEN');
    await signUpFrom('192.0.2.2', `qa4-${suffix}`).expect(201);

    const game = (ip: string) =>
      request(run.url).post('/api/v1/games').set('X-Forwarded-For', ip).send({ kind: 'kalah' });
    await game('192.0.2.9').expect(201);
    await game('192.0.2.9').expect(201);
    const over = await game('192.0.2.9');
    expectProblem(over, 429, 'QUOTA_EXCEEDED');
    expect(over.body).toMatchObject({ quota: 'games', limit: 2 });
    await game('192.0.2.10').expect(201);
  });
});

describe.each<StoreKind>(['redis', 'memory'])(
  'concurrent accepts of one challenge on the %s store',
  (store) => {
    it('keep the game in the ongoing set: 3 challenges each accepted 5 times at once, at most 2 games', async () => {
      const run = await harness.start(store, { app: { quotas: quotas({ ongoingGamesPerAccount: 2 }) } });
      const player = await signUp(run.app, 'racer', 'human');
      const senders = await Promise.all([0, 1, 2].map((i) => signUp(run.app, `s${i}`, 'human')));
      const ids = await Promise.all(senders.map((s) => challenge(run, s, player)));
      // One challenge after the other, each by 5 requests at once (a double-click, a retrying client).
      const outcomes: number[][] = [];
      for (const id of ids) {
        const accepts = await Promise.all(
          Array.from({ length: 5 }, () =>
            request(run.url).post(`/api/v1/challenges/${id}/accept`).set(player.auth),
          ),
        );
        outcomes.push(accepts.map((a) => a.status));
      }
      // The first two start (every repeat answers the same 200); the third is refused.
      expect(outcomes[0]).toEqual([200, 200, 200, 200, 200]);
      expect(outcomes[1]).toEqual([200, 200, 200, 200, 200]);
      expect(outcomes[2]).toEqual([409, 409, 409, 409, 409]);
      const playing = await request(run.url)
        .get('/api/v1/account/games?filter=ongoing')
        .set(player.auth)
        .expect(200);
      const games = (playing.body.items as Array<{ id: string }>).map((g) => g.id).sort();
      expect(games).toEqual([ids[0], ids[1]].sort());
      // The ongoing set (what limits count) matches the games being played, for every player.
      expect(await run.storage.games.countOngoing(player.id)).toBe(2);
      expect(await run.storage.games.countOngoing(senders[0]?.id as string)).toBe(1);
      expect(await run.storage.games.countOngoing(senders[1]?.id as string)).toBe(1);
      expect(await run.storage.games.countOngoing(senders[2]?.id as string)).toBe(0);
    });
  },
);
