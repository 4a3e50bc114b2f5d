// What an open stream keeps of its connection (transport/rest/stream.ts): once its response has
// started, the connection's HTTP parser is released (as on a WebSocket upgrade), so the connection
// carries that one response only. The stream still delivers and keeps alive; a client that sends
// anything more on the connection is disconnected; a client that closes its side gets the connection
// closed; and when the response ends (here: the API token it was opened with is revoked), the
// connection closes with it instead of waiting for a next request. A graphql-ws connection is pinged
// (one timer for all of them) and terminated once it stops answering.
import net, { type Socket } from 'node:net';
import request from 'supertest';
import WebSocket from 'ws';
import { signUp } from '../support/accounts';
import { appHarness } from '../support/app';

const harness = appHarness();
afterAll(() => harness.stopAll());

/** A raw connection with a GET of `path` sent, its bytes so far, and its end. */
function rawGet(url: string, path: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(url);
  const socket: Socket = net.connect(Number(port), hostname);
  let text = '';
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => undefined);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\n${lines.join('')}\r\n`);
  return {
    socket,
    closed,
    text: () => text,
    /** Waits until the bytes so far contain `part`. */
    async until(part: string, timeoutMs = 5000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!text.includes(part)) {
        if (Date.now() > deadline) throw new Error(`no ${JSON.stringify(part)} in ${JSON.stringify(text)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

/** Resolves true if `closed` settles within `ms`. */
const closesWithin = (closed: Promise<void>, ms: number) =>
  Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('an open stream and its connection', () => {
  it('delivers the versions of a game after its parser is released; more bytes from the client end it', async () => {
    const run = await harness.start('memory');
    const created = await request(run.url).post('/api/v1/games').send({ kind: 'kalah' }).expect(201);
    const { id } = created.body.game;
    const token = created.body.seatTokens.find(
      (s: { seat: number }) => s.seat === created.body.game.toMove,
    ).token;
    const stream = rawGet(run.url, `/api/v1/games/${id}/stream`, { Accept: 'text/event-stream' });
    await stream.until('event: game');
    expect(stream.text()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(stream.text()).toContain('Content-Type: text/event-stream');
    const move = created.body.game.legalMoves[0];
    await request(run.url)
      .post(`/api/v1/games/${id}/moves`)
      .set('Authorization', `Bearer ${token}`)
      .send({ move })
      .expect(200);
    await stream.until('event: update');
    expect(await closesWithin(stream.closed, 200)).toBe(false);
    // A request sent on the stream's connection: nothing parses it any more; the connection ends.
    stream.socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n');
    expect(await closesWithin(stream.closed, 2000)).toBe(true);
    expect(stream.text().split('HTTP/1.1 ').length).toBe(2);
    // The server goes on serving.
    await request(run.url).get('/healthz').expect(200);
  });

  it('closes the connection when the client closes its side', async () => {
    const run = await harness.start('memory');
    const created = await request(run.url).post('/api/v1/games').send({ kind: 'oware' }).expect(201);
    const stream = rawGet(run.url, `/api/v1/games/${created.body.game.id}/stream`, {
      Accept: 'application/x-ndjson',
    });
    await stream.until('"type":"game"');
    stream.socket.end();
    expect(await closesWithin(stream.closed, 2000)).toBe(true);
  });

  it('closes the connection with the response when the stream ends (its token revoked)', async () => {
    const run = await harness.start('memory');
    const account = await signUp(run.app, 'idle');
    const stream = rawGet(run.url, '/api/v1/account/events', {
      Accept: 'text/event-stream',
      ...account.auth,
    });
    await stream.until('event: ready');
    const tokens = await request(run.url).get('/api/v1/account/tokens').set(account.auth).expect(200);
    const { id, scopes } = tokens.body.items[0];
    // A second root token, so that the first is not the account's last (LAST_ROOT_TOKEN).
    await request(run.url).post('/api/v1/account/tokens').set(account.auth).send({ scopes }).expect(201);
    await request(run.url).delete(`/api/v1/account/tokens/${id}`).set(account.auth).expect(200);
    await stream.until('event: revoked');
    expect(await closesWithin(stream.closed, 2000)).toBe(true);
  });
});

describe('an idle graphql-ws connection', () => {
  it('is pinged every interval, stays while it answers, and is terminated once it stops answering', async () => {
    const run = await harness.start('memory', { websocket: { pingIntervalMs: 1000 } });
    const url = `${run.url.replace(/^http/, 'ws')}/graphql`;
    const open = (autoPong: boolean) =>
      new Promise<WebSocket>((resolve, reject) => {
        const socket = new WebSocket(url, 'graphql-transport-ws', { autoPong });
        socket.once('open', () => {
          // Initialised (an uninitialised connection is closed after 3 s: 4408).
          socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
          resolve(socket);
        });
        socket.once('error', reject);
      });
    const answering = await open(true);
    const silent = await open(false);
    const pings = { answering: 0, silent: 0 };
    answering.on('ping', () => pings.answering++);
    silent.on('ping', () => pings.silent++);
    const silentClosed = new Promise<number>((resolve) => silent.once('close', (code) => resolve(code)));
    // The silent one: pinged within a second or two, terminated (no close frame: 1006) by the next.
    expect(await silentClosed).toBe(1006);
    expect(pings.silent).toBe(1);
    await new Promise((r) => setTimeout(r, 2500));
    expect(pings.answering).toBeGreaterThanOrEqual(3);
    expect(answering.readyState).toBe(WebSocket.OPEN);
    answering.close();
  });
});
