// What a long-lived response (an SSE/NDJSON stream, idle for hours) and its connection hold, trimmed
// once its headers are out: at tens of thousands of idle streams on a node, the few KiB each that
// Node keeps for a response that will never be parsed again or asked about add up. Everything here
// reaches into Node's HTTP internals, checked before use: where they are not as expected, nothing
// is trimmed and the stream works as before.
import type { Request, Response } from 'express';
import type { Socket } from 'node:net';

/**
 * Trims what `res` (a response whose headers are sent, that streams for long) keeps: its sent
 * headers, and its connection's HTTP parser.
 */
export function settleLongResponse(res: Response): void {
  trimSentHeaders(res);
  releaseParser(res.req, res);
}

/**
 * What Node keeps of a response's headers once they are sent, trimmed for a response that lives
 * long (a stream, idle for hours): the header block (`_header`, which headersSent reads) is kept as
 * it was built, one string concatenation per header line (~100 small string pieces, ~3 KB): a
 * search flattens it into one string. The headers as set (an object of [name, value] pairs, ~2 KB,
 * for getHeader) are dropped: no one asks a stream's headers, and none can be set once sent.
 */
function trimSentHeaders(res: Response): void {
  const header = (res as unknown as { _header?: unknown })._header;
  if (typeof header !== 'string') return;
  header.indexOf('\n');
  const headers = Object.getOwnPropertySymbols(res).find((symbol) => symbol.description === 'kOutHeaders');
  if (headers) (res as unknown as Record<symbol, unknown>)[headers] = null;
}

/** What releaseParser needs of Node's HTTP server internals (checked before use). */
interface NodeHttpInternals {
  freeParser(parser: unknown, req: unknown, socket: unknown): void;
}

/** Node's `_http_common` (freeParser), or undefined where it is not what this module expects. */
const httpCommon: NodeHttpInternals | undefined = (() => {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const common = require('_http_common') as Partial<NodeHttpInternals>;
    return typeof common.freeParser === 'function' ? (common as NodeHttpInternals) : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * A streamed response's request is read whole and its response never ends on its own: the HTTP
 * parser of its connection (~8 KiB of native memory each) has nothing left to do for hours. It is
 * released, as Node releases it when a connection upgrades to a WebSocket; the connection then closes
 * when the response ends (there is no next request on it), and a client that sends anything more on
 * it is disconnected. Done only where Node's server is as expected (else the parser stays).
 */
function releaseParser(req: Request, res: Response): void {
  const socket = req.socket as Socket & { parser?: unknown; _httpMessage?: unknown };
  const parser = socket.parser;
  // Not for a response that waits behind another on its connection (pipelined requests).
  if (!httpCommon || !parser || !req.complete || socket.destroyed || socket._httpMessage !== res) return;
  const onData = socket.listeners('data').find((f) => f.name === 'bound socketOnData');
  const onEnd = socket.listeners('end').find((f) => f.name === 'bound socketOnEnd');
  if (!onData || !onEnd) return;
  socket.removeListener('data', onData as (...args: unknown[]) => void);
  socket.removeListener('end', onEnd as (...args: unknown[]) => void);
  socket.on('data', () => socket.destroy());
  // The client closed its side: close ours (what Node's server does without allowHalfOpen).
  socket.on('end', () => socket.end());
  // When the response ends, the connection closes with it (Node's "last response on it").
  (res as unknown as { _last: boolean })._last = true;
  httpCommon.freeParser(parser, req, socket);
}
