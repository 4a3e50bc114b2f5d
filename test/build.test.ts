// `npm start` builds only when the build is stale (scripts/build-if-stale.mjs), tried on a tiny
// project of its own so that the test neither waits for the real build nor touches dist/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = mkdtempSync(join(tmpdir(), 'bh-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = (...flags: string[]) =>
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs', '--root', root, ...flags], {
    encoding: 'utf8',
  }).trim();
const check = () => run('--check');

it('builds once, then reports the build current until a source changes, is added or is removed', () => {
  expect(JSON.parse(execFileSync('npm', ['pkg', 'get', 'scripts.start'], { encoding: 'utf8' }))).toBe(
    'node scripts/build-if-stale.mjs && node dist/main.js',
  );
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'main.ts'), 'export const answer: number = 42;\n');
  writeFileSync(
    join(root, 'tsconfig.build.json'),
    JSON.stringify({
      compilerOptions: { rootDir: 'src', outDir: 'dist', module: 'commonjs', target: 'ES2022', types: [] },
      include: ['src'],
    }),
  );
  expect(check()).toBe('build: stale');
  expect(run()).toMatch(/build: rebuilt$/);
  expect(existsSync(join(root, 'dist', 'main.js'))).toBe(true);
  // The second start does not build.
  expect(run()).toBe('build: current');
  // A missing build counts as stale whatever the stamp says.
  renameSync(join(root, 'dist', 'main.js'), join(root, 'dist', 'main.js.away'));
  expect(check()).toBe('build: stale');
  renameSync(join(root, 'dist', 'main.js.away'), join(root, 'dist', 'main.js'));
  expect(check()).toBe('build: current');

  writeFileSync(join(root, 'src', 'extra.ts'), 'export const extra = 1;\n');
  expect(check()).toBe('build: stale');
  expect(run()).toMatch(/build: rebuilt$/);
  expect(existsSync(join(root, 'dist', 'extra.js'))).toBe(true);
  expect(check()).toBe('build: current');
  writeFileSync(join(root, 'src', 'main.ts'), 'export const answer: number = 4242;\n');
  expect(check()).toBe('build: stale');
  unlinkSync(join(root, 'src', 'extra.ts'));
  expect(check()).toBe('build: stale');
}, 120_000);
