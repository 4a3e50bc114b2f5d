import request from 'supertest';
import { appHarness, chooser, type Running, type StoreKind } from '../support/app';
import { uniquePrefix } from '../support/redis';
import { referee } from '../support/referee';

const harness = appHarness();
afterAll(() => harness.stopAll());

/** Creates a game over REST; returns its id and seat tokens. */
async function createGame(run: Running, body: Record<string, unknown> = { kind: 'kalah' }) {
  const res = await request(run.url).post('/api/v1/games').send(body).expect(201);
  return {
    id: res.body.game.id as string,
    tokens: res.body.seatTokens.map((t: { token: string }) => t.token),
  };
}

describe.each<StoreKind>(['redis', 'memory'])('REST on the %s store', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });

  it('plays a whole Kalah game to the result the rules give', async () => {
    const { id, tokens } = await createGame(run);
    const pick = chooser(store === 'redis' ? 42 : 7);
    const played: string[] = [];
    let game = (await request(run.url).get(`/api/v1/games/${id}`).expect(200)).body;
    while (game.status === 'ongoing') {
      const move = pick(game.legalMoves);
      const res = await request(run.url)
        .post(`/api/v1/games/${id}/moves`)
        .set('Authorization', `Bearer ${tokens[game.toMove]}`)
        .set('If-Match', `"${game.version}"`)
        .send({ move })
        .expect(200);
      expect(res.headers.etag).toBe(`"${game.version + 1}"`);
      played.push(move);
      game = res.body;
    }
    const expected = referee('kalah', {}, played);
    expect(game.position).toBe(expected.position);
    expect(game.result.reason).toBe(expected.outcome?.reason);
    expect(game.result.winner).toBe(expected.outcome?.winner ?? null);
    expect(game.result.score).toEqual(expected.outcome?.score);
    expect(game.moves.map((m: { notation: string }) => m.notation)).toEqual(played);
    expect(game.legalMoves).toEqual([]);
    const stored = (await request(run.url).get(`/api/v1/games/${id}`).expect(200)).body;
    expect(stored).toEqual(game);
    const exported = await request(run.url).get(`/api/v1/games/${id}/export`).set('Accept', 'text/plain');
    expect(exported.status).toBe(200);
    expect(exported.text).toContain('[Game "kalah"]');
  });

  it('lists legal moves and dry-runs a move without storing it', async () => {
    const { id } = await createGame(run);
    const legal = await request(run.url).get(`/api/v1/games/${id}/legal-moves`).expect(200);
    expect(legal.body).toEqual({ id, version: 0, toMove: 0, moves: ['1', '2', '3', '4', '5', '6'] });
    const check = await request(run.url).post(`/api/v1/games/${id}/validate`).send({ move: '3' }).expect(200);
    expect(check.body.position).toBe('4,4,0,5,5,5/1/4,4,4,4,4,4/0 S');
    expect(check.body.toMove).toBe(0);
    const after = await request(run.url).get(`/api/v1/games/${id}`).expect(200);
    expect(after.body.version).toBe(0);
    expect(after.body.moves).toEqual([]);
  });

  it('pages through the game list with after/next, filtered by kind', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createGame(run, { kind: 'oware' })).id);
    const first = await request(run.url).get('/api/v1/games?kind=oware&limit=2').expect(200);
    expect(first.body.items.map((g: { id: string }) => g.id)).toEqual([ids[2], ids[1]]);
    const second = await request(run.url)
      .get(`/api/v1/games?kind=oware&limit=2&after=${first.body.next}`)
      .expect(200);
    expect(second.body.items.map((g: { id: string }) => g.id)[0]).toBe(ids[0]);
  });

  it('resigns for the player to move and records the winner', async () => {
    const { id, tokens } = await createGame(run);
    const res = await request(run.url)
      .post(`/api/v1/games/${id}/resign`)
      .set('Authorization', `Bearer ${tokens[0]}`)
      .expect(200);
    expect(res.body.status).toBe('finished');
    expect(res.body.result).toMatchObject({ winner: 1, winnerName: 'north', reason: 'resignation' });
  });

  it('ends a game by draw agreement', async () => {
    const { id, tokens } = await createGame(run);
    const auth = (seat: number) => ({ Authorization: `Bearer ${tokens[seat]}` });
    await request(run.url).post(`/api/v1/games/${id}/draw/offer`).set(auth(0)).expect(200);
    const declined = await request(run.url).post(`/api/v1/games/${id}/draw/accept`).set(auth(0));
    expect(declined.body.code).toBe('NO_DRAW_OFFER');
    const done = await request(run.url).post(`/api/v1/games/${id}/draw/accept`).set(auth(1)).expect(200);
    expect(done.body.result).toEqual({ winner: null, winnerName: null, reason: 'agreement', score: null });
  });
});

describe('two server nodes writing one game', () => {
  it('answers from the stored game, not from what one node saw last', async () => {
    const prefix = uniquePrefix('nodes');
    const a = await harness.start('redis', prefix);
    const b = await harness.start('redis', prefix);
    const { id, tokens } = await createGame(a);
    const move = (node: Running, seat: number, house: string) =>
      request(node.url)
        .post(`/api/v1/games/${id}/moves`)
        .set('Authorization', `Bearer ${tokens[seat]}`)
        .send({ move: house });
    // South plays 1 through A (A now remembers version 1, North to move).
    expect((await move(a, 0, '1')).status).toBe(200);
    // North plays 1 through B: the game is at version 2, South to move; A does not know.
    expect((await move(b, 1, '1')).status).toBe(200);
    // Through A, South's move must be accepted and North's refused, as the stored game says.
    expect((await move(a, 1, '2')).body.code).toBe('NOT_YOUR_TURN');
    const accepted = await move(a, 0, '2');
    expect(accepted.status).toBe(200);
    expect(accepted.body.version).toBe(3);
    expect(accepted.body.moves.map((m: { notation: string }) => m.notation)).toEqual(['1', '1', '2']);
    // A stale If-Match through B is refused with the true current version.
    const stale = await request(b.url)
      .post(`/api/v1/games/${id}/moves`)
      .set('Authorization', `Bearer ${tokens[accepted.body.toMove]}`)
      .set('If-Match', '"2"')
      .send({ move: accepted.body.legalMoves[0] });
    expect(stale.body).toMatchObject({ code: 'VERSION_CONFLICT', currentVersion: 3 });
  });
});
