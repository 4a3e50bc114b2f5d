import { createHmac, timingSafeEqual } from 'node:crypto';

// How webhook deliveries are signed, and the verifier receivers can copy (docs/correspondence.md shows this
// code; the tests verify every delivery with it).
//
//   Boardhost-Timestamp: <unix seconds when the attempt was made>
//   Boardhost-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
//
// The header may carry several comma-separated signatures (v1=…,v1=…); one match is enough.

export const WEBHOOK_HEADERS = {
  delivery: 'Boardhost-Delivery',
  event: 'Boardhost-Event',
  timestamp: 'Boardhost-Timestamp',
  signature: 'Boardhost-Signature',
} as const;

/** Signatures older (or further in the future) than this are refused by the verifier. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The Boardhost-Signature header value for a body sent at `timestamp` (unix seconds). */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface SignedRequest {
  /** The endpoint's secret. */
  readonly secret: string;
  /** The raw request body, exactly as received (not re-serialized JSON). */
  readonly body: string | Buffer;
  /** The Boardhost-Timestamp header. */
  readonly timestamp: string | undefined;
  /** The Boardhost-Signature header. */
  readonly signature: string | undefined;
  /** Now, in epoch milliseconds (default: Date.now()). */
  readonly now?: number;
  readonly toleranceSeconds?: number;
}

/**
 * True when the request was signed with `secret` within the tolerance: the HMAC is recomputed over
 * "<timestamp>.<raw body>" and compared in constant time.
 */
export function verifyWebhookSignature(request: SignedRequest): boolean {
  const { secret, body, timestamp, signature } = request;
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  const now = (request.now ?? Date.now()) / 1000;
  if (Math.abs(now - Number(timestamp)) > (request.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) {
    return false;
  }
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  return signature.split(',').some((part) => {
    const hex = /^\s*v1=([0-9a-f]{64})\s*$/.exec(part)?.[1];
    return hex !== undefined && timingSafeEqual(Buffer.from(hex, 'hex'), expected);
  });
}
