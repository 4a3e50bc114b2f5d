// The repository installs the same way everywhere: a complete lockfile, one Node line in every place
// that names it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));

it('package-lock.json holds every platform build of its native packages (npm ci works on any platform)', () => {
  // exits 1 and names the missing entries otherwise
  expect(() =>
    execFileSync(process.execPath, ['scripts/lockfile-platforms.mjs', '--check'], { stdio: 'pipe' }),
  ).not.toThrow();
});

it('package-lock.json matches package.json (what npm ci checks)', () => {
  const root = lock.packages[''];
  expect(root.dependencies).toEqual(pkg.dependencies);
  expect(root.devDependencies).toEqual(pkg.devDependencies);
  expect(root.engines).toEqual(pkg.engines);
});

it('targets Node 24 everywhere: engines, @types/node, the Dockerfile and CI', () => {
  expect(pkg.engines.node).toBe('>=22.12');
  expect(pkg.devDependencies['@types/node']).toMatch(/^24\./);
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  expect(dockerfile.match(/^FROM node:(\d+)/gm)).toEqual(['FROM node:24', 'FROM node:24']);
  expect(dockerfile).not.toMatch(/npm install/);
  const ci = readFileSync('.ci/run', 'utf8');
  expect(ci).toMatch(/^NODE_MAJOR=24$/m);
  expect(ci).toMatch(/^npm ci /m);
});
