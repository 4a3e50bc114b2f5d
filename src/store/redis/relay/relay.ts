import { randomBytes } from 'node:crypto';
import {
  GAME_STATUSES,
  type FeedOptions,
  type GameEffects,
  type Notice,
  type RatingResult,
  type StoredGame,
} from '../../store';
import { epochCandidate, noticesArgument } from '../games/arguments';
import type Redis from 'ioredis';
import { ALL_SHARDS, shardOf, type Keys } from '../keys';
import { definedScript, isNoScript, runScript } from '../script';
import { Ticker } from '../ticker';
import { advanceOutbox, relayAccount, releaseOutbox } from './scripts';

// The relay of the outbox (docs/data-model.md): entries written by a shard's scripts are applied
// to each account they concern, once and in order per origin (the account script refuses
// duplicates and holds back entries that would skip one).

/** An index operation on an account's keys: ['zadd', key, score, member] and the like. */
export type IndexOp =
  | readonly ['zadd', string, number | '@lseq', string]
  | readonly ['zrem' | 'sadd' | 'srem', string, string]
  /** A rated game's result for the account (the relay applies it; the account script skips it). */
  | readonly ['rate', RatingResult];

/** What applying an account's part did ('resynced': over lost versions, see OutboxRelay.drain). */
export type Applied = 'applied' | 'dup' | 'gap' | 'resynced';

/**
 * A game's epoch (stream field `e` of its entries; ../games/scripts.ts `game_epoch`): a number that
 * grows each time another Redis writes the game (a restart, a replica promoted in a failover). A
 * promoted replica that missed writes goes on from an older version, and the versions it reuses
 * name other moves: an account compares the epoch with the one it recorded next to `applied`.
 */
export type GameEpoch = string;

/** Per account, the version before an entry (stream field `a`; see OutboxEntry). */
export type Befores = Readonly<Record<string, number>>;

/** The befores a script answered (JSON; '' or none: the entry's own `before` holds). */
export function parseBefores(json: string | undefined): Befores | undefined {
  return json ? (JSON.parse(json) as Befores) : undefined;
}

/** What one entry means for one account. */
export interface AccountPart {
  readonly account: string;
  readonly notices: readonly Notice[];
  readonly ops: readonly IndexOp[];
}

/**
 * One outbox entry: its origin (`g:<id>`…), the origin's version, the version before ('' for any).
 * Relay versions start at 1 (a game's are its versions + 1: a game begins at version 0).
 *
 * An origin whose accounts change over time (a challenge: whoever accepts an open one joins it)
 * cannot give one `before` for all: its script keeps, per account, the version of the last entry
 * that had a part for it, and writes those in the entry (stream field `a`: account → before, which
 * wins over `before`). So each account still gets the origin's entries once and in order.
 */
export interface OutboxEntry {
  readonly origin: string;
  readonly version: number;
  readonly before: number | '';
  readonly parts: readonly AccountPart[];
}

/** The outbox fields a script appends (ARGV from the outbox position on): origin, version, before, then per account. */
export function outboxFields(entry: OutboxEntry, feed: FeedOptions): string[] {
  if (entry.parts.length === 0) return [];
  const fields = [entry.origin, String(entry.version), String(entry.before)];
  for (const part of entry.parts) {
    fields.push(part.account, noticesArgument(part.notices, feed, part.account), JSON.stringify(part.ops));
  }
  return fields;
}

/**
 * A game's entry for each seated account, encoding a write's effects (decided by the service, see
 * service/game/effects.ts; accountEffectsOf for a new or migrated game): the notices addressed to
 * the account, and its listings, my-turn entry, ongoing set and rated result (`@lseq` stands for the
 * game's listing score).
 */
export function gameParts(
  keys: Keys,
  game: Pick<StoredGame, 'id' | 'kind'>,
  effects: Pick<GameEffects, 'notices' | 'accounts'>,
): AccountPart[] {
  return effects.accounts.map(({ account, status, turn, ongoing, rating }) => {
    const ops: IndexOp[] = [];
    for (const kind of [undefined, game.kind]) {
      ops.push(['zadd', keys.accountListing(account, kind), '@lseq', game.id]);
      for (const listed of GAME_STATUSES) {
        const key = keys.accountListing(account, kind, listed);
        ops.push(listed === status ? ['zadd', key, '@lseq', game.id] : ['zrem', key, game.id]);
      }
    }
    ops.push(['zrem', keys.turn(account), game.id]);
    if (turn !== null) ops.push(['zadd', keys.turn(account), turn, game.id]);
    ops.push([ongoing ? 'sadd' : 'srem', keys.ongoing(account), game.id]);
    if (rating) ops.push(['rate', rating]);
    return { account, notices: effects.notices.filter((n) => n.to.includes(account)), ops };
  });
}

export interface RelayOptions {
  readonly feed?: FeedOptions;
  /** 'SPUBLISH' on a Cluster, 'PUBLISH' on one Redis. */
  readonly publish: 'PUBLISH' | 'SPUBLISH';
  /**
   * false: leave the writes' own entries to the drains and sweeps (what a node that dies right
   * after its write does; for tests). Default true.
   */
  readonly relayOwnWrites?: boolean;
  /** REDIS_WAIT_REPLICAS: an account's events are replicated before the outbox moves past them. */
  readonly replication?: Replication;
  /** How long a node may hold a shard's outbox before another may take over. */
  readonly leaseMs?: number;
  /**
   * Called with what goes wrong in the background (the sweep retries), and (source 'relay-resync')
   * with each account part applied over versions lost in a failover (see drain).
   */
  readonly onError?: (error: unknown, source?: 'relay' | 'relay-resync') => void;
  /**
   * Applies a rated game's result (an entry's 'rate' operation) to the account's rating, once per
   * game (RatingStore.record): called after the account's part is applied or found applied before
   * (a relay that died in between: the entry comes again), never for a part held back.
   */
  readonly rate?: (result: RatingResult) => Promise<unknown>;
}

/** The fields with the listing score in place of `@lseq` (as the scripts write them in the outbox). */
function withScore(fields: readonly string[], lseq: string): string[] {
  return fields.map((field, i) => (i > 2 ? field.replaceAll('"@lseq"', lseq) : field));
}

/** Replication settings of a storage (REDIS_WAIT_REPLICAS). */
export interface Replication {
  /** Replicas that must acknowledge a write before it is answered (0: none, no WAIT). */
  readonly replicas: number;
  /** How long WAIT may block (below the command timeout). */
  readonly timeoutMs: number;
}

/**
 * Runs a script of `redis` and, with replicas to wait for, WAIT right behind it on the same
 * connection (one pipeline: on a Cluster the slot's master, whose connection carried the write). A
 * write not acknowledged by enough replicas in time fails with NOREPLICAS (a store outage: 503; the
 * write may stand, so clients retry with their idempotency key).
 */
export async function runReplicated<T>(
  redis: Redis,
  replication: Replication | undefined,
  script: string,
  args: Array<string | number>,
): Promise<T> {
  if (!replication || replication.replicas <= 0) return runScript<T>(redis, script, args);
  const { sha, lua, numberOfKeys } = definedScript(redis, script);
  const send = async (known: boolean) => {
    const pipeline = redis.pipeline();
    if (known) pipeline.evalsha(sha, numberOfKeys, ...args);
    else pipeline.eval(lua, numberOfKeys, ...args);
    pipeline.wait(replication.replicas, replication.timeoutMs);
    return (await pipeline.exec()) ?? [];
  };
  let replies = await send(true);
  // The server did not have the script (a restart, SCRIPT FLUSH): nothing ran; send it whole.
  if (isNoScript(replies[0]?.[0])) replies = await send(false);
  const [written, waited] = replies;
  if (!written || written[0]) throw written?.[0] ?? new Error('Connection is closed');
  if (waited?.[0]) throw waited[0];
  if (Number(waited?.[1]) < replication.replicas) {
    throw new Error(
      `NOREPLICAS the write was acknowledged by ${String(waited?.[1])} of ${replication.replicas} replicas within ${replication.timeoutMs} ms`,
    );
  }
  return written[1] as T;
}

/** Outbox entries read per round trip while draining a shard. */
const BATCH = 100;

export class OutboxRelay {
  private readonly draining = new Map<number, Promise<void>>();
  private readonly again = new Set<number>();
  private readonly ticker: Ticker;
  private readonly leaseMs: number;
  /** Background work that starts and stops with the relay (the app-feed forwarder, its next stage). */
  private readonly attached: Array<{ start(): void; stop(): Promise<void> }> = [];

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
    private readonly options: RelayOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 10_000;
    this.ticker = new Ticker(
      () => this.sweep(),
      (error) => this.options.onError?.(error),
    );
  }

  /** Applies one account's part of an entry: 'applied', 'dup', 'gap', or with `resync` 'resynced' for a gap. */
  async applyPart(
    origin: string,
    version: number,
    before: number | '',
    account: string,
    notices: string,
    ops: string,
    resync = false,
    epoch: GameEpoch = '',
  ): Promise<Applied> {
    const result = await runReplicated<Applied>(
      this.redis,
      this.options.replication,
      relayAccount.name,
      relayAccount.argv(
        { applied: this.keys.applied(account), ...this.keys.feedWrite(account) },
        {
          origin,
          version: String(version),
          before: String(before),
          notices,
          ops,
          candidate: epochCandidate(),
          publish: this.options.publish,
          live: this.keys.feedChannel(account),
          resync: resync ? 'resync' : '',
          epoch,
        },
      ),
    );
    // A rated game's result, after its part (game.finished comes before rating.updated): also on
    // 'dup', since a relay may have died between the two steps (the outbox cursor had not moved
    // past the entry, so it comes again); the rating store counts each game once.
    if (result !== 'gap' && this.options.rate && ops.includes('["rate",')) {
      for (const op of JSON.parse(ops) as IndexOp[]) {
        if (op[0] === 'rate') await this.options.rate(op[1]);
      }
    }
    return result;
  }

  /**
   * The writer applies its own entry at once (so that its caller reads its own writes). What could
   * not be applied (held back, failed) is drained at once; the delivered entry is trimmed by the
   * next sweep. `lseq` is the game's listing score and `epoch` its epoch, as the script answered.
   */
  async deliver(
    shard: number,
    fields: readonly string[],
    lseq = '0',
    befores?: Befores,
    epoch?: GameEpoch,
  ): Promise<void> {
    if (this.options.relayOwnWrites === false) return;
    // No account: the script wrote no outbox entry, so there is nothing to drain.
    if (fields.length <= 3) return;
    const work = this.applyFields(withScore(fields, lseq), befores, false, epoch ?? '');
    const results = await work.catch((error: unknown) => {
      this.options.onError?.(error);
      return ['failed' as const];
    });
    // Delivered: the entry waits only to be trimmed, which the next sweep does. Held back (an
    // earlier version is on its way) or failed: drain the shard now, in order.
    if (results.some((result) => result !== 'applied' && result !== 'dup')) this.kick(shard);
  }

  private async applyFields(
    fields: readonly string[],
    befores?: Befores,
    resync = false,
    epoch: GameEpoch = '',
  ): Promise<Applied[]> {
    const [origin, version, before] = fields as [string, string, string];
    const work: Array<Promise<Applied>> = [];
    for (let i = 3; i + 2 < fields.length; i += 3) {
      const account = fields[i] as string;
      const own = befores?.[account];
      work.push(
        this.applyPart(
          origin,
          Number(version),
          own ?? (before === '' ? '' : Number(before)),
          account,
          fields[i + 1] as string,
          fields[i + 2] as string,
          resync,
          epoch,
        ),
      );
    }
    return Promise.all(work);
  }

  /** Drains the shard's outbox soon (once at a time per shard on this node). */
  kick(shard: number): void {
    if (this.draining.has(shard)) {
      this.again.add(shard);
      return;
    }
    const run = this.drain(shard)
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        this.draining.delete(shard);
        if (this.again.delete(shard)) this.kick(shard);
      });
    this.draining.set(shard, run);
  }

  /** Applies a shard's entries in order under its lease, until the outbox is empty. */
  async drain(shard: number): Promise<void> {
    const outbox = this.keys.outbox(shard);
    const cursorKey = this.keys.outboxCursor(shard);
    const leaseKey = this.keys.outboxLease(shard);
    const token = randomBytes(8).toString('hex');
    if ((await this.redis.set(leaseKey, token, 'PX', this.leaseMs, 'NX')) !== 'OK') return;
    for (;;) {
      const cursor = (await this.redis.get(cursorKey)) ?? '0-0';
      const entries = (await this.redis.xrange(outbox, `(${cursor}`, '+', 'COUNT', BATCH)) as Array<
        [string, string[]]
      >;
      let last: string | undefined;
      for (const [id, raw] of entries) {
        const field: Record<string, string> = {};
        for (let i = 0; i + 1 < raw.length; i += 2) field[raw[i] as string] = raw[i + 1] as string;
        const parts = JSON.parse(field.d ?? '[]') as string[];
        // In outbox order, every earlier version of the origin is behind the cursor: a part that
        // still skips one follows versions its account lost (its shard rolled back in a failover),
        // and one of a later game epoch that does not go on from the account's version follows
        // versions the game lost (its shard rolled back). It is applied over them (its operations
        // are the origin's state then) and the account's feed moves to a new epoch, so clients
        // are told, and no entry ever stops the shard's cursor.
        const results = await this.applyFields(
          [field.o ?? '', field.v ?? '', field.b ?? '', ...parts],
          field.a === undefined ? undefined : (JSON.parse(field.a) as Befores),
          true,
          field.e ?? '',
        );
        const resynced = results.filter((result) => result === 'resynced').length;
        if (resynced > 0) {
          this.options.onError?.(
            new Error(`outbox ${outbox}: entry ${id} of ${field.o} skipped lost versions: resynced`),
            'relay-resync',
          );
        }
        last = id;
      }
      if (last !== undefined) {
        if (
          (await advanceOutbox.run(
            this.redis,
            { outbox, cursor: cursorKey, lease: leaseKey },
            { token, id: last, leaseMs: this.leaseMs },
          )) !== 1
        ) {
          return; // the lease was lost: another node goes on
        }
      }
      if (entries.length === BATCH) continue;
      const released = await releaseOutbox.run(
        this.redis,
        { outbox, cursor: cursorKey, lease: leaseKey },
        { token, leaseMs: this.leaseMs },
      );
      if (released !== 'more') return;
    }
  }

  /** Drains every shard whose outbox holds entries (what a node that died left behind). */
  async sweep(): Promise<void> {
    const lengths = await Promise.all(ALL_SHARDS.map((shard) => this.redis.xlen(this.keys.outbox(shard))));
    for (const shard of ALL_SHARDS) if ((lengths[shard] as number) > 0) this.kick(shard);
    await Promise.all([...this.draining.values()]);
  }

  /** Starts `worker` with the relay's start() (at once if started) and stops it with stop(). */
  attach(worker: { start(): void; stop(): Promise<void> }): void {
    this.attached.push(worker);
    if (this.ticker.started) worker.start();
  }

  /** Sweeps every `intervalMs` until stop(). */
  start(intervalMs = 1000): void {
    if (!this.ticker.start(intervalMs)) return;
    for (const worker of this.attached) worker.start();
  }

  async stop(): Promise<void> {
    this.ticker.stop();
    await Promise.all([...this.draining.values(), ...this.attached.map((worker) => worker.stop())]);
  }
}

export { shardOf };
