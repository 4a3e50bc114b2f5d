// A message shared by many streams is written straight to each socket as one ready-made chunk: the
// response must carry exactly what res.write would send, in order with the response's own writes,
// for a chunked HTTP/1.1 body, an HTTP/1.0 one (not chunked) and a HEAD request (no body).
import express from 'express';
import type { Response } from 'express';
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { SharedChunk, writeShared } from '../../src/transport/rest/shared-chunk';

const shared = [
  new SharedChunk('id: 1\nevent: update\ndata: {"a":"ü€"}\n\n'),
  new SharedChunk(`data: ${'x'.repeat(70_000)}\n\n`),
];

/** A streamed response: headers, its own chunks and the shared ones (some in the same tick), end. */
async function respond(res: Response, write: (res: Response, message: SharedChunk) => void): Promise<void> {
  res.sendDate = false;
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  res.write('retry: 2000\n\n');
  write(res, shared[0] as SharedChunk);
  res.write(': own\n\n');
  await new Promise((resolve) => setImmediate(resolve));
  write(res, shared[1] as SharedChunk);
  write(res, shared[0] as SharedChunk);
  await new Promise((resolve) => setImmediate(resolve));
  res.end('event: end\ndata: {}\n\n');
}

let server: Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.get('/shared', (_req, res) => void respond(res, writeShared));
  app.get('/plain', (_req, res) => void respond(res, (r, message) => r.write(message.bytes)));
  // A middleware that wraps res.write (as compression does) sees every byte.
  app.get('/wrapped', (_req, res) => {
    const write = res.write.bind(res) as (chunk: Buffer | string) => boolean;
    res.write = ((chunk: Buffer | string) =>
      write(Buffer.from(chunk).toString('utf8').toUpperCase())) as typeof res.write;
    void respond(res, writeShared);
  });
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.close();
  await once(server, 'close');
});

/** The raw bytes of one request's response (the connection closes after it). */
async function raw(method: string, path: string, version: string): Promise<Buffer> {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.write(`${method} ${path} HTTP/${version}\r\nHost: x\r\nConnection: close\r\n\r\n`);
  await once(socket, 'close');
  return Buffer.concat(chunks);
}

/** A response split into its head and its body, the body's chunks joined when it is chunked. */
function parseResponse(bytes: Buffer): { head: string; body: Buffer } {
  const end = bytes.indexOf('\r\n\r\n');
  const head = bytes.subarray(0, end).toString('latin1');
  let rest = bytes.subarray(end + 4);
  if (!/transfer-encoding: chunked/i.test(head)) return { head, body: rest };
  const chunks: Buffer[] = [];
  for (;;) {
    const line = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.subarray(0, line).toString('latin1'), 16);
    expect(rest.subarray(line + 2 + size, line + 4 + size).toString('latin1')).toBe('\r\n');
    if (size === 0) break;
    chunks.push(rest.subarray(line + 2, line + 2 + size));
    rest = rest.subarray(line + 4 + size);
  }
  return { head, body: Buffer.concat(chunks) };
}

describe('writeShared', () => {
  // Node may join the writes of one tick into one chunk: the chunks may differ, never the body.
  it.each([
    ['GET', '1.1'],
    ['GET', '1.0'],
    ['HEAD', '1.1'],
  ])('sends what res.write sends (%s, HTTP/%s)', async (method, version) => {
    const plain = parseResponse(await raw(method, '/plain', version));
    const direct = parseResponse(await raw(method, '/shared', version));
    expect(direct.head).toBe(plain.head);
    expect(direct.body.equals(plain.body)).toBe(true);
    if (method === 'HEAD') expect(plain.body.length).toBe(0);
    else
      expect(plain.body.toString('utf8')).toBe(
        'retry: 2000\n\n' +
          shared[0]?.bytes.toString() +
          ': own\n\n' +
          shared[1]?.bytes.toString() +
          shared[0]?.bytes.toString() +
          'event: end\ndata: {}\n\n',
      );
  });

  it('writes the ready-made chunk straight to the socket when nothing of the response is held back', async () => {
    const direct = await raw('GET', '/shared', '1.1');
    expect(direct.includes((shared[1] as SharedChunk).chunk)).toBe(true);
    expect(
      direct.includes(Buffer.concat([(shared[1] as SharedChunk).chunk, (shared[0] as SharedChunk).chunk])),
    ).toBe(true);
  });

  it('writes through a wrapped res.write', async () => {
    const body = parseResponse(await raw('GET', '/wrapped', '1.1')).body.toString('utf8');
    expect(body).toContain('DATA: XXXX');
    expect(body).not.toContain('data: x');
  });

  it('frames a chunk as Node does: size in hex, CRLF, the bytes, CRLF', () => {
    const message = new SharedChunk('é\n');
    expect(message.chunk.toString('utf8')).toBe('3\r\né\n\r\n');
    expect(message.chunk).toBe(message.chunk);
  });
});
