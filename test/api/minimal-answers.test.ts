// `Prefer: return=minimal` (RFC 7240) on the writes of a game's seats: the answer is the new head and
// the move the request played (a game stream's `update`), O(1) in the length of the game; without it
// (or with return=representation) the whole game, as before. Idempotent retries answer their first
// answer in the shape asked for by the retry. GraphQL mutations build `moves` only when selected.
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { appHarness, gql, type Running, type StoreKind } from '../support/app';

const harness = appHarness();
afterAll(() => harness.stopAll());

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const MINIMAL = { Prefer: 'return=minimal' };

/** The game without `moves`, as GET /games/{id} sends it. */
function headOf(game: Record<string, unknown>): Record<string, unknown> {
  const { moves: _moves, ...head } = game;
  return head;
}

describe.each<StoreKind>(['redis', 'memory'])('Prefer: return=minimal on the %s store', (store) => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start(store);
  });

  const newGame = async () => {
    const created = await request(run.url).post('/api/v1/games').send({ kind: 'kalah' }).expect(201);
    return {
      id: created.body.game.id as string,
      tokens: created.body.seatTokens.map((t: { token: string }) => t.token) as string[],
    };
  };
  const read = async (id: string) => (await request(run.url).get(`/api/v1/games/${id}`).expect(200)).body;
  const play = (id: string, token: string, move: string, headers: Record<string, string> = {}) =>
    request(run.url).post(`/api/v1/games/${id}/moves`).set(bearer(token)).set(headers).send({ move });

  it('answers the head and the move played, the whole game without it, turn by turn', async () => {
    const { id, tokens } = await newGame();
    let game = await read(id);
    // Twelve plies (or to the end), alternating the two shapes.
    for (let i = 0; i < 12 && game.status === 'ongoing'; i++) {
      const minimal = i % 2 === 0;
      const move = game.legalMoves[i % game.legalMoves.length] as string;
      const answer = await play(id, tokens[game.toMove] as string, move, minimal ? MINIMAL : {}).expect(200);
      const stored = await read(id);
      expect(answer.headers.etag).toBe(`"${stored.version}"`);
      expect(String(answer.headers.vary)).toMatch(/prefer/i);
      if (minimal) {
        expect(answer.headers['preference-applied']).toBe('return=minimal');
        expect(Object.keys(answer.body).sort()).toEqual(['game', 'move']);
        expect(answer.body.game).toEqual(headOf(stored));
        expect(answer.body.game).not.toHaveProperty('moves');
        expect(answer.body.move).toEqual(stored.moves[stored.moves.length - 1]);
        expect(answer.body.move.notation).toBe(move);
      } else {
        expect(answer.headers['preference-applied']).toBeUndefined();
        expect(answer.body).toEqual(stored);
      }
      game = stored;
    }
    expect(game.ply).toBeGreaterThan(2);
  });

  it('reads the preference among others, quoted or not; return=representation is the whole game', async () => {
    const { id, tokens } = await newGame();
    const a = await play(id, tokens[0] as string, '1', { Prefer: 'respond-async, return="minimal"; x=1' });
    expect(a.status).toBe(200);
    expect(a.headers['preference-applied']).toBe('return=minimal');
    expect(a.body.move.ply).toBe(1);
    const game = await read(id);
    const b = await play(id, tokens[game.toMove] as string, game.legalMoves[0], {
      Prefer: 'return=representation',
    }).expect(200);
    expect(b.headers['preference-applied']).toBeUndefined();
    expect(b.body.moves).toHaveLength(2);
  });

  it('answers the other actions minimally too, with a null move', async () => {
    const { id, tokens } = await newGame();
    await play(id, tokens[0] as string, '1').expect(200);
    const offered = await request(run.url)
      .post(`/api/v1/games/${id}/draw/offer`)
      .set(bearer(tokens[1] as string))
      .set(MINIMAL)
      .expect(200);
    expect(offered.headers['preference-applied']).toBe('return=minimal');
    expect(offered.body).toEqual({ game: headOf(await read(id)), move: null });
    expect(offered.body.game.drawOffer).toBe(1);
    const resigned = await request(run.url)
      .post(`/api/v1/games/${id}/resign`)
      .set(bearer(tokens[0] as string))
      .set(MINIMAL)
      .expect(200);
    expect(resigned.body).toEqual({ game: headOf(await read(id)), move: null });
    expect(resigned.body.game.result.reason).toBe('resignation');
  });

  it('answers a retried move with its first answer, in the shape the retry asks for', async () => {
    const { id, tokens } = await newGame();
    const [south, north] = tokens as [string, string];
    const key = `move-${randomBytes(6).toString('hex')}`;
    const first = await play(id, south, '1', { ...MINIMAL, 'Idempotency-Key': key }).expect(200);
    const full = await read(id);
    expect(first.body).toEqual({ game: headOf(full), move: full.moves[0] });
    // The game moves on; the retries still get the first answer (the game at version 1).
    const opponent = full.legalMoves[0] as string;
    await play(id, north, opponent).expect(200);
    const again = await play(id, south, '1', { ...MINIMAL, 'Idempotency-Key': key }).expect(200);
    expect(again.headers['preference-applied']).toBe('return=minimal');
    expect(again.body).toEqual(first.body);
    const whole = await play(id, south, '1', { 'Idempotency-Key': key }).expect(200);
    expect(whole.headers['preference-applied']).toBeUndefined();
    expect(whole.body).toEqual(full);
    // Nothing was played twice.
    const now = await read(id);
    expect(now.moves.map((m: { seat: number }) => m.seat)).toEqual([0, 1]);
    expect(now.version).toBe(2);
  });

  it('resolves moves and lastMove of a GraphQL submitMove on demand', async () => {
    const { id, tokens } = await newGame();
    await play(id, tokens[0] as string, '1').expect(200);
    const game = await read(id);
    const answer = await gql(
      run.url,
      `mutation ($id: ID!, $move: String!, $t: String) {
        submitMove(id: $id, move: $move, seatToken: $t) {
          version status moves { ply notation seat } lastMove { ply notation }
          page: moves(after: 1, limit: 1) { ply }
        }
      }`,
      { id, move: game.legalMoves[0], t: tokens[game.toMove] },
    );
    expect(answer.body.errors).toBeUndefined();
    const stored = await read(id);
    expect(answer.body.data?.submitMove).toEqual({
      version: stored.version,
      status: stored.status,
      moves: stored.moves.map((m: { ply: number; notation: string; seat: number }) => ({
        ply: m.ply,
        notation: m.notation,
        seat: m.seat,
      })),
      lastMove: { ply: 2, notation: stored.moves[1].notation },
      page: [{ ply: 2 }],
    });
  });
});
