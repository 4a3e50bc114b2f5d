// The webhook sender's connections: kept alive between attempts, and a kept-alive connection that
// the receiver dropped before it was reused is replaced at once (not a failed attempt). The
// receiver is a raw TCP server speaking just enough HTTP/1.1 to decide what each connection does.
import { createServer, type Server, type Socket } from 'node:net';
import { WebhookSender } from '../../src/service/delivery/webhook-sender';

interface RawReceiver {
  readonly port: number;
  /** Requests answered, per connection (in the order connections came). */
  readonly answered: number[];
  close(): Promise<void>;
}

/**
 * Answers each whole request 200 with keep-alive; `drop(connection, request)` says when to reset
 * the connection instead of answering (numbers from 0).
 */
async function rawReceiver(drop: (connection: number, request: number) => boolean): Promise<RawReceiver> {
  const answered: number[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    const connection = answered.length;
    answered.push(0);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    let request = 0;
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffer.subarray(0, end).toString())?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.subarray(end + 4 + length);
        if (drop(connection, request++)) {
          socket.resetAndDestroy();
          return;
        }
        answered[connection] = (answered[connection] ?? 0) + 1;
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    answered,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const post = (sender: WebhookSender, port: number, n: number) =>
  sender.post(`http://127.0.0.1:${port}/hook`, JSON.stringify({ n }), { 'content-type': 'application/json' });

describe('webhook sender connections', () => {
  it('sends one attempt after another on one kept-alive connection', async () => {
    const receiver = await rawReceiver(() => false);
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 5000 });
    try {
      for (let n = 0; n < 5; n++) {
        expect(await post(sender, receiver.port, n)).toMatchObject({ statusCode: 200, error: null });
      }
      expect(receiver.answered).toEqual([5]);
    } finally {
      sender.stop();
      await receiver.close();
    }
  });

  it('replaces a kept-alive connection the receiver dropped, within the same attempt', async () => {
    // The first connection answers once, then resets when it is used again.
    const receiver = await rawReceiver((connection, request) => connection === 0 && request === 1);
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 5000 });
    try {
      expect(await post(sender, receiver.port, 1)).toMatchObject({ statusCode: 200, error: null });
      expect(await post(sender, receiver.port, 2)).toMatchObject({ statusCode: 200, error: null });
      expect(await post(sender, receiver.port, 3)).toMatchObject({ statusCode: 200, error: null });
      expect(receiver.answered).toEqual([1, 2]);
    } finally {
      sender.stop();
      await receiver.close();
    }
  });

  it('does not retry a dropped connection twice: the attempt fails', async () => {
    // Every connection answers its first request, then resets on the next.
    const receiver = await rawReceiver((_, request) => request >= 1);
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 5000 });
    try {
      expect(await post(sender, receiver.port, 1)).toMatchObject({ statusCode: 200 });
      // Reused connection reset, then a new one: answered.
      expect(await post(sender, receiver.port, 2)).toMatchObject({ statusCode: 200 });
      expect(receiver.answered).toEqual([1, 1]);
      // A new connection reset on its very first request is not stale: a failed attempt.
      const fresh = await rawReceiver(() => true);
      try {
        const failed = await post(sender, fresh.port, 3);
        expect(failed.statusCode).toBeNull();
        expect(failed.error).toMatch(/ECONNRESET|socket hang up/);
      } finally {
        await fresh.close();
      }
    } finally {
      sender.stop();
      await receiver.close();
    }
  });
});
