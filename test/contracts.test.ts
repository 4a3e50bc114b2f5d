import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { graphqlSchemaText, OPENAPI_FILE, openApiText, SCHEMA_FILE } from '../src/contracts';

const committed = (file: string) => readFileSync(join(__dirname, '..', file), 'utf8');

describe('committed contracts', () => {
  it('schema/schema.graphql matches the schema the type-graphql classes emit (npm run schema)', async () => {
    expect(committed(SCHEMA_FILE)).toBe(await graphqlSchemaText());
  });

  it('openapi/openapi.json matches the document the REST route table generates (npm run openapi)', () => {
    expect(committed(OPENAPI_FILE)).toBe(openApiText());
  });
});
