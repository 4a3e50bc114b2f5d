import {
  dueAt,
  type StoredTournament,
  TournamentPage,
  type TournamentStatus,
  type TournamentStore,
  type TournamentUpdate,
} from '../ports/tournaments';
import type { Notice } from '../store';
import type { MemoryEventFeed } from './feed';
import { OPEN_APP } from '../ports/apps';

/** Tournaments in this process: documents (JSON, as Redis keeps them) numbered as created. */
export class MemoryTournamentStore implements TournamentStore {
  private readonly docs = new Map<string, { seq: number; doc: string; status: TournamentStatus }>();
  private readonly members = new Map<string, Set<string>>();
  /** Open and ongoing tournaments by creator (the quota's count). */
  private readonly openByCreator = new Map<string, Set<string>>();
  private readonly index = new DueIndex();
  private seq = 0;

  constructor(private readonly feed: MemoryEventFeed) {}

  async create(tournament: StoredTournament): Promise<void> {
    if (this.docs.has(tournament.id)) throw new Error(`tournament ${tournament.id} exists`);
    this.docs.set(tournament.id, {
      seq: ++this.seq,
      doc: JSON.stringify(tournament),
      status: tournament.status,
    });
    this.track(tournament);
  }

  /** The due index and the creator's open set follow the document. */
  private track(t: StoredTournament): void {
    const at = dueAt(t);
    const mine = this.openByCreator.get(t.createdBy) ?? new Set<string>();
    if (at === null) {
      this.index.remove(t.id);
      mine.delete(t.id);
    } else {
      this.index.set(t.id, at);
      mine.add(t.id);
    }
    if (mine.size > 0) this.openByCreator.set(t.createdBy, mine);
    else this.openByCreator.delete(t.createdBy);
  }

  async get(id: string): Promise<StoredTournament | undefined> {
    const entry = this.docs.get(id);
    return entry ? (JSON.parse(entry.doc) as StoredTournament) : undefined;
  }

  async update(
    next: StoredTournament,
    expectedVersion: number,
    notices: readonly Notice[] = [],
  ): Promise<TournamentUpdate> {
    const entry = this.docs.get(next.id);
    if (!entry) return { status: 'missing' };
    const current = (JSON.parse(entry.doc) as StoredTournament).version;
    if (current !== expectedVersion) return { status: 'conflict', currentVersion: current };
    this.docs.set(next.id, { seq: entry.seq, doc: JSON.stringify(next), status: next.status });
    this.track(next);
    this.feed.appendNow(notices);
    return { status: 'updated' };
  }

  async list(
    status: TournamentStatus | undefined,
    limit: number,
    before?: number,
    pool: string = OPEN_APP,
  ): Promise<TournamentPage> {
    return this.page(
      [...this.docs.keys()],
      (e) =>
        (status === undefined || e.status === status) &&
        ((JSON.parse(e.doc) as StoredTournament).pool ?? OPEN_APP) === pool,
      limit,
      before,
    );
  }

  async listOf(account: string, limit: number, before?: number): Promise<TournamentPage> {
    return this.page([...(this.members.get(account) ?? [])], () => true, limit, before);
  }

  async addMember(account: string, id: string): Promise<void> {
    const set = this.members.get(account) ?? new Set<string>();
    set.add(id);
    this.members.set(account, set);
  }

  async due(now: number, limit: number, retryMs: number): Promise<string[]> {
    const ids = this.index.upTo(now, limit);
    for (const id of ids) this.index.set(id, now + retryMs);
    return ids;
  }

  async openBy(account: string): Promise<number> {
    return this.openByCreator.get(account)?.size ?? 0;
  }

  private page(
    ids: string[],
    keep: (entry: { status: TournamentStatus; doc: string }) => boolean,
    limit: number,
    before?: number,
  ): TournamentPage {
    const entries = ids
      .flatMap((id) => {
        const entry = this.docs.get(id);
        return entry && keep(entry) && (before === undefined || entry.seq < before) ? [entry] : [];
      })
      .sort((a, b) => b.seq - a.seq);
    const items = entries.slice(0, limit);
    const more = entries.length > limit;
    return {
      items: items.map((e) => JSON.parse(e.doc) as StoredTournament),
      next: more ? (items[items.length - 1]?.seq ?? null) : null,
    };
  }
}

/** Ids sorted by due time (then by when they were set): a due sweep reads only its head. */
class DueIndex {
  private readonly at = new Map<string, readonly [number, number]>();
  private readonly sorted: Array<readonly [number, number, string]> = [];
  private tick = 0;

  set(id: string, due: number): void {
    this.remove(id);
    const key = [due, ++this.tick] as const;
    this.at.set(id, key);
    this.sorted.splice(this.find(key), 0, [key[0], key[1], id]);
  }

  remove(id: string): void {
    const key = this.at.get(id);
    if (!key) return;
    this.at.delete(id);
    this.sorted.splice(this.find(key), 1);
  }

  upTo(now: number, limit: number): string[] {
    const ids: string[] = [];
    for (const [due, , id] of this.sorted) {
      if (due > now || ids.length >= limit) break;
      ids.push(id);
    }
    return ids;
  }

  /** The position of `key` (or where it goes), by binary search. */
  private find([due, tick]: readonly [number, number]): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const [d, t] = this.sorted[mid] as readonly [number, number, string];
      if (d < due || (d === due && t < tick)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
