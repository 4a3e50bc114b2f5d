// Takebacks: a seat asks to take back its last move, the opponent accepts or declines; the move list
// shrinks everywhere (the answer, GET, the move pages, the game stream, the feed). Per-game settings
// (takeback, chat) on create. Both stores, both transports.
import request from 'supertest';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, wsClient, type Running, type StoreKind } from '../support/app';
import { challengeGame, feedOf, gameOf, passingMove, restAs } from '../support/clocks';
import { openGameStream } from '../support/game-stream';
import { failure, ok } from '../support/graphql';
import { expectProblem } from '../support/problem';

const harness = appHarness();
afterAll(() => harness.stopAll());

const GAME =
  'id version ply toMove status settings { takeback chat } takebackOffer { seat plies } moves { ply notation }';

describe.each<StoreKind>(['memory', 'redis'])('takebacks on the %s store', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });

  /** A seat-token game: its view and each seat's Authorization header. */
  const seatGame = async (body: object = {}) => {
    const res = await restAs(run)
      .post('/games', null, { kind: 'oware', ...body })
      .expect(201);
    const tokens = res.body.seatTokens.map((t: { token: string }) => t.token) as [string, string];
    return { game: res.body.game, auth: (seat: number) => ({ Authorization: `Bearer ${tokens[seat]}` }) };
  };
  const post = (id: string, path: string, auth: Record<string, string>, body: object = {}) =>
    request(run.url).post(`/api/v1/games/${id}${path}`).set(auth).send(body);
  /** Plays `count` moves (each side's first legal move that passes the turn); the game after them. */
  const play = async (id: string, auth: (seat: number) => Record<string, string>, count: number) => {
    let game = await gameOf(run, id);
    for (let i = 0; i < count; i++) {
      const move = await passingMove(run, game);
      game = (await post(id, '/moves', auth(game.toMove), { move }).expect(200)).body;
    }
    return game;
  };

  it('takes back the asker’s last move and the reply after it (REST), and the list shrinks everywhere', async () => {
    const { game, auth } = await seatGame();
    expect(game.settings).toEqual({ takeback: true, chat: 'seats' });
    expect(game.takebackOffer).toBeNull();
    const played = await play(game.id, auth, 3);
    expect(played).toMatchObject({ ply: 3, toMove: 1 });
    const stream = await openGameStream(run.url, game.id);
    await stream.until((m) => m.type === 'game');
    // South moved at ply 1 and 3: it takes back ply 3 only; north (ply 2, then south replied) two.
    const offered = (await post(game.id, '/takeback/offer', auth(1)).expect(200)).body;
    expect(offered).toMatchObject({
      version: played.version + 1,
      ply: 3,
      takebackOffer: { seat: 1, plies: 2 },
    });
    expectProblem(await post(game.id, '/takeback/offer', auth(1)), 409, 'TAKEBACK_NOT_ALLOWED');
    expect((await post(game.id, '/takeback/offer', auth(1))).body.reason).toBe('offered');
    expectProblem(await post(game.id, '/takeback/accept', auth(1)), 409, 'NO_TAKEBACK_OFFER');
    const accepted = (await post(game.id, '/takeback/accept', auth(0)).expect(200)).body;
    expect(accepted).toMatchObject({ version: played.version + 2, ply: 1, toMove: 1, takebackOffer: null });
    expect(accepted.moves).toEqual(played.moves.slice(0, 1));
    expect(accepted.legalMoves.length).toBeGreaterThan(0);
    expect(await gameOf(run, game.id)).toEqual(accepted);
    const page = await request(run.url).get(`/api/v1/games/${game.id}/moves`).expect(200);
    expect(page.body).toEqual({ items: played.moves.slice(0, 1), next: null });
    // The stream sends the shortened game whole.
    const whole = await stream.until((m) => m.type === 'game' && m.data.version === accepted.version);
    expect(whole.data).toEqual(accepted);
    // Play goes on from there: the next move is ply 2 again.
    const next = await play(game.id, auth, 1);
    expect(next).toMatchObject({ ply: 2, version: accepted.version + 1 });
    const update = await stream.until((m) => m.type === 'update' && m.data.game.version === next.version);
    expect(update.data.move).toEqual(next.moves[1]);
    stream.close();
  });

  it('declines, clears an offer by a move, and refuses what cannot be taken back', async () => {
    const { game, auth } = await seatGame();
    expect((await post(game.id, '/takeback/offer', auth(0))).body).toMatchObject({
      code: 'TAKEBACK_NOT_ALLOWED',
      reason: 'nothing',
    });
    await play(game.id, auth, 1);
    expect((await post(game.id, '/takeback/offer', auth(1))).body.reason).toBe('nothing');
    await post(game.id, '/takeback/offer', auth(0)).expect(200);
    const declined = (await post(game.id, '/takeback/decline', auth(1)).expect(200)).body;
    expect(declined).toMatchObject({ ply: 1, takebackOffer: null });
    expectProblem(await post(game.id, '/takeback/decline', auth(1)), 409, 'NO_TAKEBACK_OFFER');
    // An offer made before a move is gone after it.
    await post(game.id, '/takeback/offer', auth(0)).expect(200);
    const moved = await play(game.id, auth, 1);
    expect(moved).toMatchObject({ ply: 2, takebackOffer: null });
    expectProblem(await post(game.id, '/takeback/accept', auth(1)), 409, 'NO_TAKEBACK_OFFER');
    // Spectators have no seat to ask with.
    expectProblem(
      await request(run.url).post(`/api/v1/games/${game.id}/takeback/offer`),
      401,
      'UNAUTHENTICATED',
    );
    // A finished game takes nothing back.
    await post(game.id, '/resign', auth(0)).expect(200);
    expectProblem(await post(game.id, '/takeback/offer', auth(0)), 409, 'GAME_OVER');
  });

  it('offering while the opponent’s offer stands accepts it', async () => {
    const { game, auth } = await seatGame();
    const played = await play(game.id, auth, 2);
    await post(game.id, '/takeback/offer', auth(0)).expect(200);
    const both = (await post(game.id, '/takeback/offer', auth(1)).expect(200)).body;
    expect(both).toMatchObject({ ply: 0, toMove: 0, version: played.version + 2, moves: [] });
  });

  it('refuses takebacks in games created with settings.takeback false, and keeps the chat mode', async () => {
    const { game, auth } = await seatGame({ settings: { takeback: false, chat: 'everyone' } });
    expect(game.settings).toEqual({ takeback: false, chat: 'everyone' });
    await play(game.id, auth, 1);
    const refused = await post(game.id, '/takeback/offer', auth(0));
    expectProblem(refused, 409, 'TAKEBACK_NOT_ALLOWED');
    expect(refused.body.reason).toBe('forbidden');
    expect((await gameOf(run, game.id)).ply).toBe(1);
    // Malformed settings are refused and nothing is made.
    for (const settings of [{ chat: 'all' }, { takeback: 'no' }, { mute: true }]) {
      expectProblem(
        await restAs(run).post('/games', null, { kind: 'oware', settings }),
        400,
        'INVALID_INPUT',
      );
    }
  });

  it('refuses takebacks in rated games', async () => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'human');
    const challenge = await restAs(run)
      .post('/challenges', ann, { to: bob.username, kind: 'oware', starts: 'challenger', rated: true })
      .expect(201);
    const accepted = await restAs(run).post(`/challenges/${challenge.body.id}/accept`, bob).expect(200);
    const game = await gameOf(run, accepted.body.gameId);
    expect(game.settings).toEqual({ takeback: false, chat: 'seats' });
    const move = await passingMove(run, game);
    await restAs(run).post(`/games/${game.id}/moves`, ann, { move }).expect(200);
    const refused = await restAs(run).post(`/games/${game.id}/takeback/offer`, ann);
    expectProblem(refused, 409, 'TAKEBACK_NOT_ALLOWED');
    expect(refused.body.reason).toBe('rated');
    // Asking for takebacks in a rated game is refused at once.
    const asked = await restAs(run).post('/challenges', ann, {
      to: bob.username,
      kind: 'oware',
      rated: true,
      settings: { takeback: true },
    });
    expectProblem(asked, 400, 'INVALID_INPUT');
  });

  it('takes back over GraphQL, with settings on createGame', async () => {
    const created = await ok(
      run.url,
      undefined,
      `mutation { createGame(input: { kind: "oware", settings: { chat: off } }) { game { ${GAME} } seatTokens { token } } }`,
    );
    const { game, seatTokens } = created.createGame;
    expect(game.settings).toEqual({ takeback: true, chat: 'off' });
    const [south, north] = seatTokens.map((t: { token: string }) => t.token);
    const auth = (seat: number) => ({ Authorization: `Bearer ${seat === 0 ? south : north}` });
    const client = wsClient(run.url);
    const updates = client.iterate<{ gameUpdated: { version: number; ply: number; moves: unknown[] } }>({
      query:
        'subscription ($id: ID!) { gameUpdated(id: $id) { version ply moves { ply notation } lastMove { ply } } }',
      variables: { id: game.id },
    });
    const next = async () => (await updates.next()).value.data!.gameUpdated;
    expect(await next()).toMatchObject({ version: 0, moves: [] });
    await play(game.id, auth, 2);
    const action = (name: string, token: string) =>
      `mutation { ${name}(id: "${game.id}", seatToken: "${token}") { ${GAME} } }`;
    const offered = await ok(run.url, undefined, action('offerTakeback', north));
    expect(offered.offerTakeback.takebackOffer).toEqual({ seat: 1, plies: 1 });
    const refused = await failure(run.url, undefined, action('declineTakeback', north));
    expect(refused.code).toBe('NO_TAKEBACK_OFFER');
    const accepted = await ok(run.url, undefined, action('acceptTakeback', south));
    expect(accepted.acceptTakeback).toMatchObject({ ply: 1, toMove: 1, takebackOffer: null });
    expect(accepted.acceptTakeback.moves).toHaveLength(1);
    // The subscriber's versions, in order: two moves, the offer, the takeback with the shorter list.
    const seen = [await next(), await next(), await next(), await next()];
    expect(seen.map((u) => [u.version, u.ply, u.moves.length])).toEqual([
      [1, 1, 1],
      [2, 2, 2],
      [3, 2, 2],
      [4, 1, 1],
    ]);
    expect(seen[3]).toMatchObject({ moves: accepted.acceptTakeback.moves, lastMove: { ply: 1 } });
    await updates.return?.();
    await client.dispose();
    // North's only move is gone: nothing of its own to take back.
    const again = await failure(run.url, undefined, action('offerTakeback', north));
    expect(again).toMatchObject({ code: 'TAKEBACK_NOT_ALLOWED', reason: 'nothing' });
  });

  it('tells the opponent of an offer and a decline, and both of a takeback, in the feed', async () => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'human');
    const game = await challengeGame(run, ann, bob, { kind: 'oware' });
    const seats: Record<number, TestAccount> = { 0: ann, 1: bob };
    let current = game;
    for (let i = 0; i < 2; i++) {
      const move = await passingMove(run, current);
      current = (
        await restAs(run).post(`/games/${game.id}/moves`, seats[current.toMove]!, { move }).expect(200)
      ).body;
    }
    const events = async (who: TestAccount) =>
      (await feedOf(run, who)).filter((e) => e.data.game?.id === game.id).map((e) => e.type);
    const before = [await events(ann), await events(bob)];
    const offered = (await restAs(run).post(`/games/${game.id}/takeback/offer`, ann).expect(200)).body;
    const declined = (await restAs(run).post(`/games/${game.id}/takeback/decline`, bob).expect(200)).body;
    await restAs(run).post(`/games/${game.id}/takeback/offer`, ann).expect(200);
    const taken = (await restAs(run).post(`/games/${game.id}/takeback/accept`, bob).expect(200)).body;
    expect(taken).toMatchObject({ ply: 0, moves: [] });
    const annFeed = (await feedOf(run, ann))
      .filter((e) => e.data.game?.id === game.id)
      .slice(before[0]!.length);
    const bobFeed = (await feedOf(run, bob))
      .filter((e) => e.data.game?.id === game.id)
      .slice(before[1]!.length);
    expect(annFeed.map((e) => e.type)).toEqual([
      'game.updated',
      'takeback.declined',
      'game.updated',
      'game.taken_back',
    ]);
    expect(bobFeed.map((e) => e.type)).toEqual([
      'takeback.offered',
      'game.updated',
      'takeback.offered',
      'game.taken_back',
    ]);
    expect(bobFeed[0].data).toMatchObject({
      by: 0,
      game: { version: offered.version, takebackOffer: { seat: 0, plies: 2 } },
    });
    expect(annFeed[1].data).toMatchObject({ by: 1, game: { version: declined.version } });
    for (const event of [annFeed[3], bobFeed[3]]) {
      expect(event.data).toMatchObject({ plies: 2, game: { version: taken.version, ply: 0 } });
    }
  });

  it('carries settings through challenges, seeks and AI games (REST and GraphQL)', async () => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'human');
    const challenge = await restAs(run)
      .post('/challenges', ann, {
        to: bob.username,
        kind: 'oware',
        settings: { takeback: false, chat: 'off' },
      })
      .expect(201);
    expect(challenge.body.settings).toEqual({ takeback: false, chat: 'off' });
    const accepted = await restAs(run).post(`/challenges/${challenge.body.id}/accept`, bob).expect(200);
    expect((await gameOf(run, accepted.body.gameId)).settings).toEqual({ takeback: false, chat: 'off' });
    const viaGraphql = await ok(
      run.url,
      ann.token,
      `mutation { createChallenge(input: { to: "${bob.username}", kind: "oware", settings: { chat: everyone } }) { id settings { takeback chat } } }`,
    );
    expect(viaGraphql.createChallenge.settings).toEqual({ takeback: true, chat: 'everyone' });
    // Two seeks: the game takes the stricter of each setting.
    const kind = 'congkak';
    const first = await restAs(run)
      .post('/seeks', ann, { kind, settings: { chat: 'everyone' } })
      .expect(201);
    expect(first.body.settings).toEqual({ takeback: true, chat: 'everyone' });
    const second = await ok(
      run.url,
      bob.token,
      `mutation { createSeek(input: { kind: "${kind}", settings: { takeback: false } }) { status settings { takeback chat } game { settings { takeback chat } } } }`,
    );
    expect(second.createSeek).toEqual({
      status: 'matched',
      settings: { takeback: false, chat: 'seats' },
      game: { settings: { takeback: false, chat: 'seats' } },
    });
    // Against the AI: both routes take settings.
    const vsAi = await restAs(run)
      .post('/challenges/ai', ann, { kind: 'oware', level: 1, settings: { chat: 'off' } })
      .expect(201);
    expect(vsAi.body.settings).toEqual({ takeback: true, chat: 'off' });
    const seatGame = await ok(
      run.url,
      undefined,
      'mutation { createAiGame(input: { kind: "oware", level: 1, settings: { takeback: false } }) { game { settings { takeback chat } } } }',
    );
    expect(seatGame.createAiGame.game.settings).toEqual({ takeback: false, chat: 'seats' });
    expectProblem(
      await restAs(run).post('/games/ai', null, { kind: 'oware', level: 1, settings: { chat: 'loud' } }),
      400,
      'INVALID_INPUT',
    );
  });
});
