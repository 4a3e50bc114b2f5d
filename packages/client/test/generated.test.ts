// The committed REST types are what openapi-typescript makes of the committed OpenAPI document:
// after `npm run openapi` changes openapi/openapi.json, run `npm run generate -w @boardhost/client`.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const packageDir = join(__dirname, '..');

it('src/generated/openapi.ts is up to date with openapi/openapi.json', async () => {
  const generator = require.resolve('openapi-typescript/package.json', { paths: [packageDir] });
  const bin = join(dirname(generator), 'bin', 'cli.js');
  const out = mkdtempSync(join(tmpdir(), 'boardhost-types-'));
  try {
    await run(
      process.execPath,
      [bin, join(packageDir, '../../openapi/openapi.json'), '-o', join(out, 'openapi.ts')],
      {
        timeout: 60_000,
      },
    );
    const fresh = readFileSync(join(out, 'openapi.ts'), 'utf8');
    const committed = readFileSync(join(packageDir, 'src/generated/openapi.ts'), 'utf8');
    expect(committed === fresh ? 'up to date' : 'stale: run npm run generate -w @boardhost/client').toBe(
      'up to date',
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
