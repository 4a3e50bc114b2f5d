import type { AccountStore, AppStore, GameEventBus } from '../../store/store';
import { hashToken, type Credential } from './auth';

// Streams that were opened with an API token end when the token is revoked, on whichever node:
// every node hears each revocation on the event bus and ends the streams it holds for that token.
// They also end when the token reaches its expiresAt (a timer per token on each node). Streams an
// app key opened (acting for one of its accounts) are held under the key's hash, and a session
// token's are linked to the hash of the key that minted the session: revoking the key (its hash is
// published) ends both. These are the hashes of revocationHashesOf(caller) (auth.ts). A key's
// streams acting for an account are also held under that account's marker (actingMarker): a ban
// announces it, and they end while the key's other streams go on.

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
const APP_KEY_PREFIX = 'bha_';
const NOTHING_TO_WATCH: TokenWatch = { onEnd: () => undefined, release: () => undefined };
/** setTimeout's longest wait (about 24.8 days); a later expiry re-arms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Entry {
  end?: (reason: TokenEnd) => void;
  ended?: TokenEnd;
}

/**
 * What the revocation bus carries when an account is banned or erased: the streams app keys opened
 * acting for it end (its own tokens and sessions are revoked one by one).
 */
export function actingMarker(account: string): string {
  return `account:${account}`;
}

/** A watched token's expiry: looked up once, then a timer (none for a token that never expires). */
interface Expiry {
  timer?: NodeJS.Timeout;
}

/** The open streams of this node by the hash of their API token. */
export class TokenStreams {
  private readonly watches = new Map<string, Set<Entry>>();
  private readonly expiries = new Map<string, Expiry>();
  /** Session tokens' hashes by the hash of the app key that minted their session. */
  private readonly byKey = new Map<string, Set<string>>();
  /** The key hash each watched session token is linked to. */
  private readonly keyOf = new Map<string, string>();
  /** Hashes watched that are app keys' (the recheck asks the app store about them). */
  private readonly keys = new Set<string>();
  /** Streams of app keys acting for an account, by the account's marker: each entry with its key hash. */
  private readonly acting = new Map<string, Map<Entry, string>>();
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly bus: GameEventBus,
    private readonly accounts: AccountStore,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly now: () => Date = () => new Date(),
    private readonly apps?: AppStore,
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
   * Registers a stream under the credential's API token or app key (seat tokens and no token:
   * nothing to watch). Call before the stream authenticates, so that no revocation can fall between
   * the two.
   */
  watch(credential: Credential): TokenWatch {
    const token = credential.token;
    const isKey = token?.startsWith(APP_KEY_PREFIX) === true;
    if (!token || (!isKey && !token.startsWith(PERSONAL_PREFIX))) return NOTHING_TO_WATCH;
    const hash = credential.tokenHash ?? hashToken(token);
    const entry: Entry = {};
    let set = this.watches.get(hash);
    if (!set) {
      this.watches.set(hash, (set = new Set()));
      if (isKey) this.keys.add(hash);
      else this.watchExpiry(hash);
    }
    set.add(entry);
    const marker = isKey && credential.account !== undefined ? actingMarker(credential.account) : undefined;
    if (marker !== undefined) {
      let entries = this.acting.get(marker);
      if (!entries) this.acting.set(marker, (entries = new Map()));
      entries.set(entry, hash);
    }
    const release = () => {
      if (marker !== undefined) this.unact(marker, entry);
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

  /**
   * A token's or a key's hash was revoked: a key's ends the streams of its sessions' tokens too; an
   * account's marker ends the streams keys opened acting for it.
   */
  private revoked(hash: string): void {
    for (const token of [...(this.byKey.get(hash) ?? [])]) this.ended(token, 'revoked');
    for (const [entry, key] of [...(this.acting.get(hash) ?? [])]) {
      this.unact(hash, entry);
      const set = this.watches.get(key);
      if (set?.delete(entry) && set.size === 0) this.forget(key);
      this.end(entry, 'revoked');
    }
    this.ended(hash, 'revoked');
  }

  private unact(marker: string, entry: Entry): void {
    const entries = this.acting.get(marker);
    if (entries?.delete(entry) && entries.size === 0) this.acting.delete(marker);
  }

  /** Ends every stream of the token on this node. */
  private ended(hash: string, reason: TokenEnd): void {
    const set = this.watches.get(hash);
    if (!set) return;
    this.forget(hash);
    for (const entry of set) this.end(entry, reason);
  }

  private end(entry: Entry, reason: TokenEnd): void {
    entry.ended = reason;
    const end = entry.end;
    entry.end = undefined;
    try {
      end?.(reason);
    } catch (error) {
      this.onError(error);
    }
  }

  private forget(hash: string): void {
    this.watches.delete(hash);
    this.keys.delete(hash);
    clearTimeout(this.expiries.get(hash)?.timer);
    this.expiries.delete(hash);
    const key = this.keyOf.get(hash);
    if (key === undefined) return;
    this.keyOf.delete(hash);
    const tokens = this.byKey.get(key);
    tokens?.delete(hash);
    if (tokens?.size === 0) this.byKey.delete(key);
  }

  /**
   * Looks the token up (once per token while it has streams here): arms its expiry timer, and links
   * a session token to its app key.
   */
  private watchExpiry(hash: string): void {
    const expiry: Expiry = {};
    this.expiries.set(hash, expiry);
    this.accounts.tokenByHash(hash).then((stored) => {
      if (this.expiries.get(hash) !== expiry || !stored) return;
      if (stored.session) void this.linkKey(hash, expiry, stored.session).catch(this.onError);
      if (!stored.expiresAt) return;
      const at = Date.parse(stored.expiresAt);
      if (Number.isFinite(at)) this.armExpiry(hash, expiry, at);
    }, this.onError);
  }

  /**
   * Links a session token's streams to its key's hash, then reads the key again: a revocation
   * published before the link was made is seen by that read (it was written before it was published).
   */
  private async linkKey(
    hash: string,
    expiry: Expiry,
    session: { readonly app: string; readonly key: string },
  ): Promise<void> {
    if (!this.apps) return;
    const key = await this.apps.getKey(session.app, session.key);
    if (this.expiries.get(hash) !== expiry) return;
    if (!key || key.revokedAt !== null) return this.ended(hash, 'revoked');
    this.keyOf.set(hash, key.hash);
    let tokens = this.byKey.get(key.hash);
    if (!tokens) this.byKey.set(key.hash, (tokens = new Set()));
    tokens.add(hash);
    const again = await this.apps.getKey(session.app, session.key);
    if (this.expiries.get(hash) === expiry && (!again || again.revokedAt !== null))
      this.ended(hash, 'revoked');
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
      if (this.keys.has(hash)) {
        const key = await this.apps?.keyByHash(hash);
        if (this.apps && (!key || key.revokedAt !== null)) this.revoked(hash);
        continue;
      }
      const token = await this.accounts.tokenByHash(hash);
      if (!token || token.revokedAt !== null) this.revoked(hash);
    }
    for (const key of [...this.byKey.keys()]) {
      const stored = await this.apps?.keyByHash(key);
      if (!stored || stored.revokedAt !== null) this.revoked(key);
    }
    for (const marker of [...this.acting.keys()]) {
      const account = await this.accounts.getAccount(marker.slice(actingMarker('').length));
      if (!account || account.status === 'banned') this.revoked(marker);
    }
  }
}
