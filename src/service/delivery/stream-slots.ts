import type { AccountStore } from '../../store/store';
import { hashToken } from '../accounts/auth';
import { GameError } from '../errors';
import { addressBucket } from '../accounts/quotas';

// Open streams per client, on this node: every SSE/NDJSON response of the REST API and every
// graphql-ws subscription takes one slot of its client address (an IPv6 address counts in its /64)
// and, when it carries a token, one of its account (an API token) or of the token itself (a seat
// token). One set of counters for both transports: a client cannot double its share by mixing them.

export interface StreamLimits {
  /** Open streams per client address (IPv4, or IPv6 /64); more answer 429 TOO_MANY_STREAMS. */
  readonly perIp: number;
  /** Open streams per account (API tokens) or seat token; more answer 429 TOO_MANY_STREAMS. */
  readonly perToken: number;
  /** A stream whose unsent output passes this many bytes (a reader that stopped reading) is ended. */
  readonly maxBufferBytes: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  perIp: 100,
  perToken: 50,
  maxBufferBytes: 1024 * 1024,
};

/** Seconds a refused client is told to wait (Retry-After): streams end when their readers leave. */
export const STREAM_RETRY_AFTER_SECONDS = 5;

/** One open stream's place; `release` is idempotent. */
export interface StreamSlot {
  release(): void;
}

const PERSONAL_PREFIX = 'bhp_';

export class StreamSlots {
  private readonly perAddress = new Map<string, number>();
  private readonly perToken = new Map<string, number>();

  constructor(
    readonly limits: StreamLimits,
    private readonly accounts: AccountStore,
  ) {}

  /**
   * Takes a slot for a stream of `ip` (no address: a direct call, not counted) opened with `token`;
   * TOO_MANY_STREAMS (nothing taken) when the address or the account/token holds its maximum.
   */
  async take(ip: string | undefined, token: string | undefined): Promise<StreamSlot> {
    const address = ip === undefined ? undefined : addressBucket(ip);
    const owner = token ? await this.ownerOf(token) : undefined;
    // Checked and counted with no await in between: concurrent opens cannot both take the last slot.
    if (address !== undefined && (this.perAddress.get(address) ?? 0) >= this.limits.perIp) {
      throw tooManyStreams('address', this.limits.perIp);
    }
    if (owner !== undefined && (this.perToken.get(owner) ?? 0) >= this.limits.perToken) {
      throw tooManyStreams('token', this.limits.perToken);
    }
    if (address !== undefined) add(this.perAddress, address, 1);
    if (owner !== undefined) add(this.perToken, owner, 1);
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        if (address !== undefined) add(this.perAddress, address, -1);
        if (owner !== undefined) add(this.perToken, owner, -1);
      },
    };
  }

  /** Open streams of a client address (its bucket), for tests and metrics. */
  openFrom(ip: string): number {
    return this.perAddress.get(addressBucket(ip)) ?? 0;
  }

  /** The key a token's streams count under: its account (API tokens), else the token. */
  private async ownerOf(token: string): Promise<string> {
    const hash = hashToken(token);
    if (token.startsWith(PERSONAL_PREFIX)) {
      // An unknown token counts as itself: the stream's own authentication refuses it anyway.
      const stored = await this.accounts.tokenByHash(hash);
      if (stored) return `account:${stored.account}`;
    }
    return `token:${hash}`;
  }
}

function add(counts: Map<string, number>, key: string, delta: number): void {
  const n = (counts.get(key) ?? 0) + delta;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

function tooManyStreams(scope: 'address' | 'token', limit: number): GameError {
  const whose = scope === 'address' ? 'this address' : 'this account or token';
  return new GameError(
    'TOO_MANY_STREAMS',
    `Too many open streams for ${whose} (at most ${limit}); close one, or retry in ${STREAM_RETRY_AFTER_SECONDS} s`,
    { scope, limit, retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS },
  );
}
