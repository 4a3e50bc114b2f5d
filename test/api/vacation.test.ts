// Vacations over REST and GraphQL: the allowance, the clocks of correspondence games standing
// still while the account to move is away, early returns refunding whole days.
import * as C from '../../src/transport/rest/clocks.schemas';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, headOf, gql, type Running, type StoreKind } from '../support/app';
import {
  DAY,
  HOUR,
  challengeGame,
  fakeClock,
  feedOf,
  gameOf,
  iso,
  passingMove,
  restAs,
  type FakeClock,
} from '../support/clocks';
import { expectProblem } from '../support/problem';

const harness = appHarness();
afterAll(() => harness.stopAll());

const T0 = Date.parse('2031-06-01T08:00:00.000Z');
const CORRESPONDENCE = { type: 'correspondence', daysPerMove: 3 };
/** Resolves once `check` holds (polling), fails after 5 s. */
async function waitFor(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5000; !check();) {
    if (Date.now() > deadline) throw new Error('condition not reached in 5 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}
const vacationsOf = (game: { seats: Array<{ vacationUntil: string | null }> }) =>
  game.seats.map((s) => s.vacationUntil);

describe.each<StoreKind>(['memory', 'redis'])('vacations on the %s store', (store) => {
  let clock: FakeClock;
  let run: Running;
  beforeAll(async () => {
    clock = fakeClock(T0);
    run = await harness.start(store, { now: clock.now });
  });
  const vacation = async (who: TestAccount) => {
    const res = await restAs(run).get('/account/vacation', who).expect(200);
    expect(C.Vacation.parse(res.body)).toEqual(res.body);
    return res.body;
  };

  it('pauses the deadlines of the games where the account is to move, shows it, and refunds whole days', async () => {
    clock.set(T0);
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'bot');
    const rest = restAs(run);
    expect(await vacation(ann)).toEqual({
      allowanceDays: 14,
      year: 2031,
      usedDays: 0,
      remainingDays: 14,
      current: null,
    });
    // Ann to move in `mine`; bob to move in `theirs`; a realtime game is not affected.
    const mine = await challengeGame(run, ann, bob, { timeControl: CORRESPONDENCE });
    const theirs = await challengeGame(run, bob, ann, { timeControl: CORRESPONDENCE });
    const blitz = await challengeGame(run, ann, bob, {
      timeControl: { type: 'realtime', initialSeconds: 600, incrementSeconds: 0 },
    });
    expect(mine.deadlineAt).toBe(iso(T0 + 3 * DAY));

    // Five days from T0 + 1 h: ann's clock in `mine` stands still for all of them.
    const from = T0 + HOUR;
    clock.set(from);
    const until = from + 5 * DAY;
    const started = await rest.post('/account/vacation', ann, { days: 5 }).expect(200);
    expect(started.body).toEqual({
      allowanceDays: 14,
      year: 2031,
      usedDays: 5,
      remainingDays: 9,
      current: { from: iso(from), until: iso(until) },
    });
    expect(await vacation(ann)).toEqual(started.body);
    const paused = await gameOf(run, mine.id);
    expect(paused).toMatchObject({ deadlineAt: iso(T0 + 8 * DAY), version: mine.version + 1 });
    expect(vacationsOf(paused)).toEqual([iso(until), null]);
    const other = await gameOf(run, theirs.id);
    expect(other.deadlineAt).toBe(theirs.deadlineAt);
    expect(vacationsOf(other)).toEqual([null, iso(until)]);
    expect(await gameOf(run, blitz.id)).toEqual(blitz);
    expectProblem(await rest.post('/account/vacation', ann, { days: 1 }), 409, 'VACATION_ACTIVE');

    // Bob moves while ann is away: her new turn counts from the end of her vacation.
    clock.set(T0 + DAY);
    const move = await passingMove(run, other);
    const answered = await rest.post(`/games/${theirs.id}/moves`, bob, { move }).expect(200);
    expect(answered.body.deadlineAt).toBe(iso(until + 3 * DAY));
    expect(vacationsOf(answered.body)).toEqual([null, iso(until)]);
    // The original deadline passes: only the realtime game (flagged after 10 minutes) ends.
    clock.set(T0 + 3 * DAY);
    expect((await run.app.services.clocks.sweep()).timeouts).toBe(1);
    expect((await gameOf(run, blitz.id)).result).toMatchObject({ winner: 1, reason: 'timeout' });
    expect((await gameOf(run, mine.id)).status).toBe('ongoing');

    // Back early after 3.5 days: the 1 whole day not begun comes back; the clocks run from now.
    const back = from + 3.5 * DAY;
    clock.set(back);
    const ended = await rest.del('/account/vacation', ann).expect(200);
    expect(ended.body).toMatchObject({ usedDays: 4, remainingDays: 10, current: null });
    const resumed = await gameOf(run, mine.id);
    expect(resumed.deadlineAt).toBe(iso(T0 + 3 * DAY + 3.5 * DAY));
    expect(vacationsOf(resumed)).toEqual([null, null]);
    expect((await gameOf(run, theirs.id)).deadlineAt).toBe(iso(back + 3 * DAY));
    // Ending again changes nothing.
    expect((await rest.del('/account/vacation', ann).expect(200)).body).toEqual(ended.body);

    // The allowance: 10 days left this year.
    const tooMuch = await rest.post('/account/vacation', ann, { days: 11 });
    expectProblem(tooMuch, 409, 'VACATION_ALLOWANCE_EXCEEDED');
    expect(tooMuch.body).toMatchObject({ allowanceDays: 14, usedDays: 4, remainingDays: 10 });
    expectProblem(await rest.post('/account/vacation', ann, { days: 0 }), 400, 'INVALID_INPUT');
    expectProblem(await rest.post('/account/vacation', ann, { days: 1.5 }), 400, 'INVALID_INPUT');
    expect((await rest.post('/account/vacation', ann, { days: 10 }).expect(200)).body.remainingDays).toBe(0);
    // A new year, a new allowance (the vacation still runs).
    clock.set(Date.parse('2032-01-01T00:00:00.000Z'));
    expect(await vacation(ann)).toMatchObject({ year: 2032, usedDays: 0, remainingDays: 14, current: null });
  });

  it('times a game out when the deadline has passed by the time the vacation ends early', async () => {
    clock.set(T0);
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'human');
    const game = await challengeGame(run, ann, bob, {
      timeControl: { type: 'correspondence', daysPerMove: 1 },
    });
    clock.set(T0 + 12 * HOUR);
    await restAs(run).post('/account/vacation', ann, { days: 3 }).expect(200);
    // Thirty hours later ann has 12 h of her day left: she comes back, and her clock runs again.
    clock.set(T0 + 42 * HOUR);
    await restAs(run).del('/account/vacation', ann).expect(200);
    expect((await gameOf(run, game.id)).deadlineAt).toBe(iso(T0 + 54 * HOUR));
    clock.set(T0 + 54 * HOUR);
    expect((await run.app.services.clocks.sweep()).timeouts).toBe(1);
    expect((await gameOf(run, game.id)).result).toMatchObject({ winner: 1, reason: 'timeout' });
  });

  it('makes each version a vacation causes an event on both feeds and the game stream: If-Match play never stalls', async () => {
    clock.set(T0);
    const ann = await signUp(run.app, 'ann', 'bot');
    const bob = await signUp(run.app, 'bob', 'bot');
    const rest = restAs(run);
    const game = await challengeGame(run, ann, bob, { timeControl: CORRESPONDENCE });
    const streamed: number[] = [];
    const unwatch = await run.app.service.watch(game.id, (g) => streamed.push(g.version));
    /** What a bot that reads only its feed knows: the game in its newest event about it. */
    const known = async (who: TestAccount) =>
      (await feedOf(run, who)).filter((e) => e.data.game?.id === game.id).at(-1).data.game;
    /** A bot's move: If-Match the version it knows. */
    const play = async (who: TestAccount, seen: { version: number; id: string }) =>
      rest
        .post(`/games/${game.id}/moves`, who, { move: await passingMove(run, await gameOf(run, game.id)) })
        .set('If-Match', `"${seen.version}"`);

    // Bob, not to move, goes away: his seat shows it, a new version, and both feeds hear of it.
    clock.set(T0 + HOUR);
    await rest.post('/account/vacation', bob, { days: 2 }).expect(200);
    const away = await gameOf(run, game.id);
    expect(away).toMatchObject({ version: game.version + 1, deadlineAt: game.deadlineAt });
    expect(vacationsOf(away)).toEqual([null, iso(T0 + HOUR + 2 * DAY)]);
    for (const who of [ann, bob]) {
      expect((await feedOf(run, who)).at(-1)).toMatchObject({
        type: 'game.updated',
        data: { game: headOf(away) },
      });
    }
    // Ann's move with the version she had is refused; the one her feed now holds plays.
    expectProblem(await play(ann, game), 409, 'VERSION_CONFLICT');
    expect(await known(ann)).toEqual(headOf(away));
    expect((await play(ann, await known(ann))).status).toBe(200);

    // Bob, now to move, comes back early: his deadline moves again, and so does the version.
    clock.set(T0 + DAY);
    const before = await gameOf(run, game.id);
    await rest.del('/account/vacation', bob).expect(200);
    const back = await gameOf(run, game.id);
    expect(back.version).toBe(before.version + 1);
    expect(back.deadlineAt).toBe(iso(T0 + DAY + 3 * DAY));
    expect(await known(bob)).toEqual(headOf(back));
    expect(await known(ann)).toEqual(headOf(back));
    expect((await play(bob, await known(bob))).status).toBe(200);

    // Every version of the game reached both feeds and the stream, in order.
    const last = (await gameOf(run, game.id)).version;
    const versions = Array.from({ length: last + 1 }, (_, v) => v);
    for (const who of [ann, bob]) {
      const events = (await feedOf(run, who)).filter((e) => e.data.game?.id === game.id);
      expect(events.map((e) => e.data.game.version)).toEqual(versions);
    }
    await waitFor(() => streamed.length === versions.length);
    expect(streamed).toEqual(versions);
    await unwatch();
  });

  it('needs the play scope to take a vacation, and game:read to see it; works over GraphQL', async () => {
    const ann = await signUp(run.app, 'ann', 'human');
    const rest = restAs(run);
    const readOnly = (await rest.post('/account/tokens', ann, { scopes: ['game:read'] }).expect(201)).body
      .token;
    const reader = { ...ann, auth: { authorization: `Bearer ${readOnly}` } };
    expectProblem(await rest.post('/account/vacation', reader, { days: 2 }), 403, 'MISSING_SCOPE');
    expectProblem(await rest.del('/account/vacation', reader), 403, 'MISSING_SCOPE');
    expect((await vacation(reader)).usedDays).toBe(0);
    expectProblem(await rest.get('/account/vacation'), 401, 'UNAUTHENTICATED');

    clock.set(T0);
    const fields = 'allowanceDays year usedDays remainingDays current { from until }';
    const startedGql = await gql(run.url, `mutation { startVacation(days: 2) { ${fields} } }`, {}, ann.auth);
    expect(startedGql.body.data?.startVacation).toEqual({
      allowanceDays: 14,
      year: 2031,
      usedDays: 2,
      remainingDays: 12,
      current: { from: iso(T0), until: iso(T0 + 2 * DAY) },
    });
    const again = await gql(run.url, 'mutation { startVacation(days: 2) { usedDays } }', {}, ann.auth);
    expect(again.body.errors?.[0]?.extensions).toMatchObject({
      code: 'VACATION_ACTIVE',
      until: iso(T0 + 2 * DAY),
    });
    const mine = await gql(run.url, `{ myVacation { ${fields} } }`, {}, ann.auth);
    expect(mine.body.data?.myVacation).toEqual(startedGql.body.data?.startVacation);
    clock.set(T0 + DAY / 2);
    const ended = await gql(run.url, `mutation { endVacation { ${fields} } }`, {}, ann.auth);
    expect(ended.body.data?.endVacation).toMatchObject({ usedDays: 1, remainingDays: 13, current: null });
  });
});
