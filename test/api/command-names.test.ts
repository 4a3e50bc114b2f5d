// The one table of the game commands' public names (src/service/game/names.ts) agrees with the
// published contracts the transports generate from it: every command once, its REST route and
// operationId in the OpenAPI document, its GraphQL mutation in the schema.
import { readFileSync } from 'node:fs';
import { GAME_COMMAND_TYPES } from '../../src/service/game/commands';
import { COMMAND_NAMES } from '../../src/service/game/names';

const openapi = JSON.parse(readFileSync('openapi/openapi.json', 'utf8')) as {
  paths: Record<string, { post?: { operationId?: string } }>;
};
const schema = readFileSync('schema/schema.graphql', 'utf8');
const mutations = (/^type Mutation \{([\s\S]*?)^\}/m.exec(schema)?.[1] ?? '')
  .split('\n')
  .flatMap((line) => /^ {2}(\w+)[(:]/.exec(line)?.[1] ?? []);

it('names every command once', () => {
  expect(COMMAND_NAMES.map((n) => n.type).sort()).toEqual([...GAME_COMMAND_TYPES].sort());
});

it.each(COMMAND_NAMES)('$type: POST /api/v1$path is $operationId, mutation $mutation', (names) => {
  expect(openapi.paths[`/api/v1${names.path}`]?.post?.operationId).toBe(names.operationId);
  expect(mutations).toContain(names.mutation);
});

it('the REST write routes come in the order of the table', () => {
  const writes = Object.keys(openapi.paths).filter((path) =>
    COMMAND_NAMES.some((n) => `/api/v1${n.path}` === path),
  );
  expect(writes).toEqual(COMMAND_NAMES.map((n) => `/api/v1${n.path}`));
});
