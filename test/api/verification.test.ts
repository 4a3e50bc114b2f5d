// Rules verification over REST: a seeded set of positions and moves, the answers a program computes
// (here: this test, with the engines, from the position strings alone), and their score. A correct
// set scores 100 %, a corrupted one names exactly the items corrupted, each with the expected
// position and the legal moves; the same seed always poses the same set.
import request from 'supertest';
import { getEngine } from '../../src/engines/kinds';
import { GAME_KINDS } from '../../src/engines/types';
import type { AnyEngine } from '../../src/engines/engine';
import { appHarness, type Running } from '../support/app';
import { expectProblem } from '../support/problem';

const harness = appHarness();
let run: Running;
beforeAll(async () => {
  run = await harness.start('memory');
});
afterAll(() => harness.stopAll());

const KINDS = GAME_KINDS;

interface Item {
  index: number;
  position: string;
  move: string;
}

const pose = async (kind: string, query: Record<string, string | number>) => {
  const res = await request(run.url).get(`/api/v1/kinds/${kind}/verification`).query(query);
  expect(res.status).toBe(200);
  return res.body as { kind: string; options: Record<string, unknown>; count: number; items: Item[] };
};

const score = async (kind: string, body: Record<string, unknown>) => {
  const res = await request(run.url).post(`/api/v1/kinds/${kind}/verification`).send(body);
  expect(res.status).toBe(200);
  return res.body as {
    correct: number;
    score: number;
    wrong: number[];
    items: Array<
      Item & {
        correct: boolean;
        answer: string | null;
        expected?: string;
        legalMoves?: string[];
        reason?: string;
      }
    >;
  };
};

/** What an author's program does: read the position, play the move, write the position. */
function answer(engine: AnyEngine, options: Record<string, unknown>, item: Item): string {
  const state = engine.parseState(item.position, options as never);
  if (!state.ok) throw new Error(`posed position does not read: ${item.position}`);
  const move = engine.parseMove(state.value, item.move);
  if (!move.ok) throw new Error(`posed move is not legal: ${item.move} in ${item.position}`);
  const next = engine.play(state.value, move.value);
  if (!next.ok) throw new Error('posed move does not play');
  return engine.formatState(next.value);
}

function legalMoves(engine: AnyEngine, options: Record<string, unknown>, position: string): string[] {
  const state = engine.parseState(position, options as never);
  if (!state.ok) throw new Error('does not read');
  return engine.moves(state.value).map((m) => engine.formatMove(state.value, m));
}

describe.each(KINDS)('%s', (kind) => {
  const engine = getEngine(kind) as AnyEngine;

  test('the same seed poses the same set; another seed another one', async () => {
    const a = await pose(kind, { seed: 'same-seed', count: 30 });
    const b = await pose(kind, { seed: 'same-seed', count: 30 });
    const c = await pose(kind, { seed: 'other-seed', count: 30 });
    expect(b).toEqual(a);
    expect(c.items).not.toEqual(a.items);
    expect(a.items.map((i) => i.index)).toEqual([...Array(30).keys()]);
    // Varied positions, every move legal where it is posed.
    expect(new Set(a.items.map((i) => i.position)).size).toBeGreaterThan(20);
    for (const item of a.items) expect(legalMoves(engine, a.options, item.position)).toContain(item.move);
    // A shorter set is the start of the longer one.
    expect((await pose(kind, { seed: 'same-seed', count: 5 })).items).toEqual(a.items.slice(0, 5));
  });

  test('correct answers score 100 %; corrupted ones are named exactly, with what was expected', async () => {
    const set = await pose(kind, { seed: `${kind}-check`, count: 40 });
    const answers = set.items.map((item) => answer(engine, set.options, item));
    const perfect = await score(kind, { seed: `${kind}-check`, count: 40, answers });
    expect(perfect).toMatchObject({ correct: 40, score: 100, wrong: [] });
    expect(perfect.items.every((i) => i.correct && i.expected === undefined)).toBe(true);

    // Corrupt three: the posed position itself (the move not applied), another item's answer, junk.
    const corrupted = [...answers];
    corrupted[3] = set.items[3]!.position;
    corrupted[17] = answers[18] === answers[17] ? set.items[17]!.position : answers[18]!;
    corrupted[29] = 'not a position';
    const scored = await score(kind, { seed: `${kind}-check`, count: 40, answers: corrupted });
    expect(scored.wrong).toEqual([3, 17, 29]);
    expect(scored.correct).toBe(37);
    expect(scored.score).toBe(92.5);
    for (const index of [3, 17, 29]) {
      const item = scored.items[index]!;
      expect(item).toMatchObject({ correct: false, answer: corrupted[index], expected: answers[index] });
      expect(item.legalMoves).toEqual(legalMoves(engine, set.options, set.items[index]!.position));
    }
    expect(scored.items[29]!.reason).toMatch(/Does not read/);

    // Fewer answers than items: the missing ones are wrong.
    const short = await score(kind, { seed: `${kind}-check`, count: 40, answers: answers.slice(0, 38) });
    expect(short.wrong).toEqual([38, 39]);
    expect(short.items[39]).toMatchObject({ answer: null, reason: 'No answer' });
  });
});

test('options pose a set for those options (mancala houses and seeds)', async () => {
  const options = { houses: 4, seeds: 3 };
  const set = await pose('kalah', { seed: 'small', count: 10, options: JSON.stringify(options) });
  expect(set.options).toMatchObject(options);
  const engine = getEngine('kalah') as AnyEngine;
  for (const item of set.items) expect(item.position.split('/')[0]!.split(',')).toHaveLength(4);
  const answers = set.items.map((item) => answer(engine, set.options, item));
  expect((await score('kalah', { seed: 'small', count: 10, options, answers })).score).toBe(100);
  // Scored against the default options, the same answers are no longer right.
  const res = await request(run.url)
    .post('/api/v1/kinds/kalah/verification')
    .send({ seed: 'small', count: 10, answers });
  expect(res.body.correct).toBeLessThan(10);
});

test('bad input: typed 400 problems', async () => {
  const get = (kind: string, query: Record<string, string>) =>
    request(run.url).get(`/api/v1/kinds/${kind}/verification`).query(query);
  expectProblem(await get('chess', { seed: 'a' }), 400, 'UNKNOWN_GAME_KIND');
  expectProblem(await get('kalah', {}), 400, 'INVALID_INPUT');
  expectProblem(await get('kalah', { seed: 'no spaces' }), 400, 'INVALID_INPUT');
  expectProblem(await get('kalah', { seed: 'a', count: '101' }), 400, 'INVALID_INPUT');
  expectProblem(await get('kalah', { seed: 'a', count: '0' }), 400, 'INVALID_INPUT');
  expectProblem(await get('kalah', { seed: 'a', options: '{' }), 400, 'INVALID_INPUT');
  expectProblem(await get('kalah', { seed: 'a', options: '{"houses":99}' }), 400, 'INVALID_INPUT');
  const post = (body: unknown) =>
    request(run.url)
      .post('/api/v1/kinds/kalah/verification')
      .send(body as object);
  expectProblem(await post({ seed: 'a', count: 2, answers: ['x', 'y', 'z'] }), 400, 'INVALID_INPUT');
  expectProblem(await post({ seed: 'a', answers: [1] }), 400, 'INVALID_INPUT');
  expectProblem(await post({ answers: [] }), 400, 'INVALID_INPUT');
});
