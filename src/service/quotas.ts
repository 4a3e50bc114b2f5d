import type { GameLimit, RateLimiter, Storage, StoredAccount } from '../store/store';
import { GameError } from './errors';

// How much one account or one client address may hold or create. Counts of things held (ongoing
// games, tokens) answer 409 (TOO_MANY_GAMES, TOO_MANY_TOKENS): finishing a game or revoking a token
// makes room. Creations per address per day answer 429 QUOTA_EXCEEDED with Retry-After.

export interface Quotas {
  /** Ongoing games per account (a bot's own `maxGames` may be lower). */
  readonly ongoingGamesPerAccount: number;
  /** Active (not revoked, not expired) API tokens per account. */
  readonly tokensPerAccount: number;
  /** Accounts signed up per client address per day. */
  readonly accountsPerIpPerDay: number;
  /** Games created without accounts (seat tokens) per client address per day. */
  readonly gamesPerIpPerDay: number;
}

export const DEFAULT_QUOTAS: Quotas = {
  ongoingGamesPerAccount: 200,
  tokensPerAccount: 50,
  accountsPerIpPerDay: 50,
  gamesPerIpPerDay: 1000,
};

const DAY_SECONDS = 24 * 60 * 60;

/** A per-address daily count (shared by every node through the store). */
export class DailyQuota {
  private readonly limiter: RateLimiter;

  constructor(
    storage: Storage,
    private readonly name: 'accounts' | 'games',
    private readonly limit: number,
  ) {
    this.limiter = storage.limiter({ name: `quota-${name}`, points: limit, windowSeconds: DAY_SECONDS });
  }

  /** Counts one creation by `ip`; QUOTA_EXCEEDED past the limit. No address (a direct service call): no count. */
  async consume(ip: string | undefined): Promise<void> {
    if (ip === undefined) return;
    const verdict = await this.limiter.consume(ip);
    if (verdict.allowed) return;
    const retryAfterSeconds = Math.max(1, Math.ceil(verdict.resetMs / 1000));
    throw new GameError(
      'QUOTA_EXCEEDED',
      `This address has created ${this.limit} ${this.name} today, the most allowed; retry in ${retryAfterSeconds} s`,
      { quota: this.name, limit: this.limit, retryAfterSeconds },
    );
  }
}

/** The ongoing-games caps of the accounts about to play: the quota, or a bot's lower maxGames. */
export function gameLimits(accounts: readonly StoredAccount[], quotas: Quotas): GameLimit[] {
  return accounts.map((account) => ({ account: account.id, max: maxGamesOf(account, quotas) }));
}

/** TOO_MANY_GAMES for `account` (refused by the store's atomic check). */
export function tooManyGames(account: StoredAccount, quotas: Quotas): GameError {
  const max = maxGamesOf(account, quotas);
  const byBot = account.bot !== null && account.kind === 'bot' && account.bot.maxGames <= max;
  return new GameError(
    'TOO_MANY_GAMES',
    `${account.username} already has ${max} ongoing games, the most ${byBot ? 'its bot declaration' : 'allowed'} allows`,
    { account: account.username, max, limit: byBot ? 'maxGames' : 'quota' },
  );
}

function maxGamesOf(account: StoredAccount, quotas: Quotas): number {
  const bot = account.kind === 'bot' && account.bot ? account.bot.maxGames : Infinity;
  return Math.min(bot, quotas.ongoingGamesPerAccount);
}
