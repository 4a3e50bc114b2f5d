// Rematches (issue #31) on both stores, REST and GraphQL: offer, accept, decline after a game ends;
// the new game has the same settings with the colours swapped; exactly one new game whatever the
// races (both offer at once, both accept at once, accept repeated); AI games rematch at once;
// seat-token games give each holder its new token; refusals change nothing.
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, call, gql, rest, type Running, type StoreKind } from '../support/app';
import { openGameStream } from '../support/game-stream';
import { ok } from '../support/graphql';
import { rematchIdOf } from '../../src/service/game/rematch';

const harness = appHarness();
afterAll(() => harness.stopAll());

const GAME_FIELDS =
  'id kind rated first: toMove seats { seat account } rematch { offeredBy declinedBy game } rematchOf';

describe.each<StoreKind>(['memory', 'redis'])('rematch on %s', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });

  /** A finished game between a (seat 0, moves first) and b (seat 1): a resigns. */
  async function finished(a: TestAccount, b: TestAccount, extra: object = {}): Promise<string> {
    const challenge = await rest(run, a, 'POST', '/challenges', {
      kind: 'kalah',
      to: b.username,
      starts: 'challenger',
      ...extra,
    });
    expect(challenge.status).toBe(201);
    expect((await rest(run, b, 'POST', `/challenges/${challenge.body.id}/accept`)).status).toBe(200);
    const id = challenge.body.id as string;
    // Not over yet: no rematch.
    const early = await rest(run, a, 'POST', `/games/${id}/rematch`);
    expect([early.status, early.body.code, early.body.reason]).toEqual([
      409,
      'REMATCH_NOT_ALLOWED',
      'ongoing',
    ]);
    expect((await rest(run, a, 'POST', `/games/${id}/resign`)).status).toBe(200);
    return id;
  }

  const events = async (who: TestAccount, type: string): Promise<Array<{ data: any }>> =>
    (await run.app.services.feed.read({ token: who.token }, 0, 500)).events.filter((e) => e.type === type);

  it('offer, accept: one new game, same settings, colours swapped, both told; repeats answer it', async () => {
    const a = await signUp(run.app, 'rma', 'human');
    const b = await signUp(run.app, 'rmb', 'human');
    const id = await finished(a, b, {
      options: { seeds: 3 },
      timeControl: { type: 'correspondence', daysPerMove: 2 },
    });

    // A watcher of the finished game (a game page) sees the offer and, later, the link live.
    const stream = await openGameStream(run.url, id);
    await stream.until((m) => m.type === 'end');
    const offered = await rest(run, a, 'POST', `/games/${id}/rematch`);
    expect([offered.status, offered.body]).toEqual([201, { status: 'offered', game: null }]);
    const live = await stream.until((m) => m.type === 'update' && m.data.game.rematch.offeredBy === 0);
    expect(live.data.move).toBeNull();
    const old = (await rest(run, a, 'GET', `/games/${id}`)).body;
    expect([old.rematch, old.rematchOf]).toEqual([{ offeredBy: 0, declinedBy: null, game: null }, null]);
    // Offering again changes nothing; the opponent heard of it once.
    expect((await rest(run, a, 'POST', `/games/${id}/rematch`)).body.status).toBe('offered');
    expect((await rest(run, a, 'GET', `/games/${id}`)).body.version).toBe(old.version);
    const told = await events(b, 'rematch.offered');
    expect(told.map((e) => [e.data.game.id, e.data.by])).toEqual([[id, 0]]);
    expect(await events(a, 'rematch.offered')).toEqual([]);
    // The offerer cannot accept its own offer.
    const own = await rest(run, a, 'POST', `/games/${id}/rematch/accept`);
    expect([own.status, own.body.code]).toEqual([409, 'NO_REMATCH_OFFER']);

    const accepted = await rest(run, b, 'POST', `/games/${id}/rematch/accept`);
    expect(accepted.status).toBe(201);
    expect(accepted.body.status).toBe('accepted');
    expect(accepted.body.seatToken).toBeUndefined();
    const game = accepted.body.game;
    expect(game.id).toBe(rematchIdOf(id));
    expect(game.status).toBe('ongoing');
    expect(game.rematchOf).toBe(id);
    expect(game.rematch).toEqual({ offeredBy: null, declinedBy: null, game: null });
    expect(game.seats.map((s: { account: string }) => s.account)).toEqual([b.id, a.id]);
    expect([game.kind, game.options.seeds, game.timeControl]).toEqual([
      'kalah',
      3,
      { type: 'correspondence', daysPerMove: 2 },
    ]);
    expect(game.toMove).toBe(0); // the same first seat: b, who moved second, moves first
    const after = (await rest(run, a, 'GET', `/games/${id}`)).body;
    expect(after.rematch).toEqual({ offeredBy: null, declinedBy: null, game: game.id });
    await stream.until((m) => m.type === 'update' && m.data.game.rematch.game === game.id);
    stream.close();
    for (const who of [a, b]) {
      const started = (await events(who, 'game.started')).filter((e) => e.data.game.id === game.id);
      expect(started.map((e) => e.data.game.rematchOf)).toEqual([id]);
    }
    // Accepting again, offering again, by either: the same game; declining: no offer.
    for (const [who, path] of [
      [b, 'rematch/accept'],
      [a, 'rematch'],
      [a, 'rematch/accept'],
    ] as const) {
      const again = await rest(run, who, 'POST', `/games/${id}/${path}`);
      expect([again.status, again.body.status, again.body.game.id]).toEqual([201, 'accepted', game.id]);
    }
    const decline = await rest(run, b, 'POST', `/games/${id}/rematch/decline`);
    expect([decline.status, decline.body.code]).toEqual([409, 'NO_REMATCH_OFFER']);
    const games = await run.storage.games.list({ account: a.id }, 100);
    expect(games.items.map((g) => g.id).sort()).toEqual([id, game.id].sort());
  });

  it('decline: the offerer is told and may not offer again; the decliner still may', async () => {
    const a = await signUp(run.app, 'rmc', 'human');
    const b = await signUp(run.app, 'rmd', 'human');
    const id = await finished(a, b);
    const none = await rest(run, b, 'POST', `/games/${id}/rematch/decline`);
    expect([none.status, none.body.code]).toEqual([409, 'NO_REMATCH_OFFER']);
    expect((await rest(run, a, 'POST', `/games/${id}/rematch`)).status).toBe(201);
    const declined = await rest(run, b, 'POST', `/games/${id}/rematch/decline`);
    expect([declined.status, declined.body]).toEqual([200, { status: 'declined', game: null }]);
    expect((await events(a, 'rematch.declined')).map((e) => [e.data.game.id, e.data.by])).toEqual([[id, 1]]);
    const state = (await rest(run, a, 'GET', `/games/${id}`)).body;
    expect(state.rematch).toEqual({ offeredBy: null, declinedBy: 1, game: null });
    const again = await rest(run, a, 'POST', `/games/${id}/rematch`);
    expect([again.status, again.body.code, again.body.reason]).toEqual([
      409,
      'REMATCH_NOT_ALLOWED',
      'declined',
    ]);
    expect((await rest(run, a, 'GET', `/games/${id}`)).body.version).toBe(state.version);
    // The decliner changes its mind: its offer stands, and the other accepts it.
    expect((await rest(run, b, 'POST', `/games/${id}/rematch`)).body.status).toBe('offered');
    const accepted = await rest(run, a, 'POST', `/games/${id}/rematch/accept`);
    expect(accepted.body.game.rematchOf).toBe(id);
  });

  it('races: both offer at once, then many accepts at once — one new game', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await signUp(run.app, `rme${round}`, 'human');
      const b = await signUp(run.app, `rmf${round}`, 'human');
      const id = await finished(a, b);
      const [x, y] = await Promise.all([
        rest(run, a, 'POST', `/games/${id}/rematch`),
        rest(run, b, 'POST', `/games/${id}/rematch`),
      ]);
      expect([x.status, y.status]).toEqual([201, 201]);
      // One offer was stored and the other found it and accepted it (or both found it made).
      expect([x.body.status, y.body.status]).toContain('accepted');
      const answers = await Promise.all(
        [a, b, a, b, b, a].map((who, i) =>
          rest(run, who, 'POST', `/games/${id}/${i % 2 === 0 ? 'rematch' : 'rematch/accept'}`),
        ),
      );
      const ids = new Set([x, y, ...answers].flatMap((r) => (r.body.game ? [r.body.game.id] : [])));
      expect([...ids]).toEqual([rematchIdOf(id)]);
      const listed = await run.storage.games.list({ account: b.id }, 100);
      expect(listed.items.length).toBe(2);
      expect(await run.storage.games.countOngoing(a.id)).toBe(1);
      const started = await events(b, 'game.started');
      expect(started.filter((e) => e.data.game.rematchOf === id).length).toBe(1);
    }
  });

  it('against the AI the offer is accepted at once (accounts and seat tokens)', async () => {
    const a = await signUp(run.app, 'rmg', 'human');
    const ai = await rest(run, a, 'POST', '/challenges/ai', { kind: 'oware', level: 1, color: 'south' });
    expect(ai.status).toBe(201);
    expect((await rest(run, a, 'POST', `/games/${ai.body.id}/resign`)).status).toBe(200);
    const again = await rest(run, a, 'POST', `/games/${ai.body.id}/rematch`);
    expect([again.status, again.body.status]).toEqual([201, 'accepted']);
    expect(again.body.game.seats.map((s: { account: string }) => s.account)).toEqual(['ai-level-1', a.id]);
    expect(again.body.game.kind).toBe('oware');
    // The AI, south now, moves first: its feed heard of the game, and the turn driver plays it.
    let ply = 0;
    for (let i = 0; i < 100 && ply === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      ply = (await rest(run, a, 'GET', `/games/${again.body.game.id}`)).body.ply;
    }
    expect(ply).toBe(1);

    const created = await call(run, 'POST', '/games/ai', { kind: 'kalah', level: 2, seat: 'south' });
    expect(created.status).toBe(201);
    const token = created.body.seatTokens[0].token as string;
    const auth = { authorization: `Bearer ${token}` };
    const gameId = created.body.game.id as string;
    expect((await call(run, 'POST', `/games/${gameId}/resign`, undefined, auth)).status).toBe(200);
    const rematch = await call(run, 'POST', `/games/${gameId}/rematch`, undefined, auth);
    expect([rematch.status, rematch.body.status]).toEqual([201, 'accepted']);
    expect(rematch.body.seatToken).toMatchObject({ seat: 1, name: 'north' });
    expect(rematch.body.game.seats.map((s: { account: string | null }) => s.account)).toEqual([
      'ai-level-2',
      null,
    ]);
    // The new token holds the new seat (the AI moves first; resigning needs no turn).
    const newAuth = { authorization: `Bearer ${rematch.body.seatToken.token}` };
    const resign = await call(run, 'POST', `/games/${rematch.body.game.id}/resign`, undefined, newAuth);
    expect([resign.status, resign.body.result.winner]).toEqual([200, 0]);
    // The old token does not.
    const old = await call(run, 'POST', `/games/${rematch.body.game.id}/resign`, undefined, auth);
    expect(old.status).toBe(403);
  });

  it('seat-token games: each holder gets its own new token by presenting its old one', async () => {
    const created = await call(run, 'POST', '/games', { kind: 'kalah' });
    const [t0, t1] = created.body.seatTokens.map((s: { token: string }) => ({
      authorization: `Bearer ${s.token}`,
    }));
    const id = created.body.game.id as string;
    expect((await call(run, 'POST', `/games/${id}/abort`, undefined, t0)).status).toBe(200);
    expect((await call(run, 'POST', `/games/${id}/rematch`, undefined, t0)).body.status).toBe('offered');
    const stranger = await call(run, 'POST', `/games/${id}/rematch/accept`);
    expect(stranger.status).toBe(401);
    const accepted = await call(run, 'POST', `/games/${id}/rematch/accept`, undefined, t1);
    expect(accepted.body.seatToken).toMatchObject({ seat: 0, name: 'south' });
    const mine = await call(run, 'POST', `/games/${id}/rematch`, undefined, t0);
    expect([mine.body.status, mine.body.game.id]).toEqual(['accepted', accepted.body.game.id]);
    expect(mine.body.seatToken).toMatchObject({ seat: 1, name: 'north' });
    expect(mine.body.seatToken.token).not.toBe(accepted.body.seatToken.token);
    const newId = accepted.body.game.id as string;
    const move = accepted.body.game.legalMoves[0];
    const played = await call(
      run,
      'POST',
      `/games/${newId}/moves`,
      { move },
      {
        authorization: `Bearer ${accepted.body.seatToken.token}`,
      },
    );
    expect([played.status, played.body.ply]).toEqual([200, 1]);
  });

  it('refusals: blocked players, tournament and bulk games, strangers; nothing changes', async () => {
    const a = await signUp(run.app, 'rmh', 'human');
    const b = await signUp(run.app, 'rmi', 'human');
    const c = await signUp(run.app, 'rmj', 'human');
    const id = await finished(a, b);
    const stranger = await rest(run, c, 'POST', `/games/${id}/rematch`);
    expect([stranger.status, stranger.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await rest(run, a, 'POST', `/games/${id}/rematch`)).status).toBe(201);
    expect((await rest(run, b, 'PUT', `/account/blocks/${a.username}`)).status).toBe(204);
    const blocked = await rest(run, a, 'POST', `/games/${id}/rematch/accept`);
    expect(blocked.status).toBe(409);
    const accept = await rest(run, b, 'POST', `/games/${id}/rematch/accept`);
    expect([accept.status, accept.body.code, accept.body.reason]).toEqual([
      409,
      'REMATCH_NOT_ALLOWED',
      'blocked',
    ]);
    expect(await run.storage.games.get(rematchIdOf(id))).toBeUndefined();

    const games = run.app.services.games;
    const bulk = games.newGame({
      kind: 'kalah',
      options: games.parseOptions(games.engineFor('kalah'), {}),
      first: 0,
      accounts: [a.id, c.id],
      timeControl: { type: 'unlimited' },
      at: new Date().toISOString(),
    });
    await run.storage.games.create({
      ...bulk,
      source: { type: 'bulk', id: 'bulk-1' },
      status: 'finished',
      outcome: { reason: 'aborted' },
      toMove: null,
      legalMoves: [],
    });
    const source = await rest(run, a, 'POST', `/games/${bulk.id}/rematch`);
    expect([source.status, source.body.code, source.body.reason]).toEqual([
      409,
      'REMATCH_NOT_ALLOWED',
      'source',
    ]);
  });

  it('counts as a game start: an account at its ongoing-games cap refuses it, the offer stays', async () => {
    const capped = await harness.start(store, {
      app: {
        quotas: {
          ongoingGamesPerAccount: 1,
          tokensPerAccount: 100,
          accountsPerIpPerDay: 100,
          gamesPerIpPerDay: 100,
        },
      },
    });
    const a = await signUp(capped.app, 'rmk', 'human');
    const b = await signUp(capped.app, 'rml', 'human');
    const c = await signUp(capped.app, 'rmm', 'human');
    const ch = await rest(capped, a, 'POST', '/challenges', { kind: 'kalah', to: b.username });
    await rest(capped, b, 'POST', `/challenges/${ch.body.id}/accept`);
    await rest(capped, a, 'POST', `/games/${ch.body.id}/resign`);
    // b now plays c: at its cap of one ongoing game.
    const other = await rest(capped, c, 'POST', '/challenges', { kind: 'kalah', to: b.username });
    await rest(capped, b, 'POST', `/challenges/${other.body.id}/accept`);
    expect((await rest(capped, a, 'POST', `/games/${ch.body.id}/rematch`)).status).toBe(201);
    const full = await rest(capped, b, 'POST', `/games/${ch.body.id}/rematch/accept`);
    expect([full.status, full.body.code]).toEqual([409, 'TOO_MANY_GAMES']);
    expect(await capped.storage.games.get(rematchIdOf(ch.body.id))).toBeUndefined();
    expect((await rest(capped, a, 'GET', `/games/${ch.body.id}`)).body.rematch.offeredBy).not.toBeNull();
    // Once b's other game ends, the same offer is accepted.
    await rest(capped, c, 'POST', `/games/${other.body.id}/resign`);
    const accepted = await rest(capped, b, 'POST', `/games/${ch.body.id}/rematch/accept`);
    expect([accepted.status, accepted.body.game.rematchOf]).toEqual([201, ch.body.id]);
  });

  it('seat tokens: both holders accept at once — one game, each its own token; the daily quota counts it', async () => {
    const created = await call(run, 'POST', '/games', { kind: 'oware' });
    const [t0, t1] = created.body.seatTokens.map((s: { token: string }) => ({
      authorization: `Bearer ${s.token}`,
    }));
    const id = created.body.game.id as string;
    await call(run, 'POST', `/games/${id}/resign`, undefined, t1);
    const answers = await Promise.all(
      [t0, t1, t0, t1].map((auth) => call(run, 'POST', `/games/${id}/rematch`, undefined, auth)),
    );
    // One offer was stored first; whatever the order, every accepted answer names one game.
    const accepted = answers.filter((r) => r.body.status === 'accepted');
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(new Set(accepted.map((r) => r.body.game.id))).toEqual(new Set([rematchIdOf(id)]));
    // Each holder asking again gets its own seat and token: one game, two seats.
    const [r0, r1] = await Promise.all([
      call(run, 'POST', `/games/${id}/rematch/accept`, undefined, t0),
      call(run, 'POST', `/games/${id}/rematch/accept`, undefined, t1),
    ]);
    expect([r0.body.game.id, r1.body.game.id]).toEqual([rematchIdOf(id), rematchIdOf(id)]);
    expect([r0.body.seatToken.seat, r1.body.seatToken.seat]).toEqual([1, 0]);
    for (const answer of accepted) {
      const mine = answer.body.seatToken.seat === 1 ? r0 : r1;
      expect(answer.body.seatToken.token).toBe(mine.body.seatToken.token);
    }

    const strict = await harness.start(store, {
      app: {
        quotas: {
          gamesPerIpPerDay: 1,
          ongoingGamesPerAccount: 10,
          tokensPerAccount: 10,
          accountsPerIpPerDay: 10,
        },
      },
    });
    const one = await call(strict, 'POST', '/games', { kind: 'kalah' });
    const auth = { authorization: `Bearer ${one.body.seatTokens[0].token}` };
    await call(strict, 'POST', `/games/${one.body.game.id}/abort`, undefined, auth);
    await call(strict, 'POST', `/games/${one.body.game.id}/rematch`, undefined, {
      authorization: `Bearer ${one.body.seatTokens[1].token}`,
    });
    const refused = await call(strict, 'POST', `/games/${one.body.game.id}/rematch/accept`, undefined, auth);
    expect([refused.status, refused.body.code]).toEqual([429, 'QUOTA_EXCEEDED']);
    expect(await strict.storage.games.get(rematchIdOf(one.body.game.id))).toBeUndefined();
  });

  it('GraphQL: offerRematch, acceptRematch, declineRematch and the game fields; rated stays rated', async () => {
    const a = await signUp(run.app, 'rmn', 'human');
    const b = await signUp(run.app, 'rmo', 'human');
    const id = await finished(a, b, { rated: true });
    const mutation = (name: string) =>
      `mutation($id: ID!) { ${name}(gameId: $id) { status seatToken { token } game { ${GAME_FIELDS} } } }`;
    const offered = await ok(run.url, a.token, mutation('offerRematch'), { id });
    expect(offered.offerRematch).toEqual({ status: 'offered', seatToken: null, game: null });
    const refused = await gql(run.url, mutation('acceptRematch'), { id }, a.auth);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('NO_REMATCH_OFFER');
    const read = await ok(run.url, b.token, `query($id: ID!) { game(id: $id) { ${GAME_FIELDS} } }`, { id });
    expect(read.game.rematch).toEqual({ offeredBy: 0, declinedBy: null, game: null });
    const declined = await ok(run.url, b.token, mutation('declineRematch'), { id });
    expect(declined.declineRematch.status).toBe('declined');
    const again = await gql(run.url, mutation('offerRematch'), { id }, a.auth);
    expect(again.body.errors?.[0]?.extensions).toMatchObject({
      code: 'REMATCH_NOT_ALLOWED',
      reason: 'declined',
    });
    const byB = await ok(run.url, b.token, mutation('offerRematch'), { id });
    expect(byB.offerRematch.status).toBe('offered');
    const accepted = await ok(run.url, a.token, mutation('acceptRematch'), { id });
    const game = accepted.acceptRematch.game;
    expect(game).toMatchObject({ id: rematchIdOf(id), rated: true, rematchOf: id, kind: 'kalah' });
    expect(game.seats.map((s: { account: string }) => s.account)).toEqual([b.id, a.id]);
    const old = await ok(run.url, a.token, `query($id: ID!) { game(id: $id) { ${GAME_FIELDS} } }`, { id });
    expect(old.game.rematch.game).toBe(game.id);
    // The finished game's later versions rated nothing again: one rating.updated each.
    for (const who of [a, b]) {
      expect((await events(who, 'rating.updated')).map((e) => e.data.game)).toEqual([id]);
    }
  });
});
