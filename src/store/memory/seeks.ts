import type { SeekStore, StoredSeek } from '../store';

/** Seeks in this process, matched first come, first served within a pool. */
export class MemorySeekStore implements SeekStore {
  private readonly seeks = new Map<string, StoredSeek>();

  async matchOrAdd(
    seek: StoredSeek,
    now: string,
    avoid: readonly string[] = [],
  ): Promise<StoredSeek | undefined> {
    for (const waiting of this.seeks.values()) {
      if (Date.parse(waiting.expiresAt) <= Date.parse(now)) {
        this.seeks.delete(waiting.id);
        continue;
      }
      if (waiting.pool !== seek.pool || waiting.account === seek.account) continue;
      if (avoid.includes(waiting.account)) continue;
      this.seeks.delete(waiting.id);
      return waiting;
    }
    this.seeks.set(seek.id, seek);
    return undefined;
  }

  async getSeek(id: string): Promise<StoredSeek | undefined> {
    return this.seeks.get(id);
  }

  async removeSeek(id: string): Promise<boolean> {
    return this.seeks.delete(id);
  }
}
