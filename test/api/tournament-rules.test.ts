// Tournament rules on both stores: typed errors (nothing stored changes), cancellation below
// minPlayers at the start time, withdrawal (forfeits), micro-matches, the GraphQL surface, and two
// directors at once creating each game once. The clock is the services' (a variable), not a timer.
import { roundRobinPairings } from '../../src/service/tournaments/rounds';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, gql, type Running, type StoreKind, rest } from '../support/app';

const ql = async (run: Running, query: string, token?: string): Promise<{ status: number; body: any }> =>
  gql(run.url, query, {}, token ? { authorization: `Bearer ${token}` } : {});
import { uniquePrefix } from '../support/redis';
import { startReceiver, verifies } from '../support/webhook-receiver';

const TIME = { type: 'realtime', initialSeconds: 600, incrementSeconds: 0 };
const harness = appHarness();
afterAll(() => harness.stopAll());

describe.each<StoreKind>(['memory', 'redis'])('tournaments on %s', (store) => {
  let clock = Date.parse('2031-03-01T12:00:00.000Z');
  let run: Running;
  let accounts: TestAccount[];
  beforeAll(async () => {
    run = await harness.start(store, { now: () => new Date(clock), app: { tournamentSweepMs: 0 } });
    accounts = [];
    for (let i = 0; i < 4; i++) accounts.push(await signUp(run.app, `tr${i}`, i % 2 === 0 ? 'bot' : 'human'));
  });
  const who = (i: number) => () => accounts[i] as TestAccount;
  const [a, b, c, d] = [who(0), who(1), who(2), who(3)];
  const create = (body: object) =>
    rest(run, a(), 'POST', '/tournaments', { name: 'T', kind: 'kalah', timeControl: TIME, ...body });
  const sweep = () => run.app.services.tournaments.director.sweep();

  it('refuses bad input with typed errors and stores nothing', async () => {
    const before = (await rest(run, null, 'GET', '/tournaments?limit=100')).body.items.length;
    const cases: Array<[object, string]> = [
      [{ format: 'swiss', timeControl: null }, 'timeControl'],
      [{ format: 'knockout' }, 'body'],
      [{ format: 'swiss', maxPlayers: 65 }, 'maxPlayers'],
      [{ format: 'round-robin', maxPlayers: 21 }, 'maxPlayers'],
      [{ format: 'swiss', rounds: 0 }, 'rounds'],
      [{ format: 'swiss', minPlayers: 9, maxPlayers: 8 }, 'minPlayers'],
      [{ format: 'swiss', byePoints: 2 }, 'byePoints'],
      [{ format: 'swiss', name: '' }, 'name'],
      [{ format: 'swiss', startsAt: 'soon' }, 'startsAt'],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_INPUT');
      if (field !== 'body') expect(JSON.stringify(res.body)).toContain(field);
    }
    expect((await rest(run, null, 'GET', '/tournaments?limit=100')).body.items).toHaveLength(before);
    expect((await rest(run, a(), 'POST', '/tournaments/AAAAAAAAAAAA/join')).body.code).toBe(
      'TOURNAMENT_NOT_FOUND',
    );
    expect((await rest(run, a(), 'POST', '/tournaments/!!/join')).status).toBe(400);
    expect((await rest(run, null, 'POST', '/tournaments/AAAAAAAAAAAA/join')).status).toBe(401);
    const open = (await create({ format: 'swiss', maxPlayers: 3 })).body;
    const left = await rest(run, b(), 'POST', `/tournaments/${open.id}/leave`);
    expect([left.status, left.body.code]).toEqual([409, 'NOT_IN_TOURNAMENT']);
    expect((await rest(run, null, 'GET', `/tournaments/${open.id}`)).body.version).toBe(0);
  });

  it('cancels a tournament with fewer than minPlayers at its start time, and tells the players', async () => {
    const t = (
      await create({ format: 'swiss', minPlayers: 3, startsAt: new Date(clock + 60_000).toISOString() })
    ).body;
    await rest(run, b(), 'POST', `/tournaments/${t.id}/join`);
    await rest(run, c(), 'POST', `/tournaments/${t.id}/join`);
    await sweep();
    expect((await rest(run, null, 'GET', `/tournaments/${t.id}`)).body.status).toBe('open');
    clock += 61_000;
    await sweep();
    expect((await rest(run, null, 'GET', `/tournaments/${t.id}`)).body.status).toBe('cancelled');
    const late = await rest(run, d(), 'POST', `/tournaments/${t.id}/join`);
    expect([late.status, late.body.code]).toEqual([409, 'TOURNAMENT_CLOSED']);
    const feed = await run.app.services.feed.read({ token: b().token }, 0, 100);
    const events = feed.events.filter((e: any) => e.data.tournament?.id === t.id).map((e: any) => e.type);
    expect(events).toEqual(['tournament.cancelled']);
  });

  it('a 3-player micro-match round robin: byes, two legs with colours swapped, a withdrawal forfeits the rest', async () => {
    const t = (await create({ format: 'round-robin', maxPlayers: 3, microMatch: true })).body;
    for (const p of [b, c, d])
      expect((await rest(run, p(), 'POST', `/tournaments/${t.id}/join`)).status).toBe(200);
    await sweep();
    let now = (await rest(run, null, 'GET', `/tournaments/${t.id}`)).body;
    expect([now.status, now.round, now.rounds]).toEqual(['ongoing', 1, 3]);
    const [game, bye] = now.pairings as any[];
    expect(bye.second).toBeNull();
    expect(game.games).toHaveLength(2);
    const legs = await Promise.all(game.games.map((id: string) => run.storage.games.get(id)));
    expect(legs.map((g) => g?.seats.map((s: { account: string | null }) => s.account))).toEqual([
      [game.first, game.second],
      [game.second, game.first],
    ]);
    // The bye's player withdraws during round 1; `first` resigns both legs.
    const byId = new Map(accounts.map((x) => [x.id, x]));
    expect(
      (await rest(run, byId.get(bye.first)!, 'POST', `/tournaments/${t.id}/leave`)).body.players,
    ).toHaveLength(3);
    for (const id of game.games) {
      expect((await rest(run, byId.get(game.first)!, 'POST', `/games/${id}/resign`)).status).toBe(200);
    }
    await sweep();
    now = (await rest(run, null, 'GET', `/tournaments/${t.id}`)).body;
    expect(now.round).toBe(2);
    expect(now.pairings[0].points).toEqual([0, 2]);
    const round2 = now.pairings.filter((p: any) => p.round === 2);
    const forfeited = round2.find((p: any) => p.forfeitedBy === bye.first);
    expect(forfeited.games).toEqual([]);
    // Round 2's only other pairing is a bye; round 3 is the last pairing, with the withdrawn player.
    await sweep();
    await sweep();
    now = (await rest(run, null, 'GET', `/tournaments/${t.id}`)).body;
    expect(now.status).toBe('finished');
    const rows = (await rest(run, null, 'GET', `/tournaments/${t.id}/standings`)).body.rows;
    const score = Object.fromEntries(rows.map((r: any) => [r.account, r.score]));
    // second: 2 (both legs) + 2 (forfeit) + 2 (bye) ; first: 0 + 2 (bye) + 2 (forfeit); withdrawn: bye 2.
    expect(score).toEqual({ [game.second]: 6, [game.first]: 4, [bye.first]: 2 });
    expect(rows.find((r: any) => r.account === bye.first).withdrawn).toBe(true);
  });

  it('a rated tournament rates its games; a player who never moves loses on time: a forfeit, shown as a no-show', async () => {
    const t = (
      await create({
        format: 'round-robin',
        maxPlayers: 2,
        rated: true,
        timeControl: { type: 'realtime', initialSeconds: 10, incrementSeconds: 0 },
      })
    ).body;
    await rest(run, b(), 'POST', `/tournaments/${t.id}/join`);
    const started = (await rest(run, c(), 'POST', `/tournaments/${t.id}/join`)).body;
    expect(started.status).toBe('ongoing');
    const [pairing] = started.pairings;
    clock += 11_000;
    await run.app.services.clocks.sweep();
    const game = await run.storage.games.get(pairing.games[0]);
    expect(game?.outcome).toMatchObject({ winner: 1, reason: 'timeout' });
    expect([game?.rated, game?.source]).toEqual([true, { type: 'tournament', id: t.id, round: 1 }]);
    expect(game?.seats.map((s) => [typeof s.rating, s.provisional])).toEqual([
      ['number', true],
      ['number', true],
    ]);
    await sweep();
    const done = (await rest(run, null, 'GET', `/tournaments/${t.id}`)).body;
    expect(done.status).toBe('finished');
    expect(done.pairings[0]).toMatchObject({ noShows: [pairing.first], points: [0, 1] });
  });

  it("creates a round's games that a director which died after writing the round left uncreated", async () => {
    const t = (await create({ format: 'round-robin', maxPlayers: 3 })).body;
    await rest(run, b(), 'POST', `/tournaments/${t.id}/join`);
    await rest(run, c(), 'POST', `/tournaments/${t.id}/join`);
    // What a director writes when it starts round 1, without the games it would create next.
    const stored = (await run.storage.tournaments.get(t.id))!;
    const pairings = roundRobinPairings(stored).slice(0, 1);
    const written = {
      ...stored,
      status: 'ongoing' as const,
      round: 1,
      rounds: 1,
      pairings,
      version: stored.version + 1,
    };
    expect(await run.storage.tournaments.update(written, stored.version)).toEqual({ status: 'updated' });
    const id = pairings[0]!.games[0]!;
    expect(await run.storage.games.get(id)).toBeUndefined();
    await sweep();
    await sweep();
    expect((await run.storage.games.get(id))?.source).toEqual({ type: 'tournament', id: t.id, round: 1 });
    for (const who of [b(), c()]) {
      const feed = await run.app.services.feed.read({ token: who.token }, 0, 500);
      expect(feed.events.filter((e: any) => e.type === 'game.started' && e.data.game.id === id)).toHaveLength(
        1,
      );
    }
  });

  it('delivers tournament events as webhooks (filtered by type, signed)', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await rest(run, d(), 'POST', '/account/webhooks', {
        url: receiver.url('/t'),
        events: ['tournament.started', 'tournament.round_started', 'tournament.cancelled'],
      });
      expect(hook.status).toBe(201);
      const t = (await create({ format: 'swiss', maxPlayers: 2, rounds: 1 })).body;
      await rest(run, c(), 'POST', `/tournaments/${t.id}/join`);
      await rest(run, d(), 'POST', `/tournaments/${t.id}/join`);
      await run.app.deliverWebhooks();
      const got = await receiver.waitForAccepted(2, 10_000);
      expect(got.map((r) => [r.payload.type, r.payload.data.tournament.id])).toEqual([
        ['tournament.started', t.id],
        ['tournament.round_started', t.id],
      ]);
      expect(got.every((r) => verifies(r, hook.body.secret, clock))).toBe(true);
      expect(got[1]?.payload.data.pairings).toHaveLength(1);
      expect((await rest(run, d(), 'DELETE', `/account/webhooks/${hook.body.id}`)).status).toBe(204);
    } finally {
      await receiver.stop();
    }
  });

  it('GraphQL: create, join, read, standings, and typed errors', async () => {
    const created = await ql(
      run,
      `mutation { createTournament(input: { name: "G", kind: "kalah", format: "swiss", rounds: 2, maxPlayers: 4,
        timeControl: { type: "realtime", initialSeconds: 60 } }) { id status format rounds } }`,
      a().token,
    );
    const id = created.body.data.createTournament.id;
    expect(created.body.data.createTournament).toMatchObject({ status: 'open', format: 'swiss', rounds: 2 });
    const joined = await ql(
      run,
      `mutation { joinTournament(id: "${id}") { players { account } } }`,
      b().token,
    );
    expect(joined.body.data.joinTournament.players).toEqual([{ account: b().id }]);
    const read = await ql(
      run,
      `{ tournament(id: "${id}") { name } tournamentStandings(id: "${id}") { rows { account score } text } myTournaments { items { id } } }`,
      b().token,
    );
    expect(read.body.data.tournament.name).toBe('G');
    expect(read.body.data.tournamentStandings.rows).toEqual([{ account: b().id, score: 0 }]);
    expect(read.body.data.tournamentStandings.text).toContain(b().username);
    expect(read.body.data.myTournaments.items.map((t: any) => t.id)).toContain(id);
    const missing = await ql(run, `mutation { leaveTournament(id: "${id}") { id } }`, c().token);
    expect(missing.body.errors[0].extensions.code).toBe('NOT_IN_TOURNAMENT');
    const unknown = await ql(run, `{ tournament(id: "AAAAAAAAAAAA") { id } }`);
    expect(unknown.body.errors[0].extensions.code).toBe('TOURNAMENT_NOT_FOUND');
  });
});

describe('two directors at once (Redis)', () => {
  it('create each game once and pair each round once', async () => {
    const prefix = uniquePrefix('tour-director');
    const app = { tournamentSweepMs: 0 };
    const nodes = [
      await harness.start('redis', { prefix, app }),
      await harness.start('redis', { prefix, app }),
    ];
    const [first] = nodes as [Running, Running];
    const players: TestAccount[] = [];
    for (let i = 0; i < 6; i++) players.push(await signUp(first.app, `dd${i}`));
    const t = (
      await rest(first, players[0]!, 'POST', '/tournaments', {
        name: 'Race',
        kind: 'kalah',
        timeControl: TIME,
        format: 'swiss',
        rounds: 2,
        maxPlayers: 6,
        startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      })
    ).body;
    for (const p of players) await rest(first, p, 'POST', `/tournaments/${t.id}/join`);
    const directors = nodes.map((n) => n.app.services.tournaments.director);
    // Full: every director tries at once, several times over.
    await Promise.all(directors.flatMap((d) => [d.sweep(), d.advance(t.id), d.sweep(), d.advance(t.id)]));
    await Promise.all(directors.flatMap((d) => [d.sweep(), d.advance(t.id)]));
    const now = (await rest(first, null, 'GET', `/tournaments/${t.id}`)).body;
    expect([now.status, now.round, now.version]).toEqual(['ongoing', 1, 7]);
    expect(now.pairings).toHaveLength(3);
    for (const pairing of now.pairings) {
      const game = await first.storage.games.get(pairing.games[0]);
      expect(game?.seats.map((s) => s.account)).toEqual([pairing.first, pairing.second]);
    }
    for (const p of players) {
      const feed = await first.app.services.feed.read({ token: p.token }, 0, 100);
      expect(feed.events.map((e: any) => e.type).sort()).toEqual([
        'game.started',
        'tournament.round_started',
        'tournament.started',
      ]);
    }
  });
});
