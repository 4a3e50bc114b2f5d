// Time controls enforced by the service, on an injected clock: correspondence deadlines swept by
// two app instances over one Redis (each timeout exactly once), late moves refused with TIMEOUT,
// realtime clocks to the millisecond, and deadline reminders.
import request from 'supertest';
import { createApp } from '../../src/app';
import { createMemoryStorage } from '../../src/store/memory';
import { createRedisStorage } from '../../src/store/redis';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, headOf, type Running, type StoreKind } from '../support/app';
import {
  DAY,
  HOUR,
  SECOND,
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
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';

const harness = appHarness();
afterAll(() => harness.stopAll());

const T0 = Date.parse('2031-05-04T09:00:00.000Z');

describe('correspondence timeouts with two app instances on one Redis', () => {
  let clock: FakeClock;
  let a: Running;
  let b: Running;
  let ann: TestAccount;
  let bob: TestAccount;
  beforeAll(async () => {
    clock = fakeClock(T0);
    const prefix = uniquePrefix('clocks');
    a = await harness.start('redis', { prefix, now: clock.now });
    b = await harness.start('redis', { prefix, now: clock.now });
    ann = await signUp(a.app, 'ann', 'human');
    bob = await signUp(b.app, 'bob', 'human');
  });

  const sweepBoth = async (rounds: number) => {
    const results = await Promise.all(
      Array.from({ length: rounds }, (_, i) => (i % 2 === 0 ? a : b).app.services.clocks.sweep()),
    );
    return results.reduce((sum, r) => sum + r.timeouts, 0);
  };

  it('ends a game by timeout exactly once when its deadline passes, whichever instance sweeps', async () => {
    clock.set(T0);
    const tc = { type: 'correspondence', daysPerMove: 2 };
    const started = await challengeGame(a, ann, bob, { timeControl: tc, acceptOn: b });
    expect(started).toMatchObject({ timeControl: tc, clock: null, deadlineAt: iso(T0 + 2 * DAY), toMove: 0 });
    expect(started.seats.map((s: { vacationUntil: unknown }) => s.vacationUntil)).toEqual([null, null]);

    clock.set(T0 + HOUR);
    const move = await passingMove(a, started);
    const moved = await restAs(a).post(`/games/${started.id}/moves`, ann, { move }).expect(200);
    const deadline = T0 + HOUR + 2 * DAY;
    expect(moved.body).toMatchObject({ toMove: 1, deadlineAt: iso(deadline) });

    clock.set(deadline - 1);
    expect(await sweepBoth(4)).toBe(0);
    expect((await gameOf(b, started.id)).status).toBe('ongoing');

    clock.set(deadline);
    let timeouts = 0;
    for (let round = 0; round < 3; round++) timeouts += await sweepBoth(6);
    expect(timeouts).toBe(1);
    const over = await gameOf(a, started.id);
    expect(over).toMatchObject({
      status: 'finished',
      result: { winner: 0, reason: 'timeout' },
      version: moved.body.version + 1,
      toMove: null,
      deadlineAt: null,
      updatedAt: iso(deadline),
    });
    expect(await gameOf(b, started.id)).toEqual(over);
    for (const who of [ann, bob]) {
      const finished = (await feedOf(a, who)).filter((e) => e.type === 'game.finished');
      expect(finished).toHaveLength(1);
      expect(finished[0].data).toEqual({ game: headOf(over), result: over.result });
    }
    // Later sweeps find nothing to do.
    clock.set(deadline + DAY);
    expect(await sweepBoth(4)).toBe(0);
    expect((await gameOf(a, started.id)).version).toBe(over.version);
  });

  it('refuses a move after the deadline with TIMEOUT before any sweep, racing the sweep of the other instance', async () => {
    clock.set(T0);
    const started = await challengeGame(a, ann, bob, {
      timeControl: { type: 'correspondence', daysPerMove: 1 },
    });
    clock.set(T0 + DAY);
    const move = started.legalMoves[0];
    const [late, swept] = await Promise.all([
      restAs(a).post(`/games/${started.id}/moves`, ann, { move }),
      b.app.services.clocks.sweep(),
    ]);
    // Whoever got there first, the move is refused and the game ended once, by timeout.
    expectProblem(late, 409, 'TIMEOUT');
    expect(late.body.result).toEqual({ winner: 1, winnerName: 'north', reason: 'timeout', score: null });
    expect(swept.timeouts).toBeLessThanOrEqual(1);
    const over = await gameOf(b, started.id);
    expect(over).toMatchObject({
      status: 'finished',
      result: late.body.result,
      version: started.version + 1,
    });
    for (const who of [ann, bob]) {
      const forGame = (await feedOf(b, who)).filter(
        (e) => e.type === 'game.finished' && e.data.game.id === started.id,
      );
      expect(forGame).toHaveLength(1);
    }
    // Any later write hears the same, on either instance.
    expectProblem(await restAs(b).post(`/games/${started.id}/moves`, ann, { move }), 409, 'TIMEOUT');
  });
});

describe.each<StoreKind>(['memory', 'redis'])(
  'deadlines enforced by the service on the %s store',
  (store) => {
    let clock: FakeClock;
    let run: Running;
    let ann: TestAccount;
    let bob: TestAccount;
    beforeAll(async () => {
      clock = fakeClock(T0);
      run = await harness.start(store, { now: clock.now });
      ann = await signUp(run.app, 'ann', 'human');
      bob = await signUp(run.app, 'bob', 'bot');
    });
    const sweep = () => run.app.services.clocks.sweep();

    it('refuses any write after the deadline with TIMEOUT and ends the game itself, once', async () => {
      clock.set(T0);
      const started = await challengeGame(run, ann, bob, {
        timeControl: { type: 'correspondence', daysPerMove: 1 },
      });
      clock.set(T0 + DAY - 1);
      const offered = await restAs(run).post(`/games/${started.id}/draw/offer`, bob).expect(200);
      expect(offered.body.deadlineAt).toBe(iso(T0 + DAY));
      clock.set(T0 + DAY);
      const late = await restAs(run).post(`/games/${started.id}/moves`, ann, { move: started.legalMoves[0] });
      expectProblem(late, 409, 'TIMEOUT');
      expect(late.body.result).toMatchObject({ winner: 1, reason: 'timeout' });
      const over = await gameOf(run, started.id);
      expect(over).toMatchObject({ status: 'finished', version: offered.body.version + 1, drawOffer: null });
      expect((await sweep()).timeouts).toBe(0);
      // The text record says why it ended.
      const record = await request(run.url).get(`/api/v1/games/${started.id}/export`).expect(200);
      expect(record.text).toContain('[Termination "timeout"]');
      const again = await restAs(run).post(`/games/${started.id}/resign`, ann);
      expectProblem(again, 409, 'TIMEOUT');
      expect(again.body.result).toEqual(late.body.result);
      for (const who of [ann, bob]) {
        const finished = (await feedOf(run, who)).filter((e) => e.type === 'game.finished');
        expect(finished.map((e) => e.data.game)).toEqual([headOf(over)]);
      }
    });

    it('flags a realtime side exactly when its time reaches zero, increments applied (seat tokens)', async () => {
      clock.set(T0);
      const created = await request(run.url)
        .post('/api/v1/games')
        .send({ kind: 'kalah', timeControl: { type: 'realtime', initialSeconds: 60, incrementSeconds: 5 } })
        .expect(201);
      const tokens = created.body.seatTokens.map((t: { token: string }) => ({
        authorization: `Bearer ${t.token}`,
      }));
      let game = created.body.game;
      const expected = { remaining: [60_000, 60_000], since: T0 };
      const expectClock = (view: any, running: number | null) => {
        expect(view.clock).toEqual({
          remainingMs: expected.remaining,
          runningSeat: running,
          runningSince: running === null ? null : iso(expected.since),
        });
        expect(view.deadlineAt).toBe(
          running === null ? null : iso(expected.since + (expected.remaining[running] ?? 0)),
        );
      };
      expect(game.timeControl).toEqual({ type: 'realtime', initialSeconds: 60, incrementSeconds: 5 });
      expectClock(game, 0);

      /** The side to move plays at `at` (a move that passes the turn). */
      const play = async (at: number) => {
        clock.set(at);
        const seat = game.toMove as number;
        const move = await passingMove(run, game);
        const res = await request(run.url)
          .post(`/api/v1/games/${game.id}/moves`)
          .set(tokens[seat])
          .send({ move })
          .expect(200);
        expected.remaining[seat] = (expected.remaining[seat] ?? 0) - (at - expected.since) + 5000;
        expected.since = at;
        game = res.body;
        expectClock(game, 1 - seat);
        expect(await gameOf(run, game.id)).toEqual(game);
      };
      await play(T0 + 10 * SECOND); // south: 60 − 10 + 5 = 55 s
      await play(T0 + 40_500); // north: 60 − 30.5 + 5 = 34.5 s
      expect(expected.remaining).toEqual([55_000, 34_500]);
      // South flags at 40.5 s + 55 s: one millisecond before, the sweep leaves the game alone and a
      // move is still in time (1 ms left, then the increment).
      clock.set(T0 + 40_500 + 55_000 - 1);
      expect((await sweep()).timeouts).toBe(0);
      expect((await gameOf(run, game.id)).status).toBe('ongoing');
      await play(T0 + 40_500 + 55_000 - 1);
      expect(expected.remaining).toEqual([5_001, 34_500]);
      const flagAt = expected.since + 34_500;
      clock.set(flagAt - 1);
      expect((await sweep()).timeouts).toBe(0);
      expect((await gameOf(run, game.id)).version).toBe(game.version);
      clock.set(flagAt);
      expect((await sweep()).timeouts).toBe(1);
      const over = await gameOf(run, game.id);
      expect(over).toMatchObject({ status: 'finished', result: { winner: 0, reason: 'timeout' } });
      expected.remaining = [5_001, 0];
      expectClock(over, null);
      expect((await sweep()).timeouts).toBe(0);
    });

    it('stops the clocks where they were when a realtime game ends otherwise', async () => {
      clock.set(T0);
      const game = await challengeGame(run, ann, bob, {
        timeControl: { type: 'realtime', initialSeconds: 30, incrementSeconds: 0 },
      });
      expect(game.clock).toEqual({ remainingMs: [30_000, 30_000], runningSeat: 0, runningSince: iso(T0) });
      clock.set(T0 + 12_000);
      const resigned = await restAs(run).post(`/games/${game.id}/resign`, ann).expect(200);
      expect(resigned.body).toMatchObject({
        result: { winner: 1, reason: 'resignation' },
        clock: { remainingMs: [18_000, 30_000], runningSeat: null, runningSince: null },
        deadlineAt: null,
      });
    });

    it('reminds the account to move once, when 10% of the period (at most 24 h) is left', async () => {
      clock.set(T0);
      const game = await challengeGame(run, ann, bob, {
        timeControl: { type: 'correspondence', daysPerMove: 1 },
      });
      const remindAt = T0 + DAY - 2.4 * HOUR;
      const reminders = async (who: TestAccount) =>
        (await feedOf(run, who)).filter((e) => e.type === 'game.deadline_soon' && e.data.game.id === game.id);
      clock.set(remindAt - 1);
      expect((await sweep()).reminders).toBe(0);
      clock.set(remindAt);
      const swept = await Promise.all([sweep(), sweep(), sweep()]);
      expect(swept.reduce((n, r) => n + r.reminders, 0)).toBe(1);
      const [sent] = await reminders(ann);
      expect(sent).toMatchObject({ at: iso(remindAt), data: { seat: 0, deadlineAt: iso(T0 + DAY) } });
      expect(sent.data.game).toEqual(headOf(await gameOf(run, game.id)));
      expect(await reminders(bob)).toEqual([]);
      clock.set(remindAt + HOUR);
      expect((await sweep()).reminders).toBe(0);
      expect(await reminders(ann)).toHaveLength(1);
      // A write in the same turn does not remind again; the next turn reminds the next mover.
      await restAs(run).post(`/games/${game.id}/draw/offer`, bob).expect(200);
      expect((await sweep()).reminders).toBe(0);
      const move = await passingMove(run, await gameOf(run, game.id));
      const moved = await restAs(run).post(`/games/${game.id}/moves`, ann, { move }).expect(200);
      expect(moved.body.deadlineAt).toBe(iso(remindAt + HOUR + DAY));
      clock.set(remindAt + HOUR + DAY - 2.4 * HOUR);
      expect((await sweep()).reminders).toBe(1);
      expect(await reminders(bob)).toHaveLength(1);
      expect(await reminders(ann)).toHaveLength(1);
    });
  },
);

describe('the sweeper of a running app', () => {
  const stops: Array<() => Promise<void>> = [];
  afterAll(() => Promise.all(stops.map((stop) => stop())));

  /** Polls until `check` holds (or fails after `ms`). */
  async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<void> {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('sweeps every interval on its own (Redis, injected clock)', async () => {
    const clock = fakeClock(T0);
    const prefix = uniquePrefix('sweeper');
    const storage = await createRedisStorage(REDIS_URL, prefix);
    const app = await createApp({ storage, now: clock.now, sweepIntervalMs: 50 });
    stops.push(async () => {
      await app.stop();
      await deletePrefix(prefix);
    });
    const ann = await signUp(app, 'ann', 'human');
    const bob = await signUp(app, 'bob', 'human');
    const challenge = await app.services.challenges.create(
      { token: ann.token },
      {
        to: bob.username,
        kind: 'kalah',
        starts: 'challenger',
        timeControl: { type: 'correspondence', daysPerMove: 1 },
      },
    );
    const { gameId } = await app.services.challenges.accept({ token: bob.token }, challenge.id);
    clock.set(T0 + DAY);
    await eventually(async () => (await app.services.games.getGame(gameId as string)).status === 'finished');
    expect((await app.services.games.getGame(gameId as string)).result).toMatchObject({ reason: 'timeout' });
  });

  it('wakes at a deadline a move sets, long before its next interval (memory, real time)', async () => {
    // A clock that runs in real time, moved ahead at will: the sweeper's timers are real.
    let offset = 0;
    const now = () => new Date(Date.now() + offset);
    const app = await createApp({ storage: createMemoryStorage(), now, sweepIntervalMs: 60_000 });
    stops.push(() => app.stop());
    // Let the first sweep (at start) run on an empty store: the next one is a minute away.
    await new Promise((r) => setTimeout(r, 100));
    const games = app.services.games;
    const created = await games.createGame({
      kind: 'kalah',
      timeControl: { type: 'realtime', initialSeconds: 10, incrementSeconds: 0 },
    });
    const tokens = created.seatTokens.map((t) => ({ credential: { token: t.token } }));
    let game = created.game;
    // Each side takes 9.7 s of its 10: then the first side has 0.3 s left.
    for (let i = 0; i < 2; i++) {
      offset += 9_700;
      let move: string | undefined;
      for (const candidate of game.legalMoves) {
        const check = await games.validateMove(game.id, candidate);
        if (check.view.toMove !== game.toMove) move = candidate;
        if (move) break;
      }
      game = await games.submitMove(game.id, move as string, tokens[game.toMove as number] as never);
    }
    // (Real milliseconds pass between the moves too.)
    for (const left of game.clock?.remainingMs ?? []) expect(left).toBeGreaterThan(200);
    for (const left of game.clock?.remainingMs ?? []) expect(left).toBeLessThanOrEqual(300);
    // The next interval is a minute away: only the wake-up at the deadline ends it this soon.
    await eventually(async () => (await games.getGame(game.id)).status === 'finished', 2000);
    expect((await games.getGame(game.id)).result).toMatchObject({ winner: 1, reason: 'timeout' });
  });
});
