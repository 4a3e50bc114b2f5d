import type { AccountKind, Storage } from '../../store/store';
import type { Authenticator, Credential } from '../accounts/auth';
import type { Pools } from '../apps/pools';
import { isProvisional } from '../../ratings/glicko2';
import { GameError } from '../errors';
import type { GameService } from '../game/service';
import { perfKey, SPEEDS, type Speed } from './perf';
import { ratingAt } from './results';

/** An account's rating in one perf, as shown: RD grown with the time since its last rated game. */
export interface PerfRatingView {
  readonly kind: string;
  readonly speed: Speed;
  readonly rating: number;
  readonly rd: number;
  readonly provisional: boolean;
  readonly games: number;
  readonly latest: string | null;
}

export interface AccountRatingsView {
  readonly username: string;
  readonly perfs: readonly PerfRatingView[];
}

export interface RatingHistoryView {
  readonly items: ReadonlyArray<{ at: string; rating: number; rd: number; game: string }>;
  /** Pass as `before` for older entries; null on the last page. */
  readonly next: number | null;
}

export interface LeaderboardView {
  readonly items: ReadonlyArray<{ rank: number; username: string; rating: number; rd: number }>;
  /** Pass as `cursor` for the next page; null on the last. */
  readonly next: string | null;
}

export const LEADERBOARD_MAX_LIMIT = 100;
/** Pages go this deep at most (each costs O(log n + limit) anyway). */
const LEADERBOARD_MAX_OFFSET = 10_000;
export const HISTORY_MAX_LIMIT = 100;

/** Reads of ratings: an account's per perf, its history, the leaderboards. */
export class RatingService {
  constructor(
    private readonly storage: Storage,
    private readonly games: GameService,
    private readonly now: () => Date,
    private readonly pools: Pools,
    private readonly auth: Authenticator,
  ) {}

  /** An account's ratings; another pool's account (as the credential's pool sees it) answers as missing. */
  async ratings(username: string, credential?: Credential): Promise<AccountRatingsView> {
    const account = await this.account(username, credential);
    const stored = await this.storage.ratings.get(account.id);
    const at = this.now().toISOString();
    const perfs = Object.entries(stored)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, rating]) => {
        const [kind, speed] = key.split('.') as [string, Speed];
        const now = ratingAt(rating, account.kind, at);
        return {
          kind,
          speed,
          rating: Math.round(now.rating),
          rd: Math.round(now.rd),
          provisional: isProvisional(now),
          games: now.games,
          latest: now.latest,
        };
      });
    return { username: account.username, perfs };
  }

  async history(
    username: string,
    kind: string,
    speed: string,
    page: { limit?: number; before?: number } = {},
    credential?: Credential,
  ): Promise<RatingHistoryView> {
    const account = await this.account(username, credential);
    const perf = this.perf(kind, speed);
    const limit = bounded(page.limit, 50, HISTORY_MAX_LIMIT, 'limit');
    const before =
      page.before === undefined ? undefined : bounded(page.before, 0, Number.MAX_SAFE_INTEGER, 'before');
    const found = await this.storage.ratings.history(account.id, perf, limit, before);
    return {
      items: found.items.map((e) => ({
        at: e.at,
        rating: Math.round(e.rating),
        rd: Math.round(e.rd),
        game: e.game,
      })),
      next: found.next,
    };
  }

  async leaderboard(
    kind: string,
    speed: string,
    category: string | undefined,
    page: { limit?: number; cursor?: string } = {},
    credential?: Credential,
  ): Promise<LeaderboardView> {
    const perf = this.perf(kind, speed);
    const which = (category ?? 'human') as AccountKind;
    if (which !== 'human' && which !== 'bot') {
      throw new GameError('INVALID_INPUT', 'category must be human or bot', { field: 'category' });
    }
    const limit = bounded(page.limit, 20, LEADERBOARD_MAX_LIMIT, 'limit');
    let offset = 0;
    if (page.cursor !== undefined) {
      if (!/^\d{1,6}$/.test(page.cursor) || Number(page.cursor) > LEADERBOARD_MAX_OFFSET) {
        throw new GameError('INVALID_INPUT', 'cursor must be a `next` of an earlier page', {
          field: 'cursor',
        });
      }
      offset = Number(page.cursor);
    }
    // Each pool has its own leaderboards: the caller's (anonymous: the open pool's).
    const pool = await this.pools.ofReader(this.auth, credential);
    const found = await this.storage.ratings.leaderboard(perf, which, limit, offset, pool);
    return {
      items: found.items.map((e, i) => ({
        rank: found.offset + i + 1,
        username: e.name,
        rating: Math.round(e.rating),
        rd: Math.round(e.rd),
      })),
      next: found.next === null || found.next > LEADERBOARD_MAX_OFFSET ? null : String(found.next),
    };
  }

  private perf(kind: string, speed: string): string {
    const engine = this.games.engineFor(kind);
    if (!(SPEEDS as readonly string[]).includes(speed)) {
      throw new GameError('INVALID_INPUT', `speed must be one of ${SPEEDS.join(', ')}`, { field: 'speed' });
    }
    return perfKey({ kind: engine.kind, speed: speed as Speed });
  }

  private async account(username: string, credential: Credential | undefined) {
    const pool = await this.pools.ofReader(this.auth, credential);
    const account = await this.pools.visible(
      pool,
      await this.storage.accounts.getAccount(username.toLowerCase()),
    );
    if (!account) throw new GameError('ACCOUNT_NOT_FOUND', `No account named ${username}`);
    return account;
  }
}

function bounded(value: number | undefined, fallback: number, max: number, field: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < (field === 'before' ? 0 : 1) || value > max) {
    throw new GameError('INVALID_INPUT', `${field} must be a whole number up to ${max}`, { field });
  }
  return value;
}
