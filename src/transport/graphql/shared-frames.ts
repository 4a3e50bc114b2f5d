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

/** A shared result's payload, encoded once (and as it is, for the slow path). */
interface Encoded {
  readonly bytes: Buffer;
  readonly payload: Omit<ExecutionResult, 'errors'>;
}

type Marker = { readonly [MARKER_KEY]: number };

/** Per shared result, its placeholder (and the number it names). */
const payloads = new WeakMap<object, Marker>();
/**
 * The encoded payloads by placeholder number, the newest RECENT of them, held strongly: graphql-ws
 * sends a `next` message right after onNext hands it the placeholder, so a payload is needed for a
 * moment only; a send that comes later than RECENT other shared results finds none and takes the
 * slow path (sendFrame below), never the placeholder.
 */
const byNumber = new Map<number, Encoded>();
const RECENT = 4096;
let counter = 0;

/**
 * The payload to hand graphql-ws for `result`, a result shared by many subscribers: a placeholder
 * that SharedFrameWebSocket replaces with the result's JSON, encoded once. undefined when the result
 * carries errors (those are formatted per subscriber, as before).
 */
export function sharedPayload(result: ExecutionResult): Marker | undefined {
  if (result.errors) return undefined;
  const known = payloads.get(result);
  if (known && byNumber.has(known[MARKER_KEY])) return known;
  const { errors: _errors, ...payload } = result;
  const marker: Marker = { [MARKER_KEY]: ++counter };
  payloads.set(result, marker);
  byNumber.set(counter, { bytes: Buffer.from(JSON.stringify(payload)), payload });
  if (byNumber.size > RECENT) byNumber.delete(byNumber.keys().next().value as number);
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
  const encoded = byNumber.get(Number(digits));
  if (!encoded) return undefined;
  const head = Buffer.from(message.slice(0, at + PAYLOAD_AT.length));
  return Buffer.concat([head, encoded.bytes, CLOSE], head.length + encoded.bytes.length + 1);
}

type SendCallback = (error?: Error) => void;
type SendOptions = { mask?: boolean; binary?: boolean; compress?: boolean; fin?: boolean };

/** ws' WebSocket, sending a message with a shared payload placeholder as its full text (see above). */
export class SharedFrameWebSocket extends WebSocket {
  override send(data: unknown, options?: SendOptions | SendCallback, cb?: SendCallback): void {
    const frame = typeof data === 'string' ? (resolveSharedFrame(data) ?? slowSharedFrame(data)) : undefined;
    if (!frame) {
      super.send(data as string, (options ?? {}) as SendOptions, cb);
      return;
    }
    const callback = typeof options === 'function' ? options : cb;
    const sendOptions = typeof options === 'object' ? options : {};
    super.send(frame, { ...sendOptions, binary: false }, callback);
  }
}

/**
 * The slow path of a message that holds a placeholder the fast one could not replace (a graphql-ws
 * whose message layout differs, or a payload no longer among the recent ones): the message parsed,
 * its placeholder replaced by the payload, written again. A placeholder is never sent: with its
 * payload gone the message is an internal error (GraphQL's shape: `errors` only).
 */
export function slowSharedFrame(message: string): string | undefined {
  if (!message.includes(`"${MARKER_KEY}":`)) return undefined;
  let parsed: { payload?: unknown };
  try {
    parsed = JSON.parse(message) as { payload?: unknown };
  } catch {
    return undefined;
  }
  const payload = parsed.payload as Partial<Marker> | undefined;
  const n = payload?.[MARKER_KEY];
  if (typeof n !== 'number' || Object.keys(payload ?? {}).length !== 1) return undefined;
  const encoded = byNumber.get(n);
  return JSON.stringify({
    ...parsed,
    payload: encoded
      ? encoded.payload
      : { errors: [{ message: 'Internal server error: the update was lost; resubscribe' }] },
  });
}
