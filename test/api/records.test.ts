// The text records say what the game's JSON says (issue 12.12): no score or result while a game goes
// on, no final score for a resigned game (its JSON score is null), the TimeControl tag of PGN 9.6.1
// in every record (PDN included), and SetUp/FEN whenever the game did not start from the standard
// position.
import request from 'supertest';
import { appHarness, gql, type Running } from '../support/app';

const harness = appHarness();
afterAll(() => harness.stopAll());

let run: Running;
beforeAll(async () => {
  run = await harness.start('memory');
});

async function create(body: Record<string, unknown>) {
  const res = await request(run.url).post('/api/v1/games').send(body).expect(201);
  return {
    id: res.body.game.id as string,
    tokens: res.body.seatTokens.map((t: { token: string }) => t.token),
  };
}

async function record(id: string): Promise<string> {
  return (await request(run.url).get(`/api/v1/games/${id}/export`).set('Accept', 'text/plain').expect(200))
    .text;
}

/** The record's tags as a map. */
function tags(text: string): Map<string, string> {
  return new Map([...text.matchAll(/^\[(\w+) "(.*)"\]$/gm)].map((m) => [m[1] as string, m[2] as string]));
}

it('an ongoing Kalah game has result * and neither a score nor a termination in its record', async () => {
  const { id, tokens } = await create({ kind: 'kalah' });
  // South's 3 ends in its store (a point for South): the stores stand 1-0 while the game goes on.
  const game = (
    await request(run.url)
      .post(`/api/v1/games/${id}/moves`)
      .set('Authorization', `Bearer ${tokens[0]}`)
      .send({ move: '3' })
      .expect(200)
  ).body;
  expect(game.board.stores).toEqual([1, 0]);
  const text = await record(id);
  expect(tags(text).get('Result')).toBe('*');
  expect(tags(text).has('Score')).toBe(false);
  expect(tags(text).has('Termination')).toBe(false);
  expect(text).toMatch(/1\. S3 \*\n$/);
});

it('a resigned Kalah game has no final score, in its JSON and in its record alike', async () => {
  const { id, tokens } = await create({ kind: 'kalah' });
  await request(run.url)
    .post(`/api/v1/games/${id}/moves`)
    .set('Authorization', `Bearer ${tokens[0]}`)
    .send({ move: '3' })
    .expect(200);
  const resigned = (
    await request(run.url).post(`/api/v1/games/${id}/resign`).set('Authorization', `Bearer ${tokens[0]}`)
  ).body;
  expect(resigned.result).toEqual({ winner: 1, winnerName: 'north', reason: 'resignation', score: null });
  const t = tags(await record(id));
  expect(t.get('Result')).toBe('0-1');
  expect(t.get('Termination')).toBe('resignation');
  expect(t.has('Score')).toBe(false);
});

it('a Kalah game the rules ended has the same score in its JSON and its record', async () => {
  const { id, tokens } = await create({ kind: 'kalah', position: '0,0,0,0,0,1/20/1,0,0,0,0,0/26 S' });
  const over = (
    await request(run.url)
      .post(`/api/v1/games/${id}/moves`)
      .set('Authorization', `Bearer ${tokens[0]}`)
      .send({ move: '6' })
      .expect(200)
  ).body;
  expect(over.result.score).toEqual([21, 27]);
  expect(tags(await record(id)).get('Score')).toBe(over.result.score.join('-'));
});

it.each<[Record<string, unknown> | undefined, string]>([
  [undefined, '-'],
  [{ type: 'unlimited' }, '-'],
  [{ type: 'realtime', initialSeconds: 300, incrementSeconds: 5 }, '300+5'],
  [{ type: 'realtime', initialSeconds: 60 }, '60+0'],
  [{ type: 'correspondence', daysPerMove: 3 }, '1/259200'],
])('the PDN of a draughts game with time control %j has [TimeControl "%s"]', async (timeControl, tag) => {
  const { id } = await create({ kind: 'russian-draughts', ...(timeControl ? { timeControl } : {}) });
  const pdn = (await request(run.url).get(`/api/v1/games/${id}/export`).expect(200)).text;
  expect(tags(pdn).get('TimeControl')).toBe(tag);
  expect(tags(pdn).get('GameType')).toBe('25');
});

it('Congo and mancala records carry TimeControl too, and SetUp with FEN for a non-standard start', async () => {
  const congo = await create({
    kind: 'congo',
    first: 'black',
    timeControl: { type: 'correspondence', daysPerMove: 1 },
  });
  const congoTags = tags(
    (await gql(run.url, `query ($id: ID!) { exportGame(id: $id) }`, { id: congo.id })).body.data!.exportGame,
  );
  expect(congoTags.get('TimeControl')).toBe('1/86400');
  expect(congoTags.get('SetUp')).toBe('1');
  expect(congoTags.get('FEN')).toBe('gmelecz/ppppppp/7/7/7/PPPPPPP/GMELECZ b');

  const standard = tags(await record((await create({ kind: 'congo' })).id));
  expect(standard.has('SetUp')).toBe(false);
  expect(standard.has('FEN')).toBe(false);

  const draughts = tags(await record((await create({ kind: 'russian-draughts', first: 'black' })).id));
  expect(draughts.get('SetUp')).toBe('1');
  expect(draughts.get('FEN')).toMatch(/^B:W/);

  const oware = tags(
    await record(
      (await create({ kind: 'oware', timeControl: { type: 'realtime', initialSeconds: 600 } })).id,
    ),
  );
  expect(oware.get('TimeControl')).toBe('600+0');
  expect(oware.has('SetUp')).toBe(false);
});
