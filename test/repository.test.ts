// The repository installs the same way everywhere: a complete lockfile, one Node line in every place
// that names it. And src/ has no import cycle.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GAME_KINDS } from '../src/engines/types';

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

it('no tracked file points outside the repository (the rules live in docs/rules)', () => {
  const outside = ['..', 'shared'].join('/'); // spelled so that this file does not match itself
  const files = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter(Boolean);
  const offenders = files.filter((file) => {
    try {
      return readFileSync(file, 'utf8').includes(outside);
    } catch {
      return false; // a tracked file deleted in the work tree
    }
  });
  expect(offenders).toEqual([]);
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as `-`. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a Markdown page's headings (code blocks left out). */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] as string)));
}

it('every relative link in the README and in docs/ resolves to a file, and its #anchor to a heading', () => {
  const pages = [
    'README.md',
    ...readdirSync('docs', { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md'))
      .map((f) => join('docs', f)),
  ];
  expect(pages).toEqual(expect.arrayContaining(['docs/architecture.md', 'docs/rules/congo.md']));
  const broken: string[] = [];
  let checked = 0;
  for (const page of pages) {
    const text = readFileSync(page, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    for (const [, path, anchor] of text.matchAll(/\]\(([^)#\s]*)(?:#([^)\s]*))?\)/g)) {
      if (/^[a-z]+:/.test(path as string)) continue; // https:, mailto:
      const target = path ? join(dirname(page), path) : page;
      checked++;
      if (!existsSync(target)) broken.push(`${page} → ${path}`);
      else if (anchor && target.endsWith('.md') && !anchors(target).has(anchor)) {
        broken.push(`${page} → ${path}#${anchor}`);
      }
    }
  }
  expect(checked).toBeGreaterThan(50);
  expect(broken).toEqual([]);
  const readme = readFileSync('README.md', 'utf8');
  for (const game of GAME_KINDS) {
    expect(existsSync(`docs/rules/${game}.md`)).toBe(true);
    expect(readme).toContain(`](docs/rules/${game}.md)`);
  }
});

it('the README stays an entry page: at most about 300 lines, with the two commands of a fresh clone', () => {
  const readme = readFileSync('README.md', 'utf8');
  expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  expect(readme).toContain('npm ci && npm start');
  expect(readme).toContain('npm ci && npm test');
});

/** The files of src/ a file imports at run time: relative imports and re-exports, type-only ones left out. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const targets: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?(?:([^;]*?)\s*from\s+)?'(\.[^']*)';/gms)) {
    const [, typeOnly, names, specifier] = m as unknown as [
      string,
      string | undefined,
      string | undefined,
      string,
    ];
    const braces = names?.match(/^\{([^}]*)\}$/s)?.[1];
    const allTypes =
      braces !== undefined &&
      braces
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
        .every((name) => name.startsWith('type '));
    if (typeOnly || allTypes) continue; // erased by the compiler: no cycle at run time
    const base = join(dirname(file), specifier);
    const target = [`${base}.ts`, join(base, 'index.ts')].find((path) => existsSync(path));
    if (target) targets.push(target);
  }
  return targets;
}

it('src/ has no import cycle (relative imports of src/**/*.ts, type-only imports left out)', () => {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? [join(dir, entry.name)]
          : [],
    );
  const graph = new Map(walk('src').map((file) => [file, runtimeImports(file)]));
  expect(graph.size).toBeGreaterThan(100);
  expect([...graph.values()].flat().length).toBeGreaterThan(graph.size); // the imports were read
  const visiting = new Set<string>();
  const done = new Set<string>();
  const path: string[] = [];
  const cycles: string[] = [];
  const visit = (file: string): void => {
    visiting.add(file);
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (visiting.has(next)) cycles.push([...path.slice(path.indexOf(next)), next].join(' → '));
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    visiting.delete(file);
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  expect(cycles).toEqual([]);
});
