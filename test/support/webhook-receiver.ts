// A webhook receiver for tests: a real express server on 127.0.0.1 that records each request's raw
// body and headers, answers with a chosen status (or not at all), and can be stopped and started
// again on the same port. It counts the TCP connections it accepted (keep-alive) and the requests
// in flight per path at once (one endpoint gets one at a time), and can answer after a delay.
import express from 'express';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '../../src/service/delivery/webhook-signature';

export interface Received {
  readonly headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  readonly body: string;
  readonly payload: {
    account: string;
    epoch: string;
    seq: number;
    type: string;
    at: string;
    data: Record<string, any>;
  };
  /** What the receiver answered. */
  readonly answered: number | 'nothing';
}

export interface Receiver {
  /** Every request that reached the receiver, in arrival order (failed ones too). */
  readonly requests: Received[];
  /** Requests answered 2xx, in arrival order. */
  readonly accepted: Received[];
  /** The status to answer with (default 200), or 'hang' to never answer. */
  answer: number | 'hang';
  /** Milliseconds to wait before answering (default 0). */
  delayMs: number;
  /** TCP connections accepted since start (or since set to 0). */
  connections: number;
  /** The most requests to one path that were in flight at once (set to 0 to measure anew). */
  maxInFlightPerPath: number;
  /** The most requests in flight at once, all paths together (set to 0 to measure anew). */
  maxInFlight: number;
  readonly port: number;
  url(path?: string): string;
  /** Closes the port (connections are refused until `start`). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Resolves once `count` requests were accepted (rejects after `ms`). */
  waitForAccepted(count: number, ms?: number): Promise<Received[]>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  const accepted: Received[] = [];
  const app = express();
  const inFlight = new Map<string, number>();
  let total = 0;
  app.post('/{*path}', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const body = (req.body as Buffer).toString('utf8');
    const answer = receiver.answer;
    const now = (inFlight.get(req.path) ?? 0) + 1;
    inFlight.set(req.path, now);
    receiver.maxInFlightPerPath = Math.max(receiver.maxInFlightPerPath, now);
    total += 1;
    receiver.maxInFlight = Math.max(receiver.maxInFlight, total);
    res.on('close', () => {
      inFlight.set(req.path, (inFlight.get(req.path) ?? 1) - 1);
      total -= 1;
    });
    if (receiver.delayMs > 0) await new Promise((r) => setTimeout(r, receiver.delayMs));
    const received: Received = {
      headers: req.headers,
      body,
      payload: JSON.parse(body) as Received['payload'],
      answered: answer === 'hang' ? 'nothing' : answer,
    };
    requests.push(received);
    if (answer === 'hang') return;
    if (answer >= 200 && answer < 300) accepted.push(received);
    res.status(answer).send('ok');
  });
  const count = (server: Server) => server.on('connection', () => (receiver.connections += 1));
  let server: Server = count(createServer(app));
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  const receiver: Receiver = {
    requests,
    accepted,
    answer: 200,
    delayMs: 0,
    connections: 0,
    maxInFlightPerPath: 0,
    maxInFlight: 0,
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    start: async () => {
      server = count(createServer(app));
      await listen(port);
    },
    waitForAccepted: async (count, ms = 5000) => {
      const until = Date.now() + ms;
      while (accepted.length < count) {
        if (Date.now() > until) throw new Error(`received ${accepted.length} of ${count} deliveries`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return accepted.slice(0, count);
    },
  };
  return receiver;
}

/** True when the request's signature verifies with `secret` (at `now`, epoch ms). */
export function verifies(received: Received, secret: string, now?: number): boolean {
  return verifyWebhookSignature({
    secret,
    body: received.body,
    timestamp: received.headers['boardhost-timestamp'] as string | undefined,
    signature: received.headers['boardhost-signature'] as string | undefined,
    ...(now !== undefined ? { now } : {}),
  });
}
