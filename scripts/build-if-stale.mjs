// `npm start` builds only when the build is not current: when a file under src/ or web/ (the browser
// playground), a tsconfig, or package-lock.json changed (newer, added or removed) since the last
// build this script made. A checkout with web/ builds it too (scripts/build-web.mjs → dist/web/).
// Prints "build: current" or "build: rebuilt". `--root <dir>` builds another checkout (tests);
// `--check` only says "build: current" or "build: stale" (exit 0 either way).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = resolve(rootAt >= 0 ? args[rootAt + 1] : join(import.meta.dirname, '..'));
const stamp = join(root, 'dist', '.build-stamp');

/** Every input of the build with its size and mtime: a change to any, or one more or fewer, is a change. */
function inputs() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(join(root, 'src'));
  if (existsSync(join(root, 'web'))) walk(join(root, 'web'));
  for (const name of ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json']) {
    if (existsSync(join(root, name))) files.push(join(root, name));
  }
  return files
    .sort()
    .map((path) => {
      const { size, mtimeMs } = statSync(path);
      return `${path.slice(root.length + 1)} ${size} ${Math.floor(mtimeMs)}`;
    })
    .join('\n');
}

const now = inputs();
const hasWeb = existsSync(join(root, 'web'));
const outputs = [join(root, 'dist', 'main.js'), ...(hasWeb ? [join(root, 'dist', 'web', 'index.html')] : [])];
const built =
  existsSync(stamp) && outputs.every((file) => existsSync(file)) ? readFileSync(stamp, 'utf8') : '';
if (built === now) {
  console.log('build: current');
} else if (args.includes('--check')) {
  console.log('build: stale');
} else {
  const tsc = createRequire(join(import.meta.dirname, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (hasWeb) {
    execFileSync(process.execPath, [join(import.meta.dirname, 'build-web.mjs'), '--root', root], {
      stdio: 'inherit',
    });
  }
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(stamp, now);
  console.log('build: rebuilt');
}
