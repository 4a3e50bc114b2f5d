import Redis, { type RedisOptions } from 'ioredis';
import { createHash, randomBytes } from 'node:crypto';
import type { GameKind } from '../engines/types';
import { createLimiter } from './limiter';
import {
  DELIVERY_LOG_MAX_LENGTH,
  clockIndexOf,
  isTurnOf,
  OVER,
  FEED_RETENTION_MS,
  GAME_STATUSES,
  IDEMPOTENCY_TTL_SECONDS,
  type AccountStore,
  type ChallengeStore,
  type ChallengeUpdateResult,
  type ClockStore,
  type EventFeed,
  type FeedEvent,
  type FeedEventType,
  type FeedPage,
  type GameEventBus,
  type GameFilter,
  type GamePage,
  type GameStore,
  type IdempotencyRecord,
  type Notice,
  type SeekStore,
  type Storage,
  type StoredAccount,
  type StoredChallenge,
  type StoredGame,
  type StoredSeek,
  type StoredToken,
  type StoredVacation,
  type TurnCursor,
  type TurnPage,
  type UpdateResult,
  type DeliveryAttempt,
  type DeliveryLogPage,
  type NewDeliveryAttempt,
  type StoredWebhook,
  type WebhookClaim,
  type WebhookRecord,
  type WebhookState,
  type WebhookStore,
} from './store';

// Key layout (prefix p, game id g, account id a). A game's keys share the `{g}` hash tag, and a
// feed's keys the `{a}` tag, so that each lives on one Redis Cluster slot:
//   p game:{g}              hash: doc (JSON), version
//   p idem:{g}:<key>        JSON IdempotencyRecord, expires after 24 h
//   p updates:{g}           pub/sub channel carrying each new doc
// Listing indexes (sorted sets, score = creation sequence from the counter p games:seq):
// p games:all, p games:kind:<kind>, p games:status:<status>, p games:account:<a> (one per seat
// account). The script that creates a game writes them; the update script moves the status entry.
// list() still re-checks each document.
//   p account:<a>           JSON StoredAccount
//   p token:<hash>          JSON StoredToken (revoked ones stay, so callers can say "revoked")
//   p tokens:<a>            sorted set of token hashes, score = createdAt ms (oldest first)
//   p challenge:<c>         hash: doc (JSON), version
//   p challenges:open:<a>   sorted set of open challenge ids involving a, score = createdAt ms
//   p challenges:expiry     sorted set of open challenge ids, score = expiresAt ms
//   p seek:<s>              hash: doc (JSON), account, expires (ms), pool (sha1 of the pool string)
//   p seeks:pool:<sha1>     list of waiting seek ids, oldest first
//   p feed:{a}              stream, entry id <seq>-0, fields type, at, ms (at in epoch ms), data (JSON)
//   p feedseq:{a}           the feed's last seq (INCR)
//   p feedlive:{a}          pub/sub channel carrying each appended event as FeedEvent JSON
// Clocks (kept in step by every script that writes a game; see index_clock):
//   p deadlines             sorted set of game ids, score = deadline ms (or a claim's lease end)
//   p reminders             sorted set of game ids, score = reminder ms (or a claim's lease end)
//   p games:turn:<a>        sorted set of ongoing games where a is to move, score = deadline ms
//                           (no deadline: NO_DEADLINE_SCORE + turn start ms)
//   game:{g} fields turn, reminded: the game's turn, and the turn a reminder was sent for
//   p vacation:<a>          hash: doc (JSON StoredVacation), version
//   p rl:<name>...          rate-limiter-flexible's counters
// Writes that append notices do so in the same script, so they touch feeds on other slots: this
// relies on a single Redis (a Cluster deployment would need an outbox instead).

/** Feeds keep at most about this many events whatever their age. */
const FEED_MAX_LENGTH = 10000;
/** Oldest entries checked for age on each append (more than one, so a backlog shrinks). */
const FEED_TRIM_BATCH = 32;

/**
 * Lua: append each notice to its accounts' feeds. `notices` is JSON from noticesArgument(): data
 * arrives pre-serialized, so cjson only decodes and never re-encodes anything stored.
 */
const APPEND_NOTICES = `
local function append_notices(p, notices)
  for _, n in ipairs(cjson.decode(notices)) do
    for _, account in ipairs(n.to) do
      local feed = p .. 'feed:{' .. account .. '}'
      local seq = redis.call('INCR', p .. 'feedseq:{' .. account .. '}')
      -- Trim from the oldest end up to the first entry young enough to keep (seq order, not time).
      local minid = nil
      for _, entry in ipairs(redis.call('XRANGE', feed, '-', '+', 'COUNT', ${FEED_TRIM_BATCH})) do
        local ms = nil
        for i = 1, #entry[2], 2 do
          if entry[2][i] == 'ms' then ms = tonumber(entry[2][i + 1]) end
        end
        if ms == nil or ms >= n.cutoff then break end
        minid = (tonumber(string.match(entry[1], '^%d+')) + 1) .. '-0'
      end
      if minid then redis.call('XTRIM', feed, 'MINID', minid) end
      redis.call('XADD', feed, 'MAXLEN', '~', ${FEED_MAX_LENGTH}, seq .. '-0',
        'type', n.type, 'at', n.at, 'ms', n.ms, 'data', n.data)
      redis.call('PUBLISH', p .. 'feedlive:{' .. account .. '}', '{"seq":' .. seq .. n.rest)
      -- The account's webhook endpoints have work now (NX: a leased or backing-off one keeps its time).
      for _, hook in ipairs(redis.call('SMEMBERS', p .. 'webhooks:account:' .. account)) do
        redis.call('ZADD', p .. 'webhooks:due', 'NX', n.ms, hook)
      end
    end
  end
end
`;

/** Lua: store a game if its key is free and add it to the listing indexes; false if taken. */
const CREATE_GAME = `
local function create_game(p, key, id, doc, version, indexes)
  if redis.call('EXISTS', key) == 1 then return false end
  redis.call('HSET', key, 'doc', doc, 'version', version)
  local seq = redis.call('INCR', p .. 'games:seq')
  for _, index in ipairs(cjson.decode(indexes)) do redis.call('ZADD', p .. index, seq, id) end
  return true
end
`;

/** Lua: keep a challenge in the open and expiry indexes exactly while it is open. */
const INDEX_CHALLENGE = `
local function index_challenge(p, id, index)
  local c = cjson.decode(index)
  for _, account in ipairs(c.accounts) do
    if c.open then
      redis.call('ZADD', p .. 'challenges:open:' .. account, c.created, id)
    else
      redis.call('ZREM', p .. 'challenges:open:' .. account, id)
    end
  end
  if c.open then
    redis.call('ZADD', p .. 'challenges:expiry', c.expires, id)
  else
    redis.call('ZREM', p .. 'challenges:expiry', id)
  end
end
`;

/**
 * Lua: keep a game's deadline, reminder and my-turn entries in step with its document. `spec` is
 * JSON from clockIndexArgument() (scores as strings, '' for none). A reminder already sent for
 * this turn is not indexed again.
 */
const INDEX_CLOCK = `
local function index_clock(p, key, id, spec)
  local c = cjson.decode(spec)
  if c.deadline ~= '' then
    redis.call('ZADD', p .. 'deadlines', c.deadline, id)
  else
    redis.call('ZREM', p .. 'deadlines', id)
  end
  redis.call('HSET', key, 'turn', c.turn)
  if c.reminder ~= '' and redis.call('HGET', key, 'reminded') ~= c.turn then
    redis.call('ZADD', p .. 'reminders', c.reminder, id)
  else
    redis.call('ZREM', p .. 'reminders', id)
  end
  for _, account in ipairs(c.accounts) do redis.call('ZREM', p .. 'games:turn:' .. account, id) end
  if c.mover ~= '' then redis.call('ZADD', p .. 'games:turn:' .. c.mover, c.score, id) end
end
`;

/**
 * Create only if absent, with its indexes and notices.
 * KEYS[1] game; ARGV: prefix, id, doc, version, indexes (JSON), notices (JSON), clock index (JSON).
 */
const CREATE_SCRIPT = `${APPEND_NOTICES}${CREATE_GAME}${INDEX_CLOCK}
if not create_game(ARGV[1], KEYS[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]) then return 0 end
index_clock(ARGV[1], KEYS[1], ARGV[2], ARGV[7])
append_notices(ARGV[1], ARGV[6])
return 1
`;

/**
 * Check idempotency key, then version; write doc, remember the answer, move the status index entry,
 * append notices, publish: all or nothing.
 * KEYS[1] game, KEYS[2] idempotency record; ARGV: prefix, expected version, doc, version,
 * idempotent ('1'/'0'), record, ttl, channel, id, status, notices (JSON), clock index (JSON).
 */
const UPDATE_SCRIPT = `${APPEND_NOTICES}${INDEX_CLOCK}
if ARGV[5] == '1' then
  local seen = redis.call('GET', KEYS[2])
  if seen then return {'replayed', seen} end
end
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return {'missing'} end
if version ~= ARGV[2] then return {'conflict', version} end
redis.call('HSET', KEYS[1], 'doc', ARGV[3], 'version', ARGV[4])
if ARGV[5] == '1' then
  redis.call('SET', KEYS[2], ARGV[6], 'EX', ARGV[7])
end
local seq = redis.call('ZSCORE', ARGV[1] .. 'games:all', ARGV[9])
if seq then
  for _, status in ipairs({${GAME_STATUSES.map((s) => `'${s}'`).join(', ')}}) do
    if status ~= ARGV[10] then redis.call('ZREM', ARGV[1] .. 'games:status:' .. status, ARGV[9]) end
  end
  redis.call('ZADD', ARGV[1] .. 'games:status:' .. ARGV[10], seq, ARGV[9])
end
index_clock(ARGV[1], KEYS[1], ARGV[9], ARGV[12])
append_notices(ARGV[1], ARGV[11])
redis.call('PUBLISH', ARGV[8], ARGV[3])
return {'updated'}
`;

/**
 * Due entries of a sorted set, earliest first, each leased (re-scored) until ARGV[3].
 * KEYS[1] the set; ARGV: now ms, limit, lease end ms.
 */
const CLAIM_DUE_SCRIPT = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], 'XX', ARGV[3], id) end
return ids
`;

/**
 * Once per turn (never for a finished game): record the reminder, drop its entry and append the
 * notices. KEYS[1] game, KEYS[2] reminders; ARGV: prefix, id, turn, notices (JSON).
 */
const MARK_REMINDED_SCRIPT = `${APPEND_NOTICES}
if ARGV[3] == '${OVER}' or redis.call('HGET', KEYS[1], 'turn') ~= ARGV[3] then return 0 end
if redis.call('HGET', KEYS[1], 'reminded') == ARGV[3] then return 0 end
redis.call('HSET', KEYS[1], 'reminded', ARGV[3])
redis.call('ZREM', KEYS[2], ARGV[2])
append_notices(ARGV[1], ARGV[4])
return 1
`;

/** Compare-and-set on version ('0': absent). KEYS[1] vacation; ARGV: expected version, doc, version. */
const SAVE_VACATION_SCRIPT = `
if (redis.call('HGET', KEYS[1], 'version') or '0') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'version', ARGV[3])
return 1
`;

/** Lua: store a token and list it under its account (oldest first). */
const SAVE_TOKEN = `
local function save_token(key, index, doc, hash, created)
  redis.call('SET', key, doc)
  redis.call('ZADD', index, created, hash)
end
`;

/**
 * A new account and its first token, or nothing when the id is taken.
 * KEYS[1] account, KEYS[2] token, KEYS[3] the token's account index; ARGV: account doc, token doc,
 * token hash, token createdAt ms.
 */
const CREATE_ACCOUNT_SCRIPT = `${SAVE_TOKEN}
if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then return 0 end
save_token(KEYS[2], KEYS[3], ARGV[2], ARGV[3], ARGV[4])
return 1
`;

/** KEYS[1] token, KEYS[2] the token's account index; ARGV: token doc, hash, createdAt ms. */
const ADD_TOKEN_SCRIPT = `${SAVE_TOKEN}
save_token(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3])
return 1
`;

/** Replace a document only if it is still the one read (for read-modify-write in JS). */
const COMPARE_AND_SET_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`;

/**
 * Create only if absent, with its indexes and notices.
 * KEYS[1] challenge; ARGV: prefix, id, doc, version, index (JSON), notices (JSON).
 */
const CREATE_CHALLENGE_SCRIPT = `${APPEND_NOTICES}${INDEX_CHALLENGE}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[3], 'version', ARGV[4])
index_challenge(ARGV[1], ARGV[2], ARGV[5])
append_notices(ARGV[1], ARGV[6])
return 1
`;

/**
 * Compare-and-set on version; the game the challenge became (checked first, so a taken game id
 * writes nothing), indexes and notices in the same step.
 * KEYS[1] challenge, KEYS[2] game (the challenge key again when no game); ARGV: prefix, expected
 * version, id, doc, version, index (JSON), notices (JSON), game doc ('' for none), game id, game
 * version, game indexes (JSON), game clock index (JSON).
 */
const UPDATE_CHALLENGE_SCRIPT = `${APPEND_NOTICES}${CREATE_GAME}${INDEX_CHALLENGE}${INDEX_CLOCK}
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return 'missing' end
if version ~= ARGV[2] then return 'conflict' end
if ARGV[8] ~= '' and not create_game(ARGV[1], KEYS[2], ARGV[9], ARGV[8], ARGV[10], ARGV[11]) then
  return 'game-exists'
end
redis.call('HSET', KEYS[1], 'doc', ARGV[4], 'version', ARGV[5])
index_challenge(ARGV[1], ARGV[3], ARGV[6])
if ARGV[8] ~= '' then index_clock(ARGV[1], KEYS[2], ARGV[9], ARGV[12]) end
append_notices(ARGV[1], ARGV[7])
return 'updated'
`;

/**
 * Oldest first: drop expired (and dangling) seeks, take the first by another account, else queue the
 * new one. KEYS[1] pool, KEYS[2] new seek; ARGV: prefix, now ms, id, account, doc, expires ms, pool sha1.
 */
const MATCH_OR_ADD_SCRIPT = `
local now = tonumber(ARGV[2])
for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  local key = ARGV[1] .. 'seek:' .. id
  local seek = redis.call('HMGET', key, 'doc', 'account', 'expires')
  if not seek[1] or tonumber(seek[3]) <= now then
    redis.call('LREM', KEYS[1], 1, id)
    redis.call('DEL', key)
  elseif seek[2] ~= ARGV[4] then
    redis.call('LREM', KEYS[1], 1, id)
    redis.call('DEL', key)
    return seek[1]
  end
end
redis.call('HSET', KEYS[2], 'doc', ARGV[5], 'account', ARGV[4], 'expires', ARGV[6], 'pool', ARGV[7])
redis.call('RPUSH', KEYS[1], ARGV[3])
return false
`;

/** Take a waiting seek out of its pool. KEYS[1] seek; ARGV: prefix, id. */
const REMOVE_SEEK_SCRIPT = `
local pool = redis.call('HGET', KEYS[1], 'pool')
if not pool then return 0 end
redis.call('LREM', ARGV[1] .. 'seeks:pool:' .. pool, 1, ARGV[2])
redis.call('DEL', KEYS[1])
return 1
`;

/** Append notices on their own. ARGV: prefix, notices (JSON). */
const APPEND_SCRIPT = `${APPEND_NOTICES}
append_notices(ARGV[1], ARGV[2])
return 1
`;

/**
 * A page of a feed with its bounds, read at one instant.
 * KEYS[1] feed, KEYS[2] feed counter; ARGV: after, limit.
 */
const READ_FEED_SCRIPT = `
local events = {}
if tonumber(ARGV[2]) > 0 then
  events = redis.call('XRANGE', KEYS[1], '(' .. ARGV[1] .. '-0', '+', 'COUNT', ARGV[2])
end
local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
return {events, redis.call('GET', KEYS[2]) or '0', oldest[1] and oldest[1][1] or ''}
`;

const SCRIPTS = {
  boardhostCreate: { numberOfKeys: 1, lua: CREATE_SCRIPT },
  boardhostUpdate: { numberOfKeys: 2, lua: UPDATE_SCRIPT },
  boardhostClaimDue: { numberOfKeys: 1, lua: CLAIM_DUE_SCRIPT },
  boardhostMarkReminded: { numberOfKeys: 2, lua: MARK_REMINDED_SCRIPT },
  boardhostSaveVacation: { numberOfKeys: 1, lua: SAVE_VACATION_SCRIPT },
  boardhostCreateAccount: { numberOfKeys: 3, lua: CREATE_ACCOUNT_SCRIPT },
  boardhostAddToken: { numberOfKeys: 2, lua: ADD_TOKEN_SCRIPT },
  boardhostCompareAndSet: { numberOfKeys: 1, lua: COMPARE_AND_SET_SCRIPT },
  boardhostCreateChallenge: { numberOfKeys: 1, lua: CREATE_CHALLENGE_SCRIPT },
  boardhostUpdateChallenge: { numberOfKeys: 2, lua: UPDATE_CHALLENGE_SCRIPT },
  boardhostMatchOrAdd: { numberOfKeys: 2, lua: MATCH_OR_ADD_SCRIPT },
  boardhostRemoveSeek: { numberOfKeys: 1, lua: REMOVE_SEEK_SCRIPT },
  boardhostAppend: { numberOfKeys: 0, lua: APPEND_SCRIPT },
  boardhostReadFeed: { numberOfKeys: 2, lua: READ_FEED_SCRIPT },
} as const;

type Arg = string | number;
type StreamEntry = [id: string, fields: string[]];

interface ScriptedRedis extends Redis {
  boardhostCreate(...args: Arg[]): Promise<number>;
  boardhostUpdate(...args: Arg[]): Promise<[string, string?]>;
  boardhostClaimDue(...args: Arg[]): Promise<string[]>;
  boardhostMarkReminded(...args: Arg[]): Promise<number>;
  boardhostSaveVacation(...args: Arg[]): Promise<number>;
  boardhostCreateAccount(...args: Arg[]): Promise<number>;
  boardhostAddToken(...args: Arg[]): Promise<number>;
  boardhostCompareAndSet(...args: Arg[]): Promise<number>;
  boardhostCreateChallenge(...args: Arg[]): Promise<number>;
  boardhostUpdateChallenge(...args: Arg[]): Promise<ChallengeUpdateResult | 'game-exists'>;
  boardhostMatchOrAdd(...args: Arg[]): Promise<string | null>;
  boardhostRemoveSeek(...args: Arg[]): Promise<number>;
  boardhostAppend(...args: Arg[]): Promise<number>;
  boardhostReadFeed(...args: Arg[]): Promise<[StreamEntry[], string, string]>;
}

const scriptedClients = new WeakSet<Redis>();

/** The client with every script defined (once per client, whichever store asks first). */
function scripted(redis: Redis): ScriptedRedis {
  if (!scriptedClients.has(redis)) {
    for (const [name, definition] of Object.entries(SCRIPTS)) redis.defineCommand(name, definition);
    scriptedClients.add(redis);
  }
  return redis as ScriptedRedis;
}

/** Epoch ms of an ISO time, as text for a script; throws before any write on a bad time. */
function msOf(iso: string, what: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw new Error(`${what} is not a valid time: ${iso}`);
  return String(ms);
}

/** Notices as the append_notices Lua snippet reads them (one JSON argument). */
function noticesArgument(notices: readonly Notice[]): string {
  return JSON.stringify(
    notices.map((n) => {
      const ms = msOf(n.at, 'notice time');
      const data = JSON.stringify(n.data);
      return {
        to: [...new Set(n.to)],
        type: n.type,
        at: n.at,
        ms,
        cutoff: Number(ms) - FEED_RETENTION_MS,
        data,
        // The live message after its seq: FeedEvent JSON with the key order memory.ts publishes.
        rest: `,"type":${JSON.stringify(n.type)},"at":${JSON.stringify(n.at)},"data":${data}}`,
      };
    }),
  );
}

/** The listing indexes (without prefix) a new game belongs to. */
function gameIndexes(game: StoredGame): string {
  const accounts = new Set(game.seats.flatMap((s) => (s.account === null ? [] : [s.account])));
  return JSON.stringify([
    'games:all',
    `games:kind:${game.kind}`,
    `games:status:${game.status}`,
    ...[...accounts].map((a) => `games:account:${a}`),
  ]);
}

/** A game's clock index entries as index_clock reads them (scores as text, '' for none). */
function clockIndexArgument(game: StoredGame): string {
  const index = clockIndexOf(game);
  return JSON.stringify({
    deadline: index.deadline === null ? '' : String(index.deadline),
    reminder: index.reminder === null ? '' : String(index.reminder),
    turn: index.turn,
    accounts: index.accounts,
    mover: index.mover ?? '',
    score: String(index.moverScore),
  });
}

/** Accounts a challenge involves: challenger, destination and named players. */
function involved(challenge: StoredChallenge): string[] {
  const accounts = [challenge.challenger, challenge.destination, ...(challenge.players ?? [])];
  return [...new Set(accounts.filter((a): a is string => a !== null))];
}

/** A non-negative integer for a stream range or count (NaN reads as 0, huge values are capped). */
function wholeNumber(n: number): number {
  if (Number.isNaN(n) || n <= 0) return 0;
  return Math.min(Math.floor(n), Number.MAX_SAFE_INTEGER);
}

/** Client options that fail fast when Redis is down, so requests get 503 instead of hanging. */
export function redisClientOptions(): RedisOptions {
  return {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    // Concurrent requests share round trips: one write per event-loop tick instead of one per command.
    enableAutoPipelining: true,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  };
}

/** Opens a client and waits until it is ready (or fails after `timeoutMs`). */
export async function connectRedis(url: string, timeoutMs = 5000): Promise<Redis> {
  const client = new Redis(url, { ...redisClientOptions(), lazyConnect: true });
  client.on('error', () => {
    // Connection errors surface on the commands that fail; without a listener ioredis logs them.
  });
  const timer = setTimeout(() => client.disconnect(), timeoutMs);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new Error(`cannot connect to Redis at ${url}: ${(error as Error).message}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  return client;
}

export class RedisGameStore implements GameStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.redis = scripted(redis);
  }

  private gameKey(id: string): string {
    return `${this.prefix}game:{${id}}`;
  }

  private idemKey(id: string, key: string): string {
    return `${this.prefix}idem:{${id}}:${key}`;
  }

  /** The pub/sub channel of a game's updates. */
  channel(id: string): string {
    return `${this.prefix}updates:{${id}}`;
  }

  async create(game: StoredGame, notices: readonly Notice[] = []): Promise<void> {
    const created = await this.redis.boardhostCreate(
      this.gameKey(game.id),
      this.prefix,
      game.id,
      JSON.stringify(game),
      game.version,
      gameIndexes(game),
      noticesArgument(notices),
      clockIndexArgument(game),
    );
    if (created !== 1) throw new Error(`game ${game.id} exists`);
  }

  async get(id: string): Promise<StoredGame | undefined> {
    const doc = await this.redis.hget(this.gameKey(id), 'doc');
    return doc ? (JSON.parse(doc) as StoredGame) : undefined;
  }

  async list(filter: GameFilter, limit: number, before?: number): Promise<GamePage> {
    const p = this.prefix;
    // Walk the narrowest index and check every filter on each document.
    const index = filter.account
      ? `${p}games:account:${filter.account}`
      : filter.status
        ? `${p}games:status:${filter.status}`
        : filter.kind
          ? `${p}games:kind:${filter.kind}`
          : `${p}games:all`;
    const items: StoredGame[] = [];
    const batchSize = Math.max(limit * 2, 20);
    let lastSeq = 0;
    let max = before === undefined ? '+inf' : `(${before}`;
    for (;;) {
      const batch = await this.redis.zrevrangebyscore(
        index,
        max,
        '-inf',
        'WITHSCORES',
        'LIMIT',
        0,
        batchSize,
      );
      const ids = batch.filter((_, i) => i % 2 === 0);
      const seqs = batch.filter((_, i) => i % 2 === 1).map(Number);
      const docs = await Promise.all(ids.map((id) => this.get(id)));
      for (let i = 0; i < docs.length; i++) {
        const game = docs[i];
        if (
          !game ||
          (filter.kind && game.kind !== filter.kind) ||
          (filter.status && game.status !== filter.status) ||
          (filter.account && !game.seats.some((s) => s.account === filter.account))
        ) {
          continue;
        }
        if (items.length === limit) return { items, next: lastSeq };
        items.push(game);
        lastSeq = seqs[i] as number;
      }
      if (ids.length < batchSize) return { items, next: null };
      max = `(${seqs[seqs.length - 1]}`;
    }
  }

  async update(
    next: StoredGame,
    expectedVersion: number,
    idempotency?: { key: string; fingerprint: string },
    notices: readonly Notice[] = [],
  ): Promise<UpdateResult> {
    const record: IdempotencyRecord | undefined = idempotency
      ? { fingerprint: idempotency.fingerprint, response: next }
      : undefined;
    const json = JSON.stringify(next);
    const [status, payload] = await this.redis.boardhostUpdate(
      this.gameKey(next.id),
      this.idemKey(next.id, idempotency?.key ?? '-'),
      this.prefix,
      String(expectedVersion),
      json,
      String(next.version),
      idempotency ? '1' : '0',
      record ? JSON.stringify(record) : '',
      IDEMPOTENCY_TTL_SECONDS,
      this.channel(next.id),
      next.id,
      next.status,
      noticesArgument(notices),
      clockIndexArgument(next),
    );
    if (status === 'replayed') return { status, record: JSON.parse(payload as string) as IdempotencyRecord };
    if (status === 'conflict') return { status, currentVersion: Number(payload) };
    if (status === 'missing') return { status };
    return { status: 'updated' };
  }

  async idempotencyRecord(gameId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const json = await this.redis.get(this.idemKey(gameId, key));
    return json ? (JSON.parse(json) as IdempotencyRecord) : undefined;
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Fans Redis pub/sub messages out to this process's listeners: one subscriber connection, one
 * channel subscription however many listeners share it (game updates and feeds alike).
 */
export class ChannelFanout {
  private readonly channels = new Map<
    string,
    { readonly listeners: Set<(message: string) => void>; readonly subscribed: Promise<unknown> }
  >();

  constructor(private readonly subscriber: Redis) {
    subscriber.on('message', (channel: string, message: string) => {
      const entry = this.channels.get(channel);
      if (!entry) return;
      for (const listener of entry.listeners) listener(message);
    });
  }

  /** Resolves once Redis confirmed the subscription; returns the unsubscribe function. */
  async listen(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    let entry = this.channels.get(channel);
    if (!entry) {
      entry = { listeners: new Set(), subscribed: this.subscriber.subscribe(channel) };
      this.channels.set(channel, entry);
    }
    // A second listener also waits for the SUBSCRIBE, so it misses nothing published after it returns.
    const joined = entry;
    joined.listeners.add(listener);
    const leave = async () => {
      if (!joined.listeners.delete(listener) || joined.listeners.size > 0) return;
      if (this.channels.get(channel) !== joined) return;
      this.channels.delete(channel);
      await this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
    try {
      await joined.subscribed;
    } catch (error) {
      // Forget the failed subscription, so that the next listener subscribes again.
      await leave();
      throw error;
    }
    return leave;
  }

  async close(): Promise<void> {
    this.channels.clear();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}

/** Live game updates over Redis pub/sub. */
export class RedisEventBus implements GameEventBus {
  constructor(
    private readonly fanout: ChannelFanout,
    private readonly channelOf: (gameId: string) => string,
  ) {}

  async subscribe(gameId: string, listener: (game: StoredGame) => void): Promise<() => Promise<void>> {
    // Each listener parses its own copy, so no two share (or can corrupt) one object.
    return this.fanout.listen(this.channelOf(gameId), (message) =>
      listener(JSON.parse(message) as StoredGame),
    );
  }

  /** Closes the subscriber connection (shared with the feed). */
  async close(): Promise<void> {
    await this.fanout.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Clocks: deadlines, reminders, my-turn lists and vacations.

export class RedisClockStore implements ClockStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.redis = scripted(redis);
  }

  async claimDeadlines(now: number, limit: number, leaseUntil: number): Promise<string[]> {
    return this.claim(`${this.prefix}deadlines`, now, limit, leaseUntil);
  }

  async claimReminders(now: number, limit: number, leaseUntil: number): Promise<string[]> {
    return this.claim(`${this.prefix}reminders`, now, limit, leaseUntil);
  }

  private async claim(key: string, now: number, limit: number, leaseUntil: number): Promise<string[]> {
    const count = wholeNumber(limit);
    if (count === 0) return [];
    return this.redis.boardhostClaimDue(key, String(Math.floor(now)), count, String(Math.floor(leaseUntil)));
  }

  async nextDue(): Promise<number | null> {
    const [deadline, reminder] = await Promise.all([
      this.redis.zrange(`${this.prefix}deadlines`, 0, 0, 'WITHSCORES'),
      this.redis.zrange(`${this.prefix}reminders`, 0, 0, 'WITHSCORES'),
    ]);
    const scores = [deadline[1], reminder[1]].filter((s): s is string => s !== undefined).map(Number);
    return scores.length === 0 ? null : Math.min(...scores);
  }

  async markReminded(gameId: string, turn: string, notices: readonly Notice[]): Promise<boolean> {
    const marked = await this.redis.boardhostMarkReminded(
      `${this.prefix}game:{${gameId}}`,
      `${this.prefix}reminders`,
      this.prefix,
      gameId,
      turn,
      noticesArgument(notices),
    );
    return marked === 1;
  }

  async listTurn(
    account: string,
    filter: { readonly kind?: GameKind },
    limit: number,
    after?: TurnCursor,
  ): Promise<TurnPage> {
    const key = `${this.prefix}games:turn:${account}`;
    const batchSize = Math.max(limit * 2, 20);
    const items: StoredGame[] = [];
    const seen = new Set<string>();
    let last: TurnCursor | null = null;
    // Keyset over (score, id): read from the cursor's score on, skipping what sorts at or before
    // it. `offset` skips the entries already read that share the batch's last score (ties).
    let min = after ? String(after.score) : '-inf';
    let offset = 0;
    for (;;) {
      const batch = await this.redis.zrangebyscore(
        key,
        min,
        '+inf',
        'WITHSCORES',
        'LIMIT',
        offset,
        batchSize,
      );
      const entries: TurnCursor[] = [];
      for (let i = 0; i + 1 < batch.length; i += 2) {
        entries.push({ id: batch[i] as string, score: Number(batch[i + 1]) });
      }
      const docs = await Promise.all(entries.map((e) => this.get(e.id)));
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i] as TurnCursor;
        const game = docs[i];
        if (after && (entry.score < after.score || (entry.score === after.score && entry.id <= after.id))) {
          continue;
        }
        if (seen.has(entry.id)) continue;
        seen.add(entry.id);
        if (!game || !isTurnOf(game, account) || (filter.kind && game.kind !== filter.kind)) continue;
        if (items.length === limit) return { items, next: last };
        items.push(game);
        last = entry;
      }
      if (entries.length < batchSize) return { items, next: null };
      const lastScore = (entries[entries.length - 1] as TurnCursor).score;
      const ties = entries.filter((e) => e.score === lastScore).length;
      offset = String(lastScore) === min ? offset + ties : ties;
      min = String(lastScore);
    }
  }

  private async get(id: string): Promise<StoredGame | undefined> {
    const doc = await this.redis.hget(`${this.prefix}game:{${id}}`, 'doc');
    return doc ? (JSON.parse(doc) as StoredGame) : undefined;
  }

  async getVacation(account: string): Promise<StoredVacation | undefined> {
    const doc = await this.redis.hget(`${this.prefix}vacation:${account}`, 'doc');
    return doc ? (JSON.parse(doc) as StoredVacation) : undefined;
  }

  async saveVacation(next: StoredVacation, expectedVersion: number): Promise<boolean> {
    const saved = await this.redis.boardhostSaveVacation(
      `${this.prefix}vacation:${next.account}`,
      String(expectedVersion),
      JSON.stringify(next),
      String(next.version),
    );
    return saved === 1;
  }
}

export class RedisAccountStore implements AccountStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.redis = scripted(redis);
  }

  private accountKey(id: string): string {
    return `${this.prefix}account:${id}`;
  }

  private tokenKey(hash: string): string {
    return `${this.prefix}token:${hash}`;
  }

  private tokensKey(account: string): string {
    return `${this.prefix}tokens:${account}`;
  }

  async createAccount(account: StoredAccount, firstToken: StoredToken): Promise<boolean> {
    const created = await this.redis.boardhostCreateAccount(
      this.accountKey(account.id),
      this.tokenKey(firstToken.hash),
      this.tokensKey(firstToken.account),
      JSON.stringify(account),
      JSON.stringify(firstToken),
      firstToken.hash,
      msOf(firstToken.createdAt, 'token createdAt'),
    );
    return created === 1;
  }

  async getAccount(id: string): Promise<StoredAccount | undefined> {
    const json = await this.redis.get(this.accountKey(id));
    return json ? (JSON.parse(json) as StoredAccount) : undefined;
  }

  async saveAccount(account: StoredAccount): Promise<void> {
    const saved = await this.redis.set(this.accountKey(account.id), JSON.stringify(account), 'XX');
    if (saved !== 'OK') throw new Error(`account ${account.id} does not exist`);
  }

  async addToken(token: StoredToken): Promise<void> {
    await this.redis.boardhostAddToken(
      this.tokenKey(token.hash),
      this.tokensKey(token.account),
      JSON.stringify(token),
      token.hash,
      msOf(token.createdAt, 'token createdAt'),
    );
  }

  async tokenByHash(hash: string): Promise<StoredToken | undefined> {
    const json = await this.redis.get(this.tokenKey(hash));
    return json ? (JSON.parse(json) as StoredToken) : undefined;
  }

  async listTokens(account: string): Promise<StoredToken[]> {
    return (await this.readTokens(account)).map((t) => t.token);
  }

  /** The account's tokens with the JSON each was read as (for compare-and-set). */
  private async readTokens(account: string): Promise<Array<{ token: StoredToken; json: string }>> {
    const hashes = await this.redis.zrange(this.tokensKey(account), 0, -1);
    if (hashes.length === 0) return [];
    const docs = await this.redis.mget(hashes.map((h) => this.tokenKey(h)));
    return docs.flatMap((json) => {
      if (!json) return [];
      const token = JSON.parse(json) as StoredToken;
      return token.account === account ? [{ token, json }] : [];
    });
  }

  async revokeToken(account: string, tokenId: string, at: string): Promise<StoredToken | undefined> {
    // Read, change in JS (no re-encoding in Lua), write only if unchanged meanwhile; retry otherwise.
    for (let attempt = 0; attempt < 10; attempt++) {
      const found = (await this.readTokens(account)).find((t) => t.token.id === tokenId);
      if (!found) return undefined;
      if (found.token.revokedAt !== null) return found.token;
      const revoked: StoredToken = { ...found.token, revokedAt: at };
      const key = this.tokenKey(found.token.hash);
      if ((await this.redis.boardhostCompareAndSet(key, found.json, JSON.stringify(revoked))) === 1) {
        return revoked;
      }
    }
    throw new Error(`token ${tokenId} kept changing while being revoked`);
  }
}

export class RedisChallengeStore implements ChallengeStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.redis = scripted(redis);
  }

  private challengeKey(id: string): string {
    return `${this.prefix}challenge:${id}`;
  }

  /** What index_challenge needs to (un)index the challenge. */
  private static index(challenge: StoredChallenge): string {
    return JSON.stringify({
      open: challenge.status === 'open',
      created: msOf(challenge.createdAt, 'challenge createdAt'),
      expires: msOf(challenge.expiresAt, 'challenge expiresAt'),
      accounts: involved(challenge),
    });
  }

  async createChallenge(challenge: StoredChallenge, notices: readonly Notice[]): Promise<void> {
    const created = await this.redis.boardhostCreateChallenge(
      this.challengeKey(challenge.id),
      this.prefix,
      challenge.id,
      JSON.stringify(challenge),
      challenge.version,
      RedisChallengeStore.index(challenge),
      noticesArgument(notices),
    );
    if (created !== 1) throw new Error(`challenge ${challenge.id} exists`);
  }

  async getChallenge(id: string): Promise<StoredChallenge | undefined> {
    const doc = await this.redis.hget(this.challengeKey(id), 'doc');
    return doc ? (JSON.parse(doc) as StoredChallenge) : undefined;
  }

  async updateChallenge(
    next: StoredChallenge,
    expectedVersion: number,
    effects: { notices: readonly Notice[]; game?: StoredGame },
  ): Promise<ChallengeUpdateResult> {
    const { game } = effects;
    const result = await this.redis.boardhostUpdateChallenge(
      this.challengeKey(next.id),
      game ? `${this.prefix}game:{${game.id}}` : this.challengeKey(next.id),
      this.prefix,
      String(expectedVersion),
      next.id,
      JSON.stringify(next),
      String(next.version),
      RedisChallengeStore.index(next),
      noticesArgument(effects.notices),
      game ? JSON.stringify(game) : '',
      game?.id ?? '',
      game?.version ?? 0,
      game ? gameIndexes(game) : '[]',
      game ? clockIndexArgument(game) : '',
    );
    if (result === 'game-exists') throw new Error(`game ${game?.id} exists`);
    return result;
  }

  async listOpen(account: string): Promise<StoredChallenge[]> {
    const index = `${this.prefix}challenges:open:${account}`;
    const ids = await this.redis.zrevrange(index, 0, -1);
    const docs = await Promise.all(ids.map((id) => this.getChallenge(id)));
    const open: StoredChallenge[] = [];
    const stale: string[] = [];
    docs.forEach((c, i) => {
      if (c && c.status === 'open' && involved(c).includes(account)) open.push(c);
      else stale.push(ids[i] as string);
    });
    // Statuses other than open are final, so an entry seen stale stays stale.
    if (stale.length > 0) await this.redis.zrem(index, ...stale);
    return open;
  }

  async dueChallenges(now: string, limit: number): Promise<string[]> {
    const count = wholeNumber(limit);
    if (count === 0) return [];
    const nowMs = msOf(now, 'now');
    return this.redis.zrangebyscore(`${this.prefix}challenges:expiry`, '-inf', nowMs, 'LIMIT', 0, count);
  }
}

export class RedisSeekStore implements SeekStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.redis = scripted(redis);
  }

  private seekKey(id: string): string {
    return `${this.prefix}seek:${id}`;
  }

  async matchOrAdd(seek: StoredSeek, now: string): Promise<StoredSeek | undefined> {
    // Pools are free text: hashed, they make a key of fixed shape.
    const pool = createHash('sha1').update(seek.pool).digest('hex');
    const matched = await this.redis.boardhostMatchOrAdd(
      `${this.prefix}seeks:pool:${pool}`,
      this.seekKey(seek.id),
      this.prefix,
      msOf(now, 'now'),
      seek.id,
      seek.account,
      JSON.stringify(seek),
      msOf(seek.expiresAt, 'seek expiresAt'),
      pool,
    );
    return matched ? (JSON.parse(matched) as StoredSeek) : undefined;
  }

  async getSeek(id: string): Promise<StoredSeek | undefined> {
    const doc = await this.redis.hget(this.seekKey(id), 'doc');
    return doc ? (JSON.parse(doc) as StoredSeek) : undefined;
  }

  async removeSeek(id: string): Promise<boolean> {
    return (await this.redis.boardhostRemoveSeek(this.seekKey(id), this.prefix, id)) === 1;
  }
}

/** Per-account feeds: one stream each, trimmed by age on append, published live. */
export class RedisEventFeed implements EventFeed {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly fanout: ChannelFanout,
  ) {
    this.redis = scripted(redis);
  }

  async append(notices: readonly Notice[]): Promise<void> {
    if (notices.length === 0) return;
    await this.redis.boardhostAppend(this.prefix, noticesArgument(notices));
  }

  async read(account: string, after: number, limit: number): Promise<FeedPage> {
    const [entries, last, oldest] = await this.redis.boardhostReadFeed(
      `${this.prefix}feed:{${account}}`,
      `${this.prefix}feedseq:{${account}}`,
      wholeNumber(after),
      wholeNumber(limit),
    );
    const events = entries.map(([id, fields]): FeedEvent => {
      const value: Record<string, string> = {};
      for (let i = 0; i + 1 < fields.length; i += 2) value[fields[i] as string] = fields[i + 1] as string;
      return {
        seq: parseInt(id, 10),
        type: value.type as FeedEventType,
        at: value.at as string,
        data: JSON.parse(value.data ?? '{}') as FeedEvent['data'],
      };
    });
    const lastSeq = Number(last);
    return { events, last: lastSeq, first: oldest ? parseInt(oldest, 10) : lastSeq + 1 };
  }

  async subscribe(account: string, listener: (event: FeedEvent) => void): Promise<() => Promise<void>> {
    return this.fanout.listen(`${this.prefix}feedlive:{${account}}`, (message) =>
      listener(JSON.parse(message) as FeedEvent),
    );
  }
}

/** The whole storage over two connections: `data` for commands, `subscriber` for pub/sub. */
export function redisStorage(data: Redis, subscriber: Redis, prefix: string): Storage {
  const fanout = new ChannelFanout(subscriber);
  const games = new RedisGameStore(data, prefix);
  return {
    name: 'redis',
    games,
    events: new RedisEventBus(fanout, (id) => games.channel(id)),
    clocks: new RedisClockStore(data, prefix),
    accounts: new RedisAccountStore(data, prefix),
    challenges: new RedisChallengeStore(data, prefix),
    seeks: new RedisSeekStore(data, prefix),
    feed: new RedisEventFeed(data, prefix, fanout),
    webhooks: new RedisWebhookStore(data, prefix),
    limiter: (options) => createLimiter(options, { client: data, prefix }),
  };
}

/** Everything in Redis: one data connection and one subscriber connection. */
export async function createRedisStorage(url: string, prefix: string): Promise<Storage> {
  const data = await connectRedis(url);
  const subscriber = await connectRedis(url).catch(async (error: unknown) => {
    data.disconnect();
    throw error;
  });
  return redisStorage(data, subscriber, prefix);
}

// ---------------------------------------------------------------------------------------------
// Webhooks. Key layout (prefix p, endpoint id w, account id a):
//   p webhook:w            hash: doc (JSON StoredWebhook), account, cursor, pending (JSON
//                          PendingDelivery or ''), next (its next attempt, epoch ms, or ''),
//                          lease (the current claim's token), logseq (the log's counter)
//   p webhooks:account:a   set of the account's endpoint ids (append_notices reads it)
//   p webhooks:due         sorted set of endpoints with work, score = when (epoch ms): an event
//                          appended (ZADD NX at its time), a retry's next attempt, or a lease's end
//   p webhooklog:w         stream of the endpoint's delivery attempts, entry id <n>-0, field
//                          attempt (DeliveryAttempt JSON), capped at about DELIVERY_LOG_MAX_LENGTH
// The feed is the outbox: an endpoint's cursor says how far it got, and the due set says which
// endpoints to look at. Like the feed writes, these scripts touch keys of several slots (one Redis).

/**
 * Stores an endpoint at its account's newest seq unless the account has `max` already.
 * KEYS[1] endpoint, KEYS[2] the account's endpoint set; ARGV: prefix, id, account, doc, max.
 * Returns the cursor, or -1 at the limit.
 */
const CREATE_WEBHOOK_SCRIPT = `
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[5]) then return -1 end
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('webhook exists') end
local cursor = redis.call('GET', ARGV[1] .. 'feedseq:{' .. ARGV[3] .. '}') or '0'
redis.call('HSET', KEYS[1], 'doc', ARGV[4], 'account', ARGV[3], 'cursor', cursor, 'pending', '', 'next', '')
redis.call('SADD', KEYS[2], ARGV[2])
return tonumber(cursor)
`;

/** KEYS[1] endpoint, KEYS[2] its log; ARGV: prefix, id. 1 when it existed. */
const DELETE_WEBHOOK_SCRIPT = `
local account = redis.call('HGET', KEYS[1], 'account')
if not account then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SREM', ARGV[1] .. 'webhooks:account:' .. account, ARGV[2])
redis.call('ZREM', ARGV[1] .. 'webhooks:due', ARGV[2])
return 1
`;

/**
 * Claims endpoints whose due time has come and that have work; forgets those without (deleted, or
 * caught up) and puts back those whose retry is not due. Each claimed endpoint gets the lease token
 * and a due time at the lease's end, so that it comes back if its claimer dies.
 * ARGV: prefix, now ms, lease end ms, limit, token. Returns [id, doc, cursor, pending] per claim.
 */
const CLAIM_WEBHOOKS_SCRIPT = `
local p = ARGV[1]
local now = tonumber(ARGV[2])
local due = p .. 'webhooks:due'
local claimed = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', due, '-inf', ARGV[2], 'LIMIT', 0, ARGV[4])) do
  local key = p .. 'webhook:' .. id
  local h = redis.call('HMGET', key, 'doc', 'account', 'cursor', 'pending', 'next')
  if not h[1] then
    redis.call('ZREM', due, id)
  elseif h[4] ~= '' and tonumber(h[5]) > now then
    redis.call('ZADD', due, h[5], id)
  elseif h[4] == '' and tonumber(h[3]) >= tonumber(redis.call('GET', p .. 'feedseq:{' .. h[2] .. '}') or '0') then
    redis.call('ZREM', due, id)
  else
    redis.call('HSET', key, 'lease', ARGV[5])
    redis.call('ZADD', due, ARGV[3], id)
    table.insert(claimed, {id, h[1], h[3], h[4]})
  end
end
return claimed
`;

/** Lua: append attempts (JSON list of their JSON without the leading brace) to an endpoint's log. */
const LOG_ATTEMPTS = `
local function log_attempts(key, log, attempts, maxlen)
  local last = 0
  for _, rest in ipairs(cjson.decode(attempts)) do
    last = redis.call('HINCRBY', key, 'logseq', 1)
    redis.call('XADD', log, 'MAXLEN', '~', maxlen, last .. '-0', 'attempt', '{"n":' .. last .. ',' .. rest)
  end
  return last
end
`;

/**
 * Ends a claim if its lease is still the endpoint's: state, log, and the next due time.
 * KEYS[1] endpoint, KEYS[2] its log; ARGV: prefix, id, token, cursor, pending, next ms, now ms,
 * attempts (JSON), max log length.
 */
const RELEASE_WEBHOOK_SCRIPT = `${LOG_ATTEMPTS}
local h = redis.call('HMGET', KEYS[1], 'lease', 'account')
if h[1] ~= ARGV[3] or not h[2] then return 0 end
redis.call('HSET', KEYS[1], 'cursor', ARGV[4], 'pending', ARGV[5], 'next', ARGV[6])
redis.call('HDEL', KEYS[1], 'lease')
log_attempts(KEYS[1], KEYS[2], ARGV[8], ARGV[9])
local due = ARGV[1] .. 'webhooks:due'
if ARGV[5] ~= '' then
  redis.call('ZADD', due, ARGV[6], ARGV[2])
elseif tonumber(ARGV[4]) < tonumber(redis.call('GET', ARGV[1] .. 'feedseq:{' .. h[2] .. '}') or '0') then
  redis.call('ZADD', due, ARGV[7], ARGV[2])
else
  redis.call('ZREM', due, ARGV[2])
end
return 1
`;

/** KEYS[1] endpoint, KEYS[2] its log; ARGV: attempts (JSON), max log length. The new n, or 0. */
const LOG_ATTEMPT_SCRIPT = `${LOG_ATTEMPTS}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return log_attempts(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
`;

const WEBHOOK_SCRIPTS = {
  boardhostCreateWebhook: { numberOfKeys: 2, lua: CREATE_WEBHOOK_SCRIPT },
  boardhostDeleteWebhook: { numberOfKeys: 2, lua: DELETE_WEBHOOK_SCRIPT },
  boardhostClaimWebhooks: { numberOfKeys: 0, lua: CLAIM_WEBHOOKS_SCRIPT },
  boardhostReleaseWebhook: { numberOfKeys: 2, lua: RELEASE_WEBHOOK_SCRIPT },
  boardhostLogAttempt: { numberOfKeys: 2, lua: LOG_ATTEMPT_SCRIPT },
} as const;

interface WebhookRedis extends Redis {
  boardhostCreateWebhook(...args: Arg[]): Promise<number>;
  boardhostDeleteWebhook(...args: Arg[]): Promise<number>;
  boardhostClaimWebhooks(...args: Arg[]): Promise<Array<[string, string, string, string]>>;
  boardhostReleaseWebhook(...args: Arg[]): Promise<number>;
  boardhostLogAttempt(...args: Arg[]): Promise<number>;
}

const webhookClients = new WeakSet<Redis>();

/** Attempts as log_attempts reads them: each one's JSON after its opening brace (n goes first). */
function attemptsArgument(attempts: readonly NewDeliveryAttempt[]): string {
  return JSON.stringify(attempts.map((a) => JSON.stringify(a).slice(1)));
}

function stateOf(cursor: string | null, pending: string | null): WebhookState {
  return {
    cursor: Number(cursor ?? 0),
    pending: pending ? (JSON.parse(pending) as WebhookState['pending']) : null,
  };
}

/** Webhook endpoints, their delivery state and logs; the due set shared by every node. */
export class RedisWebhookStore implements WebhookStore {
  private readonly redis: WebhookRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly maxLogLength = DELIVERY_LOG_MAX_LENGTH,
  ) {
    if (!webhookClients.has(redis)) {
      for (const [name, definition] of Object.entries(WEBHOOK_SCRIPTS)) redis.defineCommand(name, definition);
      webhookClients.add(redis);
    }
    this.redis = redis as WebhookRedis;
  }

  private key(id: string): string {
    return `${this.prefix}webhook:${id}`;
  }

  private logKey(id: string): string {
    return `${this.prefix}webhooklog:${id}`;
  }

  async createWebhook(webhook: StoredWebhook, max: number): Promise<WebhookState | undefined> {
    const cursor = await this.redis.boardhostCreateWebhook(
      this.key(webhook.id),
      `${this.prefix}webhooks:account:${webhook.account}`,
      this.prefix,
      webhook.id,
      webhook.account,
      JSON.stringify(webhook),
      wholeNumber(max),
    );
    return cursor < 0 ? undefined : { cursor, pending: null };
  }

  async getWebhook(id: string): Promise<WebhookRecord | undefined> {
    const [doc, cursor, pending] = await this.redis.hmget(this.key(id), 'doc', 'cursor', 'pending');
    return doc
      ? { webhook: JSON.parse(doc) as StoredWebhook, state: stateOf(cursor ?? null, pending ?? null) }
      : undefined;
  }

  async listWebhooks(account: string): Promise<WebhookRecord[]> {
    const ids = await this.redis.smembers(`${this.prefix}webhooks:account:${account}`);
    const records = await Promise.all(ids.map((id) => this.getWebhook(id)));
    return records
      .filter((r): r is WebhookRecord => r !== undefined && r.webhook.account === account)
      .sort(
        (a, b) =>
          a.webhook.createdAt.localeCompare(b.webhook.createdAt) || a.webhook.id.localeCompare(b.webhook.id),
      );
  }

  async deleteWebhook(id: string): Promise<boolean> {
    return (await this.redis.boardhostDeleteWebhook(this.key(id), this.logKey(id), this.prefix, id)) === 1;
  }

  async claimDue(now: string, limit: number, leaseMs: number): Promise<WebhookClaim[]> {
    const count = wholeNumber(limit);
    if (count === 0) return [];
    const nowMs = Number(msOf(now, 'now'));
    const lease = randomBytes(12).toString('base64url');
    const claimed = await this.redis.boardhostClaimWebhooks(
      this.prefix,
      nowMs,
      nowMs + wholeNumber(leaseMs),
      count,
      lease,
    );
    return claimed.map(([, doc, cursor, pending]) => ({
      webhook: JSON.parse(doc) as StoredWebhook,
      state: stateOf(cursor, pending),
      lease,
    }));
  }

  async release(
    id: string,
    lease: string,
    state: WebhookState,
    attempts: readonly NewDeliveryAttempt[],
    now: string,
  ): Promise<boolean> {
    const released = await this.redis.boardhostReleaseWebhook(
      this.key(id),
      this.logKey(id),
      this.prefix,
      id,
      lease,
      wholeNumber(state.cursor),
      state.pending ? JSON.stringify(state.pending) : '',
      state.pending ? msOf(state.pending.nextAttemptAt, 'nextAttemptAt') : '',
      msOf(now, 'now'),
      attemptsArgument(attempts),
      this.maxLogLength,
    );
    return released === 1;
  }

  async logAttempt(id: string, attempt: NewDeliveryAttempt): Promise<DeliveryAttempt | undefined> {
    const n = await this.redis.boardhostLogAttempt(
      this.key(id),
      this.logKey(id),
      attemptsArgument([attempt]),
      this.maxLogLength,
    );
    return n > 0 ? { n, ...attempt } : undefined;
  }

  async deliveryLog(id: string, limit: number, before?: number): Promise<DeliveryLogPage> {
    const count = wholeNumber(limit);
    const end = before === undefined ? '+' : `(${wholeNumber(before)}-0`;
    if (count === 0) return { items: [], next: null };
    const entries = await this.redis.xrevrange(this.logKey(id), end, '-', 'COUNT', count + 1);
    const items = entries.slice(0, count).map(([, fields]) => attemptOf(fields));
    const last = items[items.length - 1];
    return { items, next: entries.length > count && last ? last.n : null };
  }

  async findDelivery(id: string, deliveryId: string): Promise<DeliveryAttempt | undefined> {
    let end = '+';
    for (;;) {
      const entries = await this.redis.xrevrange(this.logKey(id), end, '-', 'COUNT', 200);
      for (const [, fields] of entries) {
        const attempt = attemptOf(fields);
        if (attempt.deliveryId === deliveryId) return attempt;
      }
      const oldest = entries[entries.length - 1];
      if (entries.length < 200 || !oldest) return undefined;
      end = `(${oldest[0]}`;
    }
  }
}

function attemptOf(fields: string[]): DeliveryAttempt {
  const i = fields.indexOf('attempt');
  return JSON.parse(fields[i + 1] ?? '{}') as DeliveryAttempt;
}
