import type { AccountStore, GameEventBus } from '../store/store';
import { hashToken, type Credential } from './auth';

// Streams that were opened with an API token end when the token is revoked, on whichever node:
// every node hears each revocation on the event bus and ends the streams it holds for that token.

/** One open stream's registration under the API token it was opened with. */
export interface TokenWatch {
  /**
   * `end` runs once when the token is revoked (at once if it already was, since the watch began).
   * A later call replaces an earlier `end` that has not run.
   */
  onRevoked(end: () => void): void;
  /** Forgets the stream (it ended by itself). */
  release(): void;
}

const PERSONAL_PREFIX = 'bhp_';
const NOTHING_TO_WATCH: TokenWatch = { onRevoked: () => undefined, release: () => undefined };

/** The open streams of this node by the hash of their API token. */
export class TokenStreams {
  private readonly watches = new Map<string, Set<{ end?: () => void; revoked: boolean }>>();
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly bus: GameEventBus,
    private readonly accounts: AccountStore,
    private readonly onError: (error: unknown) => void = () => undefined,
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
    const entry: { end?: () => void; revoked: boolean } = { revoked: false };
    let set = this.watches.get(hash);
    if (!set) this.watches.set(hash, (set = new Set()));
    set.add(entry);
    const release = () => {
      const current = this.watches.get(hash);
      if (!current?.delete(entry) || current.size > 0) return;
      this.watches.delete(hash);
    };
    return {
      onRevoked: (end) => {
        if (entry.revoked) return end();
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
    const set = this.watches.get(hash);
    if (!set) return;
    this.watches.delete(hash);
    for (const entry of set) {
      entry.revoked = true;
      const end = entry.end;
      entry.end = undefined;
      try {
        end?.();
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** After the bus was cut off (revocations may have been missed): asks the store about each token. */
  private async recheck(): Promise<void> {
    for (const hash of [...this.watches.keys()]) {
      const token = await this.accounts.tokenByHash(hash);
      if (!token || token.revokedAt !== null) this.revoked(hash);
    }
  }
}
