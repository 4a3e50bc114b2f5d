// One client process of `npm run bench -- connections` (bench/connections.ts starts several, so that
// 19,000 sockets fit under 20,000 open files per process and the readers are not the bottleneck).
// It opens its share of idle connections to the server, each on one game: SSE game streams (a raw
// socket, GET /api/v1/games/{id}/stream) and graphql-ws subscriptions (`gameUpdated`, one per
// WebSocket). Lines on stdin drive it, lines on stdout answer:
//
//   (the first line: the JSON plan)    → `ready <open> <failed> <retries>` once every connection has had its
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
  /**
   * The address this process connects from (127.0.0.x: one per process, each with its own ~28,000
   * ephemeral ports, and the sockets a run leaves in TIME_WAIT take none of 127.0.0.1's).
   */
  readonly localAddress: string;
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

function openSse(plan: ClientPlan, game: string, conn: Conn): void {
  const socket = connect({ port: plan.port, host: '127.0.0.1', localAddress: plan.localAddress }, () =>
    socket.write(
      `GET /api/v1/games/${game}/stream HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n`,
    ),
  );
  conn.handle = socket;
  let tail: string | undefined;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    if (tail === undefined && !chunk.startsWith('HTTP/1.1 200')) conn.failed(new Error(chunk.slice(0, 200)));
    const text = (tail ?? '') + chunk;
    for (const m of text.matchAll(/\nid: (\d+)\n/g)) seen(conn, Number(m[1]));
    tail = text.slice(-32);
  });
  socket.on('error', (error) => conn.failed(error));
  socket.on('close', () => conn.failed(new Error(`closed after ${JSON.stringify(tail ?? '')}`)));
}

function openWs(plan: ClientPlan, game: string, conn: Conn): void {
  const socket = new WebSocket(`ws://127.0.0.1:${plan.port}/graphql`, 'graphql-transport-ws', {
    localAddress: plan.localAddress,
  });
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

let ended = 0;

/** Opens one connection: the Conn once its first message came, or the error that ended it first. */
function attempt(plan: ClientPlan, kind: 'sse' | 'ws', game: string): Promise<Conn | Error> {
  return new Promise((resolve) => {
    let settled = false;
    const conn: Conn = {
      first: -1,
      arrived: null,
      dead: false,
      opened: () => {
        if (settled) return;
        settled = true;
        resolve(conn);
      },
      failed: (error) => {
        if (!conn.dead && settled && ++ended <= 3) {
          process.stderr.write(`an open connection ended: ${error.message}\n`);
        }
        conn.dead = true;
        check();
        if (settled) return;
        settled = true;
        resolve(error);
      },
    };
    (kind === 'sse' ? openSse : openWs)(plan, game, conn);
  });
}

async function main(): Promise<void> {
  const lines = createInterface({ input: process.stdin });
  const plan = await new Promise<ClientPlan>((resolve) =>
    lines.once('line', (line) => resolve(JSON.parse(line) as ClientPlan)),
  );
  let failed = 0;
  let retries = 0;
  let next = 0;
  const worker = async () => {
    while (next < plan.connections.length) {
      const { kind, game } = plan.connections[next++]!;
      // A refused or reset connect (a full accept queue while the server is busy) is tried again.
      for (let tries = 1; ; tries++) {
        const outcome = await attempt(plan, kind, game);
        if (!(outcome instanceof Error)) {
          conns.push(outcome);
          break;
        }
        if (tries === 5) {
          if (++failed <= 3)
            process.stderr.write(`connection failed (${kind} ${game}): ${outcome.message}\n`);
          break;
        }
        retries++;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, worker));
  process.stdout.write(`ready ${conns.length} ${failed} ${retries}\n`);
  lines.on('line', (line) => {
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
