import type Redis from 'ioredis';
import { accountEffectsOf } from '../../store';
import type {
  ChallengePage,
  ChallengeStore,
  ChallengeUpdateResult,
  FeedOptions,
  GameLimit,
  Notice,
  StoredChallenge,
  StoredGame,
} from '../../store';
import { msOf, involved, wholeNumber } from '../games/arguments';
import { mergeDue } from '../clocks';
import { createGameArguments } from '../games/arguments';
import type { RedisGameStore } from '../games/store';
import { ALL_SHARDS, shardOf, shardTag, type Keys } from '../keys';
import { gameParts, outboxFields, parseBefores, type AccountPart, type IndexOp } from '../relay/relay';
import { createChallenge, updateChallenge } from './scripts';
import { createGame } from '../games/scripts';

// Challenges (docs/data-model.md): a challenge, its expiry entry and the game it becomes live in
// the shard of its id; the notices and each involved account's open-challenges index reach the
// accounts' shards through the outbox (origin c:<id>, relay version = challenge version + 1).

export class RedisChallengeStore implements ChallengeStore {
  private readonly keys: Keys;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** The game store: a challenge's game is written in its format, and the entries relayed. */
    private readonly games: RedisGameStore,
    private readonly feed: FeedOptions = {},
  ) {
    this.keys = games.keys;
  }

  /**
   * The challenge's outbox fields: a part for each account involved (its open-challenges entry, in
   * or out) or addressed by a notice (its notices).
   */
  private fields(challenge: StoredChallenge, expectedVersion: number | null, notices: readonly Notice[]) {
    const listed = involved(challenge);
    const open = challenge.status === 'open';
    const created = Number(msOf(challenge.createdAt, 'challenge createdAt'));
    const accounts = [...new Set([...listed, ...notices.flatMap((n) => n.to)])];
    const parts = accounts.map((account): AccountPart => {
      const key = this.keys.openChallenges(account);
      const ops: IndexOp[] = listed.includes(account)
        ? [open ? ['zadd', key, created, challenge.id] : ['zrem', key, challenge.id]]
        : [];
      return { account, notices: notices.filter((n) => n.to.includes(account)), ops };
    });
    return outboxFields(
      {
        origin: `c:${challenge.id}`,
        version: challenge.version + 1,
        // Each account's own before is the script's (the `relayed` field); this one is for reading.
        before: expectedVersion === null ? 0 : expectedVersion + 1,
        parts,
      },
      this.feed,
    );
  }

  /** The script arguments common to create and update: prefix, tag … (see scripts.ts). */
  private static state(challenge: StoredChallenge): string[] {
    return [
      JSON.stringify(challenge),
      String(challenge.version),
      challenge.status === 'open' ? '1' : '',
      msOf(challenge.expiresAt, 'challenge expiresAt'),
    ];
  }

  async createChallenge(challenge: StoredChallenge, notices: readonly Notice[]): Promise<void> {
    const shard = shardOf(challenge.id);
    const fields = this.fields(challenge, null, notices);
    const [doc, version, open, expires] = RedisChallengeStore.state(challenge) as [
      string,
      string,
      string,
      string,
    ];
    const [created, , befores] = await createChallenge.run(
      this.redis,
      { challenge: this.keys.challenge(challenge.id), expiry: this.keys.challengeExpiry(shard) },
      { prefix: this.prefix, tag: shardTag(shard), id: challenge.id, doc, version, open, expires },
      fields,
    );
    if (created !== 1) throw new Error(`challenge ${challenge.id} exists`);
    await this.games.relay.deliver(shard, fields, '0', parseBefores(befores));
  }

  async getChallenge(id: string): Promise<StoredChallenge | undefined> {
    const doc = await this.redis.hget(this.keys.challenge(id), 'doc');
    return doc ? (JSON.parse(doc) as StoredChallenge) : undefined;
  }

  async updateChallenge(
    next: StoredChallenge,
    expectedVersion: number,
    effects: { notices: readonly Notice[]; game?: StoredGame; limits?: readonly GameLimit[] },
  ): Promise<ChallengeUpdateResult> {
    const { game } = effects;
    const keys = this.keys;
    const shard = shardOf(next.id);
    // One shard for the step: the game takes the challenge's id.
    if (game && game.id !== next.id) throw new Error('a challenge becomes a game of its id');
    const fields = this.fields(next, expectedVersion, effects.notices);
    // The game's own index changes go through its own entry (game.started is among the notices here).
    const gameFields = game
      ? outboxFields(
          {
            origin: `g:${game.id}`,
            version: game.version + 1,
            before: 0,
            parts: gameParts(keys, game, { notices: [], accounts: accountEffectsOf(game) }),
          },
          this.feed,
        )
      : [];
    const reserved = game ? await this.games.reservePlaces(game.id, effects.limits ?? []) : undefined;
    if (reserved && !reserved.ok) return { tooManyGames: reserved.account };
    const [doc, version, open, expires] = RedisChallengeStore.state(next) as [string, string, string, string];
    const reply = await updateChallenge
      .run(
        this.redis,
        {
          challenge: keys.challenge(next.id),
          expiry: keys.challengeExpiry(shard),
          game: game ? keys.game(game.id) : keys.challenge(next.id),
          moves: game ? keys.moves(game.id) : keys.challenge(next.id),
        },
        {
          prefix: this.prefix,
          tag: shardTag(shard),
          expected: String(expectedVersion),
          id: next.id,
          doc,
          version,
          open,
          expires,
          withGame: game ? '1' : '',
          n: fields.length,
        },
        [
          ...fields,
          // The create script's arguments, in its order, then the game's outbox fields.
          ...(game ? [...createGame.argsInOrder(createGameArguments(this.prefix, game)), ...gameFields] : []),
        ],
      )
      .catch(async (error: unknown) => {
        if (reserved?.ok) await reserved.release().catch(() => undefined);
        throw error;
      });
    const [status, , lseq, , befores, gameEpoch] = reply;
    if (status !== 'updated') {
      if (reserved?.ok) await reserved.release();
      if (status === 'game-exists') throw new Error(`game ${game?.id} exists`);
      return status;
    }
    // The game's entry first (its listings), then the challenge's (the notices): the outbox order.
    if (game) await this.games.relay.deliver(shard, gameFields, lseq, undefined, gameEpoch);
    await this.games.relay.deliver(shard, fields, '0', parseBefores(befores));
    return 'updated';
  }

  async listOpen(account: string): Promise<StoredChallenge[]> {
    const index = this.keys.openChallenges(account);
    const ids = await this.redis.zrevrange(index, 0, -1);
    const docs = await Promise.all(ids.map((id) => this.getChallenge(id)));
    const open: StoredChallenge[] = [];
    const stale: string[] = [];
    docs.forEach((c, i) => {
      if (c && c.status === 'open' && involved(c).includes(account)) open.push(c);
      else stale.push(ids[i] as string);
    });
    // Statuses other than open are final, so an entry seen stale stays stale (and the relay's
    // entry that closed the challenge was applied already: the account applies them in order).
    if (stale.length > 0) await this.redis.zrem(index, ...stale);
    return open;
  }

  async pageOpen(account: string, limit: number, before?: number): Promise<ChallengePage> {
    const index = this.keys.openChallenges(account);
    const items: StoredChallenge[] = [];
    let max = before === undefined ? '+inf' : `(${before}`;
    for (;;) {
      // Whole milliseconds at a time: a page boundary never splits challenges created in the same one.
      const batch = await this.redis.zrevrangebyscore(
        index,
        max,
        '-inf',
        'WITHSCORES',
        'LIMIT',
        0,
        limit - items.length,
      );
      if (batch.length === 0) return { items, next: null };
      const edge = Number(batch[batch.length - 1]);
      const ids = [
        ...new Set([
          ...batch.filter((_, i) => i % 2 === 0),
          ...(await this.redis.zrangebyscore(index, edge, edge)),
        ]),
      ];
      const docs = await Promise.all(ids.map((id) => this.getChallenge(id)));
      const stale: string[] = [];
      docs.forEach((c, i) => {
        if (c && c.status === 'open' && involved(c).includes(account)) items.push(c);
        else stale.push(ids[i] as string);
      });
      if (stale.length > 0) await this.redis.zrem(index, ...stale);
      max = `(${edge}`;
      if (items.length >= limit) {
        const more = await this.redis.zcount(index, '-inf', max);
        return { items, next: more > 0 ? edge : null };
      }
    }
  }

  async dueChallenges(now: string, limit: number): Promise<string[]> {
    const count = wholeNumber(limit);
    if (count === 0) return [];
    const nowMs = msOf(now, 'now');
    // Up to `count` from each shard, merged oldest first.
    const pages = await Promise.all(
      ALL_SHARDS.map((shard) =>
        this.redis.zrangebyscore(
          this.keys.challengeExpiry(shard),
          '-inf',
          nowMs,
          'WITHSCORES',
          'LIMIT',
          0,
          count,
        ),
      ),
    );
    return mergeDue(pages)
      .slice(0, count)
      .map((d) => d.id);
  }
}
