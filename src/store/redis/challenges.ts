import type Redis from 'ioredis';
import type {
  ChallengeStore,
  ChallengeUpdateResult,
  FeedOptions,
  GameLimit,
  Notice,
  StoredChallenge,
  StoredGame,
} from '../store';
import { msOf, noticesArgument, involved, wholeNumber } from './arguments';
import { createArguments, type RedisGameStore } from './games';
import { shardOf } from './keys';
import { gameParts, outboxFields } from './relay';
import { scripted, type ScriptedRedis } from './client';

export class RedisChallengeStore implements ChallengeStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    /** The game store: a challenge's game is written in its format, and its entry relayed. */
    private readonly games: RedisGameStore,
    private readonly feed: FeedOptions = {},
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
      noticesArgument(notices, this.feed),
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
    effects: { notices: readonly Notice[]; game?: StoredGame; limits?: readonly GameLimit[] },
  ): Promise<ChallengeUpdateResult> {
    const { game } = effects;
    const keys = this.games.keys;
    // The game's own index changes go through the outbox (game.started is among the notices here).
    const fields = game
      ? outboxFields(
          { origin: `g:${game.id}`, version: game.version + 1, before: 0, parts: gameParts(keys, game, []) },
          this.feed,
        )
      : [];
    const reserved = game ? await this.games.reserve(game.id, effects.limits ?? []) : undefined;
    if (reserved && !reserved.ok) return { tooManyGames: reserved.account };
    const reply = await this.redis
      .boardhostUpdateChallenge(
        this.challengeKey(next.id),
        game ? keys.game(game.id) : this.challengeKey(next.id),
        game ? keys.moves(game.id) : this.challengeKey(next.id),
        this.prefix,
        String(expectedVersion),
        next.id,
        JSON.stringify(next),
        String(next.version),
        RedisChallengeStore.index(next),
        noticesArgument(effects.notices, this.feed),
        game ? '1' : '',
        JSON.stringify(effects.limits ?? []),
        ...(game ? createArguments(this.prefix, game) : Array.from({ length: 11 }, () => '')),
        ...fields,
      )
      .catch(async (error: unknown) => {
        if (reserved?.ok) await reserved.release().catch(() => undefined);
        throw error;
      });
    if (!reply.startsWith('updated:') && reserved?.ok) await reserved.release();
    if (reply.startsWith('updated:')) {
      if (game) await this.games.relay.deliver(shardOf(game.id), fields, reply.split(':')[2]);
      return 'updated';
    }
    const result = reply;
    if (result === 'game-exists') throw new Error(`game ${game?.id} exists`);
    if (result.startsWith('too-many-games:')) return { tooManyGames: result.slice('too-many-games:'.length) };
    return result as Exclude<ChallengeUpdateResult, object>;
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
