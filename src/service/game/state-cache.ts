// The engine states of games this node last moved, so that a write need not replay a game's history.
// Bounded by an estimate of the memory the states keep alive (Engine.stateBytes), not by a count:
// one long Congo game can hold more than a thousand short Kalah games. Oldest entries go first.

/** One game's state as of a stored version. */
export interface CachedState {
  readonly version: number;
  readonly position: string;
  readonly state: unknown;
}

export class StateCache {
  private readonly entries = new Map<string, CachedState & { readonly bytes: number }>();
  private total = 0;

  /** `maxBytes`: the budget; 0 keeps nothing. */
  constructor(readonly maxBytes: number) {}

  /** The bytes the cached states are estimated to hold. */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string): CachedState | undefined {
    return this.entries.get(id);
  }

  /** Caches `entry` (replacing the game's older one), then evicts the oldest until within budget. */
  set(id: string, entry: CachedState, bytes: number): void {
    this.delete(id);
    if (bytes > this.maxBytes) return;
    this.entries.set(id, { ...entry, bytes });
    this.total += bytes;
    for (const [oldest, { bytes: size }] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= size;
    }
  }

  delete(id: string): void {
    const known = this.entries.get(id);
    if (!known) return;
    this.entries.delete(id);
    this.total -= known.bytes;
  }
}
