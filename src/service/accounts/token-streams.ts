import type { AccountStore, GameEventBus } from '../../store/store';
import { hashToken, type Credential } from './auth';

// Streams that were opened with an API token end when the token is revoked, on whichever node:
// every node hears each revocation on the event bus and ends the streams it holds for that token.
// They also end when the token reaches its expiresAt (a timer per token on each node).

/** Why a token's streams end. */
export type TokenEnd = 'revoked' | 'expired';

/** One open stream's registration under the API token it was opened with. */
export interface TokenWatch {
  /**
   * `end` runs once when the token is revoked or expires (at once if it already was, since the
   * watch began). A later call replaces an earlier `end` that has not run.
   */
  onEnd(end: (reason: TokenEnd) => void): void;
  /** Forgets the stream (it ended by itself). */
  release(): void;
}

const PERSONAL_PREFIX = 'bhp_';
const NOTHING_TO_WATCH: TokenWatch = { onEnd: () => undefined, release: () => undefined };
/** setTimeout's longest wait (about 24.8 days); a later expiry re-arms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Entry {
  end?: (reason: TokenEnd) => void;
  ended?: TokenEnd;
}

/** A watched token's expiry: looked up once, then a timer (none for a token that never expires). */
interface Expiry {
  timer?: NodeJS.Timeout;
}

/** The open streams of this node by the hash of their API token. */
export class TokenStreams {
  private readonly watches = new Map<string, Set<Entry>>();
  private readonly expiries = new Map<string, Expiry>();
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly bus: GameEventBus,
    private readonly accounts: AccountStore,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Listens for revocations; before the first stream. */
  async start(): Promise<void> {
    this.unsubscribe ??= await this.bus.subscribeRevocations(
      (hash) => this.revoked(hash),
      () => void this.recheck().catch(this.onError),
    );
  }

  async stop(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    await unsubscribe?.();
  }

  /**
   * Registers a stream under the credential's API token (seat tokens and no token: nothing to
   * watch). Call before the stream authenticates, so that no revocation can fall between the two.
   */
  watch(credential: Credential): TokenWatch {
    const token = credential.token;
    if (!token?.startsWith(PERSONAL_PREFIX)) return NOTHING_TO_WATCH;
    const hash = hashToken(token);
    const entry: Entry = {};
    let set = this.watches.get(hash);
    if (!set) {
      this.watches.set(hash, (set = new Set()));
      this.watchExpiry(hash);
    }
    set.add(entry);
    const release = () => {
      const current = this.watches.get(hash);
      if (!current?.delete(entry) || current.size > 0) return;
      this.forget(hash);
    };
    return {
      onEnd: (end) => {
        if (entry.ended) return end(entry.ended);
        entry.end = end;
      },
      release,
    };
  }

  /** How many streams this node holds under API tokens (for tests). */
  get size(): number {
    let n = 0;
    for (const set of this.watches.values()) n += set.size;
    return n;
  }

  private revoked(hash: string): void {
    this.ended(hash, 'revoked');
  }

  /** Ends every stream of the token on this node. */
  private ended(hash: string, reason: TokenEnd): void {
    const set = this.watches.get(hash);
    if (!set) return;
    this.forget(hash);
    for (const entry of set) {
      entry.ended = reason;
      const end = entry.end;
      entry.end = undefined;
      try {
        end?.(reason);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  private forget(hash: string): void {
    this.watches.delete(hash);
    clearTimeout(this.expiries.get(hash)?.timer);
    this.expiries.delete(hash);
  }

  /** Looks the token's expiresAt up (once per token while it has streams here) and arms its timer. */
  private watchExpiry(hash: string): void {
    const expiry: Expiry = {};
    this.expiries.set(hash, expiry);
    this.accounts.tokenByHash(hash).then((stored) => {
      if (this.expiries.get(hash) !== expiry || !stored?.expiresAt) return;
      const at = Date.parse(stored.expiresAt);
      if (Number.isFinite(at)) this.armExpiry(hash, expiry, at);
    }, this.onError);
  }

  private armExpiry(hash: string, expiry: Expiry, at: number): void {
    if (this.expiries.get(hash) !== expiry) return;
    const wait = at - this.now().getTime();
    if (wait <= 0) return this.ended(hash, 'expired');
    expiry.timer = setTimeout(() => this.armExpiry(hash, expiry, at), Math.min(wait, MAX_TIMER_MS));
    expiry.timer.unref();
  }

  /** After the bus was cut off (revocations may have been missed): asks the store about each token. */
  private async recheck(): Promise<void> {
    for (const hash of [...this.watches.keys()]) {
      const token = await this.accounts.tokenByHash(hash);
      if (!token || token.revokedAt !== null) this.revoked(hash);
    }
  }
}
