import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { IDEMPOTENCY_TTL_SECONDS, type IdempotencyStore } from '../store/store';
import type { AccountCaller } from './accounts/auth';
import { GameError } from './errors';
import { sealKeyOf } from './server-key';

// Idempotency-Key on creates (games, challenges, seeks, tokens, accounts), on both transports.
// The first request with a key claims it in the store, runs, and stores its answer for 24 h; a
// retry gets that answer again (nothing is created twice), a request with the same key but another
// body gets IDEMPOTENCY_KEY_REUSED. Keys are scoped: per account for account actions, per client
// address for anonymous ones, so two callers' keys never meet. Creates whose answer holds a secret
// (API tokens, webhook secrets) are scoped to the calling token (tokenScope), and authorize before
// once(): another token of the account, narrower or shorter-lived, never gets that answer (its
// same key is a key of its own).
//
// Answers of creates hold secrets shown once (seat tokens, API tokens). The record is stored under
// sha256(scope, key) and sealed with AES-256-GCM under a key derived from (scope, key) and the server
// key (server-key.ts), so the store holds no usable secret for anyone who does not know both.

/** Idempotency keys: what clients commonly send (UUIDs, ULIDs, short random strings). */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,128}$/;
/** A claim whose request died is freed after this long. */
const PENDING_MS = 30_000;
/** How long a retry waits for a concurrent first request's answer before IDEMPOTENCY_KEY_IN_USE. */
const WAIT_MS = 5_000;
const POLL_MS = 25;

/** The scope of a create whose answer holds a secret: the calling token, not its whole account. */
export function tokenScope(caller: AccountCaller): string {
  return `account:${caller.account.id}:token:${caller.token.id}`;
}

export interface IdempotentCreate {
  /** Whose keys these are: `account:<id>`, `account:<id>:token:<token id>` or `ip:<address>`. */
  readonly scope: string;
  readonly key: string | undefined;
  /** The create, e.g. `createGame` (part of the fingerprint: one key, one kind of create). */
  readonly operation: string;
  /** The request's input, as compared between a first request and its retry. */
  readonly input: unknown;
}

/** Runs `create` once per (scope, key): a retry answers the first answer (JSON round-tripped). */
export async function once<T>(
  store: IdempotencyStore,
  call: IdempotentCreate,
  create: () => Promise<T>,
): Promise<T> {
  if (call.key === undefined) return create();
  if (!IDEMPOTENCY_KEY.test(call.key)) {
    throw new GameError('INVALID_INPUT', 'Idempotency-Key must be 1–128 letters, digits, or . _ : -', {
      field: 'Idempotency-Key',
    });
  }
  const recordKey = sha256(`record\u0000${call.scope}\u0000${call.key}`).toString('hex');
  const sealKey = sealKeyOf(call.scope, call.key);
  const fingerprint = sha256(`${call.operation}\u0000${canonicalJson(call.input)}`).toString('hex');
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const seen = await store.claim(recordKey, fingerprint, PENDING_MS);
    if (seen.status === 'claimed') {
      let answer: T;
      try {
        answer = await create();
      } catch (error) {
        await store.release(recordKey).catch(() => undefined);
        throw error;
      }
      await store.complete(
        recordKey,
        fingerprint,
        seal(sealKey, JSON.stringify(answer)),
        IDEMPOTENCY_TTL_SECONDS,
      );
      return answer;
    }
    if (seen.fingerprint !== fingerprint) {
      throw new GameError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request');
    }
    if (seen.status === 'done') return JSON.parse(unseal(sealKey, seen.response)) as T;
    if (Date.now() >= deadline) {
      throw new GameError(
        'IDEMPOTENCY_KEY_IN_USE',
        'A request with this Idempotency-Key is still running; retry shortly',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function seal(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function unseal(key: Buffer, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** JSON with sorted keys, so equal inputs have equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
