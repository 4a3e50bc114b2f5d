import type { IdempotencyClaim, IdempotencyStore } from '../store';

interface Entry {
  readonly state: 'pending' | 'done';
  readonly fingerprint: string;
  readonly response: string;
  readonly expires: number;
}

/** Idempotency records of creates in this process. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  async claim(key: string, fingerprint: string, pendingMs: number): Promise<IdempotencyClaim> {
    const seen = this.live(key);
    if (seen?.state === 'done')
      return { status: 'done', fingerprint: seen.fingerprint, response: seen.response };
    if (seen) return { status: 'pending', fingerprint: seen.fingerprint };
    this.records.set(key, { state: 'pending', fingerprint, response: '', expires: this.now() + pendingMs });
    return { status: 'claimed' };
  }

  async complete(key: string, fingerprint: string, response: string, ttlSeconds: number): Promise<void> {
    this.records.set(key, { state: 'done', fingerprint, response, expires: this.now() + ttlSeconds * 1000 });
  }

  async release(key: string, fingerprint?: string): Promise<void> {
    const seen = this.live(key);
    if (seen?.state !== 'pending') return;
    if (fingerprint === undefined || seen.fingerprint === fingerprint) this.records.delete(key);
  }

  private live(key: string): Entry | undefined {
    const entry = this.records.get(key);
    if (entry && entry.expires <= this.now()) {
      this.records.delete(key);
      return undefined;
    }
    return entry;
  }
}
