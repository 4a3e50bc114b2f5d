import { randomInt } from 'node:crypto';
import type { Storage } from '../../store/store';
import { GameError } from '../errors';
import { addressBucket, DailyQuota, DEFAULT_QUOTAS, type Quotas } from '../accounts/quotas';

// Games against the AI without an account (seat tokens) cost a search at every move of the caller,
// so an address holds at most `max` of them ongoing at once (409 TOO_MANY_AI_GAMES; finishing or
// resigning one makes room). The count is shared by every node through the store: an address has
// `max` slots, each a claim in the idempotency store (claim is atomic) whose fingerprint names the
// game holding it. A slot whose game has finished, or whose game was never stored (its create
// failed, its node died), is taken back with a compare-and-delete, so two callers never free the
// same slot twice.

/** A slot outlives any game it holds: it is freed by its game finishing, not by time. */
const SLOT_MS = 365 * 24 * 60 * 60 * 1000;
/** A slot naming a game not stored after this long belongs to a create that failed. */
const UNSTORED_MS = 60_000;

export class AnonymousAiGames {
  constructor(
    private readonly storage: Storage,
    /** Ongoing games per address (MAX_ANON_AI_GAMES_PER_IP). */
    private readonly max: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes one of the address's slots for `gameId` (about to be stored); TOO_MANY_AI_GAMES when
   * every slot holds an ongoing game. Resolves with the function that gives the slot back (the
   * game was not stored after all). No address (a direct service call): no count.
   */
  async take(ip: string | undefined, gameId: string): Promise<() => Promise<void>> {
    if (ip === undefined) return async () => undefined;
    const bucket = addressBucket(ip);
    const fingerprint = `${gameId} ${this.now()}`;
    // From a random slot on: with few slots held, the first claim usually wins.
    const first = randomInt(this.max);
    for (let i = 0; i < this.max; i++) {
      const slot = (first + i) % this.max;
      const key = `anon-ai-game:${bucket}:${slot}`;
      for (let attempt = 0; attempt < 2; attempt++) {
        const claim = await this.storage.idempotency.claim(key, fingerprint, SLOT_MS);
        if (claim.status === 'claimed') {
          return () => this.storage.idempotency.release(key, fingerprint);
        }
        if (claim.status !== 'pending' || !(await this.stale(claim.fingerprint))) break;
        await this.storage.idempotency.release(key, claim.fingerprint);
      }
    }
    throw new GameError(
      'TOO_MANY_AI_GAMES',
      `This address already has ${this.max} ongoing games against the AI without an account, the most allowed; finish or resign one, or sign up`,
      { max: this.max },
    );
  }

  /** Whether the slot's game is over (or was never stored). */
  private async stale(fingerprint: string): Promise<boolean> {
    const [gameId = '', at = '0'] = fingerprint.split(' ');
    const game = await this.storage.games.get(gameId);
    if (!game) return this.now() - Number(at) > UNSTORED_MS;
    return game.status !== 'ongoing';
  }
}

/**
 * What a game held by seat tokens counts against per client address, shared by every path that
 * makes one (an AI game, a rematch of a seat-token game): the address's games a day and, against
 * the AI, its AI games a day and its ongoing AI games (AnonymousAiGames).
 */
export class SeatTokenQuotas {
  private readonly gamesPerIp: DailyQuota;
  private readonly aiGamesPerIp: DailyQuota;
  private readonly ongoingAiPerIp: AnonymousAiGames;

  constructor(storage: Storage, quotas: Quotas, now: () => number) {
    this.gamesPerIp = new DailyQuota(storage, 'games', quotas.gamesPerIpPerDay);
    this.aiGamesPerIp = new DailyQuota(
      storage,
      'aiGames',
      quotas.aiGamesPerIpPerDay ?? (DEFAULT_QUOTAS.aiGamesPerIpPerDay as number),
    );
    this.ongoingAiPerIp = new AnonymousAiGames(
      storage,
      quotas.ongoingAiGamesPerIp ?? (DEFAULT_QUOTAS.ongoingAiGamesPerIp as number),
      now,
    );
  }

  /**
   * Counts the seat-token game `gameId` (about to be stored) for `ip`; resolves with the function
   * that gives its ongoing-AI slot back should the game not be stored after all. QUOTA_EXCEEDED,
   * TOO_MANY_AI_GAMES: nothing is held.
   */
  async take(ip: string | undefined, gameId: string, againstAi: boolean): Promise<() => Promise<void>> {
    if (!againstAi) {
      await this.gamesPerIp.consume(ip);
      return async () => undefined;
    }
    const giveBack = await this.ongoingAiPerIp.take(ip, gameId);
    try {
      await this.aiGamesPerIp.consume(ip);
      await this.gamesPerIp.consume(ip);
    } catch (error) {
      await giveBack().catch(() => undefined);
      throw error;
    }
    return giveBack;
  }
}
