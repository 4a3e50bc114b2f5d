import type {
  ChallengePage,
  ChallengeStore,
  ChallengeUpdateResult,
  GameLimit,
  Notice,
  StoredChallenge,
  StoredGame,
} from '../store';
import type { MemoryEventFeed } from './feed';
import type { MemoryGameStore } from './games';

/** Challenges in this process; an accepted challenge's game is created in the same step. */
export class MemoryChallengeStore implements ChallengeStore {
  private readonly challenges = new Map<string, string>();

  constructor(
    private readonly games: MemoryGameStore,
    private readonly feed: MemoryEventFeed,
  ) {}

  async createChallenge(challenge: StoredChallenge, notices: readonly Notice[]): Promise<void> {
    if (this.challenges.has(challenge.id)) throw new Error(`challenge ${challenge.id} exists`);
    this.challenges.set(challenge.id, JSON.stringify(challenge));
    this.feed.appendNow(notices);
  }

  async getChallenge(id: string): Promise<StoredChallenge | undefined> {
    const json = this.challenges.get(id);
    return json ? (JSON.parse(json) as StoredChallenge) : undefined;
  }

  async updateChallenge(
    next: StoredChallenge,
    expectedVersion: number,
    effects: { notices: readonly Notice[]; game?: StoredGame; limits?: readonly GameLimit[] },
  ): Promise<ChallengeUpdateResult> {
    if (effects.game && effects.game.id !== next.id) throw new Error('a challenge becomes a game of its id');
    const json = this.challenges.get(next.id);
    if (!json) return 'missing';
    if ((JSON.parse(json) as StoredChallenge).version !== expectedVersion) return 'conflict';
    const over = effects.game ? this.games.clockIndex.overLimit(effects.limits ?? []) : undefined;
    if (over !== undefined) return { tooManyGames: over };
    if (effects.game) this.games.insert(effects.game);
    this.challenges.set(next.id, JSON.stringify(next));
    this.feed.appendNow(effects.notices);
    return 'updated';
  }

  async listOpen(account: string): Promise<StoredChallenge[]> {
    return [...this.challenges.values()]
      .map((json) => JSON.parse(json) as StoredChallenge)
      .filter(
        (c) =>
          c.status === 'open' &&
          (c.challenger === account || c.destination === account || (c.players?.includes(account) ?? false)),
      )
      .reverse();
  }

  async pageOpen(account: string, limit: number, before?: number): Promise<ChallengePage> {
    const all = (await this.listOpen(account))
      .filter((c) => before === undefined || Date.parse(c.createdAt) < before)
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
    const last = all[limit - 1];
    if (!last || all.length === limit) return { items: all, next: null };
    const edge = Date.parse(last.createdAt);
    const items = all.filter((c, i) => i < limit || Date.parse(c.createdAt) === edge);
    return { items, next: items.length < all.length ? edge : null };
  }

  async dueChallenges(now: string, limit: number): Promise<string[]> {
    return [...this.challenges.values()]
      .map((json) => JSON.parse(json) as StoredChallenge)
      .filter((c) => c.status === 'open' && Date.parse(c.expiresAt) <= Date.parse(now))
      .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt))
      .slice(0, limit)
      .map((c) => c.id);
  }
}
