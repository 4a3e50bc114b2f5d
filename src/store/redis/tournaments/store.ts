import type Redis from 'ioredis';
import {
  dueAt,
  type StoredTournament,
  type TournamentPage,
  type TournamentStatus,
  type TournamentStore,
  type TournamentUpdate,
} from '../../ports/tournaments';
import type { FeedOptions, Notice } from '../../store';
import { NewestFirst, type RedisGameStore } from '../games/store';
import { ALL_SHARDS, shardOf, shardTag } from '../keys';
import { outboxFields, parseBefores, type AccountPart } from '../relay/relay';
import { createTournament, dueTournaments, updateTournament } from './scripts';

// Tournaments (docs/data-model.md): the document (hash: doc, version, status, seq) and the
// shard's listings by status live in the shard of the tournament id, so that a create or a
// compare-and-set is one script on one slot. Listings merge the shards newest first (like the
// public game listings). Keys that stand alone, each written by single commands: the counter that
// numbers tournaments, and the due index the director reads (a sorted set of the open and ongoing
// ids by the time the director must next look at each, ports/tournaments.ts dueAt: added before
// the create, moved after each update, removed once over: a crash in between leaves a stale
// entry, which the director's read corrects, never a missing one). The open and ongoing
// tournaments an account created (its quota) are a set in its shard, kept the same way. "My
// tournaments" is a sorted set in the account's shard. What a
// step tells the players (tournament.* notices) goes into the shard's outbox in the same script
// (origin t:<id>, relay version = tournament version + 1), for the relay: a node that dies right
// after its write loses none of them.

const LIST_BATCH = 50;

export class RedisTournamentStore implements TournamentStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** The game store: its relay delivers the notices' outbox entries. */
    private readonly games: RedisGameStore,
    private readonly feed: FeedOptions = {},
  ) {}

  private doc(id: string): string {
    return this.games.keys.tournament(id);
  }
  private listing(shard: number, status?: TournamentStatus, pool?: string): string {
    return this.games.keys.tournamentListing(shard, status, pool);
  }
  private memberOf(account: string): string {
    return this.games.keys.tournamentsOf(account);
  }
  /** Before the due index: the set of open and ongoing ids (moved into the index on the first read). */
  private get legacyActiveKey(): string {
    return this.games.keys.tournamentsActive();
  }
  private get dueKey(): string {
    return this.games.keys.tournamentsDue();
  }
  private openByKey(account: string): string {
    return this.games.keys.tournamentsOpenBy(account);
  }

  /** Moves the due index and the creator's open set to `t`'s state (after its write). */
  private async track(t: StoredTournament): Promise<void> {
    const at = dueAt(t);
    if (at === null) {
      await this.redis.zrem(this.dueKey, t.id);
      await this.redis.srem(this.openByKey(t.createdBy), t.id);
    } else {
      await this.redis.zadd(this.dueKey, at, t.id);
    }
  }

  async create(t: StoredTournament): Promise<void> {
    const seq = await this.redis.incr(this.games.keys.tournamentSeq());
    await this.track(t);
    if (dueAt(t) !== null) await this.redis.sadd(this.openByKey(t.createdBy), t.id);
    const shard = shardOf(t.id);
    const created = await createTournament.run(
      this.redis,
      {
        doc: this.doc(t.id),
        all: this.listing(shard, undefined, t.pool),
        listing: this.listing(shard, t.status, t.pool),
      },
      { json: JSON.stringify(t), version: t.version, status: t.status, seq, id: t.id },
    );
    if (created !== 1) throw new Error(`tournament ${t.id} exists`);
  }

  async get(id: string): Promise<StoredTournament | undefined> {
    const doc = await this.redis.hget(this.doc(id), 'doc');
    return doc ? (JSON.parse(doc) as StoredTournament) : undefined;
  }

  async update(
    next: StoredTournament,
    expectedVersion: number,
    notices: readonly Notice[] = [],
  ): Promise<TournamentUpdate> {
    const shard = shardOf(next.id);
    const accounts = [...new Set(notices.flatMap((n) => n.to))];
    const parts = accounts.map((account): AccountPart => ({
      account,
      notices: notices.filter((n) => n.to.includes(account)),
      ops: [],
    }));
    // Each account's own before is the script's (the `relayed` field); this one is for reading.
    const fields = outboxFields(
      { origin: `t:${next.id}`, version: next.version + 1, before: expectedVersion + 1, parts },
      this.feed,
    );
    const [status, current, befores] = await updateTournament.run(
      this.redis,
      {
        doc: this.doc(next.id),
        all: this.listing(shard, undefined, next.pool),
        open: this.listing(shard, 'open', next.pool),
        ongoing: this.listing(shard, 'ongoing', next.pool),
        finished: this.listing(shard, 'finished', next.pool),
        cancelled: this.listing(shard, 'cancelled', next.pool),
      },
      {
        expected: expectedVersion,
        json: JSON.stringify(next),
        version: next.version,
        status: next.status,
        id: next.id,
        prefix: this.prefix,
        tag: shardTag(shard),
      },
      fields,
    );
    if (status === 'missing') return { status: 'missing' };
    if (status === 'conflict') return { status: 'conflict', currentVersion: Number(current) };
    await this.games.relay.deliver(shard, fields, '0', parseBefores(befores));
    await this.track(next);
    return { status: 'updated' };
  }

  async list(
    status: TournamentStatus | undefined,
    limit: number,
    before?: number,
    pool?: string,
  ): Promise<TournamentPage> {
    return this.page(
      ALL_SHARDS.map((shard) => this.listing(shard, status, pool)),
      (t) => status === undefined || t.status === status,
      limit,
      before,
    );
  }

  async listOf(account: string, limit: number, before?: number): Promise<TournamentPage> {
    return this.page([this.memberOf(account)], () => true, limit, before);
  }

  async addMember(account: string, id: string): Promise<void> {
    const seq = await this.redis.hget(this.doc(id), 'seq');
    if (seq !== null) await this.redis.zadd(this.memberOf(account), Number(seq), id);
  }

  async due(now: number, limit: number, retryMs: number): Promise<string[]> {
    await this.migrateActive();
    // A plain read first: an idle node runs no script (a script costs Redis ~30 times a read).
    const first = await this.redis.zrangebyscore(this.dueKey, '-inf', now, 'LIMIT', 0, 1);
    if (first.length === 0) return [];
    return dueTournaments.run(this.redis, { due: this.dueKey }, { now, limit, retryAt: now + retryMs });
  }

  async openBy(account: string): Promise<number> {
    const key = this.openByKey(account);
    const ids = await this.redis.smembers(key);
    const docs = await Promise.all(ids.map((id) => this.get(id)));
    // An entry whose tournament ended without its removal (a crash in between) is dropped now.
    const over = ids.filter((_, i) => {
      const t = docs[i];
      return !t || dueAt(t) === null;
    });
    if (over.length > 0) await this.redis.srem(key, ...over);
    return ids.length - over.length;
  }

  /** The set the director sampled before the due index: its ids become due now, once. */
  private async migrateActive(): Promise<void> {
    if (this.migrated) return;
    const ids = await this.redis.smembers(this.legacyActiveKey);
    if (ids.length > 0) {
      await this.redis.zadd(this.dueKey, 'NX', ...ids.flatMap((id) => [0, id]));
      await this.redis.del(this.legacyActiveKey);
    }
    this.migrated = true;
  }
  private migrated = false;

  private async page(
    indexes: string[],
    keep: (t: StoredTournament) => boolean,
    limit: number,
    before?: number,
  ): Promise<TournamentPage> {
    const entries = new NewestFirst(this.redis, indexes, before, Math.min(limit + 1, LIST_BATCH));
    const items: StoredTournament[] = [];
    let lastSeq = 0;
    for (;;) {
      const batch = await entries.take(limit + 1 - items.length);
      if (batch.length === 0) return { items, next: null };
      const docs = await Promise.all(batch.map((entry) => this.get(entry.id)));
      for (let i = 0; i < batch.length; i++) {
        const t = docs[i];
        // Listing and document are written in one script; a status that changed since the read is left out.
        if (!t || !keep(t)) continue;
        if (items.length === limit) return { items, next: lastSeq };
        items.push(t);
        lastSeq = (batch[i] as { seq: number }).seq;
      }
    }
  }
}
