import request from 'supertest';
import { expectProblem } from '../support/problem';
import { appHarness, type Running } from '../support/app';
import { readStream } from '../support/stream-reader';

const harness = appHarness();
let run: Running;
beforeAll(async () => {
  run = await harness.start('redis');
});
afterAll(() => harness.stopAll());

async function newGame() {
  const res = await request(run.url).post('/api/v1/games').send({ kind: 'kalah' }).expect(201);
  return {
    id: res.body.game.id as string,
    tokens: res.body.seatTokens.map((t: { token: string }) => t.token),
  };
}

describe('REST errors leave the stored game unchanged', () => {
  it.each([
    ['an unknown kind', { kind: 'chess' }, 'UNKNOWN_GAME_KIND'],
    ['bad options', { kind: 'kalah', options: { seeds: 99 } }, 'INVALID_INPUT'],
    ['unknown option names', { kind: 'oware', options: { colour: 'red' } }, 'INVALID_INPUT'],
    ['Oware seeds 3', { kind: 'oware', options: { seeds: 3 } }, 'INVALID_INPUT'],
    ['Congkak houses 12', { kind: 'congkak', options: { houses: 12 } }, 'INVALID_INPUT'],
    ['options for a game that has none', { kind: 'congo', options: { fast: true } }, 'INVALID_INPUT'],
    ['a bad first seat', { kind: 'kalah', first: 'east' }, 'INVALID_INPUT'],
    ['an unknown body field', { kind: 'kalah', extra: 1 }, 'INVALID_INPUT'],
  ])('refuses to create a game with %s', async (_label, body, code) => {
    const before = (await request(run.url).get('/api/v1/games?limit=100')).body.items.length;
    expectProblem(await request(run.url).post('/api/v1/games').send(body), 400, code);
    expect((await request(run.url).get('/api/v1/games?limit=100')).body.items.length).toBe(before);
  });

  it('answers a malformed JSON body with INVALID_INPUT', async () => {
    const res = await request(run.url)
      .post('/api/v1/games')
      .set('content-type', 'application/json')
      .send('{"kind":');
    expectProblem(res, 400, 'INVALID_INPUT');
  });

  it('answers a body over 64 kB with 413 PAYLOAD_TOO_LARGE, and creates nothing', async () => {
    const before = (await request(run.url).get('/api/v1/games?limit=100')).body.items.length;
    const res = await request(run.url)
      .post('/api/v1/games')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ kind: 'kalah', options: { pad: 'x'.repeat(70_000) } }));
    expectProblem(res, 413, 'PAYLOAD_TOO_LARGE');
    // Just under the limit is read (and refused for what it says, not for its size).
    const near = await request(run.url)
      .post('/api/v1/games')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ kind: 'kalah', options: { pad: 'x'.repeat(60_000) } }));
    expectProblem(near, 400, 'INVALID_INPUT');
    expect((await request(run.url).get('/api/v1/games?limit=100')).body.items.length).toBe(before);
  });

  it.each([
    ['text/plain', '{"kind":"kalah"}'],
    ['application/x-www-form-urlencoded', 'kind=kalah'],
    ['application/merge-patch+json', '{"kind":"kalah"}'],
    ['application/json; charset=latin1', '{"kind":"kalah"}'],
  ])('answers a %s body with 415 UNSUPPORTED_MEDIA_TYPE, and creates nothing', async (type, body) => {
    const before = (await request(run.url).get('/api/v1/games?limit=100')).body.items.length;
    const res = await request(run.url).post('/api/v1/games').set('content-type', type).send(body);
    expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect((await request(run.url).get('/api/v1/games?limit=100')).body.items.length).toBe(before);
  });

  it('takes a bodiless action without a Content-Type, and a JSON one with a charset', async () => {
    const { id, tokens } = await newGame();
    const offer = await fetch(`${run.url}/api/v1/games/${id}/draw/offer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[0]}` },
    });
    expect(offer.status).toBe(200);
    const created = await request(run.url)
      .post('/api/v1/games')
      .set('content-type', 'application/json; charset=utf-8')
      .send('{"kind":"oware"}');
    expect(created.status).toBe(201);
  });

  it('answers malformed and unknown ids', async () => {
    expectProblem(await request(run.url).get('/api/v1/games/not-an-id'), 400, 'INVALID_INPUT');
    expectProblem(await request(run.url).get('/api/v1/games/AAAAAAAAAAAA'), 404, 'GAME_NOT_FOUND');
    expectProblem(await request(run.url).get('/api/v1/nothing-here'), 404, 'NOT_FOUND');
  });

  it.each([
    ['no token', () => ({}), { move: '3' }, 401, 'UNAUTHENTICATED'],
    ['a wrong token', () => ({ Authorization: 'Bearer bhs_forged' }), { move: '3' }, 403, 'FORBIDDEN'],
    [
      'the other seat’s token',
      (t: string[]) => ({ Authorization: `Bearer ${t[1]}` }),
      { move: '3' },
      409,
      'NOT_YOUR_TURN',
    ],
    [
      'an illegal move',
      (t: string[]) => ({ Authorization: `Bearer ${t[0]}` }),
      { move: '7' },
      422,
      'ILLEGAL_MOVE',
    ],
    [
      'junk notation',
      (t: string[]) => ({ Authorization: `Bearer ${t[0]}` }),
      { move: 'e2-e4' },
      422,
      'ILLEGAL_MOVE',
    ],
    [
      'a stale version',
      (t: string[]) => ({ Authorization: `Bearer ${t[0]}`, 'If-Match': '"5"' }),
      { move: '3' },
      409,
      'VERSION_CONFLICT',
    ],
    [
      'an empty move',
      (t: string[]) => ({ Authorization: `Bearer ${t[0]}` }),
      { move: '' },
      400,
      'INVALID_INPUT',
    ],
  ])('refuses a move with %s', async (_label, headers, body, status, code) => {
    const { id, tokens } = await newGame();
    const before = (await request(run.url).get(`/api/v1/games/${id}`)).body;
    const res = await request(run.url).post(`/api/v1/games/${id}/moves`).set(headers(tokens)).send(body);
    expectProblem(res, status, code);
    if (code === 'VERSION_CONFLICT') expect(res.body.currentVersion).toBe(0);
    expect((await request(run.url).get(`/api/v1/games/${id}`)).body).toEqual(before);
  });

  it('refuses moves once the game is over', async () => {
    const { id, tokens } = await newGame();
    await request(run.url)
      .post(`/api/v1/games/${id}/resign`)
      .set('Authorization', `Bearer ${tokens[0]}`)
      .expect(200);
    const before = (await request(run.url).get(`/api/v1/games/${id}`)).body;
    const res = await request(run.url)
      .post(`/api/v1/games/${id}/moves`)
      .set('Authorization', `Bearer ${tokens[0]}`)
      .send({ move: '3' });
    expectProblem(res, 409, 'GAME_OVER');
    expect((await request(run.url).get(`/api/v1/games/${id}`)).body).toEqual(before);
  });
});

describe('REST writes are safe to retry', () => {
  it('lets exactly one of 50 concurrent identical moves at one version through', async () => {
    const { id, tokens } = await newGame();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        request(run.url)
          .post(`/api/v1/games/${id}/moves`)
          .set('Authorization', `Bearer ${tokens[0]}`)
          .set('If-Match', '"0"')
          .send({ move: '1' }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of responses.filter((x) => x.status === 409)) expect(r.body.code).toBe('VERSION_CONFLICT');
    const game = (await request(run.url).get(`/api/v1/games/${id}`)).body;
    expect(game.moves).toHaveLength(1);
    expect(game.version).toBe(1);
  });

  it('returns the first answer for a retried Idempotency-Key and plays nothing twice', async () => {
    const { id, tokens } = await newGame();
    const send = (move: string) =>
      request(run.url)
        .post(`/api/v1/games/${id}/moves`)
        .set('Authorization', `Bearer ${tokens[0]}`)
        .set('Idempotency-Key', 'retry-me-1')
        .send({ move });
    const first = await send('1');
    expect(first.status).toBe(200);
    const again = await send('1');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const game = (await request(run.url).get(`/api/v1/games/${id}`)).body;
    expect(game.moves).toHaveLength(1);
    expectProblem(await send('2'), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect((await request(run.url).get(`/api/v1/games/${id}`)).body.version).toBe(1);
  });

  it('lets 20 concurrent retries with one key play the move once', async () => {
    const { id, tokens } = await newGame();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        request(run.url)
          .post(`/api/v1/games/${id}/moves`)
          .set('Authorization', `Bearer ${tokens[0]}`)
          .set('Idempotency-Key', 'burst')
          .send({ move: '2' }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(responses.map((r) => r.body.version))).toEqual(new Set([1]));
    expect((await request(run.url).get(`/api/v1/games/${id}`)).body.moves).toHaveLength(1);
  });
});

describe('REST live stream', () => {
  it('streams the whole game first, then each later version as its head and its move (SSE)', async () => {
    const { id, tokens } = await newGame();
    const stream = await readStream(`${run.url}/api/v1/games/${id}/stream`, { accept: 'text/event-stream' });
    try {
      const first = await stream.next();
      expect(first).toMatchObject({ event: 'game', id: '0', data: { id, version: 0, moves: [] } });
      const played: string[] = [];
      for (const move of ['1', '2']) {
        const game = (await request(run.url).get(`/api/v1/games/${id}`)).body;
        const chosen = game.legalMoves.includes(move) ? move : game.legalMoves[0];
        played.push(chosen);
        await request(run.url)
          .post(`/api/v1/games/${id}/moves`)
          .set('Authorization', `Bearer ${tokens[game.toMove]}`)
          .send({ move: chosen })
          .expect(200);
      }
      const updates = [await stream.next(), await stream.next()];
      expect(updates.map((u) => [u.event, u.id])).toEqual([
        ['update', '1'],
        ['update', '2'],
      ]);
      // Each carries the head (no moves) and the move that made it; together they are the game.
      for (const [i, update] of updates.entries()) {
        expect(update.data.game).toMatchObject({ id, version: i + 1, ply: i + 1 });
        expect(update.data.game).not.toHaveProperty('moves');
        expect(update.data.move).toMatchObject({
          ply: i + 1,
          notation: played[i],
          details: expect.any(Object),
        });
      }
      const now = (await request(run.url).get(`/api/v1/games/${id}`)).body;
      const { moves, ...head } = now;
      expect(updates[1]?.data.game).toEqual(head);
      expect(moves).toEqual(updates.map((u) => u.data.move));
    } finally {
      stream.close();
    }
  });

  it('sends the whole game in every message with ?full=1 (both forms)', async () => {
    const { id, tokens } = await newGame();
    const base = `${run.url}/api/v1/games/${id}/stream?full=1`;
    const sse = await readStream(base, { accept: 'text/event-stream' });
    const ndjson = await readStream(base, { accept: 'application/x-ndjson' });
    try {
      expect(await sse.next()).toMatchObject({ event: 'game', data: { version: 0, moves: [] } });
      expect(await ndjson.next()).toMatchObject({ type: 'game', game: { version: 0, moves: [] } });
      const game = (await request(run.url).get(`/api/v1/games/${id}`)).body;
      const after = (
        await request(run.url)
          .post(`/api/v1/games/${id}/moves`)
          .set('Authorization', `Bearer ${tokens[game.toMove]}`)
          .send({ move: game.legalMoves[0] })
          .expect(200)
      ).body;
      expect(await sse.next()).toMatchObject({ event: 'game', id: '1', data: after });
      expect(await ndjson.next()).toEqual({ type: 'game', game: after });
    } finally {
      sse.close();
      ndjson.close();
    }
    expectProblem(await request(run.url).get(`/api/v1/games/${id}/stream?full=yes`), 400, 'INVALID_INPUT');
  });
});

describe('REST live stream formats', () => {
  const play = async (id: string, tokens: string[]) => {
    const game = (await request(run.url).get(`/api/v1/games/${id}`)).body;
    await request(run.url)
      .post(`/api/v1/games/${id}/moves`)
      .set('Authorization', `Bearer ${tokens[game.toMove]}`)
      .send({ move: game.legalMoves[0] })
      .expect(200);
  };

  it('answers NDJSON when asked: a line per version, then end once the game is over', async () => {
    const { id, tokens } = await newGame();
    const stream = await readStream(`${run.url}/api/v1/games/${id}/stream`, {
      accept: 'application/x-ndjson',
    });
    try {
      expect(stream.response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      expect(stream.response.headers.get('vary')).toMatch(/Accept/);
      const first = await stream.next();
      expect(first).toMatchObject({ type: 'game', game: { id, version: 0, moves: [] } });
      await play(id, tokens);
      expect(await stream.next()).toMatchObject({
        type: 'update',
        game: { version: 1 },
        move: { ply: 1, seat: 0 },
      });
      const game = (await request(run.url).get(`/api/v1/games/${id}`)).body;
      await request(run.url)
        .post(`/api/v1/games/${id}/resign`)
        .set('Authorization', `Bearer ${tokens[game.toMove]}`)
        .expect(200);
      // A version no move made: its move is null.
      expect(await stream.next()).toMatchObject({
        type: 'update',
        game: { version: 2, status: 'finished' },
        move: null,
      });
      expect(await stream.next()).toEqual({ type: 'end' });
    } finally {
      stream.close();
    }
  });

  it.each([
    ['no Accept', {}, /^text\/event-stream/],
    ['*/*', { accept: '*/*' }, /^text\/event-stream/],
    ['text/event-stream', { accept: 'text/event-stream' }, /^text\/event-stream/],
    [
      'NDJSON preferred',
      { accept: 'text/event-stream;q=0.5, application/x-ndjson' },
      /^application\/x-ndjson/,
    ],
    ['a type not offered', { accept: 'image/png' }, /^text\/event-stream/],
  ])('negotiates %s like the account feed does (SSE by default here)', async (_label, headers, type) => {
    const { id } = await newGame();
    const stream = await readStream(`${run.url}/api/v1/games/${id}/stream`, headers);
    try {
      expect(stream.response.headers.get('content-type')).toMatch(type);
      const first = await stream.next();
      expect(first.game ?? first.data).toMatchObject({ id, version: 0 });
    } finally {
      stream.close();
    }
  });

  it('resumes after ?after= (both forms) and after Last-Event-ID (SSE, which wins)', async () => {
    const { id, tokens } = await newGame();
    await play(id, tokens);
    await play(id, tokens);
    const base = `${run.url}/api/v1/games/${id}/stream`;
    const ndjson = await readStream(`${base}?after=1`, { accept: 'application/x-ndjson' });
    const sse = await readStream(`${base}?after=0`, { accept: 'text/event-stream', 'last-event-id': '1' });
    try {
      // A resumed stream starts with the whole game too (the versions between may hold moves).
      expect(await ndjson.next()).toMatchObject({ type: 'game', game: { version: 2 } });
      expect(await sse.next()).toMatchObject({ event: 'game', id: '2', data: { version: 2 } });
      await play(id, tokens);
      expect(await ndjson.next()).toMatchObject({ type: 'update', game: { version: 3 } });
      expect(await sse.next()).toMatchObject({ event: 'update', id: '3', data: { game: { version: 3 } } });
    } finally {
      ndjson.close();
      sse.close();
    }
    expectProblem(await request(run.url).get(`/api/v1/games/${id}/stream?after=x`), 400, 'INVALID_INPUT');
    expectProblem(
      await request(run.url).get(`/api/v1/games/${id}/stream`).set('Last-Event-ID', 'abc'),
      400,
      'INVALID_INPUT',
    );
  });
});
