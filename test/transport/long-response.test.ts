// What a long response lets go of once its headers are out (transport/rest/long-response.ts): the
// response still reports its headers sent, writes and ends as before (a well-formed chunked body),
// while it no longer holds its header block, its headers as set, express' empty locals, the router's
// next, or its connection's listener wrappers.
import express from 'express';
import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { settleLongResponse } from '../../src/transport/rest/long-response';

interface Seen {
  headersSent: boolean;
  headerLength: number;
  next: unknown;
  localsKeys: number;
  localsFrozen: boolean;
  socketOnIsPrototypes: boolean;
}

describe('settleLongResponse', () => {
  it('lets go of what a streaming response holds, and the response still writes and ends', async () => {
    let seen: Seen | undefined;
    const app = express();
    app.get('/stream', async (req, res) => {
      // As the stream routes do: they await their subscription first (the request is read whole by
      // then; a response started while its request is still being parsed keeps its parser).
      await new Promise((resolve) => setImmediate(resolve));
      res.setHeader('X-Long', 'x'.repeat(500));
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('retry: 2000\n\n');
      settleLongResponse(res);
      // The header block goes out when Node uncorks the connection (next tick); then it is shared.
      setImmediate(() => {
        const internals = res as unknown as { _header: string };
        seen = {
          headersSent: res.headersSent,
          headerLength: internals._header.length,
          next: (req as unknown as { next: unknown }).next,
          localsKeys: Object.keys(res.locals).length,
          localsFrozen: Object.isFrozen(res.locals),
          socketOnIsPrototypes: req.socket.on === net.Socket.prototype.on,
        };
        res.write(': keep-alive\n\n');
        res.end('event: shutdown\ndata: {}\n\n');
      });
    });
    const server = http.createServer(app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const body = await new Promise<{ text: string; headers: http.IncomingHttpHeaders }>(
        (resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port, path: '/stream', agent: false }, (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => (text += chunk));
              res.on('end', () => resolve({ text, headers: res.headers }));
            })
            .on('error', reject);
        },
      );
      expect(body.headers['x-long']).toBe('x'.repeat(500));
      expect(body.text).toBe('retry: 2000\n\n: keep-alive\n\nevent: shutdown\ndata: {}\n\n');
      expect(seen).toEqual({
        headersSent: true,
        headerLength: expect.any(Number) as number,
        next: undefined,
        localsKeys: 0,
        localsFrozen: true,
        socketOnIsPrototypes: true,
      });
      expect(seen!.headerLength).toBeLessThan(100);
    } finally {
      server.close();
    }
  });
});
