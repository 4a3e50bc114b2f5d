// @boardhost/client installed from outside the repository, the way a user gets it: `npm pack` makes
// the tarball (of dist/ as `npm run build -w @boardhost/client` left it, which `npm test` does
// first; its scripts are not run here, so that no other test's bridge sees dist/ rewritten), and
// `npm install <tarball>` puts it in a fresh directory under the system's temp dir. Offline: its one dependency, openapi-fetch (and that one's
// own, openapi-typescript-helpers), is packed from this repository's node_modules and installed
// beside it as a tarball too, so the registry is never asked (npm --offline). Then, from there:
// require() from plain JS against a live server (the AI game of the README), import() from ESM, the
// boardhost-bot bin, and a TypeScript file type-checked against the installed declarations.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { dirname, join, relative } from 'node:path';
import { signUp } from '../../../test/support/accounts';
import { appHarness } from '../../../test/support/app';

const execFileAsync = promisify(execFile);
const harness = appHarness();
const ROOT = join(__dirname, '..', '..', '..');
const PACKAGE = join(__dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'boardhost-sdk-'));
afterAll(async () => {
  await harness.stopAll();
  rmSync(dir, { recursive: true, force: true });
});

/** npm (the one beside this node), in `cwd`, with a cache of its own (nothing from the user's). */
function npm(cwd: string, ...args: string[]): string {
  const env = {
    ...process.env,
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    npm_config_cache: join(dir, 'npm-cache'),
    npm_config_update_notifier: 'false',
  };
  return execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Packs the package at `from` into dir/tarballs; the tarball's path. */
function pack(from: string, ...flags: string[]): string {
  const out = npm(from, 'pack', '--json', '--pack-destination', join(dir, 'tarballs'), ...flags);
  const [packed] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
  return join(dir, 'tarballs', packed!.filename);
}

/** Where node would find package `name` from `from` (its directory, as a real path). */
function installed(name: string, from: string): string {
  for (let at = from; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(at) === at) throw new Error(`${name} is not installed above ${from}`);
  }
}

let app: string;

beforeAll(() => {
  mkdirSync(join(dir, 'tarballs'));
  if (!existsSync(join(PACKAGE, 'dist', 'index.js')))
    throw new Error('run npm run build -w @boardhost/client first');
  const client = pack(PACKAGE, '--ignore-scripts');
  // The dependencies as they are installed here (real paths: node_modules may be a link).
  const fetchDir = installed('openapi-fetch', PACKAGE);
  const helpersDir = installed('openapi-typescript-helpers', fetchDir);
  const deps = [fetchDir, helpersDir].map((d) => pack(d, '--ignore-scripts'));
  app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
  );
  npm(app, 'install', '--offline', '--no-audit', '--no-fund', client, ...deps);
}, 120_000);

test('the temp directory is outside the repository, and the package was installed there, not linked', () => {
  expect(relative(ROOT, app).startsWith('..')).toBe(true);
  const installed = realpathSync(join(app, 'node_modules', '@boardhost', 'client'));
  expect(installed).toBe(join(realpathSync(app), 'node_modules', '@boardhost', 'client'));
  expect(realpathSync(join(app, 'node_modules', 'openapi-fetch')).startsWith(realpathSync(app))).toBe(true);
});

test('package.json has what a registry takes: name, version, license, exports with types, files, bin', () => {
  const manifest = JSON.parse(
    readFileSync(join(app, 'node_modules', '@boardhost', 'client', 'package.json'), 'utf8'),
  );
  expect(manifest.name).toBe('@boardhost/client');
  expect(manifest.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
  expect(typeof manifest.license).toBe('string');
  expect(manifest.private).toBeUndefined();
  expect(manifest.publishConfig).toEqual({ access: 'public' });
  expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
  expect(manifest.files).toEqual(['dist', 'README.md']);
  expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
  // The tarball holds the build and the README, not the sources or the tests.
  const files = npm(PACKAGE, 'pack', '--dry-run', '--json', '--ignore-scripts');
  const paths = (
    JSON.parse(files.slice(files.indexOf('['))) as { files: { path: string }[] }[]
  )[0]!.files.map((f) => f.path);
  expect(paths).toEqual(
    expect.arrayContaining(['README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts']),
  );
  expect(paths.filter((p) => !p.startsWith('dist/') && p !== 'README.md' && p !== 'package.json')).toEqual(
    [],
  );
  const bin = join(app, 'node_modules', '@boardhost', 'client', manifest.bin['boardhost-bot']);
  expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
});

test('require() from plain JS plays the computer against a live server; import() and the bin work too', async () => {
  const { url, app: server } = await harness.start('memory');
  await server.services.ai.ensureAccounts();
  const ann = await signUp(server, 'sdk-ann', 'human');
  writeFileSync(
    join(app, 'play.js'),
    `const { createBoardhost, ok, isBoardhostError } = require('@boardhost/client');
const { api } = createBoardhost({ baseUrl: process.argv[2], token: process.argv[3] });
(async () => {
  const game = await ok(api.POST('/api/v1/challenges/ai', { body: { kind: 'kalah', level: 1, color: 'south' } }));
  const refused = await ok(api.POST('/api/v1/challenges/ai', { body: { kind: 'kalah', level: 9 } })).catch((e) => e);
  console.log(JSON.stringify({ id: game.id, ai: game.seats[1].account, code: isBoardhostError(refused) && refused.code }));
})();
`,
  );
  // Asynchronously: the server answers from this very process.
  const played = await execFileAsync(process.execPath, ['play.js', url, ann.token], {
    cwd: app,
    encoding: 'utf8',
  });
  expect(played.stderr).toBe('');
  const answer = JSON.parse(played.stdout);
  expect(answer).toMatchObject({ ai: 'ai-level-1', code: 'INVALID_INPUT' });
  expect((await server.services.games.getGame(answer.id)).seats[0]?.account).toBe(ann.id);

  writeFileSync(
    join(app, 'esm.mjs'),
    "import { createBoardhost, BoardhostError } from '@boardhost/client';\nconsole.log(typeof createBoardhost, typeof BoardhostError);\n",
  );
  expect(spawnSync(process.execPath, ['esm.mjs'], { cwd: app, encoding: 'utf8' }).stdout.trim()).toBe(
    'function function',
  );
  const help = spawnSync(join(app, 'node_modules', '.bin', 'boardhost-bot'), ['--help'], {
    cwd: app,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
  });
  expect(help.status).toBe(0);
  expect(help.stderr).toContain('--challenge <username | ai-level-N>');
}, 60_000);

test('a TypeScript file type-checks against the installed declarations, and a wrong one does not', () => {
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      // The fetch types (Request, Response) come from the DOM lib or @types/node, as for openapi-fetch.
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'node16',
        moduleResolution: 'node16',
        target: 'ES2022',
        lib: ['ES2023', 'DOM'],
        types: [],
      },
      files: ['check.ts'],
    }),
  );
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const check = (source: string) => {
    writeFileSync(join(app, 'check.ts'), source);
    return spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app, encoding: 'utf8' });
  };
  const good = check(`import { createBoardhost, ok, isBoardhostError, type Game } from '@boardhost/client';
const { api, move } = createBoardhost({ baseUrl: 'http://localhost:4000', token: 'bhp_…' });
export async function play(): Promise<Game> {
  const game = await ok(api.POST('/api/v1/challenges/ai', { body: { kind: 'kalah', level: 3, color: 'south' } }));
  await move(game, game.legalMoves[0] ?? '1').catch((e: unknown) => {
    if (!isBoardhostError(e, 'VERSION_CONFLICT')) throw e;
  });
  return game;
}
`);
  expect(good.stdout + good.stderr).toBe('');
  expect(good.status).toBe(0);
  // The types are the API's: a body without the level, or a made-up path, is a compile error.
  const bad = check(`import { createBoardhost } from '@boardhost/client';
const { api } = createBoardhost({ baseUrl: 'http://localhost:4000' });
export const a = api.POST('/api/v1/challenges/ai', { body: { kind: 'kalah' } });
export const b = api.GET('/api/v1/nowhere');
`);
  expect(bad.status).not.toBe(0);
  expect(bad.stdout).toMatch(/check\.ts\(3,.*level/);
  expect(bad.stdout).toMatch(/check\.ts\(4,/);
});
