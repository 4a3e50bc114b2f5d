import type {
  StoredTournament,
  TournamentPage,
  TournamentStatus,
  TournamentStore,
  TournamentUpdate,
} from '../ports/tournaments';
import type { Notice } from '../store';
import type { MemoryEventFeed } from './feed';

/** Tournaments in this process: documents (JSON, as Redis keeps them) numbered as created. */
export class MemoryTournamentStore implements TournamentStore {
  private readonly docs = new Map<string, { seq: number; doc: string; status: TournamentStatus }>();
  private readonly members = new Map<string, Set<string>>();
  private seq = 0;

  constructor(private readonly feed: MemoryEventFeed) {}

  async create(tournament: StoredTournament): Promise<void> {
    if (this.docs.has(tournament.id)) throw new Error(`tournament ${tournament.id} exists`);
    this.docs.set(tournament.id, {
      seq: ++this.seq,
      doc: JSON.stringify(tournament),
      status: tournament.status,
    });
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
    this.feed.appendNow(notices);
    return { status: 'updated' };
  }

  async list(status: TournamentStatus | undefined, limit: number, before?: number): Promise<TournamentPage> {
    return this.page(
      [...this.docs.keys()],
      (e) => status === undefined || e.status === status,
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

  async active(limit: number): Promise<string[]> {
    const ids: string[] = [];
    for (const [id, entry] of this.docs) {
      if (ids.length >= limit) break;
      if (entry.status === 'open' || entry.status === 'ongoing') ids.push(id);
    }
    return ids;
  }

  private page(
    ids: string[],
    keep: (entry: { status: TournamentStatus }) => boolean,
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
