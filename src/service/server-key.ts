import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

// The server key (SECRET_KEY): secrets the server must keep usable, webhook and push-bot signing
// secrets, are stored encrypted with it (AES-256-GCM), and idempotency records are sealed under keys
// derived from it and the Idempotency-Key, so that a copy of the store alone (a backup, a replica,
// a leaked dump) gives neither. Production requires SECRET_KEY (config.ts); elsewhere an unset key
// is a fixed development key, logged as a warning at start, so that restarts still read what was
// stored. Changing the key makes stored secrets unreadable (their endpoints must be registered
// again) and idempotency records of the last 24 h unusable.
//
// A stored secret is `enc:v1:` and base64url(iv ‖ tag ‖ ciphertext); anything without the prefix is
// a secret stored in plaintext before this (read as it is: no migration).

/** Marks an encrypted secret in the store. */
export const ENCRYPTED_PREFIX = 'enc:v1:';

/** The key used when SECRET_KEY is unset (development and tests only). */
const DEVELOPMENT_KEY = 'boardhost development key: set SECRET_KEY in production';

interface Keys {
  readonly secrets: Buffer;
  readonly seals: Buffer;
  readonly derived: Buffer;
}

function derive(secret: string): Keys {
  const sub = (info: string) => Buffer.from(hkdfSync('sha256', secret, 'boardhost', info, 32));
  return {
    secrets: sub('secrets at rest'),
    seals: sub('idempotency seals'),
    derived: sub('derived values'),
  };
}

let keys: Keys = derive(DEVELOPMENT_KEY);
let configured = false;

/** Sets the server key (from SECRET_KEY); undefined: the development key. One per process. */
export function setServerKey(secret: string | undefined): void {
  keys = derive(secret ?? DEVELOPMENT_KEY);
  configured = secret !== undefined;
}

/** Whether a real key was set (false: the development key). */
export function serverKeyConfigured(): boolean {
  return configured;
}

/** The key sealing the idempotency record of (scope, Idempotency-Key). */
export function sealKeyOf(scope: string, key: string): Buffer {
  return createHmac('sha256', keys.seals).update(`seal\u0000${scope}\u0000${key}`).digest();
}

/**
 * A value only the server can compute from `input` (HMAC under a key derived from the server key),
 * for `purpose`: e.g. a rematch's game id and its seat tokens (service/game/rematch.ts).
 */
export function derivedValue(purpose: string, input: string): Buffer {
  return createHmac('sha256', keys.derived).update(`${purpose}\u0000${input}`).digest();
}

/** A secret as stored: encrypted under the server key. */
export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.secrets, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ENCRYPTED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** A stored secret in clear: decrypted, or as it is when stored before encryption. */
export function decryptSecret(stored: string): string {
  if (!stored.startsWith(ENCRYPTED_PREFIX)) return stored;
  const raw = Buffer.from(stored.slice(ENCRYPTED_PREFIX.length), 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keys.secrets, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('A stored secret does not decrypt with this server key (SECRET_KEY changed?)');
  }
}
