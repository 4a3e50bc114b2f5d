import type Redis from 'ioredis';
import {
  dueAt,
  TOURNAMENT_STATUSES,
  type StoredTournament,
  type TournamentPage,
  type TournamentStatus,
  type TournamentStore,
  type TournamentUpdate,
} from '../ports/tournaments';
import type { FeedOptions, Notice } from '../store';
import { MEMBERS_ENTRY_SNIPPET } from './challenge-scripts';
import { scripted } from './client';
import { GAME_INDEXES_SNIPPET } from './game-scripts';
import { NewestFirst, type RedisGameStore } from './games';
import { ALL_SHARDS, shardOf, shardTag } from './keys';
import { outboxFields, parseBefores, type AccountPart } from './relay';

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

const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[1], 'version', ARGV[2], 'status', ARGV[3], 'seq', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
return 1
`;

/**
 * KEYS: doc, all, then the status listings (open, ongoing, finished, cancelled). ARGV: 1 expected,
 * 2 doc, 3 version, 4 status, 5 id, 6 prefix, 7 shard tag, 8… the outbox fields (none: no notices).
 * Returns {'updated', outbox entry id, befores}, {'conflict', version} or {'missing'}.
 */
const UPDATE = `${GAME_INDEXES_SNIPPET}${MEMBERS_ENTRY_SNIPPET}
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return {'missing'} end
if current ~= ARGV[1] then return {'conflict', current} end
local old = redis.call('HGET', KEYS[1], 'status')
local seq = redis.call('HGET', KEYS[1], 'seq')
redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'version', ARGV[3], 'status', ARGV[4])
if old ~= ARGV[4] then
  local statuses = {'open', 'ongoing', 'finished', 'cancelled'}
  for i, s in ipairs(statuses) do
    if s == old then redis.call('ZREM', KEYS[2 + i], ARGV[5]) end
    if s == ARGV[4] then redis.call('ZADD', KEYS[2 + i], seq, ARGV[5]) end
  end
end
local fields = {}
for i = 8, #ARGV do fields[#fields + 1] = ARGV[i] end
local entry, befores = members_entry(shard_keys(ARGV[6], ARGV[7]), KEYS[1], fields)
return {'updated', entry, befores}
`;

/**
 * KEYS[1]: the due index. ARGV: now, limit, retry at. The ids due at `now`, most overdue first,
 * each put back at `retry at` (after every other one due now) so that sweeps go round them.
 */
const DUE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], ARGV[3], id) end
return ids
`;

type TournamentRedis = Redis & {
  boardhostDueTournaments(key: string, now: number, limit: number, retryAt: number): Promise<string[]>;
  boardhostCreateTournament(...args: Array<string | number>): Promise<number>;
  boardhostUpdateTournament(...args: Array<string | number>): Promise<[string, string?, string?]>;
};

const defined = new WeakSet<Redis>();

const LIST_BATCH = 50;

export class RedisTournamentStore implements TournamentStore {
  private readonly redis: TournamentRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    /** The game store: its relay delivers the notices' outbox entries. */
    private readonly games: RedisGameStore,
    private readonly feed: FeedOptions = {},
  ) {
    if (!defined.has(redis)) {
      redis.defineCommand('boardhostCreateTournament', { numberOfKeys: 3, lua: CREATE });
      redis.defineCommand('boardhostUpdateTournament', { numberOfKeys: 6, lua: UPDATE });
      redis.defineCommand('boardhostDueTournaments', { numberOfKeys: 1, lua: DUE });
      defined.add(redis);
    }
    this.redis = redis as TournamentRedis;
  }

  private doc(id: string): string {
    return `${this.prefix}tournament:${shardTag(shardOf(id))}:${id}`;
  }
  private listing(shard: number, status?: TournamentStatus): string {
    return `${this.prefix}tournaments:${shardTag(shard)}:${status === undefined ? 'all' : `status:${status}`}`;
  }
  private memberOf(account: string): string {
    return `${this.prefix}tournaments:${shardTag(shardOf(account))}:account:${account}`;
  }
  /** Before the due index: the set of open and ongoing ids (moved into the index on the first read). */
  private get legacyActiveKey(): string {
    return `${this.prefix}tournaments:active`;
  }
  private get dueKey(): string {
    return `${this.prefix}tournaments:due`;
  }
  private openByKey(account: string): string {
    return `${this.prefix}tournaments:${shardTag(shardOf(account))}:open-by:${account}`;
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
    const seq = await this.redis.incr(`${this.prefix}tournaments:seq`);
    await this.track(t);
    if (dueAt(t) !== null) await this.redis.sadd(this.openByKey(t.createdBy), t.id);
    const shard = shardOf(t.id);
    const created = await this.redis.boardhostCreateTournament(
      this.doc(t.id),
      this.listing(shard),
      this.listing(shard, t.status),
      JSON.stringify(t),
      t.version,
      t.status,
      seq,
      t.id,
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
    const [status, current, befores] = await this.redis.boardhostUpdateTournament(
      this.doc(next.id),
      this.listing(shard),
      ...TOURNAMENT_STATUSES.map((s) => this.listing(shard, s)),
      expectedVersion,
      JSON.stringify(next),
      next.version,
      next.status,
      next.id,
      this.prefix,
      shardTag(shard),
      ...fields,
    );
    if (status === 'missing') return { status: 'missing' };
    if (status === 'conflict') return { status: 'conflict', currentVersion: Number(current) };
    await this.games.relay.deliver(shard, fields, '0', parseBefores(befores));
    await this.track(next);
    return { status: 'updated' };
  }

  async list(status: TournamentStatus | undefined, limit: number, before?: number): Promise<TournamentPage> {
    return this.page(
      ALL_SHARDS.map((shard) => this.listing(shard, status)),
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
    return this.redis.boardhostDueTournaments(this.dueKey, now, limit, now + retryMs);
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
    const entries = new NewestFirst(scripted(this.redis), indexes, before, Math.min(limit + 1, LIST_BATCH));
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
