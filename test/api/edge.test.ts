// The HTTP edge: trust proxy, CORS, security headers, /metrics protection, request logs without
// secrets, per-/64 IPv6 buckets, and the server's connection limits.
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import WebSocket from 'ws';
import { addressBucket } from '../../src/service/accounts/quotas';
import { loadConfig, metricsAccess } from '../../src/config';
import { redactUrl } from '../../src/edge';
import { signUp } from '../support/accounts';
import { appHarness } from '../support/app';
import { expectProblem } from '../support/problem';

const harness = appHarness();
afterAll(() => harness.stopAll());

/** The requests left in the per-IP window, from the RateLimit header (`"ip";r=N;…` when it binds). */
const LIMITS = { perToken: 1000, perIp: 50, windowSeconds: 60 };
function ipRemaining(res: request.Response): number {
  const match = /"ip";r=(\d+)/.exec(String(res.headers.ratelimit));
  if (!match) throw new Error(`no ip window in ${res.headers.ratelimit}`);
  return Number(match[1]);
}

describe('TRUST_PROXY', () => {
  it('ignores X-Forwarded-For by default: every forwarded client shares the proxy’s window', async () => {
    const { url } = await harness.start('memory', { app: { rateLimits: LIMITS } });
    const a = await request(url).get('/api/v1/games').set('X-Forwarded-For', '203.0.113.1');
    const b = await request(url).get('/api/v1/games').set('X-Forwarded-For', '203.0.113.2');
    expect(ipRemaining(b)).toBe(ipRemaining(a) - 1);
  });

  it('counts each forwarded client apart when the proxy is trusted', async () => {
    const { url } = await harness.start('memory', { app: { rateLimits: LIMITS, trustProxy: 'loopback' } });
    const a = await request(url).get('/api/v1/games').set('X-Forwarded-For', '203.0.113.1');
    const b = await request(url).get('/api/v1/games').set('X-Forwarded-For', '203.0.113.2');
    const a2 = await request(url).get('/api/v1/games').set('X-Forwarded-For', '203.0.113.1');
    expect(ipRemaining(a)).toBe(LIMITS.perIp - 1);
    expect(ipRemaining(b)).toBe(LIMITS.perIp - 1);
    expect(ipRemaining(a2)).toBe(LIMITS.perIp - 2);
  });

  it('puts a whole IPv6 /64 in one bucket, and different /64s apart', async () => {
    expect(addressBucket('2001:db8:1:2::7')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressBucket('192.0.2.7')).toBe('192.0.2.7');
    const { url } = await harness.start('memory', { app: { rateLimits: LIMITS, trustProxy: 'loopback' } });
    const first = await request(url).get('/api/v1/games').set('X-Forwarded-For', '2001:db8:aa:bb::1');
    const same64 = await request(url).get('/api/v1/games').set('X-Forwarded-For', '2001:db8:aa:bb:ffff::9');
    const other64 = await request(url).get('/api/v1/games').set('X-Forwarded-For', '2001:db8:aa:bc::1');
    expect(ipRemaining(first)).toBe(LIMITS.perIp - 1);
    expect(ipRemaining(same64)).toBe(LIMITS.perIp - 2);
    expect(ipRemaining(other64)).toBe(LIMITS.perIp - 1);
  });
});

describe('TRUST_PROXY over WebSocket', () => {
  /** Runs one GraphQL operation over graphql-ws from a socket with these upgrade headers. */
  async function overWs(url: string, headers: Record<string, string>, query: string): Promise<any> {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', {
      headers,
    });
    try {
      return await new Promise((resolve, reject) => {
        socket.once('error', reject);
        socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
        socket.on('message', (data) => {
          const message = JSON.parse(String(data));
          if (message.type === 'connection_ack') {
            socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
          } else if (message.type === 'next') {
            resolve(message.payload);
          } else if (message.type === 'error') {
            reject(new Error(JSON.stringify(message.payload)));
          }
        });
      });
    } finally {
      socket.close();
    }
  }

  it('gives WebSocket operations the forwarded client address (idempotency scope)', async () => {
    const { url } = await harness.start('memory', { app: { trustProxy: 'loopback' } });
    const create =
      'mutation { createGame(input: { kind: "kalah" }, idempotencyKey: "ws-1") { game { id } } }';
    const a1 = await overWs(url, { 'X-Forwarded-For': '203.0.113.5' }, create);
    const a2 = await overWs(url, { 'X-Forwarded-For': '203.0.113.5' }, create);
    const b = await overWs(url, { 'X-Forwarded-For': '203.0.113.6' }, create);
    expect(a1.errors).toBeUndefined();
    expect(a2.data.createGame.game.id).toBe(a1.data.createGame.game.id);
    expect(b.data.createGame.game.id).not.toBe(a1.data.createGame.game.id);
    // Untrusted: the header is ignored, so both share the proxy's address and the key.
    const plain = await harness.start('memory');
    const c1 = await overWs(plain.url, { 'X-Forwarded-For': '203.0.113.5' }, create);
    const c2 = await overWs(plain.url, { 'X-Forwarded-For': '203.0.113.6' }, create);
    expect(c2.data.createGame.game.id).toBe(c1.data.createGame.game.id);
  });
});

describe('CORS', () => {
  const allowed = 'https://app.example.com';
  const denied = 'https://evil.example.net';

  it('answers preflights for listed origins only', async () => {
    const { url } = await harness.start('memory', { app: { corsOrigins: [allowed] } });
    const ok = await request(url)
      .options('/api/v1/games/AAAAAAAAAAAA/moves')
      .set('Origin', allowed)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type, idempotency-key, if-match');
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(allowed);
    expect(ok.headers['access-control-allow-methods']).toContain('POST');
    expect(String(ok.headers['access-control-allow-headers']).toLowerCase()).toContain('idempotency-key');
    const refused = await request(url)
      .options('/api/v1/games')
      .set('Origin', denied)
      .set('Access-Control-Request-Method', 'POST');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    // No list: no CORS at all.
    const plain = await harness.start('memory');
    const none = await request(plain.url).get('/api/v1/games').set('Origin', allowed);
    expect(none.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('marks REST, SSE streams and GraphQL answers for the allowed origin and exposes the API’s headers', async () => {
    const { url } = await harness.start('memory', { app: { corsOrigins: [allowed] } });
    const created = await request(url)
      .post('/api/v1/games')
      .set('Origin', allowed)
      .send({ kind: 'kalah' })
      .expect(201);
    expect(created.headers['access-control-allow-origin']).toBe(allowed);
    expect(created.headers['access-control-expose-headers']).toEqual(expect.stringContaining('Location'));
    expect(created.headers['access-control-expose-headers']).toEqual(expect.stringContaining('RateLimit'));

    const controller = new AbortController();
    const stream = await fetch(`${url}/api/v1/games/${created.body.game.id}/stream`, {
      headers: { Origin: allowed, Accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('access-control-allow-origin')).toBe(allowed);
    controller.abort();

    const preflight = await request(url)
      .options('/graphql')
      .set('Origin', allowed)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type, authorization');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(allowed);
    const graphql = await request(url)
      .post('/graphql')
      .set('Origin', allowed)
      .set('Content-Type', 'application/json')
      .send({ query: '{ kinds { kind } }' })
      .expect(200);
    expect(graphql.body.data.kinds).toContainEqual({ kind: 'kalah' });
    expect(graphql.headers['access-control-allow-origin']).toBe(allowed);
  });
});

describe('GraphQL over WebSocket from another origin', () => {
  it('accepts the connection (tokens travel in connection_init, not cookies)', async () => {
    const { url } = await harness.start('memory', { app: { corsOrigins: ['https://app.example.com'] } });
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', {
      origin: 'https://app.example.com',
    });
    const ack = await new Promise<string>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
      socket.once('message', (data) => resolve(String(data)));
    });
    expect(JSON.parse(ack)).toEqual({ type: 'connection_ack' });
    socket.close();
  });
});

describe('security headers', () => {
  it('sends nosniff, a same-origin CSP with frame-ancestors none, and keeps /docs working under it', async () => {
    const { url } = await harness.start('memory');
    const api = await request(url).get('/api/v1/games').expect(200);
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(api.headers['x-frame-options']).toBe('DENY');
    const csp = String(api.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');

    const docs = await request(url).get('/docs/').expect(200);
    expect(docs.headers['content-type']).toMatch(/^text\/html/);
    expect(docs.headers['content-security-policy']).toBe(csp);
    const html = docs.text;
    // No inline script (script-src 'self' would block it): every script and stylesheet is a file here.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const res = await request(url).get(`/docs/${asset.replace(/^\.\//, '')}`);
      expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
    }
  });
});

describe('/metrics', () => {
  it('is open without METRICS_TOKEN and needs the bearer token with it', async () => {
    const open = await harness.start('memory');
    expect((await request(open.url).get('/metrics')).status).toBe(200);
    const token = 'metrics-secret-0123456789';
    const { url } = await harness.start('memory', { app: { metricsToken: token } });
    expectProblem(await request(url).get('/metrics'), 401, 'UNAUTHENTICATED');
    expectProblem(
      await request(url).get('/metrics').set('Authorization', 'Bearer metrics-secret-0123456788'),
      401,
      'UNAUTHENTICATED',
    );
    const scraped = await request(url).get('/metrics').set('Authorization', `Bearer ${token}`).expect(200);
    expect(scraped.text).toContain('http_request_duration_seconds');
  });

  it('is not served in production without METRICS_TOKEN (404), and needs the token with it', async () => {
    expect(metricsAccess(loadConfig({}))).toEqual({ open: true });
    const production = { NODE_ENV: 'production', SECRET_KEY: 'k'.repeat(48) };
    expect(metricsAccess(loadConfig(production))).toEqual({ open: false });
    const token = 'metrics-secret-0123456789';
    expect(metricsAccess(loadConfig({ ...production, METRICS_TOKEN: token }))).toEqual({
      open: false,
      token,
    });
    const closed = await harness.start('memory', { app: { metricsOpen: false } });
    expectProblem(await request(closed.url).get('/metrics'), 404, 'NOT_FOUND');
    expectProblem(
      await request(closed.url).get('/metrics').set('Authorization', `Bearer ${token}`),
      404,
      'NOT_FOUND',
    );
    expect((await request(closed.url).get('/healthz')).status).toBe(200);
    const guarded = await harness.start('memory', { app: { metricsOpen: false, metricsToken: token } });
    expectProblem(await request(guarded.url).get('/metrics'), 401, 'UNAUTHENTICATED');
    await request(guarded.url).get('/metrics').set('Authorization', `Bearer ${token}`).expect(200);
  });
});

describe('request logs', () => {
  it('never hold a token from a query string or a header', async () => {
    expect(redactUrl('/a?token=x&b=1&access_token=y&seatToken=z')).toBe(
      '/a?token=[REDACTED]&b=1&access_token=[REDACTED]&seatToken=[REDACTED]',
    );
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    const { app, url } = await harness.start('memory', { app: { logger } });
    const bot = await signUp(app, 'logged');
    const secret = 'bhs_SeCrEtSeAtToKeN000000000000000';
    // Answered or refused (400: unknown parameters), the request is logged.
    await request(url)
      .get(`/api/v1/games?limit=2&token=${secret}&access_token=${bot.token}&seatToken=${secret}x`)
      .set('Authorization', `Bearer ${bot.token}`)
      .set('User-Agent', 'edge-test/1');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = lines.find((line) => line.includes('/api/v1/games?limit=2'));
    expect(logged).toBeDefined();
    expect(logged).toContain('token=[REDACTED]');
    expect(logged).toContain('limit=2');
    // One compact line: who asked what, the status and the time; no header but the user agent.
    const line = JSON.parse(logged!) as {
      req: Record<string, unknown>;
      res: Record<string, unknown>;
      responseTime: number;
    };
    expect(Object.keys(line.req).sort()).toEqual(['id', 'method', 'remoteAddress', 'url', 'userAgent']);
    expect(line.req.method).toBe('GET');
    expect(line.req.userAgent).toBe('edge-test/1');
    expect(line.res).toEqual({ statusCode: 400 });
    expect(line.responseTime).toBeGreaterThanOrEqual(0);
    const all = lines.join('\n');
    expect(all).not.toContain(secret);
    expect(all).not.toContain(bot.token);
  });
  it('never hold GraphQL GET variables or extensions (a seat token can be in them)', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const { url } = await harness.start('memory', { app: { logger: pino({ level: 'info' }, sink) } });
    const secret = 'bhs_GrApHqLvArIaBlEsSeAtToKeN00000';
    const query = 'query Q($id: ID!) { game(id: $id) { id } }';
    const variables = JSON.stringify({ id: 'AAAAAAAAAAAA', seatToken: secret });
    const extensions = JSON.stringify({ clientNote: `${secret}e` });
    const res = await request(url)
      .get('/graphql')
      .query({ query, variables, extensions, operationName: 'Q' })
      .set('apollo-require-preflight', 'true');
    expect(res.body.errors?.[0]?.extensions?.code).toBe('GAME_NOT_FOUND');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = lines.find((line) => line.includes('/graphql?'));
    expect(logged).toBeDefined();
    expect(logged).toContain('variables=[REDACTED]');
    expect(logged).toContain('extensions=[REDACTED]');
    expect(logged).toContain('operationName=Q');
    expect(lines.join('\n')).not.toContain(secret);
    expect(redactUrl('/graphql?query=%7Bx%7D&variables=%7B%22t%22%3A1%7D&Extensions=e')).toBe(
      '/graphql?query=%7Bx%7D&variables=[REDACTED]&Extensions=[REDACTED]',
    );
  });
});

describe('connection limits', () => {
  it('applies the timeouts, keeps idle connections above a load balancer’s 60 s, and closes slow headers', async () => {
    const defaults = await harness.start('memory');
    expect(defaults.app.server.keepAliveTimeout).toBeGreaterThan(60_000);
    expect(defaults.app.server.headersTimeout).toBe(20_000);
    expect(defaults.app.server.requestTimeout).toBe(60_000);
    expect(defaults.app.server.maxConnections).toBe(10_000);

    const http = {
      headersTimeoutMs: 500,
      requestTimeoutMs: 1000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 0,
    };
    const { url } = await harness.start('memory', { app: { http } });
    const port = Number(new URL(url).port);
    const slow = await open(port);
    slow.write('GET /livez HTTP/1.1\r\nHost: x\r\n'); // never ends its headers
    const answer = await closed(slow, 5000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('refuses connections beyond maxConnections', async () => {
    const http = {
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 2,
    };
    const { url } = await harness.start('memory', { app: { http } });
    const port = Number(new URL(url).port);
    const held = [await open(port), await open(port)];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = await open(port);
    third.write('GET /livez HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await closed(third, 3000)).toBe('');
    for (const socket of held) socket.destroy();
  });
});

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with what the server sent once it closes the connection (rejects after `ms`). */
function closed(socket: Socket, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('the connection stayed open')), ms);
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}
