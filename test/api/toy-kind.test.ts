// #29's done-criterion, "adding a kind is one place": a kind defined only under test/ (a 3-house
// Kalah, test/support/toy-kind.ts) is registered through its descriptor alone, and the engine and
// store contracts, GET /kinds, REST and GraphQL create and move pick it up with no other edit. The
// app's modules build the kind enums from the list when they load, so the app is imported after
// registerKind; the generated schema and OpenAPI (built without the toy) do not name it.
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { KINDS, registerKind } from '../../src/engines/kinds';
import { createMemoryStorage } from '../../src/store/memory';
import { createRedisStorage } from '../../src/store/redis';
import type { GameKind } from '../../src/engines/types';
import type { Storage } from '../../src/store/store';
import { describeKindContracts } from '../engines/kinds';
import { describeKindContract } from '../store/kind-contract';
import type * as Support from '../support/app';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';
import { referee } from '../support/referee';
import { TOY_ID, TOY_KIND } from '../support/toy-kind';

registerKind(TOY_KIND);

it('is in the list after the built-in kinds, and the generated contracts do not name it', () => {
  expect(KINDS.map((k) => k.engine.kind).at(-1)).toBe(TOY_ID);
  expect(() => registerKind(TOY_KIND)).toThrow(/hosted already/);
  expect(readFileSync('openapi/openapi.json', 'utf8')).not.toContain('toy');
  expect(readFileSync('schema/schema.graphql', 'utf8')).not.toContain('toy');
});

describeKindContracts((kind) => kind === TOY_KIND);

describe.each(['memory', 'redis'] as const)('the %s store', (store) => {
  let storage: Storage;
  const prefix = uniquePrefix('toy');
  beforeAll(async () => {
    storage = store === 'memory' ? createMemoryStorage() : await createRedisStorage(REDIS_URL, prefix);
  });
  afterAll(async () => {
    await storage.games.close();
    await storage.events.close();
    if (store === 'redis') await deletePrefix(prefix);
  });
  describeKindContract(() => storage);
});

describe('the API', () => {
  let support: typeof Support;
  let harness: ReturnType<typeof Support.appHarness>;
  let run: Support.Running;
  beforeAll(async () => {
    // Loaded now, after registerKind: the app's modules build the kind enums when they load.
    support = jest.requireActual<typeof Support>('../support/app');
    harness = support.appHarness();
    run = await harness.start('memory');
  });
  afterAll(() => harness.stopAll());

  it('GET /kinds and the GraphQL kinds query describe it from its descriptor', async () => {
    const kinds = (await request(run.url).get('/api/v1/kinds').expect(200)).body.items;
    const toy = kinds.find((k: { kind: string }) => k.kind === TOY_ID);
    expect(toy).toMatchObject({
      name: 'Toy Kalah',
      family: 'mancala',
      seatNames: ['south', 'north'],
      defaults: { seeds: 3 },
      notation: { start: '3,3,3/0/3,3,3/0 S' },
    });
    expect(toy.options.properties).toEqual({
      seeds: {
        type: 'integer',
        title: 'Seeds',
        description: 'Seeds per house.',
        minimum: 1,
        maximum: 4,
        default: 3,
      },
    });
    const { body } = await support.gql(run.url, '{ kinds { kind name family } }');
    expect(body.errors).toBeUndefined();
    expect(body.data!.kinds.at(-1)).toEqual({ kind: TOY_ID, name: 'Toy Kalah', family: 'mancala' });
  });

  it('plays a whole game over REST to the result the rules give', async () => {
    const created = (
      await request(run.url)
        .post('/api/v1/games')
        .send({ kind: TOY_ID, options: { seeds: 2 } })
        .expect(201)
    ).body;
    const tokens = created.seatTokens.map((t: { token: string }) => t.token);
    let game = created.game;
    expect(game.kind).toBe(TOY_ID);
    const pick = support.chooser(29);
    const played: string[] = [];
    while (game.status === 'ongoing') {
      const move = pick(game.legalMoves);
      game = (
        await request(run.url)
          .post(`/api/v1/games/${game.id}/moves`)
          .set('Authorization', `Bearer ${tokens[game.toMove]}`)
          .send({ move })
          .expect(200)
      ).body;
      played.push(move);
    }
    const expected = referee(TOY_ID, { seeds: 2 }, played);
    expect(game.position).toBe(expected.position);
    const record = await request(run.url).get(`/api/v1/games/${game.id}/export`).expect(200);
    expect(record.headers['content-type']).toMatch(/^text\/plain/);
    expect(record.text).toContain(`[Game "${TOY_ID}"]`);
  });

  it('plays over GraphQL, whose GameKind enum has the toy', async () => {
    const fields = 'id kind status toMove version legalMoves position';
    const { body } = await support.gql(
      run.url,
      `mutation { createGame(input: { kind: "toy_kalah" }) { game { ${fields} } seatTokens { token } } }`,
    );
    expect(body.errors).toBeUndefined();
    const created = body.data!.createGame;
    expect(created.game).toMatchObject({ kind: 'toy_kalah', position: '3,3,3/0/3,3,3/0 S' });
    const moved = await support.gql(
      run.url,
      `mutation ($id: ID!, $token: String) { submitMove(id: $id, move: "1", seatToken: $token) { ${fields} } }`,
      { id: created.game.id, token: created.seatTokens[0].token },
    );
    expect(moved.body.errors).toBeUndefined();
    // House 1's three seeds go to houses 2 and 3 and the store: South moves again.
    expect(moved.body.data!.submitMove).toMatchObject({ position: '0,4,4/1/3,3,3/0 S', toMove: 0 });
    const values = await support.gql(run.url, '{ __type(name: "GameKind") { enumValues { name } } }');
    expect(values.body.data!.__type.enumValues.map((v: { name: string }) => v.name)).toContain('toy_kalah');
  });

  it('refuses a kind registered after the app has built its enums', () => {
    const late = { ...TOY_KIND, engine: { ...TOY_KIND.engine, kind: 'toy-late' as GameKind } };
    expect(() => registerKind(late)).toThrow(/too late/);
  });

  it('the AI, which has no table entry for it, refuses it with a clear error', async () => {
    const refusal = {
      code: 'INVALID_INPUT',
      field: 'kind',
      detail: `The built-in AI does not play ${TOY_ID}`,
    };
    const analysis = await request(run.url).post('/api/v1/analysis').send({ kind: TOY_ID }).expect(400);
    expect(analysis.body).toMatchObject(refusal);
    const game = await request(run.url).post('/api/v1/games/ai').send({ kind: TOY_ID, level: 1 }).expect(400);
    expect(game.body).toMatchObject(refusal);
  });
});
