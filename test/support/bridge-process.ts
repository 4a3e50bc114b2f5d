// The bot bridge (`boardhost-bot`) as its users run it: this repository's build of the client
// (npm run build -w @boardhost/client), started as a child process against a test server.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const PACKAGE = join(__dirname, '..', '..', 'packages', 'client');
/** The CLI of this repository's client build (not a copy elsewhere node_modules may point at). */
export const cli = join(
  PACKAGE,
  JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')).bin['boardhost-bot'],
);

/** Resolves once `check` holds (polling every 50 ms), fails after 20 s. */
export async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in 20 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A running bridge: its output so far, and its exit code. */
export function bridge(url: string, token: string, ...args: string[]) {
  const child = spawn(process.execPath, [cli, '--server', url, ...args], {
    env: { ...process.env, BOARDHOST_TOKEN: token },
    timeout: 110_000,
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { out, exit };
}
