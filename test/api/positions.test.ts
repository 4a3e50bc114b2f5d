// Games from a position (issue 11): `position` on createGame, challenges and seeks, on both
// transports and both stores. The position is validated (INVALID_POSITION, nothing stored), kept as
// `initialPosition`, replayed from, written in the record (SetUp/FEN), and the rules apply from it.
import request from 'supertest';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, gql, type Running, type StoreKind } from '../support/app';
import { expectProblem } from '../support/problem';
import { getEngine } from '../../src/engines/kinds';

const harness = appHarness();
afterAll(() => harness.stopAll());

/** Two white kings against two black kings, 28 plies without a man move or capture (D field). */
const KINGS_28 = 'W:WKa1,Kc1:BKf8,Kh8:D28,0,0';
/** The game keeps a position as its engine writes it (the draughts D field may be written longer). */
const KINGS_28_STORED = canonical('russian-draughts', KINGS_28);
/** Congo: a white zebra in the river (c4) and the two lions. */
const ZEBRA_IN_RIVER = '2l4/7/7/2Z4/7/7/4L2 w';
/** Kalah: South's last seeds in house 6; North is ahead. */
const KALAH_LAST = '0,0,0,0,0,1/20/1,0,0,0,0,0/26 S';

const GAME_FIELDS = `id kind status ply toMove toMoveName position initialPosition legalMoves
  seats { seat name account }
  result { winner reason score }
  board { ... on GridBoard { pieces { square side piece } } ... on MancalaBoard { houses stores } }`;

/** A position as the engine writes it back. */
function canonical(kind: string, position: string): string {
  const engine = getEngine(kind)!;
  const state = engine.parseState(position);
  if (!state.ok) throw new Error(state.error.message);
  return engine.formatState(state.value);
}

async function createRest(run: Running, body: Record<string, unknown>) {
  const res = await request(run.url).post('/api/v1/games').send(body);
  return res;
}

async function createGql(run: Running, input: Record<string, unknown>) {
  return gql(
    run.url,
    `mutation ($input: CreateGameInput!) { createGame(input: $input) { game { ${GAME_FIELDS} } seatTokens { token } } }`,
    { input },
  );
}

async function moveRest(run: Running, id: string, token: string, move: string) {
  return (
    await request(run.url)
      .post(`/api/v1/games/${id}/moves`)
      .set('Authorization', `Bearer ${token}`)
      .send({ move })
      .expect(200)
  ).body;
}

async function exportRest(run: Running, id: string): Promise<string> {
  return (await request(run.url).get(`/api/v1/games/${id}/export`).set('Accept', 'text/plain').expect(200))
    .text;
}

/** Every game the store holds (newest first). */
async function storedGameIds(run: Running): Promise<string[]> {
  const ids: string[] = [];
  let before: number | undefined;
  for (;;) {
    const page = await run.storage.games.list({}, 100, before);
    ids.push(...page.items.map((g) => g.id));
    if (page.next === null) return ids;
    before = page.next;
  }
}

describe.each<StoreKind>(['redis', 'memory'])('games from a position on the %s store', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });

  it('REST: a draughts ending reaches the kings-only draw from the counters its position carries', async () => {
    const created = (await createRest(run, { kind: 'russian-draughts', position: KINGS_28 })).body;
    expect(created.game).toMatchObject({
      initialPosition: KINGS_28_STORED,
      position: KINGS_28_STORED,
      toMove: 0,
      status: 'ongoing',
      ply: 0,
    });
    const [white, black] = created.seatTokens.map((t: { token: string }) => t.token);
    const id = created.game.id as string;
    await moveRest(run, id, white, 'c1-d2');
    const over = await moveRest(run, id, black, 'f8-e7');
    expect(over).toMatchObject({
      status: 'finished',
      result: { winner: null, reason: 'kings-only-15' },
      initialPosition: KINGS_28_STORED,
    });
    // The same kings without the counters play on: the draw came from the position's D field.
    const fresh = (await createRest(run, { kind: 'russian-draughts', position: 'W:WKa1,Kc1:BKf8,Kh8' })).body;
    await moveRest(run, fresh.game.id, fresh.seatTokens[0].token, 'c1-d2');
    const goesOn = await moveRest(run, fresh.game.id, fresh.seatTokens[1].token, 'f8-e7');
    expect(goesOn).toMatchObject({ status: 'ongoing', result: null });

    const pdn = await exportRest(run, id);
    expect(pdn).toContain('[SetUp "1"]');
    expect(pdn).toContain(`[FEN "${KINGS_28_STORED}"]`);
    expect(pdn).toContain('[Result "1-1"]');
    expect(pdn).toMatch(/\n1\. c1-d2 f8-e7 1-1\n$/);
    // Reading the game again replays from its initial position, not from the standard start.
    const again = (await request(run.url).get(`/api/v1/games/${id}`).expect(200)).body;
    expect(again).toEqual(over);
  });

  it('GraphQL: a Congo zebra left in the river drowns after its side moves, leaving bare lions', async () => {
    const { body } = await createGql(run, { kind: 'congo', position: ZEBRA_IN_RIVER });
    expect(body.errors).toBeUndefined();
    const { game, seatTokens } = body.data!.createGame;
    expect(game.initialPosition).toBe(ZEBRA_IN_RIVER);
    expect(game.board.pieces).toContainEqual({ square: 'c4', side: 0, piece: 'zebra' });
    const moved = await gql(
      run.url,
      `mutation ($id: ID!, $t: String) { submitMove(id: $id, move: "e1-d1", seatToken: $t) { ${GAME_FIELDS} } }`,
      { id: game.id, t: seatTokens[0].token },
    );
    expect(moved.body.errors).toBeUndefined();
    const after = moved.body.data!.submitMove;
    expect(after.board.pieces.map((p: { piece: string }) => p.piece).sort()).toEqual(['lion', 'lion']);
    expect(after).toMatchObject({
      status: 'finished',
      position: '2l4/7/7/7/7/7/3L3 b',
      // GraphQL enum values spell `-` as `_` (OutcomeReason).
      result: { winner: null, reason: 'bare_lions' },
    });
    const record = await gql(run.url, `query ($id: ID!) { exportGame(id: $id) }`, { id: game.id });
    expect(record.body.data!.exportGame).toContain(`[SetUp "1"]\n[FEN "${ZEBRA_IN_RIVER}"]`);
  });

  it('a mancala position: Kalah plays to its end and score, Congkak with North to move', async () => {
    const created = (await createRest(run, { kind: 'kalah', position: KALAH_LAST })).body;
    const over = await moveRest(run, created.game.id, created.seatTokens[0].token, '6');
    expect(over).toMatchObject({
      status: 'finished',
      initialPosition: KALAH_LAST,
      result: { winner: 1, reason: 'row-empty', score: [21, 27] },
    });
    const record = await exportRest(run, created.game.id);
    expect(record).toContain(`[FEN "${KALAH_LAST}"]`);
    expect(record).toContain('[Score "21-27"]');
    expect(record).toContain('1. S6 0-1');

    const north = '1,0,0,0,0,0,0/40/0,0,0,0,0,0,1/56 N';
    const { body } = await createGql(run, { kind: 'congkak', position: north, first: 'north' });
    expect(body.errors).toBeUndefined();
    expect(body.data!.createGame.game).toMatchObject({
      initialPosition: north,
      toMove: 1,
      toMoveName: 'north',
      legalMoves: ['7'],
      board: {
        houses: [
          [1, 0, 0, 0, 0, 0, 0],
          [0, 0, 0, 0, 0, 0, 1],
        ],
        stores: [40, 56],
      },
    });
  });

  it('refuses bad positions with INVALID_POSITION on both transports and stores nothing', async () => {
    const before = await storedGameIds(run);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      // The engine names what is wrong after this prefix.
      [{ kind: 'russian-draughts', position: 'X:foo' }, /^Not a valid russian-draughts position: \S/],
      [{ kind: 'russian-draughts', position: 'W:Wb8:Bh2' }, /^Not a valid russian-draughts position: \S/],
      [{ kind: 'congo', position: '2l4/7/7/7/7/7/4L2 w' }, /already decided \(bare-lions\)/],
      [{ kind: 'oware', position: '0,0,0,0,1,1/1,0,0,0,0,0 stores 10-35 S' }, /already decided \(majority\)/],
      [{ kind: 'kalah', position: '4,4,4,4/0/4,4,4,4/0 S' }, /houses/],
      [{ kind: 'kalah', position: '' }, /non-empty/],
    ];
    for (const [body, message] of cases) {
      const res = await createRest(run, body);
      expectProblem(res, 400, 'INVALID_POSITION');
      expect(res.body.detail).toMatch(message);
      expect(res.body.field).toBe('position');
      const graphql = await createGql(run, body);
      expect(graphql.body.errors?.[0]?.extensions?.code).toBe('INVALID_POSITION');
      expect(graphql.body.errors?.[0]?.message).toMatch(message);
    }
    // A position with another side to move than `first` says is refused too.
    const clash = await createRest(run, { kind: 'kalah', position: KALAH_LAST, first: 'north' });
    expectProblem(clash, 400, 'INVALID_INPUT');
    expect(clash.body.field).toBe('first');
    expect(await storedGameIds(run)).toEqual(before);
  });

  it('challenges from a position: `starts` names who plays its side to move; refusals store nothing', async () => {
    const [ann, ben] = await Promise.all([signUp(run.app, 'ann'), signUp(run.app, 'ben')]);
    const blackToMove = 'B:WKa1,Kc1:BKf8,Kh8';
    const challenge = (
      await request(run.url)
        .post('/api/v1/challenges')
        .set(ann.auth)
        .send({ to: ben.username, kind: 'russian-draughts', position: blackToMove, starts: 'challenger' })
        .expect(201)
    ).body;
    expect(challenge.initialPosition).toBe(blackToMove);
    const accepted = (
      await request(run.url).post(`/api/v1/challenges/${challenge.id}/accept`).set(ben.auth).expect(200)
    ).body;
    const game = (await request(run.url).get(`/api/v1/games/${accepted.gameId}`).expect(200)).body;
    expect(game).toMatchObject({ initialPosition: blackToMove, position: blackToMove, toMove: 1 });
    expect(game.seats.map((s: { account: string }) => s.account)).toEqual([ben.id, ann.id]);

    // GraphQL: White to move, the destination starts, so it is White.
    const created = await gql(
      run.url,
      `mutation ($input: CreateChallengeInput!) { createChallenge(input: $input) { id initialPosition } }`,
      { input: { to: ann.username, kind: 'congo', position: ZEBRA_IN_RIVER, starts: 'destination' } },
      ben.auth,
    );
    expect(created.body.data!.createChallenge.initialPosition).toBe(ZEBRA_IN_RIVER);
    const accept = await gql(
      run.url,
      `mutation ($id: ID!) { acceptChallenge(id: $id) { gameId } }`,
      { id: created.body.data!.createChallenge.id },
      ann.auth,
    );
    const congo = (
      await request(run.url).get(`/api/v1/games/${accept.body.data!.acceptChallenge.gameId}`).expect(200)
    ).body;
    expect(congo).toMatchObject({ initialPosition: ZEBRA_IN_RIVER, toMove: 0 });
    expect(congo.seats.map((s: { account: string }) => s.account)).toEqual([ann.id, ben.id]);

    const refused = await request(run.url)
      .post('/api/v1/challenges')
      .set(ann.auth)
      .send({ to: ben.username, kind: 'congo', position: '2l4/7/7/7/7/7/4L2 w' });
    expectProblem(refused, 400, 'INVALID_POSITION');
    const refusedGql = await gql(
      run.url,
      `mutation ($input: CreateChallengeInput!) { createChallenge(input: $input) { id } }`,
      { input: { to: ann.username, kind: 'kalah', position: '1,2,3' } },
      ben.auth,
    );
    expect(refusedGql.body.errors?.[0]?.extensions?.code).toBe('INVALID_POSITION');
    const open = (await request(run.url).get('/api/v1/challenges').set(ann.auth).expect(200)).body;
    expect(open.items).toEqual([]);
  });

  it('seeks pair only with seeks for the same position, however it is spelled', async () => {
    const [a, b, c, d] = [
      await signUp(run.app, 'sa'),
      await signUp(run.app, 'sb'),
      await signUp(run.app, 'sc'),
      await signUp(run.app, 'sd'),
    ];
    const position = 'W:WKa1,Kc1:BKf8,Kh8';
    const seek = (account: TestAccount, body: Record<string, unknown>) =>
      request(run.url).post('/api/v1/seeks').set(account.auth).send(body).expect(201);
    const waiting = (await seek(a, { kind: 'russian-draughts', position })).body;
    expect(waiting).toMatchObject({ status: 'waiting', initialPosition: position });
    // The standard start and another position do not pair with it.
    expect((await seek(b, { kind: 'russian-draughts' })).body.status).toBe('waiting');
    expect((await seek(b, { kind: 'russian-draughts', position: 'W:WKa1:BKh8' })).body.status).toBe(
      'waiting',
    );
    // The same position in lidraughts square numbers does, over GraphQL.
    const matched = await gql(
      run.url,
      `mutation ($input: CreateSeekInput!) { createSeek(input: $input) { status initialPosition game { ${GAME_FIELDS} } } }`,
      { input: { kind: 'russian-draughts', position: 'W:WK29,K30:BK3,K4' } },
      c.auth,
    );
    expect(matched.body.errors).toBeUndefined();
    const result = matched.body.data!.createSeek;
    expect(result).toMatchObject({ status: 'matched', initialPosition: position });
    expect(result.game).toMatchObject({ initialPosition: position, position, toMove: 0 });
    expect(result.game.seats.map((s: { account: string }) => s.account).sort()).toEqual([a.id, c.id].sort());
    const refused = await request(run.url)
      .post('/api/v1/seeks')
      .set(d.auth)
      .send({ kind: 'oware', position: '0,0,0,0,1,1/1,0,0,0,0,0 stores 10-35 S' });
    expectProblem(refused, 400, 'INVALID_POSITION');
  });
});

describe('one vocabulary for who moves first', () => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start('memory');
  });

  const cases: Array<[string, string | number, number]> = [
    ['kalah', 'north', 1],
    ['kalah', 'south', 0],
    ['kalah', '1', 1],
    ['kalah', '0', 0],
    ['russian-draughts', 'black', 1],
    ['congo', 'White', 0],
  ];

  it.each(cases)('REST and GraphQL both take %s first=%p (seat %i)', async (kind, first, seat) => {
    const rest = await createRest(run, { kind, first });
    expect(rest.status).toBe(201);
    expect(rest.body.game.toMove).toBe(seat);
    const graphql = await createGql(run, { kind, first: String(first) });
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data!.createGame.game.toMove).toBe(seat);
  });

  it('REST also takes the numbers 0 and 1; both take random', async () => {
    expect((await createRest(run, { kind: 'oware', first: 1 })).body.game.toMove).toBe(1);
    expect((await createRest(run, { kind: 'oware', first: 0 })).body.game.toMove).toBe(0);
    const seats = new Set<number>();
    for (let i = 0; i < 40 && seats.size < 2; i++) {
      seats.add((await createRest(run, { kind: 'oware', first: 'random' })).body.game.toMove);
      seats.add((await createGql(run, { kind: 'oware', first: 'random' })).body.data!.createGame.game.toMove);
    }
    expect([...seats].sort()).toEqual([0, 1]);
  });

  it.each<[string, string | number]>([
    ['kalah', 'white'],
    ['congo', 'north'],
    ['kalah', '2'],
    ['kalah', 2],
    ['kalah', ''],
  ])('both refuse %s first=%p with INVALID_INPUT on field first', async (kind, first) => {
    const rest = await createRest(run, { kind, first });
    expectProblem(rest, 400, 'INVALID_INPUT');
    expect(rest.body.field).toBe('first');
    const graphql = await createGql(run, { kind, first: String(first) });
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'first' });
  });
});
