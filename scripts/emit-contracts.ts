// npm run schema | npm run openapi: regenerate the committed contract files from the code.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { graphqlSchemaText, OPENAPI_FILE, openApiText, SCHEMA_FILE } from '../src/contracts';

async function main(which: string | undefined): Promise<void> {
  const targets: Array<[string, () => Promise<string> | string]> = [];
  if (which === 'schema' || which === undefined) targets.push([SCHEMA_FILE, graphqlSchemaText]);
  if (which === 'openapi' || which === undefined) targets.push([OPENAPI_FILE, openApiText]);
  if (targets.length === 0) throw new Error('usage: emit-contracts [schema|openapi]');
  for (const [file, make] of targets) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, await make());
    console.log(`wrote ${file}`);
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
