// Open streams are capped per client address (IPv6 by /64) and per account or seat token, with one
// set of counters for the REST streams (SSE/NDJSON) and graphql-ws subscriptions: one address
// holding its cap gets 429 TOO_MANY_STREAMS while another address still streams and /healthz
// answers. A reader that stops reading is cut once its unsent output passes the bound. graphql-ws
// connection caps count an IPv6 /64 as one address. Streams of a token end when it expires. Clients are told apart by X-Forwarded-For
// (TRUST_PROXY=loopback), as in the rate-limit tests.
import { randomBytes } from 'node:crypto';
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import net, { type Socket } from 'node:net';
import { createClient } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import type { AnyEngine } from '../../src/engines/engine';
import { getEngine } from '../../src/engines/kinds';
import { hashToken } from '../../src/service/accounts/auth';
import { TOKEN_REVOKED_CLOSE_CODE } from '../../src/transport/graphql/websocket';
import { signUp } from '../support/accounts';
import { openFeed } from '../support/feed-client';
import { appHarness, chooser, type Running } from '../support/app';

const harness = appHarness();
afterAll(() => harness.stopAll());

const PER_IP = 6;
const PER_TOKEN = 4;

interface Opened {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  /** The problem document of a refusal. */
  readonly body?: Record<string, any>;
  close(): void;
}

/** GETs a stream on a connection of its own; a 200 stays open until `close`, a refusal is read whole. */
function openRaw(url: string, path: string, headers: Record<string, string>): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req: ClientRequest = http.get(`${url}${path}`, { agent: false, headers }, (res) => {
      const close = () => req.destroy();
      if (res.statusCode === 200) return resolve({ status: 200, headers: res.headers, close });
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text), close }),
      );
    });
    req.on('error', reject);
  });
}

const from = (ip: string, more: Record<string, string> = {}) => ({ 'X-Forwarded-For': ip, ...more });

/** A graphql-ws client whose upgrade request comes "from" `ip`. */
function wsFrom(url: string, ip: string, token?: string) {
  class ForwardedWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers: { 'X-Forwarded-For': ip } });
    }
  }
  return createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: ForwardedWebSocket,
    retryAttempts: 0,
    ...(token ? { connectionParams: { authorization: `Bearer ${token}` } } : {}),
  });
}

/**
 * How a subscription starts: the code of its first error, or none when it is still running after
 * 500 ms (it keeps running until the client is disposed).
 */
async function firstResult(
  client: ReturnType<typeof createClient>,
  query: string,
): Promise<{ code?: unknown; extensions?: Record<string, unknown> }> {
  const iterator = client.iterate({ query });
  const next = iterator.next();
  next.catch(() => undefined);
  try {
    const first = await Promise.race([
      next,
      new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 500)),
    ]);
    if (first === 'open') return {};
    const errors = (first.value as { errors?: Array<{ extensions?: Record<string, unknown> }> })?.errors;
    return errors ? { code: errors[0]?.extensions?.code, extensions: errors[0]?.extensions ?? {} } : {};
  } catch (errors) {
    const list = errors as Array<{ extensions?: Record<string, unknown> }>;
    return { code: list[0]?.extensions?.code, extensions: list[0]?.extensions ?? {} };
  }
}

describe('one address opening more streams than the cap', () => {
  let run: Running;
  let gameId: string;
  beforeAll(async () => {
    run = await harness.start('memory', {
      app: {
        trustProxy: 'loopback',
        streams: { perIp: PER_IP, perToken: PER_TOKEN, maxBufferBytes: 1 << 20 },
      },
    });
    const created = await request(run.url).post('/api/v1/games').send({ kind: 'kalah' }).expect(201);
    gameId = created.body.game.id;
  });

  it('gets 429 TOO_MANY_STREAMS with the limit and Retry-After, its /64 included, over REST and graphql-ws; another address streams on and /healthz answers', async () => {
    const attacker = '2001:db8:aa:bb::1';
    const paths = [`/api/v1/games/${gameId}/stream`, '/api/v1/tv/kalah/stream'];
    const held: Opened[] = [];
    for (let i = 0; i < PER_IP; i++) {
      const opened = await openRaw(run.url, paths[i % 2] as string, from(attacker));
      expect(opened.status).toBe(200);
      held.push(opened);
    }
    // More from the same address, or another address of its /64, of any kind of stream: refused.
    for (const [ip, path] of [
      [attacker, paths[0]],
      ['2001:db8:aa:bb:ffff::9', paths[1]],
      [attacker, `/api/v1/streams/games?accounts=nobody-${randomBytes(2).toString('hex')}`],
      [attacker, '/api/v1/account/events'],
    ] as const) {
      const refused = await openRaw(run.url, path as string, from(ip));
      expect(refused.status).toBe(429);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.body).toMatchObject({ code: 'TOO_MANY_STREAMS', scope: 'address', limit: PER_IP });
    }
    // The same counters hold its graphql-ws subscriptions.
    const ws = wsFrom(run.url, '2001:db8:aa:bb::2');
    // (A query is no stream.)
    expect(await ws.iterate({ query: '{ __typename }' }).next()).toMatchObject({ value: { data: {} } });
    const sub = await firstResult(ws, `subscription { gameUpdated(id: "${gameId}") { version } }`);
    expect(sub.code).toBe('TOO_MANY_STREAMS');
    expect(sub.extensions).toMatchObject({ scope: 'address', limit: PER_IP });
    await ws.dispose();

    // Another address opens its own streams, and health checks answer.
    const other: Opened[] = [];
    for (let i = 0; i < PER_IP; i++) {
      const opened = await openRaw(run.url, paths[i % 2] as string, from('2001:db8:cc:dd::1'));
      expect(opened.status).toBe(200);
      other.push(opened);
    }
    await request(run.url).get('/healthz').expect(200);

    // A stream that ends gives its slot back.
    held.pop()?.close();
    await waitUntil(
      async () => (await openRaw(run.url, paths[0] as string, from(attacker)).then(keep(held))) === 200,
    );
    for (const opened of [...held, ...other]) opened.close();
  });

  it('caps an account across addresses and transports (TOO_MANY_STREAMS, scope token)', async () => {
    const account = await signUp(run.app, 'streamer');
    const held: Opened[] = [];
    for (let i = 0; i < PER_TOKEN - 1; i++) {
      const opened = await openRaw(
        run.url,
        '/api/v1/account/events',
        from(`198.51.100.${i + 1}`, {
          authorization: `Bearer ${account.token}`,
          accept: 'application/x-ndjson',
        }),
      );
      expect(opened.status).toBe(200);
      held.push(opened);
    }
    // The last slot goes to a subscription…
    const ws = wsFrom(run.url, '198.51.100.50', account.token);
    expect(await firstResult(ws, 'subscription { events { seq } }')).toEqual({});
    // …so that the account's next stream is refused, from a fresh address and on either transport.
    const refused = await openRaw(
      run.url,
      `/api/v1/games/${gameId}/stream`,
      from('198.51.100.60', { authorization: `Bearer ${account.token}` }),
    );
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'TOO_MANY_STREAMS', scope: 'token', limit: PER_TOKEN });
    const ws2 = wsFrom(run.url, '198.51.100.61', account.token);
    expect((await firstResult(ws2, 'subscription { events { seq } }')).code).toBe('TOO_MANY_STREAMS');
    await ws2.dispose();
    await ws.dispose();
    for (const opened of held) opened.close();
  });
});

describe('graphql-ws connection caps', () => {
  it('count an IPv6 /64 as one address', async () => {
    const run = await harness.start('memory', {
      app: { trustProxy: 'loopback' },
      websocket: { maxConnectionsPerIp: 2 },
    });
    const url = `${run.url.replace(/^http/, 'ws')}/graphql`;
    /** How a raw connection from `ip` fares within 300 ms: closed with a code, or open. */
    const connect = (ip: string) =>
      new Promise<{ socket: WebSocket; fate: number | 'open' }>((resolve) => {
        const socket = new WebSocket(url, 'graphql-transport-ws', { headers: { 'X-Forwarded-For': ip } });
        const timer = setTimeout(() => resolve({ socket, fate: 'open' }), 300);
        socket.on('close', (code) => {
          clearTimeout(timer);
          resolve({ socket, fate: code });
        });
      });
    const a = await connect('2001:db8:1:2::1');
    const b = await connect('2001:db8:1:2:aaaa::2');
    const c = await connect('2001:db8:1:2:ffff:ffff:ffff:ffff');
    const d = await connect('2001:db8:1:3::1');
    expect([a.fate, b.fate, c.fate, d.fate]).toEqual(['open', 'open', 4429, 'open']);
    for (const { socket } of [a, b, c, d]) socket.close();
  });
});

describe('readers that stop reading', () => {
  it('are cut once their unsent output passes STREAM_MAX_BUFFER_BYTES: 20 paused readers of a long game hold no tens of MiB', async () => {
    const BOUND = 256 * 1024;
    const run = await harness.start('memory', {
      app: { streams: { perIp: 1000, perToken: 1000, maxBufferBytes: BOUND } },
    });
    // Every server-side connection, to see what the paused ones hold.
    const sockets = new Set<Socket>();
    run.app.server.on('connection', (socket: Socket) => sockets.add(socket));
    const game = await longGame(run.url);
    await game.play(150);
    const port = Number(new URL(run.url).port);
    const readers: Socket[] = [];
    for (let i = 0; i < 20; i++) {
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `GET /api/v1/games/${game.id}/stream?full=1 HTTP/1.1\r\nHost: x\r\nAccept: application/x-ndjson\r\n\r\n`,
      );
      socket.pause();
      readers.push(socket);
    }
    const paused = new Set<Socket>();
    await waitUntil(() => {
      for (const s of sockets) if (!s.destroyed && s.bytesWritten > 0) paused.add(s);
      return paused.size >= 20;
    });
    // Every move sends each reader the whole game again (?full=1): several MiB each, more than the
    // kernel's socket buffers take, so that the rest waits in the server's memory.
    const heldNow = () => [...paused].reduce((n, s) => n + (s.destroyed ? 0 : s.writableLength), 0);
    let most = 0;
    let plies = 150;
    while (plies < 550 && [...paused].some((s) => !s.destroyed)) {
      const before = plies;
      plies = await game.play(25);
      if (plies === before) break;
      most = Math.max(most, heldNow());
    }
    const cut = [...paused].filter((s) => s.destroyed).length;
    expect(cut).toBe(20);
    // No more than its bound each (and a message) at any time.
    expect(most).toBeLessThan(20 * (BOUND + 64 * 1024));
    // A reader that reads is not cut.
    const live = await openRaw(run.url, `/api/v1/games/${game.id}/stream?full=1`, {});
    expect(live.status).toBe(200);
    live.close();
    for (const socket of readers) socket.destroy();
  });
});

/**
 * A Congo game of many plies: random legal moves that neither end the game nor let the reply end
 * it (checked with the engine), so that it outlasts random play; with a way to play on.
 */
async function longGame(url: string): Promise<{ id: string; play(plies: number): Promise<number> }> {
  const engine = getEngine('congo') as AnyEngine;
  const options = engine.parseOptions({});
  if (!options.ok) throw new Error(options.error.message);
  let state = engine.setup(options.value);
  const pick = chooser(3) as unknown as (moves: readonly unknown[]) => unknown;
  const safe = (next: unknown) =>
    !engine.outcome(next) &&
    engine.moves(next).every((reply) => {
      const after = engine.play(next, reply);
      return after.ok && !engine.outcome(after.value);
    });
  const created = await request(url).post('/api/v1/games').send({ kind: 'congo' }).expect(201);
  const tokens: string[] = created.body.seatTokens.map((t: { token: string }) => t.token);
  const id = created.body.game.id as string;
  let side = created.body.game.toMove as number;
  let plies = 0;
  const play = async (count: number) => {
    for (let i = 0; i < count && !engine.outcome(state); i++) {
      const moves = engine.moves(state);
      // From a random start, the first safe move (any move when none is).
      const first = moves.indexOf(pick(moves) as never);
      let chosen = moves[first];
      for (let k = 0; k < moves.length; k++) {
        const m = moves[(first + k) % moves.length];
        const next = engine.play(state, m);
        if (next.ok && safe(next.value)) {
          chosen = m;
          break;
        }
      }
      const text = engine.formatMove(state, chosen);
      const res = await request(url)
        .post(`/api/v1/games/${id}/moves`)
        .set('Authorization', `Bearer ${tokens[side]}`)
        .send({ move: text })
        .expect(200);
      const move = engine.parseMove(state, text);
      const next = move.ok ? engine.play(state, move.value) : undefined;
      if (!next?.ok) throw new Error(`${text} did not replay`);
      state = next.value;
      side = res.body.toMove;
      plies++;
    }
    return plies;
  };
  return { id, play };
}

/** Adds a 200 stream to `held` (to close later); answers the status. */
function keep(held: Opened[]) {
  return (opened: Opened) => {
    if (opened.status === 200) held.push(opened);
    return opened.status;
  };
}

async function waitUntil(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a token that expires (Redis)', () => {
  it('ends its NDJSON and SSE feeds with `expired` and closes its graphql-ws connection with 4401 at expiresAt', async () => {
    const run = await harness.start('redis');
    const account = await signUp(run.app, 'expiring');
    const [first] = await run.storage.accounts.listTokens(account.id);
    const secret = `bhp_${randomBytes(24).toString('hex')}`;
    const expiresAt = Date.now() + 1500;
    await run.storage.accounts.addToken({
      id: `t-${randomBytes(4).toString('hex')}`,
      account: account.id,
      hash: hashToken(secret),
      scopes: first!.scopes,
      label: 'short',
      createdAt: new Date().toISOString(),
      revokedAt: null,
      expiresAt: new Date(expiresAt).toISOString(),
    });
    const ndjson = await openFeed(run.url, secret, { format: 'ndjson' });
    const sse = await openFeed(run.url, secret, { format: 'sse' });
    let closed: (code: number) => void = () => undefined;
    const closedWith = new Promise<number>((resolve) => (closed = resolve));
    const client = createClient({
      url: `${run.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${secret}` },
      on: { closed: (event) => closed((event as { code: number }).code) },
    });
    expect(await firstResult(client, 'subscription { events { seq } }')).toEqual({});
    const bounded = <T>(promise: Promise<T>) =>
      Promise.race([
        promise,
        new Promise<never>((_, no) => setTimeout(() => no(new Error('still open')), 5000)),
      ]);
    await bounded(ndjson.ended);
    await bounded(sse.ended);
    expect(await bounded(closedWith)).toBe(TOKEN_REVOKED_CLOSE_CODE);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt - 50);
    expect(Date.now()).toBeLessThan(expiresAt + 1500);
    expect(await ndjson.next(100)).toMatchObject({ type: 'expired' });
    expect(await sse.next(100)).toMatchObject({ type: 'expired' });
    await client.dispose();
  });
});
