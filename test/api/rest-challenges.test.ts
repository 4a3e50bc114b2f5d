// Challenges and seeks over REST, and the games they start: seats bound to accounts, the account
// feeds hearing of each step, bots declining on their own, abort and draw claims, expiry.
import request from 'supertest';
import * as A from '../../src/transport/rest/accounts.schemas';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, headOf, type Running, type StoreKind } from '../support/app';
import { feedOf } from '../support/clocks';
import { expectProblem } from '../support/problem';

const harness = appHarness();
afterAll(() => harness.stopAll());

const types = (events: Array<{ type: string }>) => events.map((e) => e.type);

describe.each<StoreKind>(['redis', 'memory'])('challenges over REST on the %s store', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });

  const post = (path: string, account: TestAccount | null, body: object = {}) => {
    const req = request(run.url).post(`/api/v1${path}`);
    return (account ? req.set(account.auth) : req).send(body);
  };
  const get = (path: string, account?: TestAccount) => {
    const req = request(run.url).get(`/api/v1${path}`);
    return account ? req.set(account.auth) : req;
  };

  /** A direct challenge from `from` to `to`, accepted: the game, `from` in seat 0. */
  async function startGame(from: TestAccount, to: TestAccount, kind = 'kalah') {
    const challenge = await post('/challenges', from, { to: to.username, kind, starts: 'challenger' }).expect(
      201,
    );
    const accepted = await post(`/challenges/${challenge.body.id}/accept`, to).expect(200);
    return (await get(`/games/${accepted.body.gameId}`).expect(200)).body;
  }

  it('starts a game from an accepted direct challenge, seats bound to both accounts', async () => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'bot');
    const created = await post('/challenges', ann, {
      to: bob.username.toUpperCase(),
      kind: 'kalah',
      options: { seeds: 3 },
      starts: 'destination',
      timeControl: { type: 'correspondence', daysPerMove: 3 },
    });
    expect(created.status).toBe(201);
    expect(A.Challenge.parse(created.body)).toEqual(created.body);
    const id = created.body.id;
    expect(created.headers.location).toBe(`/api/v1/challenges/${id}`);
    expect(created.body).toMatchObject({
      status: 'open',
      challenger: ann.id,
      destination: bob.id,
      players: null,
      starts: 'destination',
      options: { seeds: 3, houses: 6 },
      timeControl: { type: 'correspondence', daysPerMove: 3 },
      accepted: [],
      gameId: null,
    });
    expect((await get(`/challenges/${id}`).expect(200)).body).toEqual(created.body);
    for (const who of [ann, bob]) {
      const mine = await get('/challenges', who).expect(200);
      expect(mine.body.items.map((c: { id: string }) => c.id)).toContain(id);
    }
    expect(types(await feedOf(run, bob))).toEqual(['challenge.received']);

    // Only the challenged account accepts a direct challenge.
    expectProblem(await post(`/challenges/${id}/accept`, ann), 403, 'FORBIDDEN');
    const accepted = await post(`/challenges/${id}/accept`, bob).expect(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', accepted: [bob.id] });
    expect(accepted.body.gameId).toMatch(/^[A-Za-z0-9_-]{12}$/);

    const game = (await get(`/games/${accepted.body.gameId}`).expect(200)).body;
    expect(game.seats.map((s: { account: string }) => s.account)).toEqual([bob.id, ann.id]);
    expect(game).toMatchObject({ kind: 'kalah', options: { seeds: 3 }, status: 'ongoing', toMove: 0 });
    const annFeed = await feedOf(run, ann);
    const bobFeed = await feedOf(run, bob);
    expect(types(annFeed)).toEqual(['challenge.accepted', 'game.started']);
    expect(types(bobFeed)).toEqual(['challenge.received', 'challenge.accepted', 'game.started']);
    expect(annFeed[1].data.game).toEqual(headOf(game));
    expect(bobFeed[2].data.game).toEqual(headOf(game));
    expect(bobFeed[0].data.challenge.id).toBe(id);
    expect(annFeed[0].data.challenge).toEqual(accepted.body);

    // Listed under each player's account, no longer among the open challenges.
    const annGames = await get(`/games?account=${ann.username}`).expect(200);
    expect(annGames.body.items.map((g: { id: string }) => g.id)).toEqual([game.id]);
    expect((await get(`/games?account=${bob.username}&status=finished`)).body.items).toEqual([]);
    expect((await get('/challenges', bob)).body.items.map((c: { id: string }) => c.id)).not.toContain(id);

    // The bot plays with its API token (bot:play), the human with its own (game:play).
    expectProblem(await post(`/games/${game.id}/moves`, ann, { move: '1' }), 409, 'NOT_YOUR_TURN');
    const moved = await post(`/games/${game.id}/moves`, bob, { move: '1' }).expect(200);
    expect(moved.body.toMove).toBe(1);
    await post(`/games/${game.id}/moves`, ann, { move: '1' }).expect(200);
    const stranger = await signUp(run.app, 'eve', 'human');
    expectProblem(await post(`/games/${game.id}/moves`, stranger, { move: '2' }), 403, 'FORBIDDEN');
    const readOnly = (await post('/account/tokens', bob, { scopes: ['game:read'] }).expect(201)).body.token;
    const scoped = await request(run.url)
      .post(`/api/v1/games/${game.id}/moves`)
      .set('Authorization', `Bearer ${readOnly}`)
      .send({ move: '2' });
    expectProblem(scoped, 403, 'MISSING_SCOPE');
    expect(scoped.body.required).toEqual(['bot:play']);
  });

  it('declines with a reason, which the challenger hears; the challenge is closed after', async () => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'human');
    const { id } = (await post('/challenges', ann, { to: bob.username, kind: 'oware' }).expect(201)).body;
    expectProblem(await post(`/challenges/${id}/decline`, ann, { reason: 'later' }), 403, 'FORBIDDEN');
    expectProblem(await post(`/challenges/${id}/decline`, bob, { reason: 'busy' }), 400, 'INVALID_INPUT');
    const declined = await post(`/challenges/${id}/decline`, bob, { reason: 'later' }).expect(200);
    expect(declined.body).toMatchObject({ status: 'declined', declineReason: 'later', closedBy: bob.id });
    const annFeed = await feedOf(run, ann);
    expect(types(annFeed)).toEqual(['challenge.declined']);
    expect(annFeed[0].data.challenge).toMatchObject({ id, declineReason: 'later' });
    const again = await post(`/challenges/${id}/accept`, bob);
    expectProblem(again, 409, 'CHALLENGE_CLOSED');
    expect(again.body).toMatchObject({ challengeStatus: 'declined', declineReason: 'later', gameId: null });
    // Without a body the reason is generic.
    const other = (await post('/challenges', ann, { to: bob.username, kind: 'oware' }).expect(201)).body;
    const plain = await request(run.url)
      .post(`/api/v1/challenges/${other.id}/decline`)
      .set(bob.auth)
      .expect(200);
    expect(plain.body.declineReason).toBe('generic');
  });

  it('cancels by the challenger only; CHALLENGE_CLOSED after a cancel', async () => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'human');
    const { id } = (await post('/challenges', ann, { to: bob.username, kind: 'congo' }).expect(201)).body;
    expectProblem(await post(`/challenges/${id}/cancel`, bob), 403, 'FORBIDDEN');
    const canceled = await post(`/challenges/${id}/cancel`, ann).expect(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', closedBy: ann.id });
    expect(types(await feedOf(run, bob))).toEqual(['challenge.received', 'challenge.canceled']);
    const accept = await post(`/challenges/${id}/accept`, bob);
    expectProblem(accept, 409, 'CHALLENGE_CLOSED');
    expect(accept.body.challengeStatus).toBe('canceled');
    // A retried cancel answers the same and notifies nobody twice.
    expect((await post(`/challenges/${id}/cancel`, ann).expect(200)).body).toEqual(canceled.body);
    expect(types(await feedOf(run, bob))).toEqual(['challenge.received', 'challenge.canceled']);
    expect((await get(`/challenges/${id}`)).body.status).toBe('canceled');
    expect((await get('/challenges', ann)).body.items).toEqual([]);
  });

  it('lets a bot decline what it does not accept, with the reason and a challenge.declined event', async () => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bot = await signUp(run.app, 'picky', 'bot');
    await request(run.url)
      .put('/api/v1/account/bot')
      .set(bot.auth)
      .send({
        kinds: ['kalah'],
        timeControls: ['unlimited', 'correspondence'],
        options: { kalah: { seeds: [4] } },
        maxGames: 1,
      })
      .expect(200);
    const challenge = (body: object) => post('/challenges', ann, { to: bot.username, ...body }).expect(201);
    const refusals: Array<[object, string]> = [
      [{ kind: 'oware' }, 'kind'],
      [{ kind: 'kalah', timeControl: { type: 'realtime', initialSeconds: 60 } }, 'timeControl'],
      [{ kind: 'kalah', options: { seeds: 6 } }, 'options'],
    ];
    for (const [body, reason] of refusals) {
      const res = await challenge(body);
      expect(res.body).toMatchObject({ status: 'declined', declineReason: reason, closedBy: bot.id });
    }
    const fits = await challenge({ kind: 'kalah', timeControl: { type: 'correspondence', daysPerMove: 2 } });
    expect(fits.body.status).toBe('open');
    await post(`/challenges/${fits.body.id}/accept`, bot).expect(200);
    // One ongoing game is the bot's maximum.
    const busy = await challenge({ kind: 'kalah' });
    expect(busy.body).toMatchObject({ status: 'declined', declineReason: 'tooManyGames' });

    const annFeed = await feedOf(run, ann);
    const declined = annFeed.filter((e) => e.type === 'challenge.declined');
    expect(declined.map((e) => e.data.challenge.declineReason)).toEqual([
      'kind',
      'timeControl',
      'options',
      'tooManyGames',
    ]);
    // The bot never heard of the challenges declined on its behalf.
    expect(types(await feedOf(run, bot))).toEqual([
      'challenge.received',
      'challenge.accepted',
      'game.started',
    ]);
  });

  it('makes a game of an open challenge once two accounts accept', async () => {
    const host = await signUp(run.app, 'host', 'human');
    const [x, y, z] = await Promise.all(['x', 'y', 'z'].map((n) => signUp(run.app, n, 'bot')));
    const open = (await post('/challenges', host, { kind: 'oware' }).expect(201)).body;
    expect(open).toMatchObject({ destination: null, players: null, starts: 'random' });
    const first = await post(`/challenges/${open.id}/accept`, x!).expect(200);
    expect(first.body).toMatchObject({ status: 'open', accepted: [x!.id], gameId: null });
    // Accepting twice changes nothing.
    expect((await post(`/challenges/${open.id}/accept`, x!).expect(200)).body.accepted).toEqual([x!.id]);
    const second = await post(`/challenges/${open.id}/accept`, y!).expect(200);
    expect(second.body).toMatchObject({ status: 'accepted', accepted: [x!.id, y!.id] });
    const game = (await get(`/games/${second.body.gameId}`).expect(200)).body;
    expect(game.seats.map((s: { account: string }) => s.account).sort()).toEqual([x!.id, y!.id].sort());
    expectProblem(await post(`/challenges/${open.id}/accept`, z!), 409, 'CHALLENGE_CLOSED');
    expect(types(await feedOf(run, host))).toEqual(['challenge.accepted', 'challenge.accepted']);
    expect(types(await feedOf(run, x!))).toEqual([
      'challenge.accepted',
      'challenge.accepted',
      'game.started',
    ]);
    expect(types(await feedOf(run, y!))).toEqual(['challenge.accepted', 'game.started']);
    expect(await feedOf(run, z!)).toEqual([]);
  });

  it('makes a game of an open challenge for a named pair, seated as listed', async () => {
    const host = await signUp(run.app, 'host', 'human');
    const [x, y, z] = await Promise.all(['x', 'y', 'z'].map((n) => signUp(run.app, n, 'human')));
    const pair = (
      await post('/challenges', host, {
        players: [x!.username, y!.username],
        starts: 'listed',
        kind: 'congkak',
      }).expect(201)
    ).body;
    expect(pair.players).toEqual([x!.id, y!.id]);
    expect(types(await feedOf(run, x!))).toEqual(['challenge.received']);
    expect(types(await feedOf(run, y!))).toEqual(['challenge.received']);
    expectProblem(await post(`/challenges/${pair.id}/accept`, z!), 403, 'FORBIDDEN');
    expect((await post(`/challenges/${pair.id}/accept`, y!).expect(200)).body.status).toBe('open');
    const done = await post(`/challenges/${pair.id}/accept`, x!).expect(200);
    const game = (await get(`/games/${done.body.gameId}`).expect(200)).body;
    expect(game.kind).toBe('congkak');
    expect(game.seats.map((s: { account: string }) => s.account)).toEqual([x!.id, y!.id]);
  });

  it('refuses malformed challenges', async () => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'human');
    expectProblem(await post('/challenges', null, { kind: 'kalah' }), 401, 'UNAUTHENTICATED');
    expectProblem(
      await post('/challenges', ann, { to: 'nobody-here', kind: 'kalah' }),
      404,
      'ACCOUNT_NOT_FOUND',
    );
    expectProblem(await post('/challenges', ann, { to: ann.username, kind: 'kalah' }), 400, 'INVALID_INPUT');
    expectProblem(
      await post('/challenges', ann, {
        to: bob.username,
        players: [ann.username, bob.username],
        kind: 'kalah',
      }),
      400,
      'INVALID_INPUT',
    );
    expectProblem(
      await post('/challenges', ann, { to: bob.username, kind: 'chess' }),
      400,
      'UNKNOWN_GAME_KIND',
    );
    expectProblem(
      await post('/challenges', ann, { to: bob.username, kind: 'kalah', expiresInSeconds: 5 }),
      400,
      'INVALID_INPUT',
    );
    expectProblem(
      await post('/challenges', ann, { to: bob.username, kind: 'kalah', timeControl: { type: 'blitz' } }),
      400,
      'INVALID_INPUT',
    );
    expectProblem(await get('/challenges/not-an-id'), 400, 'INVALID_INPUT');
    expectProblem(await get('/challenges/AAAAAAAAAAAA'), 404, 'CHALLENGE_NOT_FOUND');
    expect(await feedOf(run, bob)).toEqual([]);
  });

  it('matches seeks of the same kind, options and time control from different accounts', async () => {
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((n) => signUp(run.app, n, 'bot')));
    const seek = { kind: 'kalah', options: { seeds: 5 } };
    const first = await post('/seeks', a!, seek).expect(201);
    expect(A.Seek.parse(first.body)).toEqual(first.body);
    expect(first.body).toMatchObject({ status: 'waiting', account: a!.id, game: null });
    // One's own seek is no partner.
    const second = await post('/seeks', a!, seek).expect(201);
    // Another pool: other options.
    const other = await post('/seeks', b!, { kind: 'kalah', options: { seeds: 6 } }).expect(201);
    const matched = await post('/seeks', c!, seek).expect(200);
    expect(A.Seek.parse(matched.body)).toEqual(matched.body);
    expect(matched.body.status).toBe('matched');
    const game = matched.body.game;
    expect(game.seats.map((s: { account: string }) => s.account).sort()).toEqual([a!.id, c!.id].sort());
    expect(game.options).toEqual({ seeds: 5, houses: 6, emptyCapture: false });
    expect((await get(`/games/${game.id}`).expect(200)).body).toEqual(game);
    const aFeed = await feedOf(run, a!);
    expect(types(aFeed)).toEqual(['game.started']);
    expect(aFeed[0].data.game).toEqual(headOf(game));
    expect(types(await feedOf(run, c!))).toEqual(['game.started']);

    // The first seek was taken; the second still waits and only its owner may withdraw it.
    const del = (id: string, who: TestAccount) =>
      request(run.url).delete(`/api/v1/seeks/${id}`).set(who.auth);
    expectProblem(await del(first.body.id, a!), 404, 'SEEK_NOT_FOUND');
    expectProblem(await del(second.body.id, c!), 403, 'FORBIDDEN');
    const withdrawn = await del(second.body.id, a!);
    expect(withdrawn.status).toBe(204);
    expect(withdrawn.text).toBe('');
    expectProblem(await del(second.body.id, a!), 404, 'SEEK_NOT_FOUND');
    expect((await del(other.body.id, b!)).status).toBe(204);
    // With both withdrawn, a new seek in that pool waits.
    expect((await post('/seeks', c!, seek).expect(201)).body.status).toBe('waiting');
  });

  it('aborts before both sides moved, and refuses with TOO_LATE_TO_ABORT after', async () => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bot = await signUp(run.app, 'bot', 'bot');
    const game = await startGame(ann, bot);
    // Kalah, 4 seeds: house 1 ends in house 5, no extra turn.
    await post(`/games/${game.id}/moves`, ann, { move: '1' }).expect(200);
    const aborted = await post(`/games/${game.id}/abort`, bot).expect(200);
    expect(aborted.body.status).toBe('finished');
    expect(aborted.body.result).toEqual({ winner: null, winnerName: null, reason: 'aborted', score: null });
    for (const who of [ann, bot]) {
      const last = (await feedOf(run, who)).at(-1);
      expect(last.type).toBe('game.finished');
      expect(last.data.game).toEqual(headOf(aborted.body));
    }
    expectProblem(await post(`/games/${game.id}/abort`, ann), 409, 'GAME_OVER');

    const later = await startGame(ann, bot);
    await post(`/games/${later.id}/moves`, ann, { move: '1' }).expect(200);
    const moved = await post(`/games/${later.id}/moves`, bot, { move: '1' }).expect(200);
    expectProblem(await post(`/games/${later.id}/abort`, ann), 409, 'TOO_LATE_TO_ABORT');
    expect((await get(`/games/${later.id}`)).body).toEqual(moved.body);
  });

  it('refuses a draw claim with NO_DRAW_CLAIM and leaves the game as it was', async () => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bot = await signUp(run.app, 'bot', 'bot');
    const game = await startGame(ann, bot, 'russian-draughts');
    const claim = await post(`/games/${game.id}/draw/claim`, ann);
    expectProblem(claim, 409, 'NO_DRAW_CLAIM');
    expectProblem(await post(`/games/${game.id}/draw/claim`, null), 401, 'UNAUTHENTICATED');
    expect((await get(`/games/${game.id}`)).body).toEqual(game);
  });
});

describe.each<StoreKind>(['redis', 'memory'])('challenge expiry on the %s store', (store) => {
  let clock = Date.now();
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store, { now: () => new Date(clock) });
  });

  it('expires an unanswered challenge once, telling both accounts', async () => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'human');
    const created = await request(run.url)
      .post('/api/v1/challenges')
      .set(ann.auth)
      .send({ to: bob.username, kind: 'kalah', expiresInSeconds: 10 })
      .expect(201);
    expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)).toBe(10_000);
    expect(await run.app.services.challenges.expireDue()).toBe(0);
    clock += 9_000;
    expect(await run.app.services.challenges.expireDue()).toBe(0);
    clock += 2_000;
    expect(await run.app.services.challenges.expireDue()).toBe(1);
    expect(await run.app.services.challenges.expireDue()).toBe(0);
    const read = await request(run.url).get(`/api/v1/challenges/${created.body.id}`).expect(200);
    expect(read.body.status).toBe('expired');
    const accept = await request(run.url).post(`/api/v1/challenges/${created.body.id}/accept`).set(bob.auth);
    expectProblem(accept, 409, 'CHALLENGE_CLOSED');
    expect(accept.body.challengeStatus).toBe('expired');
    expect(types(await feedOf(run, ann))).toEqual(['challenge.expired']);
    expect(types(await feedOf(run, bob))).toEqual(['challenge.received', 'challenge.expired']);
  });

  it('expires a challenge past its time when someone answers it before the sweep', async () => {
    const ann = await signUp(run.app, 'ann', 'human');
    const bob = await signUp(run.app, 'bob', 'human');
    const created = await request(run.url)
      .post('/api/v1/challenges')
      .set(ann.auth)
      .send({ to: bob.username, kind: 'oware', expiresInSeconds: 10 })
      .expect(201);
    clock += 10_000;
    const accept = await request(run.url).post(`/api/v1/challenges/${created.body.id}/accept`).set(bob.auth);
    expectProblem(accept, 409, 'CHALLENGE_CLOSED');
    expect(accept.body.challengeStatus).toBe('expired');
    expect(await run.app.services.challenges.expireDue()).toBe(0);
    expect(types(await feedOf(run, bob))).toEqual(['challenge.received', 'challenge.expired']);
  });
});
