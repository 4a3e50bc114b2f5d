import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import {
  APP_FEED_EVENTS_FACTOR,
  appFeedOfAccount,
  FEED_MAX_EVENTS,
  FEED_RETENTION_MS,
  sharedUpTo,
  type EventFeed,
  type FeedEvent,
  type FeedOptions,
} from '../../store';
import { epochCandidate, msOf } from '../games/arguments';
import { Ticker } from '../ticker';
import { dueShards, shardOf, type Keys } from '../keys';
import { appendAppFeed, holdLease, settleAppFeed } from './scripts';

// The forwarder: carries each app account's feed events to its app's feed (ports/feed.ts), once
// each and in the account's order, across shards. An account's feed lives in its shard and the app
// feed in the shard of its owner id, so no one script can write both (on a Cluster a script keeps
// to one slot). Instead:
//   1. Every append to an app account's feed also marks the account in its shard's dirty set
//      (append_to_feed, in the same script: no path that appends can miss it).
//   2. Each node runs a forwarder; per shard with marked accounts it takes the shard's lease (so
//      one node works a shard at a time; a dead node's lease runs out), and for each marked account
//      reads the app feed's mark for it (the newest account event it holds), reads the account's
//      events after that, and appends them to the app feed in one script that checks the mark
//      again and skips what is already there (appendAppFeed): a step repeated after a crash, or by
//      two nodes at once, appends nothing twice.
//   3. It takes the account off the dirty set unless its feed grew since the read (settleAppFeed).
// A crash anywhere leaves the mark, so the next pass goes on from the app feed's own mark: nothing
// is lost. When the account's feed came back older (a new epoch reusing seqs), the forwarder reads
// again from where the epochs agree, and the new events are forwarded as new.

/** Events read from an account's feed per step. */
const PAGE = 200;
/** Marked accounts forwarded at once per shard. */
const BATCH = 50;
/** Rounds over a shard's dirty set per pass at most (accounts still marked wait for the next pass). */
const ROUNDS = 20;
/** Shards worked at once by one node. */
const SHARDS_AT_ONCE = 16;

export interface ForwarderOptions {
  readonly feed?: FeedOptions;
  readonly publish: 'PUBLISH' | 'SPUBLISH';
  /** How long a node holds a shard before another may take over (default 10 s). */
  readonly leaseMs?: number;
  readonly onError?: (error: unknown) => void;
}

/** The "<epoch> <seq>" mark as the app feed keeps it (null epoch: nothing forwarded yet). */
function parseMark(mark: string | null): { epoch: string | null; seq: number } {
  const match = mark ? /^(\S*) (\d+)$/.exec(mark) : null;
  return match ? { epoch: match[1] as string, seq: Number(match[2]) } : { epoch: null, seq: 0 };
}

export class AppFeedForwarder {
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private readonly ticker: Ticker;
  private readonly leaseMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
    private readonly feed: Pick<EventFeed, 'read'>,
    private readonly options: ForwarderOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 10_000;
    this.ticker = new Ticker(
      () => this.forward(),
      (error) => this.options.onError?.(error),
    );
  }

  /**
   * Forwards what every shard's dirty set marks, resolving when done. A call during a pass waits
   * for the pass after it (which sees what was marked meanwhile).
   */
  forward(): Promise<void> {
    if (!this.running) {
      this.running = this.pass().finally(() => (this.running = undefined));
      return this.running;
    }
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.forward();
      });
    return this.next;
  }

  /** Forwards every `intervalMs` until stop(). */
  start(intervalMs = 250): void {
    this.ticker.start(intervalMs);
  }

  async stop(): Promise<void> {
    this.ticker.stop();
    await this.running?.catch(() => undefined);
  }

  private async pass(): Promise<void> {
    // Any mark is due: the scores only order the shards (the oldest mark first).
    const shards = await dueShards(this.redis, (shard) => this.keys.appFeedDirty(shard), Infinity);
    const failures: unknown[] = [];
    for (let i = 0; i < shards.length; i += SHARDS_AT_ONCE) {
      await Promise.all(
        shards
          .slice(i, i + SHARDS_AT_ONCE)
          .map((shard) => this.drain(shard).catch((error: unknown) => failures.push(error))),
      );
    }
    if (failures.length > 0) throw failures[0];
  }

  /** Forwards a shard's marked accounts under its lease. */
  private async drain(shard: number): Promise<void> {
    const dirty = this.keys.appFeedDirty(shard);
    const lease = this.keys.appFeedLease(shard);
    const token = randomBytes(8).toString('hex');
    if ((await this.redis.set(lease, token, 'PX', this.leaseMs, 'NX')) !== 'OK') return;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const accounts = await this.redis.zrange(dirty, 0, BATCH - 1);
        if (accounts.length === 0) return;
        await Promise.all(accounts.map((account) => this.forwardAccount(account)));
        if ((await holdLease.run(this.redis, { lease }, { token, ms: this.leaseMs })) !== 1) return;
      }
    } finally {
      await holdLease.run(this.redis, { lease }, { token, ms: 0 }).catch(() => undefined);
    }
  }

  /** Forwards one account's events its app feed does not hold, then settles its mark. */
  async forwardAccount(account: string): Promise<void> {
    const owner = appFeedOfAccount(account);
    const dirty = this.keys.appFeedDirty(shardOf(account));
    if (owner === undefined) {
      await this.redis.zrem(dirty, account);
      return;
    }
    const applied = this.keys.appFeedApplied(owner);
    let { epoch, seq } = parseMark(await this.redis.hget(applied, account));
    for (;;) {
      let page = await this.feed.read(account, seq, PAGE);
      if (epoch !== null && epoch !== page.epoch) {
        // The account's feed came back older: its events after the seq where the epochs part are
        // new ones (the app feed's mark may be past them).
        const shared = Math.min(sharedUpTo(page.epochs, epoch), page.last);
        if (shared < seq) page = await this.feed.read(account, shared, PAGE);
      }
      if (page.events.length > 0) {
        const [, markEpoch, markSeq] = await appendAppFeed.run(
          this.redis,
          {
            feed: this.keys.feed(owner),
            feedSeq: this.keys.feedSeq(owner),
            feedEpoch: this.keys.feedEpoch(owner),
            hooks: this.keys.webhooksOf(owner),
            due: this.keys.webhooksDue(shardOf(owner)),
            applied,
          },
          {
            account,
            events: this.eventsArgument(account, page.events),
            epochs: JSON.stringify(page.epochs.map((e) => e.id)),
            candidate: epochCandidate(),
            publish: this.options.publish,
            live: this.keys.feedChannel(owner),
          },
        );
        epoch = markEpoch || null;
        seq = Number(markSeq);
      }
      if (page.events.length < PAGE) {
        await settleAppFeed.run(
          this.redis,
          { dirty, feedSeq: this.keys.feedSeq(account) },
          { account, upTo: page.last },
        );
        return;
      }
    }
  }

  /** An account's events as appendAppFeed takes them (append_notices' notices, with their source). */
  private eventsArgument(account: string, events: readonly FeedEvent[]): string {
    const feed = this.options.feed ?? {};
    const retentionMs = feed.retentionMs ?? FEED_RETENTION_MS;
    return JSON.stringify({
      max: (feed.maxEvents ?? FEED_MAX_EVENTS) * APP_FEED_EVENTS_FACTOR,
      notices: events.map((event) => {
        const ms = msOf(event.at, 'event time');
        const data = JSON.stringify(event.data);
        return {
          src_epoch: event.epoch,
          src_seq: event.seq,
          account,
          type: event.type,
          at: event.at,
          ms,
          cutoff: Number(ms) - retentionMs,
          data,
          // The live message after its seq and epoch, in the key order memory/feed.ts publishes.
          rest: `,"account":${JSON.stringify(account)},"type":${JSON.stringify(event.type)},"at":${JSON.stringify(event.at)},"data":${data}}`,
        };
      }),
    });
  }
}
