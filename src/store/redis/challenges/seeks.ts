import type Redis from 'ioredis';
import { createHash } from 'node:crypto';
import {
  OPEN_APP,
  type LobbyChange,
  type LobbyCursor,
  type LobbyPage,
  type SeekStore,
  type StoredSeek,
} from '../../store';
import type { SeekRemovalReason } from '../../../vocabulary';
import type { ChannelFanout } from '../client';
import { msOf } from '../games/arguments';
import { matchOrAdd, removeSeek } from './scripts';
import { Keys } from '../keys';

// Seeks (docs/data-model.md): a pool (list of seek ids, oldest first) and its seeks live in the
// shard of the pool's sha1, so that matching is one step. A seek is found by id through a pointer
// in the shard of its id (`seekat`: id → the pool's sha1, expiring with the seek), written once the
// seek waits: seek ids are the service's (12 characters, handed out before this layout), so the
// shard cannot be read off them; cancelling a seek is rare, so its extra GET is cheap.
//
// A lobby (the waiting seeks of an app pool, listed) is an index in a slot of its own (Keys.lobby):
// a seek's pool and its lobby are in different slots, so the index follows each match, add and
// removal as a second step, and is read against the seeks themselves: an entry whose seek is gone
// (matched meanwhile, expired, or left by a node that died between the steps) is dropped when met.
// Its changes go out on the channel of the same name (SPUBLISH on a Cluster: the lobby's slot).

/** How long a seek's pointer outlives the seek's expiry. */
export const SEEK_POINTER_MARGIN_MS = 60 * 60 * 1000;

/** How many index entries a lobby page reads per round trip (the filter may keep few of them). */
const LOBBY_SCAN_CHUNK = 100;

export class RedisSeekStore implements SeekStore {
  private readonly keys: Keys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly fanout?: ChannelFanout,
    private readonly publish: 'PUBLISH' | 'SPUBLISH' = 'PUBLISH',
  ) {
    this.keys = new Keys(prefix);
  }

  async matchOrAdd(
    seek: StoredSeek,
    now: string,
    avoid: readonly string[] = [],
  ): Promise<StoredSeek | undefined> {
    // Pools are free text: hashed, they make a key of fixed shape.
    const pool = poolSha(seek);
    const nowMs = msOf(now, 'now');
    const expires = msOf(seek.expiresAt, 'seek expiresAt');
    const matched = await matchOrAdd.run(
      this.redis,
      { pool: this.keys.seekPool(pool), seek: this.keys.seek(pool, seek.id) },
      {
        now: nowMs,
        id: seek.id,
        account: seek.account,
        doc: JSON.stringify(seek),
        expires,
        poolSha: pool,
        seekKeyPrefix: this.keys.seek(pool, ''),
        rating: seek.rating === undefined ? '' : String(seek.rating),
        min: seek.ratingRange?.min === undefined ? '' : String(seek.ratingRange.min),
        max: seek.ratingRange?.max === undefined ? '' : String(seek.ratingRange.max),
      },
      avoid,
    );
    if (matched) {
      const partner = JSON.parse(matched) as StoredSeek;
      await this.unlist(partner, 'matched');
      return partner;
    }
    // Waiting: findable by id while in its pool. The pointer outlives the seek by a margin (times
    // here are the caller's clock, the TTL the server's); one left behind by a match finds nothing.
    const ttl = Math.max(0, Number(expires) - Number(nowMs)) + SEEK_POINTER_MARGIN_MS;
    await this.redis.set(this.keys.seekPoolOf(seek.id), pool, 'PX', ttl);
    await this.list(seek);
    return undefined;
  }

  /** The pool (sha1) of a seek, or undefined when it waits in none. */
  private async poolOf(id: string): Promise<string | undefined> {
    return (await this.redis.get(this.keys.seekPoolOf(id))) ?? undefined;
  }

  async getSeek(id: string): Promise<StoredSeek | undefined> {
    const pool = await this.poolOf(id);
    if (pool === undefined) return undefined;
    const doc = await this.redis.hget(this.keys.seek(pool, id), 'doc');
    return doc ? (JSON.parse(doc) as StoredSeek) : undefined;
  }

  async removeSeek(id: string, reason: SeekRemovalReason = 'canceled'): Promise<boolean> {
    const pool = await this.poolOf(id);
    if (pool === undefined) return false;
    const removed = await removeSeek.run(
      this.redis,
      { seek: this.keys.seek(pool, id), pool: this.keys.seekPool(pool) },
      { id },
    );
    if (!removed) return false;
    await this.redis.del(this.keys.seekPoolOf(id));
    await this.unlist(JSON.parse(removed) as StoredSeek, reason);
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
    const key = this.keys.lobby(lobby);
    const now = Date.parse(options.now);
    const items: StoredSeek[] = [];
    /** Keeps the listed seeks of `entries` (in order); true once the page is full and one more exists. */
    const take = async (entries: readonly LobbyEntry[]): Promise<boolean> => {
      // Single-key reads, one per seek (a Cluster spreads them over their slots).
      const docs = await Promise.all(entries.map((e) => this.redis.hget(this.keys.seek(e.sha, e.id), 'doc')));
      const gone: string[] = [];
      let full = false;
      for (const [i, entry] of entries.entries()) {
        const doc = docs[i];
        const seek = doc ? (JSON.parse(doc) as StoredSeek) : undefined;
        if (!seek) gone.push(entry.member);
        if (!seek || Date.parse(seek.expiresAt) <= now) continue;
        if (options.where && !options.where(seek)) continue;
        if (items.length === options.limit) {
          full = true;
          break;
        }
        items.push(seek);
      }
      if (gone.length > 0) await this.redis.zrem(key, ...gone);
      return full;
    };
    /** The rest of a millisecond after `after` (members of one score come in id order: ids have one length). */
    const restOf = async (after: { ms: number; id: string }): Promise<LobbyEntry[]> =>
      entriesOf(await this.redis.zrangebyscore(key, after.ms, after.ms, 'WITHSCORES')).filter(
        (e) => e.id > after.id,
      );
    const page = (): LobbyPage => {
      const last = items[items.length - 1] as StoredSeek;
      return { items, next: { createdAt: last.createdAt, id: last.id } };
    };
    let lower = '-inf';
    if (options.after) {
      const after = { ms: Date.parse(options.after.createdAt), id: options.after.id };
      if (await take(await restOf(after))) return page();
      lower = `(${after.ms}`;
    }
    // Oldest first, a chunk at a time; each chunk's last millisecond is read whole before the next.
    for (;;) {
      const chunk = entriesOf(
        await this.redis.zrangebyscore(key, lower, '+inf', 'WITHSCORES', 'LIMIT', 0, LOBBY_SCAN_CHUNK),
      );
      if (await take(chunk)) return page();
      const tail = chunk[chunk.length - 1];
      if (chunk.length < LOBBY_SCAN_CHUNK || !tail) return { items };
      if (await take(await restOf(tail))) return page();
      lower = `(${tail.ms}`;
    }
  }

  async watchLobby(
    lobby: string,
    listener: (change: LobbyChange) => void,
    onResync?: () => void,
  ): Promise<() => Promise<void>> {
    if (!this.fanout) throw new Error('This seek store has no subscriber connection');
    return this.fanout.listen(
      this.keys.lobby(lobby),
      (message) => listener(JSON.parse(message) as LobbyChange),
      onResync,
    );
  }

  /** Lists a seek that waits, then checks it still does (a match may have come between the steps). */
  private async list(seek: StoredSeek): Promise<void> {
    const key = this.keys.lobby(seek.lobby ?? OPEN_APP);
    const sha = poolSha(seek);
    await this.redis.zadd(key, Date.parse(seek.createdAt), `${seek.id}|${sha}`);
    await this.announce(seek, { type: 'added', seek });
    if (!(await this.redis.exists(this.keys.seek(sha, seek.id)))) await this.unlist(seek, 'matched');
  }

  private async unlist(seek: StoredSeek, reason: SeekRemovalReason): Promise<void> {
    await this.redis.zrem(this.keys.lobby(seek.lobby ?? OPEN_APP), `${seek.id}|${poolSha(seek)}`);
    await this.announce(seek, { type: 'removed', id: seek.id, reason });
  }

  private async announce(seek: StoredSeek, change: LobbyChange): Promise<void> {
    await this.redis.call(this.publish, this.keys.lobby(seek.lobby ?? OPEN_APP), JSON.stringify(change));
  }
}

/** An entry of a lobby index: `<seek id>|<its pool's sha1>` and its createdAt (ms). */
interface LobbyEntry {
  readonly member: string;
  readonly id: string;
  readonly sha: string;
  readonly ms: number;
}

/** The entries of a ZRANGEBYSCORE … WITHSCORES answer. */
function entriesOf(reply: readonly string[]): LobbyEntry[] {
  const entries: LobbyEntry[] = [];
  for (let i = 0; i < reply.length; i += 2) {
    const member = reply[i] as string;
    const [id = '', sha = ''] = member.split('|');
    entries.push({ member, id, sha, ms: Number(reply[i + 1]) });
  }
  return entries;
}

/** A pool's key part: pools are free text, hashed they make a key of fixed shape. */
function poolSha(seek: StoredSeek): string {
  return createHash('sha1').update(seek.pool).digest('hex');
}
