import type { ExecutionResult } from 'graphql';
import { WebSocket } from 'ws';

// graphql-ws JSON.stringifies every `next` message for every socket, and ws UTF-8 encodes each one
// again: for a result that many subscribers share (shared-execution.ts), the same data is serialized
// once per subscriber. (JSON.rawJSON cannot help: it takes primitives only, not objects.) So a shared
// result's payload JSON is encoded once, into bytes: graphql-ws is handed a small placeholder payload
// (`{"@sharedPayload":n}`, a key no GraphQL result can hold: names cannot start with '@') and the
// sockets' class (SharedFrameWebSocket) puts the encoded payload in its place when the message is
// sent. The bytes a client receives are the same as before: `{"id":…,"type":"next","payload":` then
// the result's JSON (without `errors`, as graphql-ws writes it) then `}`, in one text frame.

const MARKER_KEY = '@sharedPayload';
const PAYLOAD_AT = ',"type":"next","payload":';
const MARKER_AT = `${PAYLOAD_AT}{"${MARKER_KEY}":`;
const CLOSE = Buffer.from('}');

/** A shared result's payload, encoded once; held as long as its result is (by `payloads`). */
interface Encoded {
  readonly bytes: Buffer;
}

type Marker = { readonly [MARKER_KEY]: number };

/** Per shared result, its placeholder and encoded payload. */
const payloads = new WeakMap<object, { readonly marker: Marker; readonly encoded: Encoded }>();
/** The encoded payloads by placeholder number, as long as their result lives. */
const byNumber = new Map<number, WeakRef<Encoded>>();
let counter = 0;
/** `byNumber` entries past which the dead ones are swept out on the next add. */
let sweepAt = 1024;

/**
 * The payload to hand graphql-ws for `result`, a result shared by many subscribers: a placeholder
 * that SharedFrameWebSocket replaces with the result's JSON, encoded once. undefined when the result
 * carries errors (those are formatted per subscriber, as before).
 */
export function sharedPayload(result: ExecutionResult): Marker | undefined {
  if (result.errors) return undefined;
  const known = payloads.get(result);
  if (known) return known.marker;
  const { errors: _errors, ...payload } = result;
  const encoded: Encoded = { bytes: Buffer.from(JSON.stringify(payload)) };
  const marker: Marker = { [MARKER_KEY]: ++counter };
  payloads.set(result, { marker, encoded });
  byNumber.set(counter, new WeakRef(encoded));
  if (byNumber.size > sweepAt) {
    for (const [n, ref] of byNumber) if (ref.deref() === undefined) byNumber.delete(n);
    sweepAt = Math.max(1024, byNumber.size * 2);
  }
  return marker;
}

/**
 * `message` with a placeholder payload (see above) replaced by its encoded payload, as the bytes of
 * the message; undefined for any other message.
 */
export function resolveSharedFrame(message: string): Buffer | undefined {
  if (!message.endsWith('}}')) return undefined;
  const at = message.lastIndexOf(MARKER_AT);
  if (at < 0) return undefined;
  const digits = message.slice(at + MARKER_AT.length, -2);
  if (!/^\d+$/.test(digits)) return undefined;
  const encoded = byNumber.get(Number(digits))?.deref();
  if (!encoded) return undefined;
  const head = Buffer.from(message.slice(0, at + PAYLOAD_AT.length));
  return Buffer.concat([head, encoded.bytes, CLOSE], head.length + encoded.bytes.length + 1);
}

type SendCallback = (error?: Error) => void;
type SendOptions = { mask?: boolean; binary?: boolean; compress?: boolean; fin?: boolean };

/** ws' WebSocket, sending a message with a shared payload placeholder as its full text (see above). */
export class SharedFrameWebSocket extends WebSocket {
  override send(data: unknown, options?: SendOptions | SendCallback, cb?: SendCallback): void {
    const frame = typeof data === 'string' ? resolveSharedFrame(data) : undefined;
    if (!frame) {
      super.send(data as string, (options ?? {}) as SendOptions, cb);
      return;
    }
    const callback = typeof options === 'function' ? options : cb;
    const sendOptions = typeof options === 'object' ? options : {};
    super.send(frame, { ...sendOptions, binary: false }, callback);
  }
}
