import type { Response } from 'express';
import { OutgoingMessage } from 'node:http';

// A message that many streams send (a game's version to each of its watchers on this node) is
// encoded once: its text to bytes once, and framed once as the HTTP/1.1 chunk that Node would make of
// it. Each stream then hands the same Buffer to its socket, instead of Node framing, encoding and
// corking it once per stream (the chunk-size line, the CRLFs, a nextTick and a writev each): about a
// third of the time a fan-out to thousands of streams takes (bench/fanout.ts).

const CRLF = Buffer.from('\r\n', 'latin1');

/** A message written to many streams, encoded once. */
export class SharedChunk {
  /** The message's bytes (UTF-8). */
  readonly bytes: Buffer;
  private framed: Buffer | undefined;

  constructor(text: string) {
    this.bytes = Buffer.from(text, 'utf8');
  }

  /** The bytes as one chunk of a chunked response: `<size in hex>\r\n<bytes>\r\n`, as Node frames them. */
  get chunk(): Buffer {
    this.framed ??= Buffer.concat([
      Buffer.from(`${this.bytes.length.toString(16)}\r\n`, 'latin1'),
      this.bytes,
      CRLF,
    ]);
    return this.framed;
  }
}

/**
 * Writes `message` to a streamed response: its framed chunk straight to the socket when that puts
 * the same bytes on the wire as `res.write` would — Node's own write (no middleware wraps it, e.g. to
 * compress), a chunked body with its headers sent and none of its output still held by the response
 * (so the order is kept), not a HEAD request — else through `res.write`. The response's writableLength counts it either way (it includes the socket's).
 */
export function writeShared(res: Response, message: SharedChunk): void {
  const socket = res.socket;
  if (
    socket !== null &&
    !socket.destroyed &&
    res.write === OutgoingMessage.prototype.write &&
    res.headersSent &&
    res.chunkedEncoding &&
    !res.writableEnded &&
    res.req.method !== 'HEAD' &&
    res.writableLength === socket.writableLength
  ) {
    socket.write(message.chunk);
  } else {
    res.write(message.bytes);
  }
}
