// npm run admin: the operator's CLI, spawned against a Redis prefix that a running server shares,
// end to end (an app and keys made by the CLI work, and stop working once revoked, on the server).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { appHarness, type Running } from '../support/app';
import { REDIS_URL, uniquePrefix } from '../support/redis';

const ROOT = join(__dirname, '..', '..');
const harness = appHarness();
const prefix = uniquePrefix('admin-cli');
let running: Running;

interface Run {
  readonly code: number;
  readonly out: any;
  readonly err: string;
}

/** Runs `npm run admin -- ...args` (as its script does) with the given store settings. */
function admin(
  args: readonly string[],
  env: Record<string, string> = { REDIS_URL, REDIS_KEY_PREFIX: prefix },
) {
  const { REDIS_URL: _url, REDIS_CLUSTER_NODES: _nodes, REDIS_KEY_PREFIX: _prefix, ...rest } = process.env;
  return new Promise<Run>((resolve) => {
    execFile(
      process.execPath,
      ['-r', '@swc-node/register', 'scripts/admin.ts', ...args],
      { cwd: ROOT, env: { ...rest, LOG_LEVEL: 'silent', ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        let out: unknown = stdout;
        try {
          out = JSON.parse(stdout);
        } catch {
          // not JSON: kept as text
        }
        resolve({ code, out, err: stderr });
      },
    );
  });
}

beforeAll(async () => {
  running = await harness.start('redis', { prefix });
});
afterAll(() => harness.stopAll());

test('apps and keys made, listed and revoked from the shell work on the server', async () => {
  const created = await admin(['app', 'create', 'Shell', 'Games']);
  expect(created.code).toBe(0);
  const { app, key } = created.out;
  expect(app).toMatchObject({ name: 'Shell Games', disabledAt: null });
  expect(key.key).toMatch(/^bha_/);
  const asApp = await request(running.url).get('/api/v1/app').set('authorization', `Bearer ${key.key}`);
  expect([asApp.status, asApp.body.id]).toEqual([200, app.id]);

  const [second, listed, wrong] = await Promise.all([
    admin(['key', 'create', app.id, '--label', 'ci', '--scopes', 'game:read,app:accounts']),
    admin(['app', 'list']),
    // Without REDIS_URL: the embedded store, with a warning; an unknown command is a usage error.
    admin(['app', 'frobnicate'], {}),
  ]);
  expect(second.code).toBe(0);
  expect(second.out).toMatchObject({ app: app.id, label: 'ci', scopes: ['game:read', 'app:accounts'] });
  expect(listed.out.items.map((a: { id: string }) => a.id)).toContain(app.id);
  expect(wrong.code).toBe(2);
  expect(wrong.err).toMatch(/vanishes when it exits/);
  expect(wrong.err).toMatch(/usage: npm run admin/);

  const made = await request(running.url)
    .put('/api/v1/app/accounts/from-shell')
    .set('authorization', `Bearer ${second.out.key}`)
    .send({});
  expect(made.status).toBe(201);
  const [revoked, shown, unknown] = await Promise.all([
    admin(['key', 'revoke', app.id, second.out.id]),
    admin(['app', 'show', app.id]),
    admin(['key', 'list', 'app_0000000000000000']),
  ]);
  expect(revoked.code).toBe(0);
  expect(revoked.out.revokedAt).toEqual(expect.any(String));
  expect(shown.out).toEqual(app);
  expect(unknown.code).toBe(1);
  expect(JSON.parse(unknown.err)).toMatchObject({ code: 'APP_NOT_FOUND' });
  const keys = await admin(['key', 'list', app.id]);
  expect(
    keys.out.items.map((k: { id: string; revokedAt: string | null }) => [k.id, k.revokedAt !== null]),
  ).toEqual([
    [key.id, false],
    [second.out.id, true],
  ]);
  const refused = await request(running.url)
    .get('/api/v1/app')
    .set('authorization', `Bearer ${second.out.key}`);
  expect(refused.status).toBe(401);
}, 60_000);
