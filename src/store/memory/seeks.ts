import {
  OPEN_APP,
  rangesAgree,
  type LobbyChange,
  type LobbyCursor,
  type LobbyPage,
  type SeekStore,
  type StoredSeek,
} from '../store';
import type { SeekRemovalReason } from '../../vocabulary';

/** Seeks in this process, matched first come, first served within a pool. */
export class MemorySeekStore implements SeekStore {
  private readonly seeks = new Map<string, StoredSeek>();
  private readonly listeners = new Map<string, Set<(change: LobbyChange) => void>>();

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
      if (avoid.includes(waiting.account) || !rangesAgree(waiting, seek)) continue;
      this.seeks.delete(waiting.id);
      this.announce(waiting, { type: 'removed', id: waiting.id, reason: 'matched' });
      return waiting;
    }
    this.seeks.set(seek.id, seek);
    this.announce(seek, { type: 'added', seek });
    return undefined;
  }

  async getSeek(id: string): Promise<StoredSeek | undefined> {
    return this.seeks.get(id);
  }

  async removeSeek(id: string, reason: SeekRemovalReason = 'canceled'): Promise<boolean> {
    const seek = this.seeks.get(id);
    if (!seek) return false;
    this.seeks.delete(id);
    this.announce(seek, { type: 'removed', id, reason });
    return true;
  }

  async listSeeks(
    lobby: string,
    options: {
      readonly now: string;
      readonly limit: number;
      readonly after?: LobbyCursor;
      readonly where?: (seek: StoredSeek) => boolean;
    },
  ): Promise<LobbyPage> {
    const now = Date.parse(options.now);
    const after = options.after;
    const listed = [...this.seeks.values()]
      .filter((seek) => (seek.lobby ?? OPEN_APP) === lobby && Date.parse(seek.expiresAt) > now)
      .sort(byAge)
      .filter((seek) => !after || byAge(seek, after) > 0)
      .filter((seek) => !options.where || options.where(seek));
    const items = listed.slice(0, options.limit);
    const last = items[items.length - 1];
    return listed.length > options.limit && last
      ? { items, next: { createdAt: last.createdAt, id: last.id } }
      : { items };
  }

  async watchLobby(lobby: string, listener: (change: LobbyChange) => void): Promise<() => Promise<void>> {
    const set = this.listeners.get(lobby) ?? new Set();
    this.listeners.set(lobby, set);
    // Each subscription its own entry, even for one listener subscribed twice.
    const own = (change: LobbyChange) => listener(change);
    set.add(own);
    return async () => {
      set.delete(own);
      if (set.size === 0 && this.listeners.get(lobby) === set) this.listeners.delete(lobby);
    };
  }

  private announce(seek: StoredSeek, change: LobbyChange): void {
    // Each listener its own copy, as over a bus (a listener cannot change another's).
    for (const listener of [...(this.listeners.get(seek.lobby ?? OPEN_APP) ?? [])]) {
      listener(structuredClone(change));
    }
  }
}

/** Oldest first: by createdAt, then id. */
export function byAge(a: LobbyCursor, b: LobbyCursor): number {
  const t = Date.parse(a.createdAt) - Date.parse(b.createdAt);
  return t !== 0 ? t : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
