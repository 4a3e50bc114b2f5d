// What a long-lived response (an SSE/NDJSON stream, idle for hours) and its connection hold, trimmed
// once its headers are out: at tens of thousands of idle streams on a node, the few KiB each that
// Node keeps for a response that will never be parsed again or asked about add up. Everything here
// reaches into Node's HTTP internals, checked before use: where they are not as expected, nothing
// is trimmed and the stream works as before.
import type { Request, Response } from 'express';
import type { Socket } from 'node:net';

/**
 * Trims what `res` (a response whose headers are sent, that streams for long) keeps: its sent
 * headers, its empty locals, its request's router state, and its connection's HTTP parser.
 */
export function settleLongResponse(res: Response): void {
  trimSentHeaders(res);
  trimLocals(res);
  trimRequest(res.req);
  releaseParser(res.req, res);
}

/** What a sent response keeps as its header block: only ever asked whether there is one. */
const SENT_HEADER = 'HTTP/1.1 200 OK\r\n\r\n';

interface SentHeaderInternals {
  _header?: unknown;
  _headerSent?: unknown;
}

/**
 * What Node keeps of a response's headers once they are sent, trimmed for a response that lives
 * long (a stream, idle for hours). The headers as set (an object of [name, value] pairs, ~2 KB, for
 * getHeader) are dropped: no one asks a stream's headers, and none can be set once sent. The header
 * block (`_header`, ~1 KB with the security headers, built as one string concatenation per header
 * line) is only read again to know whether headers are sent (headersSent; end() and write(), which
 * would otherwise send them): once it is out (`_headerSent`, when Node uncorks the connection, on
 * the next tick), a short string shared by all streams says the same; until then it is flattened.
 */
function trimSentHeaders(res: Response): void {
  const internals = res as unknown as SentHeaderInternals;
  if (typeof internals._header !== 'string') return;
  internals._header.indexOf('\n');
  const headers = Object.getOwnPropertySymbols(res).find((symbol) => symbol.description === 'kOutHeaders');
  if (headers) (res as unknown as Record<symbol, unknown>)[headers] = null;
  if (internals._headerSent === true) internals._header = SENT_HEADER;
  else setImmediate(shareSentHeader, internals);
}

function shareSentHeader(internals: SentHeaderInternals): void {
  if (internals._headerSent === true && typeof internals._header === 'string')
    internals._header = SENT_HEADER;
}

/**
 * What the request of a long response keeps that nothing reads again: the router's `next` (which
 * holds the router's state for the request: its layers' closures and parameters) and the parsed
 * URL cache (parsed again if asked). Set to undefined, not deleted (a deleted property would turn
 * the request into a slower, larger dictionary-mode object).
 */
function trimRequest(req: Request): void {
  const fields = req as unknown as { next?: unknown; _parsedUrl?: unknown };
  if (typeof fields.next === 'function') fields.next = undefined;
  if (fields._parsedUrl !== undefined) fields._parsedUrl = undefined;
}

/** The locals of every long response that set none (express' own are an empty object each). */
const NO_LOCALS: Record<string, unknown> = Object.freeze(Object.create(null) as Record<string, unknown>);

/**
 * express gives each response an empty `locals` (a null-prototype object: ~200 B each, as V8 keeps
 * such objects as dictionaries) for views to read; a stream renders none, and none set any: an
 * empty one shared by all (frozen) takes its place.
 */
function trimLocals(res: Response): void {
  const locals = res.locals as Record<string, unknown> | undefined;
  if (locals && Object.getPrototypeOf(locals) === null && Object.keys(locals).length === 0) {
    res.locals = NO_LOCALS;
  }
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
  dropListenerWrappers(socket);
}

/** The socket methods a server connection gets so that listeners added take its data from the parser. */
const WRAPPED_METHODS = ['on', 'addListener', 'prependListener'] as const;

/**
 * A server's connection has its own on/addListener/prependListener (three closures each with its
 * context) that hand its data back from the parser to a listener added later; with the parser gone
 * they do what the socket's prototype does, and Node puts the prototype's back itself at the next
 * listener added: done now (assigned as Node does, not deleted: see trimRequest).
 */
function dropListenerWrappers(socket: Socket): void {
  const methods = socket as unknown as Record<string, unknown>;
  const prototype = Object.getPrototypeOf(socket) as Record<string, unknown>;
  for (const method of WRAPPED_METHODS) {
    const own = Object.getOwnPropertyDescriptor(socket, method);
    if (typeof own?.value === 'function' && (own.value as { name: string }).name === 'socketListenerWrap') {
      methods[method] = prototype[method];
    }
  }
}
