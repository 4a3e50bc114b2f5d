// GET /api/v1/kinds and the GraphQL `kinds` query (issue 12.3): every hosted kind with its seat
// names, its options as a JSON Schema that says what the engine's option parsing does, a notation
// summary and its rules page, which the server also serves as text/markdown at /rules/<kind>.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { defineKind } from '../../src/engines/kind';
import { getEngine, KINDS } from '../../src/engines/kinds';
import { GAME_KINDS } from '../../src/engines/types';
import { DEFAULT_RULES_DIR } from '../../src/transport/rest/rules';
import { appHarness, gql, type Running } from '../support/app';
import { expectProblem } from '../support/problem';

const harness = appHarness();
const rulesDir = mkdtempSync(join(tmpdir(), 'boardhost-rules-'));
afterAll(async () => {
  await harness.stopAll();
  rmSync(rulesDir, { recursive: true, force: true });
});

const KIND_FIELDS =
  'kind name family seatNames options defaults notation { moves position start } rules { path url }';

interface Property {
  type: 'integer' | 'boolean' | 'string';
  minimum?: number;
  maximum?: number;
  enum?: string[];
  'x-enumNames'?: string[];
  title?: string;
  description?: string;
  default?: unknown;
}

let run: Running;
beforeAll(async () => {
  writeFileSync(join(rulesDir, 'kalah.md'), '# Kalah\n\nSow the seeds.\n');
  writeFileSync(join(rulesDir, 'README.md'), '# Rules\n');
  run = await harness.start('memory', { rulesDir });
});

it('lists every hosted kind over REST, and GraphQL answers the same', async () => {
  const rest = (await request(run.url).get('/api/v1/kinds').expect(200)).body;
  expect(rest.items.map((k: { kind: string }) => k.kind)).toEqual([...GAME_KINDS]);
  const graphql = await gql(run.url, `{ kinds { ${KIND_FIELDS} } }`);
  expect(graphql.body.errors).toBeUndefined();
  expect(graphql.body.data!.kinds).toEqual(rest.items);
});

it('GAME_KINDS, the tuple the GameKind type is made of, is the list of kinds in order', () => {
  expect(KINDS.map((k) => k.engine.kind)).toEqual([...GAME_KINDS]);
});

it.each(GAME_KINDS)('%s: seats, notation and rules link agree with the game itself', async (kind) => {
  const info = (await request(run.url).get('/api/v1/kinds').expect(200)).body.items.find(
    (k: { kind: string }) => k.kind === kind,
  );
  const engine = getEngine(kind)!;
  expect(info.seatNames).toEqual(engine.seatNames);
  expect(info.rules).toEqual({ path: `docs/rules/${kind}.md`, url: `/rules/${kind}.md` });
  // The start it shows is what a new game with the default options starts from.
  const created = (await request(run.url).post('/api/v1/games').send({ kind }).expect(201)).body.game;
  expect(info.notation.start).toBe(created.position);
  expect(info.defaults).toEqual(created.options);
  // The family picks the board: mancala draws houses and stores, the others a grid, Congo's with
  // its river and castles.
  expect(created.board.type).toBe(info.family === 'mancala' ? 'mancala' : 'grid');
  if (created.board.type === 'grid') expect(created.board.zones.length > 0).toBe(info.family === 'congo');
  expect(info.notation.moves.length).toBeGreaterThan(10);
  expect(info.notation.position.length).toBeGreaterThan(10);
});

it.each(GAME_KINDS)('%s: the options schema accepts and refuses what the engine does', async (kind) => {
  const info = (await request(run.url).get('/api/v1/kinds').expect(200)).body.items.find(
    (k: { kind: string }) => k.kind === kind,
  );
  const engine = getEngine(kind)!;
  const accepts = (options: Record<string, unknown>) => engine.parseOptions(options).ok;
  const schema = info.options as {
    type: string;
    additionalProperties: boolean;
    properties: Record<string, Property>;
  };
  expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
  expect(accepts({ notAnOption: 1 })).toBe(false);
  const defaults = engine.parseOptions({});
  expect(defaults.ok && Object.keys(defaults.value).sort()).toEqual(Object.keys(schema.properties).sort());
  for (const [name, property] of Object.entries(schema.properties)) {
    if (property.default !== undefined) expect(info.defaults[name]).toEqual(property.default);
    switch (property.type) {
      case 'integer':
        expect(accepts({ [name]: property.minimum })).toBe(true);
        expect(accepts({ [name]: property.maximum })).toBe(true);
        expect(accepts({ [name]: property.minimum! - 1 })).toBe(false);
        expect(accepts({ [name]: property.maximum! + 1 })).toBe(false);
        expect(accepts({ [name]: property.minimum! + 0.5 })).toBe(false);
        break;
      case 'boolean':
        expect(accepts({ [name]: true }) && accepts({ [name]: false })).toBe(true);
        expect(accepts({ [name]: 'yes' })).toBe(false);
        break;
      case 'string':
        for (const value of property.enum ?? []) expect(accepts({ [name]: value })).toBe(true);
        expect(accepts({ [name]: 'no-such-value' })).toBe(false);
        break;
      default:
        throw new Error(`unexpected option type ${JSON.stringify(property)}`);
    }
  }
});

it('every option of every kind has a title and a description, and every enum value a label', async () => {
  const items = (await request(run.url).get('/api/v1/kinds').expect(200)).body.items as Array<{
    kind: string;
    options: { properties: Record<string, Property> };
  }>;
  const graphql = await gql(run.url, '{ kinds { kind options } }');
  expect(graphql.body.data!.kinds).toEqual(items.map(({ kind, options }) => ({ kind, options })));
  let options = 0;
  let values = 0;
  for (const { kind, options: schema } of items) {
    for (const [name, property] of Object.entries(schema.properties)) {
      options++;
      const where = `${kind}.${name}`;
      expect([where, typeof property.title, property.title!.trim().length > 0]).toEqual([
        where,
        'string',
        true,
      ]);
      expect([where, typeof property.description, property.description!.trim().length > 5]).toEqual([
        where,
        'string',
        true,
      ]);
      expect(property.title).not.toBe(name);
      if (property.enum !== undefined) {
        const labels = property['x-enumNames'];
        expect([where, labels?.length]).toEqual([where, property.enum.length]);
        for (const label of labels!) expect(label.trim().length).toBeGreaterThan(0);
        expect(new Set(labels).size).toBe(labels!.length);
        values += labels!.length;
      } else {
        expect(property['x-enumNames']).toBeUndefined();
      }
    }
  }
  // The mancala kinds have options (and Oware an enum); a kind without options passes vacuously.
  expect(options).toBeGreaterThanOrEqual(7);
  expect(values).toBeGreaterThanOrEqual(2);
});

it('a kind declared with an untitled option, or an enum without a label per value, is refused', () => {
  const toy = KINDS[0]!;
  const spec = { name: 'x', type: 'bool', default: false } as const;
  expect(() => defineKind({ ...toy, options: [{ ...spec, title: '', description: 'Something.' }] })).toThrow(
    /title and a description/,
  );
  expect(() =>
    defineKind({
      ...toy,
      options: [
        {
          name: 'y',
          title: 'Y',
          description: 'Why.',
          type: 'enum',
          values: ['a', 'b'],
          labels: ['A'],
          default: 'a',
        },
      ],
    }),
  ).toThrow(/one label per value/);
});

it('serves the rules pages as text/markdown, and nothing outside them', async () => {
  const page = await request(run.url).get('/rules/kalah.md').expect(200);
  expect(page.headers['content-type']).toMatch(/^text\/markdown; charset=utf-8/);
  expect(page.text).toBe('# Kalah\n\nSow the seeds.\n');
  expect((await request(run.url).get('/rules').expect(200)).text).toBe('# Rules\n');
  for (const path of ['/rules/oware.md', '/rules/kalah.txt', '/rules/..%2Fkalah.md', '/rules/.hidden.md']) {
    expectProblem(await request(run.url).get(path), 404, 'NOT_FOUND');
  }
});

it('reads the rules pages from the repository’s docs/rules by default', () => {
  expect(DEFAULT_RULES_DIR).toBe(resolve('docs', 'rules'));
});
