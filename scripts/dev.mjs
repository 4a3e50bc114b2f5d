// npm run dev: the server from source (swc), with the playground rebuilt on every change under web/
// (esbuild watch into dist/web/; reload the page to see it). Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const children = [
  spawn(process.execPath, [join(root, 'scripts', 'build-web.mjs'), '--watch'], {
    stdio: 'inherit',
    cwd: root,
  }),
  spawn(process.execPath, ['-r', '@swc-node/register', join(root, 'src', 'main.ts')], {
    stdio: 'inherit',
    cwd: root,
  }),
];
let stopping = false;
const stop = (code) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
};
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
