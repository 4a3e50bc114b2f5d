// The real entry point: a bad configuration stops it with a clear message, and SIGTERM drains open
// HTTP streams and WebSocket subscriptions, closes Redis, and exits 0.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { wsClient } from './support/app';
import { deletePrefix, REDIS_URL, uniquePrefix } from './support/redis';

const root = join(__dirname, '..');

function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
    cwd: root,
    // The tests' cluster (REDIS_CLUSTER_NODES, from the jest globalSetup) is not this server's store.
    env: { ...process.env, REDIS_CLUSTER_NODES: '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('the server process', () => {
  it('refuses to start on a bad configuration, naming the variable', async () => {
    const run = startMain({ PORT: 'not-a-port' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/Invalid configuration[\s\S]*PORT/);
  }, 60_000);

  it('drains streams and subscriptions on SIGTERM and exits 0', async () => {
    const prefix = uniquePrefix('shutdown');
    // Port 0: the system picks a free one (a random fixed port could be one another test holds).
    const run = startMain({ PORT: '0', HOST: '127.0.0.1', REDIS_URL, REDIS_KEY_PREFIX: prefix });
    for (let i = 0; i < 400 && !/listening/.test(run.output()); i++)
      await new Promise((r) => setTimeout(r, 100));
    const port = /"port":(\d+)[^\n]*listening/.exec(run.output())?.[1];
    expect({ port, output: port ? '' : run.output() }).toEqual({
      port: expect.stringMatching(/^\d+$/),
      output: '',
    });
    const url = `http://127.0.0.1:${port}`;
    const created = await fetch(`${url}/api/v1/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'kalah' }),
    }).then((r) => r.json() as Promise<{ game: { id: string } }>);
    const stream = await fetch(`${url}/api/v1/games/${created.game.id}/stream`);
    expect(stream.status).toBe(200);
    const streamText = stream.text();
    const client = wsClient(url);
    const feed = client.iterate({
      query: `subscription { gameUpdated(id: "${created.game.id}") { version } }`,
    });
    await feed.next();
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/"msg":"stopped"/);
    // The open SSE response was ended by the server, with a last event saying why.
    expect(await streamText).toMatch(/event: game[\s\S]*event: shutdown/);
    await client.dispose();
    await deletePrefix(prefix);
  }, 60_000);
});
