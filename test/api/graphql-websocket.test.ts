// graphql-ws abuse: an oversized message is refused before it is read and the node keeps answering;
// connections and subscriptions are capped per IP and per account with stable codes.
import WebSocket from 'ws';
import { GAME_KINDS } from '../../src/engines/types';
import { TOO_MANY_CONNECTIONS_CLOSE_CODE } from '../../src/transport/graphql/websocket';
import { signUp } from '../support/accounts';
import { appHarness, gql, wsClient, type Running } from '../support/app';

/** A raw graphql-ws connection, acknowledged (connection_init sent with `payload`). */
async function connect(
  run: Running,
  payload?: Record<string, unknown>,
): Promise<{
  socket: WebSocket;
  closed: Promise<{ code: number; reason: string }>;
  acked: Promise<boolean>;
}> {
  const socket = new WebSocket(`${run.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('close', () => resolve());
    socket.once('error', reject);
  });
  const acked = new Promise<boolean>((resolve) => {
    socket.on('message', (data) => {
      if ((JSON.parse(data.toString()) as { type: string }).type === 'connection_ack') resolve(true);
    });
    void closed.then(() => resolve(false));
  });
  if (socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: 'connection_init', ...(payload ? { payload } : {}) }));
  }
  return { socket, closed, acked };
}

/** Sends `subscribe` and resolves with the first answer: 'next' or the error's code. */
function subscribe(socket: WebSocket, id: string, query: string): Promise<string> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as {
        id?: string;
        type: string;
        payload?: Array<{ extensions?: { code?: string } }>;
      };
      if (message.id !== id) return;
      socket.off('message', onMessage);
      resolve(message.type === 'error' ? (message.payload?.[0]?.extensions?.code ?? 'error') : message.type);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query } }));
  });
}

describe('graphql-ws limits', () => {
  const harness = appHarness();
  let run: Running;
  let gameId: string;
  beforeAll(async () => {
    run = await harness.start('memory', {
      websocket: {
        maxMessageBytes: 64 * 1024,
        maxConnectionsPerIp: 4,
        maxConnectionsPerAccount: 2,
        maxSubscriptionsPerIp: 3,
        maxSubscriptionsPerAccount: 2,
      },
    });
    gameId = (await run.app.services.games.createGame({ kind: 'kalah' })).game.id;
  });
  afterAll(() => harness.stopAll());

  const watch = () => `subscription { gameUpdated(id: "${gameId}") { version } }`;

  it('closes a connection that sends a 14 MiB message with 1009 (too big), quickly, and keeps answering', async () => {
    const { socket, closed, acked } = await connect(run);
    expect(await acked).toBe(true);
    const huge = JSON.stringify({
      id: '1',
      type: 'subscribe',
      payload: { query: `{ ${'kinds '.repeat((14 * 1024 * 1024) / 6)}}` },
    });
    const started = Date.now();
    socket.send(huge);
    const { code } = await closed;
    expect(code).toBe(1009);
    // Generous: the point is that it is refused from its header, not parsed (that took ~10 s).
    expect(Date.now() - started).toBeLessThan(5000);
    const { status, body } = await gql(run.url, '{ kinds { kind } }');
    expect(status).toBe(200);
    expect(body.data?.kinds).toHaveLength(GAME_KINDS.length);
  });

  it('closes the connection past the per-IP cap with 4429 TOO_MANY_CONNECTIONS, and lets one in once one closes', async () => {
    const open = [];
    for (let i = 0; i < 4; i++) open.push(await connect(run));
    for (const c of open) expect(await c.acked).toBe(true);
    const fifth = await connect(run);
    const refusal = await fifth.closed;
    expect(refusal.code).toBe(TOO_MANY_CONNECTIONS_CLOSE_CODE);
    expect(refusal.reason).toMatch(/^TOO_MANY_CONNECTIONS/);
    open[0]?.socket.close();
    await open[0]?.closed;
    const again = await connect(run);
    expect(await again.acked).toBe(true);
    for (const c of [...open.slice(1), again]) {
      c.socket.close();
      await c.closed;
    }
  });

  it('closes the connection past the per-account cap with 4429, whatever the IP count', async () => {
    const bot = await signUp(run.app, 'wscap');
    const auth = { authorization: `Bearer ${bot.token}` };
    const [a, b] = [await connect(run, auth), await connect(run, auth)];
    expect([await a.acked, await b.acked]).toEqual([true, true]);
    const third = await connect(run, auth);
    expect(await third.acked).toBe(false);
    const refusal = await third.closed;
    expect(refusal.code).toBe(TOO_MANY_CONNECTIONS_CLOSE_CODE);
    expect(refusal.reason).toMatch(/^TOO_MANY_CONNECTIONS: .*account/);
    // Another account (same IP) still gets in.
    const other = await signUp(run.app, 'wscap2');
    const c = await connect(run, { authorization: `Bearer ${other.token}` });
    expect(await c.acked).toBe(true);
    for (const x of [a, b, c]) {
      x.socket.close();
      await x.closed;
    }
  });

  it('refuses the subscription past the per-IP cap with TOO_MANY_SUBSCRIPTIONS; ending one frees a slot', async () => {
    const [a, b] = [await connect(run), await connect(run)];
    expect([await a.acked, await b.acked]).toEqual([true, true]);
    expect(await subscribe(a.socket, 's1', watch())).toBe('next');
    expect(await subscribe(a.socket, 's2', watch())).toBe('next');
    expect(await subscribe(b.socket, 's3', watch())).toBe('next');
    expect(await subscribe(b.socket, 's4', watch())).toBe('TOO_MANY_SUBSCRIPTIONS');
    // Queries and mutations are not subscriptions: they still run.
    expect(await subscribe(b.socket, 'q1', '{ kinds { kind } }')).toBe('next');
    a.socket.send(JSON.stringify({ id: 's1', type: 'complete' }));
    await new Promise((r) => setTimeout(r, 100));
    expect(await subscribe(b.socket, 's5', watch())).toBe('next');
    // Closing a connection frees its subscriptions.
    a.socket.close();
    await a.closed;
    expect(await subscribe(b.socket, 's6', watch())).toBe('next');
    b.socket.close();
    await b.closed;
  });

  it('refuses the subscription past the per-account cap with TOO_MANY_SUBSCRIPTIONS', async () => {
    const bot = await signUp(run.app, 'subcap');
    const auth = { authorization: `Bearer ${bot.token}` };
    const [a, b] = [await connect(run, auth), await connect(run, auth)];
    expect([await a.acked, await b.acked]).toEqual([true, true]);
    expect(await subscribe(a.socket, 's1', watch())).toBe('next');
    expect(await subscribe(b.socket, 's2', watch())).toBe('next');
    expect(await subscribe(b.socket, 's3', watch())).toBe('TOO_MANY_SUBSCRIPTIONS');
    for (const x of [a, b]) {
      x.socket.close();
      await x.closed;
    }
  });

  it('still serves an ordinary graphql-ws client within the caps', async () => {
    const client = wsClient(run.url);
    try {
      const first = await client.iterate({ query: watch() }).next();
      expect((first.value as { data: { gameUpdated: { version: number } } }).data.gameUpdated.version).toBe(
        0,
      );
    } finally {
      await client.dispose();
    }
  });
});
