// examples/app-backend run for real: a Boardhost server with an app whose corsOrigins list the
// backend's origin, the example backend spawned with the app key, two users logged in through it as
// a browser would (Origin header), then a whole short kalah exchange straight against Boardhost with
// their session tokens (challenge, accept, moves, resign), CORS answers as a browser sees them, the
// app webhooks the backend registered reaching it, its signature check; and the page itself, in
// Chromium, for a login and a challenge.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import { signWebhook } from '../../src/service/delivery/webhook-signature';
import { CHROMIUM } from '../support/browser';
import { appHarness, type Running } from '../support/app';
import { newApp, type TestApp } from '../support/apps';

const harness = appHarness();
const SECRET = 'whsec_example_test_secret';
let running: Running;
let testApp: TestApp;
let backend: ChildProcess;
let origin: string;
const output = { stdout: '', stderr: '' };

/** A port free now (the backend listens on it; the app's corsOrigins name it beforehand). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once `check` holds (polling every 20 ms), fails after 10 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not reached in 10 s: ${JSON.stringify(output)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  running = await harness.start('memory');
  const port = await freePort();
  origin = `http://localhost:${port}`;
  testApp = await newApp(running.app, { corsOrigins: [origin] });
  backend = spawn(process.execPath, ['examples/app-backend/server.mjs'], {
    env: {
      ...process.env,
      BOARDHOST_URL: running.url,
      BOARDHOST_APP_KEY: testApp.key,
      PORT: String(port),
      BOARDHOST_WEBHOOK_SECRET: SECRET,
    },
  });
  backend.stdout!.on('data', (d: Buffer) => (output.stdout += d.toString()));
  backend.stderr!.on('data', (d: Buffer) => (output.stderr += d.toString()));
  await until(() => output.stdout.includes('app backend on'), 'the backend listening');
}, 20_000);
afterAll(async () => {
  if (backend.exitCode === null) {
    const exited = new Promise((resolve) => backend.once('exit', resolve));
    backend.kill('SIGTERM');
    await exited;
  }
  await harness.stopAll();
});

/** What the page's script does: a same-origin call to the backend. */
async function backendCall(method: string, path: string, body?: unknown) {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** What the page's script does: a cross-origin call to Boardhost with the session's access token. */
async function boardhost(token: string, method: string, path: string, body?: unknown, headers = {}) {
  const res = await fetch(`${running.url}/api/v1${path}`, {
    method,
    headers: {
      origin,
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // A browser hands the answer to the script only when it is allowed for the page's origin.
  expect(res.headers.get('access-control-allow-origin')).toBe(origin);
  return { status: res.status, body: (await res.json()) as any };
}

it('serves the page, which talks to this Boardhost', async () => {
  const res = await fetch(`${origin}/`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/text\/html/);
  const html = await res.text();
  expect(html).toContain(JSON.stringify(running.url));
  expect(html).toContain('/api/v1/sessions/refresh');
});

it('logs two users in and they play a short kalah exchange with their session tokens', async () => {
  const ann = await backendCall('POST', '/login', { user: 'ann' });
  const bob = await backendCall('POST', '/login', { user: 'bob' });
  expect(ann.status).toBe(200);
  expect(ann.body).toMatchObject({
    account: { id: expect.stringMatching(new RegExp(`^${testApp.id}\\.`)), displayName: 'ann' },
    accessToken: expect.stringMatching(/^bhp_/),
    refreshToken: expect.stringMatching(/^bhr_/),
  });
  // Logging in again: the same account (ensureAccount), a new session.
  const again = await backendCall('POST', '/login', { user: 'ann' });
  expect(again.body.account.id).toBe(ann.body.account.id);
  expect(again.body.accessToken).not.toBe(ann.body.accessToken);
  expect((await backendCall('POST', '/login', { user: 'no spaces' })).status).toBe(400);

  // The browser's preflight for a call with a bearer and a JSON body, as the page sends.
  const preflight = await fetch(`${running.url}/api/v1/challenges`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type,if-match',
    },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
  expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
  expect(preflight.headers.get('access-control-allow-headers')).toMatch(/if-match/i);

  const annToken = again.body.accessToken as string;
  const bobToken = bob.body.accessToken as string;
  const bobId = (await backendCall('GET', '/players/bob')).body.id as string;
  expect(bobId).toBe(bob.body.account.id);
  const challenge = await boardhost(annToken, 'POST', '/challenges', {
    to: bobId,
    kind: 'kalah',
    starts: 'challenger',
  });
  expect(challenge.status).toBe(201);
  const listed = await boardhost(bobToken, 'GET', '/challenges');
  expect(listed.body.items.map((c: { id: string }) => c.id)).toContain(challenge.body.id);
  const accepted = await boardhost(bobToken, 'POST', `/challenges/${challenge.body.id}/accept`);
  expect(accepted.status).toBe(200);
  const id = accepted.body.gameId as string;

  const tokenOf = (account: string) => (account === bobId ? bobToken : annToken);
  let game = (await boardhost(annToken, 'GET', `/games/${id}`)).body;
  for (let ply = 0; ply < 4; ply++) {
    const mover = game.seats[game.toMove].account as string;
    const moved = await boardhost(
      tokenOf(mover),
      'POST',
      `/games/${id}/moves`,
      { move: game.legalMoves[0] },
      {
        'if-match': `"${game.version}"`,
      },
    );
    expect(moved.status).toBe(200);
    game = (await boardhost(annToken, 'GET', `/games/${id}`)).body;
    expect(game.ply).toBe(ply + 1);
  }
  const resigned = await boardhost(bobToken, 'POST', `/games/${id}/resign`);
  expect(resigned.status).toBe(200);
  const over = (await boardhost(annToken, 'GET', `/games/${id}`)).body;
  expect(over.status).toBe('finished');
  expect(over.result).toMatchObject({ reason: 'resignation' });
  expect(over.seats.map((s: { account: string }) => s.account).sort()).toEqual(
    [ann.body.account.id, bobId].sort(),
  );

  // The backend registered its receiver at start; every event of both users reaches it, signed.
  const hooks = await fetch(`${running.url}/api/v1/app/webhooks`, { headers: testApp.auth });
  expect(((await hooks.json()) as any).items.map((w: { url: string }) => w.url)).toEqual([
    `${origin}/webhooks/boardhost`,
  ]);
  const finished = (account: string) => `webhook game.finished for ${account}`;
  const both = () =>
    output.stdout.includes(finished(bobId)) && output.stdout.includes(finished(ann.body.account.id));
  // Deliveries run when the test asks (no background interval in tests), a batch per call.
  for (let i = 0; i < 100 && !both(); i++) {
    await running.app.deliverWebhooks();
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(both()).toBe(true);
  expect(output.stdout).toContain(`webhook challenge.received for ${bobId}`);

  // Another origin is not given the answers.
  const foreign = await fetch(`${running.url}/api/v1/account`, {
    headers: { origin: 'https://elsewhere.example', authorization: `Bearer ${annToken}` },
  });
  expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  expect(output.stderr).toBe('');
});

it('accepts webhooks signed with its secret, once per delivery, and refuses the rest', async () => {
  const body = JSON.stringify({
    account: 'app_x.0',
    epoch: 'e',
    seq: 7,
    type: 'game.finished',
    at: '',
    data: {},
  });
  const post = (signature: string, timestamp: number, delivery = 'd-1') =>
    fetch(`${origin}/webhooks/boardhost`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'boardhost-delivery': delivery,
        'boardhost-event': 'game.finished',
        'boardhost-timestamp': String(timestamp),
        'boardhost-signature': signature,
      },
      body,
    });
  const nowS = Math.floor(Date.now() / 1000);
  expect((await post(signWebhook(SECRET, nowS, body), nowS)).status).toBe(204);
  expect((await post(signWebhook(SECRET, nowS, body), nowS)).status).toBe(204); // a retry: handled once
  expect((await post(signWebhook('whsec_other', nowS, body), nowS)).status).toBe(401);
  expect((await post(signWebhook(SECRET, nowS - 600, body), nowS - 600)).status).toBe(401);
  await until(() => output.stdout.includes('webhook game.finished'), 'the webhook logged');
  expect(output.stdout.match(/webhook game\.finished for app_x\.0 \(seq 7\)/g)).toHaveLength(1);
});

it('the page logs in and challenges another user in a browser, against Boardhost cross-origin', async () => {
  const dave = await backendCall('POST', '/login', { user: 'dave' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const errors: string[] = [];
  try {
    const page = await browser.newPage();
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${origin}/`);
    await page.fill('#user', 'carol');
    await page.click('#login');
    await page.waitForFunction(
      () => (globalThis as any).document.getElementById('who').textContent === 'carol',
    );
    await page.fill('#opponent', 'dave');
    await page.click('#challenge');
    await page.waitForSelector('#challenges li[data-challenge]');
    // The challenge reached Boardhost from the browser: dave sees it, from carol.
    const carol = (await backendCall('GET', '/players/carol')).body.id as string;
    const received = await boardhost(dave.body.accessToken, 'GET', '/challenges');
    expect(received.body.items).toEqual([
      expect.objectContaining({ challenger: carol, destination: dave.body.account.id, kind: 'kalah' }),
    ]);
    expect(await page.textContent('#log')).toBe('');
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
}, 20_000);
