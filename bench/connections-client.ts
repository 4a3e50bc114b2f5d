// One client process of `npm run bench -- connections` (bench/connections.ts starts several, so that
// 19,000 sockets fit under 20,000 open files per process and the readers are not the bottleneck).
// It opens its share of idle connections to the server, each on one game: SSE game streams (a raw
// socket, GET /api/v1/games/{id}/stream) and graphql-ws subscriptions (`gameUpdated`, one per
// WebSocket). Lines on stdin drive it, lines on stdout answer:
//
//   (start, argv[2] is the JSON plan)  → `ready <open> <failed>` once every connection has had its
//                                         first message (the game now)
//   `arrivals`                         → `arrivals <JSON>`: per connection, the epoch time in ms
//                                         (performance.timeOrigin + performance.now()) when the first
//                                         version after the one it opened with arrived, or null;
//                                         sent once every connection has one or after 15 s
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

export interface ClientPlan {
  readonly port: number;
  /** Per connection: its kind and its game. */
  readonly connections: ReadonlyArray<{ readonly kind: 'sse' | 'ws'; readonly game: string }>;
  /** Connections being opened at once. */
  readonly concurrency: number;
}

const QUERY =
  'subscription ($id: ID!) { gameUpdated(id: $id) { id version status toMove position lastMove { notation } } }';

const now = () => performance.timeOrigin + performance.now();

/** One connection: the version it opened with, and when the next one arrived. */
interface Conn {
  first: number;
  arrived: number | null;
  /** The connection failed or closed (never counted as waiting). */
  dead: boolean;
  opened: () => void;
  failed: (error: Error) => void;
  /** Held so that the socket is not collected. */
  handle?: Socket | WebSocket;
}

function seen(conn: Conn, version: number): void {
  if (conn.first < 0) {
    conn.first = version;
    conn.opened();
  } else if (conn.arrived === null && version > conn.first) {
    conn.arrived = now();
    check();
  }
}

function openSse(port: number, game: string, conn: Conn): void {
  const socket = connect(port, '127.0.0.1', () =>
    socket.write(
      `GET /api/v1/games/${game}/stream HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n`,
    ),
  );
  conn.handle = socket;
  let tail = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    const text = tail + chunk;
    if (conn.first < 0 && !text.startsWith('HTTP/1.1 200')) conn.failed(new Error(text.slice(0, 200)));
    for (const m of text.matchAll(/\nid: (\d+)\n/g)) seen(conn, Number(m[1]));
    tail = text.slice(-32);
  });
  socket.on('error', (error) => conn.failed(error));
  socket.on('close', () => conn.failed(new Error('closed')));
}

function openWs(port: number, game: string, conn: Conn): void {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
  conn.handle = socket;
  socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as {
      type: string;
      payload?: { data?: { gameUpdated?: { version: number } } };
    };
    if (message.type === 'connection_ack') {
      socket.send(
        JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY, variables: { id: game } } }),
      );
    } else if (message.type === 'next' && message.payload?.data?.gameUpdated) {
      seen(conn, message.payload.data.gameUpdated.version);
    } else if (message.type === 'error' || message.type === 'complete') {
      conn.failed(new Error(String(raw).slice(0, 200)));
    }
  });
  socket.on('error', (error) => conn.failed(error));
  socket.on('close', (code) => conn.failed(new Error(`closed ${code}`)));
}

const conns: Conn[] = [];
let answer: (() => void) | undefined;

function check(): void {
  if (answer && conns.every((c) => c.arrived !== null || c.dead)) answer();
}

async function main(): Promise<void> {
  const plan = JSON.parse(process.argv[2] as string) as ClientPlan;
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < plan.connections.length) {
      const { kind, game } = plan.connections[next++]!;
      await new Promise<void>((resolve) => {
        let settled = false;
        const conn: Conn = {
          first: -1,
          arrived: null,
          dead: false,
          opened: () => {
            if (settled) return;
            settled = true;
            resolve();
          },
          failed: (error) => {
            if (!conn.dead && settled) process.stderr.write(`an open connection ended: ${error.message}\n`);
            conn.dead = true;
            check();
            if (settled) return;
            settled = true;
            failed++;
            if (failed <= 3) process.stderr.write(`connection failed: ${error.message}\n`);
            resolve();
          },
        };
        conns.push(conn);
        (kind === 'sse' ? openSse : openWs)(plan.port, game, conn);
      });
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, worker));
  process.stdout.write(`ready ${conns.length - failed} ${failed}\n`);
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line !== 'arrivals') return;
    let sent = false;
    const send = () => {
      if (sent) return;
      sent = true;
      answer = undefined;
      process.stdout.write(`arrivals ${JSON.stringify(conns.map((c) => c.arrived))}\n`);
    };
    answer = send;
    setTimeout(send, 15_000);
    check();
  });
}

void main();
