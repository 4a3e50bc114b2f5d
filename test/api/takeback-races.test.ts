// Takebacks against everything else that may happen at once: an accept racing a move, both seats
// offering together, a takeback racing the timeout of a realtime game; the clocks and deadlines
// after a takeback; mancala's chained extra turns; the AI, which accepts at once. Both stores.
import request from 'supertest';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type Running, type StoreKind } from '../support/app';
import {
  DAY,
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
import { openGameStream } from '../support/game-stream';

const harness = appHarness();
afterAll(() => harness.stopAll());

const T0 = Date.parse('2032-03-01T10:00:00.000Z');

describe.each<StoreKind>(['memory', 'redis'])('takeback races and clocks on the %s store', (store) => {
  let clock: FakeClock;
  let run: Running;
  beforeAll(async () => {
    clock = fakeClock(T0);
    run = await harness.start(store, { now: clock.now });
  });

  /** Ann (seat 0, to move) and Bob in a new game. */
  const newGame = async (options: { kind?: string; timeControl?: object } = {}) => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'human');
    const game = await challengeGame(run, ann, bob, { kind: 'oware', ...options });
    return { ann, bob, game, seat: (game: { toMove: number }) => (game.toMove === 0 ? ann : bob) };
  };
  const act = (id: string, path: string, who: TestAccount, body: object = {}) =>
    restAs(run).post(`/games/${id}${path}`, who, body);
  const move = async (game: any, who: TestAccount) =>
    (await act(game.id, '/moves', who, { move: await passingMove(run, game) }).expect(200)).body;
  /** The game's events in an account's feed, oldest first. */
  const eventsOf = async (who: TestAccount, id: string) =>
    (await feedOf(run, who)).filter((e) => e.data.game?.id === id);

  it('an accept racing a move: exactly one wins, each version once in the stream and the feeds', async () => {
    clock.set(T0);
    for (let round = 0; round < 4; round++) {
      const { ann, bob, game } = await newGame();
      const moved = await move(game, ann);
      const offered = (await act(game.id, '/takeback/offer', ann).expect(200)).body;
      const stream = await openGameStream(run.url, game.id);
      await stream.until((m) => m.type === 'game');
      const reply = await passingMove(run, moved);
      const [accept, play] = await Promise.all([
        act(game.id, '/takeback/accept', bob),
        act(game.id, '/moves', bob, { move: reply }),
      ]);
      const statuses = [accept.status, play.status].sort();
      expect(statuses).toEqual([200, 409]);
      const now = await gameOf(run, game.id);
      expect(now.version).toBe(offered.version + 1);
      if (accept.status === 200) {
        expect(play.body.code).toBe('NOT_YOUR_TURN');
        expect(now).toMatchObject({ ply: 0, moves: [], toMove: 0 });
      } else {
        expect(accept.body.code).toBe('NO_TAKEBACK_OFFER');
        expect(now).toMatchObject({ ply: 2, takebackOffer: null });
      }
      const last = await stream.until((m) => (m.data.version ?? m.data.game?.version) === now.version);
      expect(stream.versions()).toEqual([offered.version, now.version]);
      expect(last.type).toBe(accept.status === 200 ? 'game' : 'update');
      stream.close();
      for (const who of [ann, bob]) {
        const events = await eventsOf(who, game.id);
        const after = events.filter((e) => e.data.game.version > offered.version);
        expect(after.map((e) => e.type)).toEqual([accept.status === 200 ? 'game.taken_back' : 'game.moved']);
        expect(after[0].data.game).toMatchObject({ version: now.version, ply: now.ply });
      }
    }
  });

  it('both seats offering at once make one takeback', async () => {
    clock.set(T0);
    for (let round = 0; round < 4; round++) {
      const { ann, bob, game } = await newGame();
      const two = await move(await move(game, ann), bob);
      const [a, b] = await Promise.all([
        act(game.id, '/takeback/offer', ann).expect(200),
        act(game.id, '/takeback/offer', bob).expect(200),
      ]);
      const [offer, takeback] = a.body.version < b.body.version ? [a, b] : [b, a];
      expect(offer.body.takebackOffer).not.toBeNull();
      expect(takeback.body).toMatchObject({ version: two.version + 2, takebackOffer: null });
      // The first offer is the one taken: Ann's (her move and Bob's reply) or Bob's (his move).
      const byAnn = offer === a;
      expect(takeback.body).toMatchObject(byAnn ? { ply: 0, toMove: 0 } : { ply: 1, toMove: 1 });
      const events = await eventsOf(ann, game.id);
      expect(events.filter((e) => e.type === 'game.taken_back')).toHaveLength(1);
      expect(await gameOf(run, game.id)).toEqual(takeback.body);
    }
  });

  it('a takeback racing the timeout of a realtime game: the timeout wins once, nothing is taken back', async () => {
    clock.set(T0);
    const { ann, bob, game } = await newGame({
      timeControl: { type: 'realtime', initialSeconds: 60, incrementSeconds: 0 },
    });
    clock.set(T0 + SECOND);
    const moved = await move(game, ann);
    clock.set(T0 + 2 * SECOND);
    await act(game.id, '/takeback/offer', ann).expect(200);
    // Bob's clock ran out at his deadline: whatever comes first, the game ends by timeout.
    clock.set(Date.parse(moved.deadlineAt) + SECOND);
    const [accept] = await Promise.all([
      act(game.id, '/takeback/accept', bob),
      run.app.services.clocks.sweep(),
    ]);
    expect(accept.status).toBe(409);
    expect(accept.body.code).toBe('TIMEOUT');
    const over = await gameOf(run, game.id);
    expect(over).toMatchObject({
      status: 'finished',
      result: { winner: 0, reason: 'timeout' },
      ply: 1,
      version: moved.version + 2,
      takebackOffer: null,
    });
    expect(over.moves).toEqual(moved.moves);
    const finished = (await eventsOf(bob, game.id)).filter((e) => e.type === 'game.finished');
    expect(finished).toHaveLength(1);
    expect((await eventsOf(bob, game.id)).some((e) => e.type === 'game.taken_back')).toBe(false);
  });

  it('after a takeback the clocks keep their times and the asker’s turn starts at the takeback', async () => {
    clock.set(T0);
    const { ann, bob, game } = await newGame({
      timeControl: { type: 'realtime', initialSeconds: 60, incrementSeconds: 2 },
    });
    clock.set(T0 + 5 * SECOND);
    const moved = await move(game, ann);
    expect(moved.clock.remainingMs).toEqual([57_000, 60_000]);
    clock.set(T0 + 8 * SECOND);
    await act(game.id, '/takeback/offer', ann).expect(200);
    clock.set(T0 + 10 * SECOND);
    const taken = (await act(game.id, '/takeback/accept', bob).expect(200)).body;
    // Bob's 5 s of thinking are charged; Ann gets none of her time back; her clock runs from now.
    expect(taken.clock).toEqual({
      remainingMs: [57_000, 55_000],
      runningSeat: 0,
      runningSince: iso(T0 + 10 * SECOND),
    });
    expect(taken.deadlineAt).toBe(iso(T0 + 10 * SECOND + 57_000));
    // Past the deadline the old turn start would have given her, she is still in time.
    clock.set(T0 + 5 * SECOND + 57_000 + SECOND);
    await run.app.services.clocks.sweep();
    expect((await gameOf(run, game.id)).status).toBe('ongoing');
    const again = await move(taken, ann);
    expect(again.clock.remainingMs[0]).toBe(57_000 - 53_000 + 2_000);
  });

  it('a correspondence deadline counts from the takeback', async () => {
    clock.set(T0);
    const { ann, bob, game } = await newGame({ timeControl: { type: 'correspondence', daysPerMove: 2 } });
    const moved = await move(game, ann);
    clock.set(T0 + DAY);
    const replied = await move(moved, bob);
    expect(replied.deadlineAt).toBe(iso(T0 + 3 * DAY));
    clock.set(T0 + 2 * DAY);
    await act(game.id, '/takeback/offer', bob).expect(200);
    clock.set(T0 + 2.5 * DAY);
    const taken = (await act(game.id, '/takeback/accept', ann).expect(200)).body;
    expect(taken).toMatchObject({ ply: 1, toMove: 1, deadlineAt: iso(T0 + 4.5 * DAY) });
    // Past the deadline Bob's turn had before his move (2 days from Ann's), he is still in time.
    clock.set(T0 + 4 * DAY);
    await run.app.services.clocks.sweep();
    expect((await gameOf(run, game.id)).status).toBe('ongoing');
  });

  it('takes back chained extra turns in kalah with the move before them', async () => {
    clock.set(T0);
    const { ann, bob, game } = await newGame({ kind: 'kalah' });
    // A sowing that ends in the store: Ann moves again.
    let extra: string | undefined;
    for (const candidate of game.legalMoves) {
      const check = await request(run.url)
        .post(`/api/v1/games/${game.id}/validate`)
        .send({ move: candidate });
      if (check.body.status === 'ongoing' && check.body.toMove === 0) extra = candidate;
    }
    expect(extra).toBeDefined();
    const again = (await act(game.id, '/moves', ann, { move: extra }).expect(200)).body;
    expect(again.toMove).toBe(0);
    const passed = await move(again, ann);
    expect(passed).toMatchObject({ ply: 2, toMove: 1 });
    const offered = (await act(game.id, '/takeback/offer', ann).expect(200)).body;
    expect(offered.takebackOffer).toEqual({ seat: 0, plies: 2 });
    const taken = (await act(game.id, '/takeback/accept', bob).expect(200)).body;
    expect(taken).toMatchObject({ ply: 0, toMove: 0, moves: [], position: game.position });
  });
});

describe.each<StoreKind>(['memory', 'redis'])('taking back against the AI on the %s store', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store, { app: { ai: { pool: { workers: 1 } } } });
  });

  it('the AI accepts at once: the answer is the game before the player’s move', async () => {
    const created = await restAs(run)
      .post('/games/ai', null, { kind: 'oware', level: 1, seat: 'south' })
      .expect(201);
    const auth = { Authorization: `Bearer ${created.body.seatTokens[0].token}` };
    const start = created.body.game;
    const stream = await openGameStream(run.url, start.id);
    await stream.until((m) => m.type === 'game');
    const first = start.legalMoves[0];
    await request(run.url)
      .post(`/api/v1/games/${start.id}/moves`)
      .set(auth)
      .send({ move: first })
      .expect(200);
    // The AI replies (ply 2), then the player asks to take back: both plies go at once.
    const replied = await stream.until((m) => m.type === 'update' && m.data.game.ply === 2, 20_000);
    const taken = await request(run.url)
      .post(`/api/v1/games/${start.id}/takeback/offer`)
      .set(auth)
      .expect(200);
    expect(taken.body).toMatchObject({
      ply: 0,
      toMove: 0,
      moves: [],
      takebackOffer: null,
      version: replied.data.game.version + 1,
      position: start.position,
    });
    const whole = await stream.until((m) => m.type === 'game' && m.data.version === taken.body.version);
    expect(whole.data.moves).toEqual([]);
    stream.close();
  });
});
