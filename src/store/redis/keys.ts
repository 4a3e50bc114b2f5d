import { OPEN_APP } from '../ports/apps';
// The v2 key layout (docs/data-model.md): every key carries a shard tag `{s<n>}`, so that what one
// script touches lives in one hash slot of a Redis Cluster. Games and challenges live in the shard
// of their id, and everything of an account in the shard of the account id.

/** How many shards keys are spread over (each a hash tag; a Cluster spreads the tags over its masters). */
export const SHARDS = 256;

/** The shard of an id: FNV-1a (32 bit) of its UTF-16 code units, modulo SHARDS. */
export function shardOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % SHARDS;
}

/** The hash tag of a shard, braces included. */
export function shardTag(shard: number): string {
  return `{s${shard}}`;
}

/** Every shard, 0 … SHARDS − 1 (what the sweeps visit). */
export const ALL_SHARDS: readonly number[] = Array.from({ length: SHARDS }, (_, i) => i);

/** What `dueShards` needs of a client: ZRANGE … WITHSCORES. */
interface RangeReader {
  zrange(key: string, start: number, stop: number, withScores: 'WITHSCORES'): Promise<string[]>;
}

/**
 * The shards whose due set (`keyOf(shard)`) holds something due at `nowMs`, earliest first: each set's
 * first entry is read (plain reads, all sent at once), so an idle node's sweep costs 256 reads rather
 * than 256 claiming scripts. What falls due after the read is found by the next sweep.
 */
export async function dueShards(
  redis: RangeReader,
  keyOf: (shard: number) => string,
  nowMs: number,
): Promise<number[]> {
  const firsts = await Promise.all(ALL_SHARDS.map((shard) => redis.zrange(keyOf(shard), 0, 0, 'WITHSCORES')));
  const due: { shard: number; score: number }[] = [];
  for (const shard of ALL_SHARDS) {
    const score = firsts[shard]?.[1];
    if (score !== undefined && Number(score) <= nowMs) due.push({ shard, score: Number(score) });
  }
  return due.sort((a, b) => a.score - b.score || a.shard - b.shard).map((entry) => entry.shard);
}

/**
 * The names of the keys the Lua scripts derive themselves (lua-keys.ts generates their Lua
 * builders from these, and test/store/lua-keys.test.ts checks both agree): per shard, and per id
 * in a shard (`p <name>:{s}:<id>`).
 */
export const SHARD_KEY_NAMES = {
  listings: 'games',
  deadlines: 'deadlines',
  reminders: 'reminders',
  outbox: 'outbox',
  listingSeq: 'gseq',
} as const;
export const TAGGED_KEY_NAMES = { feedSeq: 'feedseq', feedEpoch: 'feedepoch', webhook: 'webhook' } as const;
/** A listing index's suffixes after `p games:{s}` (shardListing, accountListing). */
export const LISTING_SUFFIX = {
  all: ':all',
  account: ':account:',
  kind: ':kind:',
  status: ':status:',
} as const;

/** Key builders for one prefix. */
export class Keys {
  constructor(readonly prefix: string) {}

  /** `p <name>:{s<shard of id>}:<id>` */
  private of(name: string, id: string): string {
    return this.beside(name, id, id);
  }

  /** `p <name>:{s<shard of owner>}:<id>`: a key of `id` kept in the shard of `owner`. */
  private beside(name: string, owner: string, id: string): string {
    return `${this.prefix}${name}:${shardTag(shardOf(owner))}:${id}`;
  }

  /** `p <name>:{s<shard>}` — a key per shard. */
  shardKey(name: string, shard: number): string {
    return `${this.prefix}${name}:${shardTag(shard)}`;
  }

  // A game's own keys (its shard).
  game(id: string): string {
    return this.of('game', id);
  }
  moves(id: string): string {
    return this.of('moves', id);
  }
  gameIdempotency(id: string, key: string): string {
    return `${this.of('idem', id)}:${key}`;
  }
  gameChannel(id: string): string {
    return this.of('updates', id);
  }
  /** A game's chat (chat/store.ts), in the game's slot: the messages (list of JSON, oldest first). */
  chat(id: string): string {
    return this.of('chat', id);
  }
  /** The game's count of chat messages (the last message id). */
  chatSeq(id: string): string {
    return this.of('chatseq', id);
  }
  /** Set of the game's seats that mute the others' chat. */
  chatMutes(id: string): string {
    return this.of('chatmute', id);
  }
  /** The channel of the game's chat signals (messages, mutes). */
  chatChannel(id: string): string {
    return this.of('chatlive', id);
  }

  // An account's keys (its shard).
  feed(account: string): string {
    return this.of('feed', account);
  }
  feedSeq(account: string): string {
    return this.of(TAGGED_KEY_NAMES.feedSeq, account);
  }
  feedEpoch(account: string): string {
    return this.of(TAGGED_KEY_NAMES.feedEpoch, account);
  }
  feedChannel(account: string): string {
    return this.of('feedlive', account);
  }
  /** Hash: origin (`g:<id>`, `c:<id>`) → the newest version of it the account has applied. */
  applied(account: string): string {
    return this.of('applied', account);
  }
  turn(account: string): string {
    return this.of('turn', account);
  }
  ongoing(account: string): string {
    return this.of('ongoing', account);
  }
  /** An account's listing index: `p games:{s}:account:<a>[:kind:<k>][:status:<st>]`. */
  accountListing(account: string, kind?: string, status?: string): string {
    let key = `${this.shardKey(SHARD_KEY_NAMES.listings, shardOf(account))}${LISTING_SUFFIX.account}${account}`;
    if (kind !== undefined) key += `${LISTING_SUFFIX.kind}${kind}`;
    if (status !== undefined) key += `${LISTING_SUFFIX.status}${status}`;
    return key;
  }
  /** A shard's listing index without an account: `p games:{s}:all` or `p games:{s}[:kind:<k>][:status:<st>]`. */
  shardListing(shard: number, kind?: string, status?: string): string {
    let key = this.shardKey(SHARD_KEY_NAMES.listings, shard);
    if (kind === undefined && status === undefined) return `${key}${LISTING_SUFFIX.all}`;
    if (kind !== undefined) key += `${LISTING_SUFFIX.kind}${kind}`;
    if (status !== undefined) key += `${LISTING_SUFFIX.status}${status}`;
    return key;
  }
  /** Sorted set of the open challenges that involve the account (score: createdAt ms), via the relay. */
  openChallenges(account: string): string {
    return this.of('challenges:open', account);
  }
  /** Hash of the accounts the account blocks: blocked id → since (ISO). */
  blocks(account: string): string {
    return this.of('blocks', account);
  }
  /** Set of the accounts that block the account. */
  blockedBy(account: string): string {
    return this.of('blockedby', account);
  }
  /** The account document (a string: StoredAccount JSON). */
  account(id: string): string {
    return this.of('account', id);
  }
  /** An erased account's tombstone (AccountTombstone JSON), in its shard. */
  accountTombstone(id: string): string {
    return this.of('tombstone', id);
  }
  /** The counter of erased accounts' tombstone names (`deleted-<n>`). */
  tombstoneSeq(): string {
    return `${this.prefix}tombstones:seq`;
  }
  /** An erased username held in its app (erasedNameHash; expires with the hold), in the app's shard. */
  erasedName(app: string, hash: string): string {
    return this.beside('erasedname', app, hash);
  }
  /** Sorted set of the account's token hashes (score: createdAt ms). */
  tokens(account: string): string {
    return this.of('tokens', account);
  }
  /** A token document, in its account's shard (so that the last-root guard reads them all in one step). */
  token(account: string, hash: string): string {
    return this.beside('token', account, hash);
  }
  /** When a token was last used, beside its document. */
  tokenUsed(account: string, hash: string): string {
    return this.beside('tokenused', account, hash);
  }
  /** A token hash → its account id (written once, never changed), in the hash's own shard. */
  tokenAccount(hash: string): string {
    return this.of('tokenat', hash);
  }

  // Apps (apps/store.ts): an app's doc, its keys and its accounts' indexes in the shard of its id.
  /** Sorted set of every app id (score: createdAt ms): the operator's listing (one key). */
  apps(): string {
    return `${this.prefix}apps`;
  }
  /** The app document (StoredApp JSON). */
  app(id: string): string {
    return this.of('app', id);
  }
  /** Sorted set of the app's key hashes (score: createdAt ms). */
  appKeys(app: string): string {
    return this.of('appkeys', app);
  }
  /** An app key document, in its app's shard. */
  appKey(app: string, hash: string): string {
    return this.beside('appkey', app, hash);
  }
  /** When an app key was last used, beside its document. */
  appKeyUsed(app: string, hash: string): string {
    return this.beside('appkeyused', app, hash);
  }
  /** An app key hash → its app id (written once, never changed), in the hash's own shard. */
  appKeyApp(hash: string): string {
    return this.of('appkeyat', hash);
  }
  /**
   * The app's account indexes, in its shard (so get-or-create reserves the external id and the
   * username in one step): hash external id → account id (or `~` + the account JSON while its
   * document is being written); hash lower-case username → account id; sorted set of its account
   * ids (score 0: by id).
   */
  appAccountIndexes(app: string): { external: string; usernames: string; accounts: string } {
    return {
      external: this.of('appext', app),
      usernames: this.of('appusers', app),
      accounts: this.of('appaccounts', app),
    };
  }
  /** A session document, in its account's shard (with the account's tokens: rotation is one step). */
  session(account: string, id: string): string {
    return this.beside('session', account, id);
  }
  /** Sorted set of the account's session ids (score: createdAt ms). */
  sessionsOf(account: string): string {
    return this.of('sessions', account);
  }
  /** A session id → its account id (written once), in the id's own shard. */
  sessionAccount(id: string): string {
    return this.of('sessionat', id);
  }
  /** A refresh token hash (current or used) → `<account> <session id>` (written once), in the hash's shard. */
  refreshSession(hash: string): string {
    return this.of('refreshat', hash);
  }

  /** Hash: perf → the account's rating in it (StoredRating JSON). */
  ratings(account: string): string {
    return this.of('ratings', account);
  }
  /** Set of the games whose result the account's ratings hold (each counts once). */
  ratedGames(account: string): string {
    return this.of('rated', account);
  }
  /** List of the account's rating history in a perf, newest first. */
  ratingHistory(account: string, perf: string): string {
    return `${this.of('ratinghist', account)}:${perf}`;
  }
  /**
   * A leaderboard (perf + category, per pool): a slot of its own. Sorted set account → rating, and
   * its entries' hash. The open pool's keep their names from before pools; an island app's pool
   * (its id, `app_…`: no `:`) has its own: `p leaderboard:{lb:<pool>:<perf>:<category>}`.
   */
  leaderboard(perf: string, category: string, pool?: string): readonly [board: string, entries: string] {
    const scope = pool === undefined || pool === OPEN_APP ? '' : `${pool}:`;
    const key = `${this.prefix}leaderboard:{lb:${scope}${perf}:${category}}`;
    return [key, `${key}:entries`];
  }

  // A challenge's own keys (its shard: that of its id, which its game shares).
  challenge(id: string): string {
    return this.of('challenge', id);
  }

  // Seeks: a pool and its seeks live in the shard of the pool's sha1.
  seekPool(pool: string): string {
    return this.of('seeks:pool', pool);
  }
  seek(pool: string, id: string): string {
    return this.beside('seek', pool, id);
  }
  /** A waiting seek's id → its pool's sha1 (expires with the seek), in the shard of the seek id. */
  seekPoolOf(id: string): string {
    return this.of('seekat', id);
  }
  /**
   * A lobby (an app pool's waiting seeks, listed): a slot of its own, like a leaderboard. Sorted set
   * `<seek id>|<its pool's sha1>` → createdAt (ms); the same name is its change channel's.
   * `p lobby:{lobby:<pool>}` (the open pool's: `open`).
   */
  lobby(pool: string): string {
    return `${this.prefix}lobby:{lobby:${pool}}`;
  }
  /** Set of the account's webhook endpoint ids. */
  webhooksOf(account: string): string {
    return this.of('webhooks', account);
  }
  /** A webhook endpoint (hash), in its account's shard: `p webhook:{s of account}:<id>`. */
  webhook(account: string, id: string): string {
    return this.beside(TAGGED_KEY_NAMES.webhook, account, id);
  }
  /** A webhook endpoint's delivery log (stream), beside the endpoint. */
  webhookLog(account: string, id: string): string {
    return `${this.prefix}webhooklog:${shardTag(shardOf(account))}:${id}`;
  }
  /**
   * The keys a script that appends to the account's feed declares (FEED_KEYS in feed/scripts.ts):
   * the feed, its seq and epoch, and what an event marks due: the account's endpoint set and its
   * shard's due set, and (an app account's) its shard's set of accounts with events to forward to
   * their app feed. An app feed (owner appFeedOwner(app)) has the same keys, in the owner's shard.
   */
  feedWrite(account: string): {
    feed: string;
    feedSeq: string;
    feedEpoch: string;
    hooks: string;
    due: string;
    dirty: string;
  } {
    return {
      feed: this.feed(account),
      feedSeq: this.feedSeq(account),
      feedEpoch: this.feedEpoch(account),
      hooks: this.webhooksOf(account),
      due: this.webhooksDue(shardOf(account)),
      dirty: this.appFeedDirty(shardOf(account)),
    };
  }
  /**
   * Hash beside an app feed (owner appFeedOwner(app)): account → `<epoch> <seq>`, the newest event
   * of the account's feed the app feed holds (the forwarder's position and its duplicate check).
   */
  appFeedApplied(owner: string): string {
    return this.of('appfeedapplied', owner);
  }

  /** A bulk pairing (hash: doc, state, updatedAt, refusal, startAt), in the shard of its id. */
  bulk(id: string): string {
    return this.of('bulk', id);
  }
  /** The key of a bulk pairing of `shard` without its id (the claiming script appends the ids it finds). */
  bulkKeyPrefix(shard: number): string {
    return `${this.shardKey('bulk', shard)}:`;
  }
  /** Sorted set of an account's bulk pairings (score: createdAt ms), in the account's shard. */
  bulksOf(account: string): string {
    return this.of('bulks:by', account);
  }

  // Tournaments (tournaments/store.ts): a tournament's doc and its shard's listings in the shard of its id.
  /** Hash: doc, version, status, seq. */
  tournament(id: string): string {
    return this.of('tournament', id);
  }
  /**
   * The shard's tournament listing (score: seq): `p tournaments:{s}:all` or `…:status:<st>`; an island
   * pool's (its app id, no `:`) are its own: `p tournaments:{s}:pool:<pool>:all` or `…:status:<st>`.
   */
  tournamentListing(shard: number, status?: string, pool?: string): string {
    const scope = pool === undefined || pool === OPEN_APP ? '' : `:pool:${pool}`;
    return `${this.shardKey('tournaments', shard)}${scope}:${status === undefined ? 'all' : `status:${status}`}`;
  }
  /** Sorted set of the tournaments the account joined or made (score: seq). */
  tournamentsOf(account: string): string {
    return `${this.shardKey('tournaments', shardOf(account))}:account:${account}`;
  }
  /** Set of the open and ongoing tournaments the account created (its quota). */
  tournamentsOpenBy(account: string): string {
    return `${this.shardKey('tournaments', shardOf(account))}:open-by:${account}`;
  }
  /** Sorted set of open and ongoing ids by when the director must next look (a slot of its own). */
  tournamentsDue(): string {
    return `${this.prefix}tournaments:due`;
  }
  /** Before the due index: the set of open and ongoing ids (moved into the index on the first read). */
  tournamentsActive(): string {
    return `${this.prefix}tournaments:active`;
  }
  /** The counter numbering tournaments. */
  tournamentSeq(): string {
    return `${this.prefix}tournaments:seq`;
  }

  // Keys outside shards, each a slot of its own.
  /** Hash: doc, version (StoredVacation). */
  vacation(account: string): string {
    return `${this.prefix}vacation:${account}`;
  }
  /** A create's idempotency record (hash: state, fingerprint, response). */
  createIdempotency(key: string): string {
    return `${this.prefix}idemcreate:${key}`;
  }
  /** TV's candidates of a kind (sorted set, score featuredScore). */
  featured(kind: string): string {
    return `${this.prefix}tv:${kind}`;
  }
  /** Hash: account → its push endpoint. */
  pushBots(): string {
    return `${this.prefix}pushbots`;
  }
  /** The channel carrying the hash of each revoked token. */
  revocations(): string {
    return `${this.prefix}revocations`;
  }

  // Per shard.
  /** Sorted set of the shard's bulk pairings with work due (score: lease end, startAt, or now). */
  bulksDue(shard: number): string {
    return this.shardKey('bulks:due', shard);
  }
  outbox(shard: number): string {
    return this.shardKey(SHARD_KEY_NAMES.outbox, shard);
  }
  outboxCursor(shard: number): string {
    return `${this.outbox(shard)}:cursor`;
  }
  outboxLease(shard: number): string {
    return `${this.outbox(shard)}:lease`;
  }
  deadlines(shard: number): string {
    return this.shardKey(SHARD_KEY_NAMES.deadlines, shard);
  }
  reminders(shard: number): string {
    return this.shardKey(SHARD_KEY_NAMES.reminders, shard);
  }
  /** The counter of the shard's listing scores (games/scripts.ts). */
  listingSeq(shard: number): string {
    return this.shardKey(SHARD_KEY_NAMES.listingSeq, shard);
  }
  /** Sorted set of the shard's open challenges (score: expiresAt ms). */
  challengeExpiry(shard: number): string {
    return this.shardKey('challenges:expiry', shard);
  }
  /** Sorted set of the shard's webhook endpoints with work (score: when). */
  webhooksDue(shard: number): string {
    return this.shardKey('webhooks:due', shard);
  }
  /**
   * Sorted set of the shard's app accounts with events their app feed may not hold yet (score: the
   * first such event's time ms); the forwarder drains it (feed/forwarder.ts).
   */
  appFeedDirty(shard: number): string {
    return this.shardKey('appfeed:dirty', shard);
  }
  /** The forwarder's lease on a shard's dirty set (a node's token, expiring). */
  appFeedLease(shard: number): string {
    return `${this.appFeedDirty(shard)}:lease`;
  }
}
