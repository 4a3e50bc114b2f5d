// Ending games nobody plays any more: either player resigns at any time, and in an unlimited game
// the player waiting claims victory or a draw once the opponent to move has stayed away for the
// abandon period (3 days by default). Both stores, both transports.
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, headOf, type Running, type StoreKind } from '../support/app';
import {
  DAY,
  HOUR,
  MINUTE,
  challengeGame,
  fakeClock,
  feedOf,
  gameOf,
  iso,
  passingMove,
  restAs,
  type FakeClock,
} from '../support/clocks';
import { gqlAs, ok } from '../support/graphql';
import { expectProblem } from '../support/problem';

const harness = appHarness();
afterAll(() => harness.stopAll());

const T0 = Date.parse('2031-09-01T10:00:00.000Z');
const GAME = 'id version status toMove result { winner reason }';

describe.each<StoreKind>(['memory', 'redis'])('abandoned games and resigning on the %s store', (store) => {
  let clock: FakeClock;
  let run: Running;
  beforeAll(async () => {
    clock = fakeClock(T0);
    run = await harness.start(store, { now: clock.now });
  });

  /** Ann (seat 0, to move) and Bob in a new Kalah game: the game (REST view). */
  const newGame = async (timeControl?: object) => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'bot');
    const game = await challengeGame(run, ann, bob, timeControl ? { timeControl } : {});
    return { ann, bob, game };
  };
  /** The last event of each account's feed about `id`. */
  const lastEvents = async (id: string, ...who: TestAccount[]) =>
    Promise.all(who.map(async (w) => (await feedOf(run, w)).filter((e) => e.data.game?.id === id).at(-1)));

  it('lets the player waiting resign, with If-Match and Idempotency-Key (REST)', async () => {
    clock.set(T0);
    const { ann, bob, game } = await newGame();
    const resign = (version: number, key: string) =>
      restAs(run)
        .post(`/games/${game.id}/resign`, bob)
        .set('If-Match', `"${version}"`)
        .set('Idempotency-Key', key);
    expect(game.toMove).toBe(0);
    expectProblem(await resign(game.version + 1, 'r-1'), 409, 'VERSION_CONFLICT');
    const resigned = await resign(game.version, 'r-1').expect(200);
    expect(resigned.body).toMatchObject({
      status: 'finished',
      version: game.version + 1,
      result: { winner: 0, reason: 'resignation' },
    });
    // The retry answers the same; the game is as that answer says; both feeds end with it.
    expect((await resign(game.version, 'r-1').expect(200)).body).toEqual(resigned.body);
    expect(await gameOf(run, game.id)).toEqual(resigned.body);
    for (const event of await lastEvents(game.id, ann, bob)) {
      expect(event).toMatchObject({
        type: 'game.finished',
        data: { game: headOf(resigned.body), result: resigned.body.result },
      });
    }
    expectProblem(await restAs(run).post(`/games/${game.id}/resign`, ann), 409, 'GAME_OVER');
  });

  it('lets the player waiting resign over GraphQL, and the player to move too', async () => {
    const { ann, bob, game } = await newGame();
    const resign = `mutation ($id: ID!, $v: Int, $k: String) { resign(id: $id, expectedVersion: $v, idempotencyKey: $k) { ${GAME} } }`;
    const byBob = await ok(run.url, bob.token, resign, { id: game.id, v: game.version, k: 'bob-resigns' });
    expect(byBob.resign).toMatchObject({ status: 'finished', result: { winner: 0, reason: 'resignation' } });
    const other = await challengeGame(run, ann, bob);
    const byAnn = await ok(run.url, ann.token, resign, { id: other.id });
    expect(byAnn.resign.result).toEqual({ winner: 1, reason: 'resignation' });
  });

  it('says from when the player waiting may claim (claimableAt), over REST and GraphQL alike', async () => {
    clock.set(T0);
    const { ann, bob, game } = await newGame();
    const claimableAt = async (id: string) => {
      const rest = (await gameOf(run, id)).claimableAt;
      const graphql = await ok(run.url, bob.token, 'query ($id: ID!) { game(id: $id) { claimableAt } }', {
        id,
      });
      expect(graphql.game.claimableAt).toBe(rest);
      return rest;
    };
    // From the start: Ann is to move, Bob may claim 3 days after the game began.
    expect(game.claimableAt).toBe(iso(T0 + 3 * DAY));
    expect(await claimableAt(game.id)).toBe(iso(T0 + 3 * DAY));
    // Ann moves: Bob's turn begins, so the period starts again, and the feed's head says so too.
    clock.set(T0 + HOUR);
    await restAs(run)
      .post(`/games/${game.id}/moves`, ann, { move: await passingMove(run, game) })
      .expect(200);
    expect(await claimableAt(game.id)).toBe(iso(T0 + HOUR + 3 * DAY));
    const [moved] = await lastEvents(game.id, bob);
    expect(moved.data.game.claimableAt).toBe(iso(T0 + HOUR + 3 * DAY));
    // A write that is not a move (Ann offers a draw a day later) leaves the turn where it began.
    clock.set(T0 + DAY);
    await restAs(run).post(`/games/${game.id}/draw/offer`, ann).expect(200);
    expect(await claimableAt(game.id)).toBe(iso(T0 + HOUR + 3 * DAY));
    // It is the instant the service agrees to: a moment before is too early, then the claim ends it.
    clock.set(T0 + HOUR + 3 * DAY - 1);
    const early = await restAs(run).post(`/games/${game.id}/victory/claim`, ann);
    expectProblem(early, 409, 'CLAIM_TOO_EARLY');
    expect(early.body.claimableAt).toBe(iso(T0 + HOUR + 3 * DAY));
    clock.set(T0 + HOUR + 3 * DAY);
    const won = await restAs(run).post(`/games/${game.id}/victory/claim`, ann).expect(200);
    // Over: nothing to claim any more.
    expect(won.body.claimableAt).toBeNull();
    expect(await claimableAt(game.id)).toBeNull();
  });

  it('has no claimableAt in games with a time control', async () => {
    for (const timeControl of [
      { type: 'realtime', initialSeconds: 600, incrementSeconds: 0 },
      { type: 'correspondence', daysPerMove: 5 },
    ]) {
      clock.set(T0);
      const { bob, game } = await newGame(timeControl);
      expect(game.claimableAt).toBeNull();
      const graphql = await ok(run.url, bob.token, 'query ($id: ID!) { game(id: $id) { claimableAt } }', {
        id: game.id,
      });
      expect(graphql.game.claimableAt).toBeNull();
    }
  });

  describe.each([
    ['rest', 'victory'],
    ['rest', 'draw'],
    ['graphql', 'victory'],
    ['graphql', 'draw'],
  ] as const)('over %s, a claim of %s', (transport, claim) => {
    /** The claim by `who` in game `id`: the game, or the problem (REST body / GraphQL extensions). */
    const claimBy = async (who: TestAccount, id: string, key?: string): Promise<Record<string, any>> => {
      if (transport === 'rest') {
        const req = restAs(run).post(`/games/${id}/${claim}/claim`, who);
        const res = await (key ? req.set('Idempotency-Key', key) : req);
        return res.status === 200 ? { game: res.body } : { status: res.status, ...res.body };
      }
      const mutation = claim === 'victory' ? 'claimVictory' : 'claimDraw';
      const query = `mutation ($id: ID!, $k: String) { ${mutation}(id: $id, idempotencyKey: $k) { ${GAME} } }`;
      const variables = { id, ...(key ? { k: key } : {}) };
      const done = await gqlAs(run.url, who.token, query, variables);
      return done.errors ? { ...done.errors[0]?.extensions } : { game: done.data?.[mutation] };
    };

    it('ends an unlimited game the opponent left for 3 days, not a moment before', async () => {
      clock.set(T0);
      const { ann, bob, game } = await newGame();
      // Ann moves an hour in; from then on Bob is to move, and Ann waits.
      clock.set(T0 + HOUR);
      await restAs(run)
        .post(`/games/${game.id}/moves`, ann, { move: await passingMove(run, game) })
        .expect(200);
      const waiting = await gameOf(run, game.id);
      expect(waiting.toMove).toBe(1);

      clock.set(T0 + HOUR + 3 * DAY - 1);
      expect(await claimBy(ann, game.id)).toMatchObject({
        code: 'CLAIM_TOO_EARLY',
        claimableAt: iso(T0 + HOUR + 3 * DAY),
        abandonClaimSeconds: 3 * 24 * 3600,
      });
      // Bob, to move, has nothing to claim: he can just play.
      expect((await claimBy(bob, game.id)).code).toBe(
        claim === 'victory' ? 'NO_VICTORY_CLAIM' : 'NO_DRAW_CLAIM',
      );
      expect(await gameOf(run, game.id)).toEqual(waiting);

      clock.set(T0 + HOUR + 3 * DAY);
      const claimed = await claimBy(ann, game.id, 'claim-1');
      expect(claimed.game).toMatchObject({
        id: game.id,
        status: 'finished',
        version: waiting.version + 1,
        toMove: null,
        result: { winner: claim === 'victory' ? 0 : null, reason: 'abandoned' },
      });
      // A retry with the same key answers the same; both feeds end with game.finished (abandoned).
      expect(await claimBy(ann, game.id, 'claim-1')).toEqual(claimed);
      const over = await gameOf(run, game.id);
      expect(over.result).toMatchObject({ winner: claim === 'victory' ? 0 : null, reason: 'abandoned' });
      for (const event of await lastEvents(game.id, ann, bob)) {
        expect(event).toMatchObject({
          type: 'game.finished',
          data: { game: headOf(over), result: over.result },
        });
      }
      expect((await claimBy(ann, game.id)).code).toBe('GAME_OVER');
    });
  });

  it('refuses claims in games with a time control (their deadlines end them)', async () => {
    const games: Array<[object, number]> = [
      [{ type: 'realtime', initialSeconds: 600, incrementSeconds: 0 }, 5 * MINUTE],
      [{ type: 'correspondence', daysPerMove: 5 }, 4 * DAY],
    ];
    for (const [timeControl, later] of games) {
      clock.set(T0);
      const { bob, game } = await newGame(timeControl);
      clock.set(T0 + later);
      expectProblem(await restAs(run).post(`/games/${game.id}/victory/claim`, bob), 409, 'NO_VICTORY_CLAIM');
      expectProblem(await restAs(run).post(`/games/${game.id}/draw/claim`, bob), 409, 'NO_DRAW_CLAIM');
      expect(await gameOf(run, game.id)).toEqual(game);
    }
  });

  it('uses the period the app is given (abandonClaimMs)', async () => {
    clock.set(T0);
    const quick = await harness.start(store, { now: clock.now, abandonClaimMs: MINUTE });
    const ann = await signUp(quick.app, 'ann', 'human');
    const bob = await signUp(quick.app, 'bob', 'bot');
    const game = await challengeGame(quick, ann, bob);
    expect(game.claimableAt).toBe(iso(T0 + MINUTE));
    clock.set(T0 + MINUTE - 1);
    const early = await restAs(quick).post(`/games/${game.id}/victory/claim`, bob);
    expectProblem(early, 409, 'CLAIM_TOO_EARLY');
    expect(early.body).toMatchObject({ claimableAt: iso(T0 + MINUTE), abandonClaimSeconds: 60 });
    clock.set(T0 + MINUTE);
    const won = await restAs(quick).post(`/games/${game.id}/victory/claim`, bob).expect(200);
    expect(won.body.result).toMatchObject({ winner: 1, reason: 'abandoned' });
  });
});
