import { isIPv6 } from 'node:net';
import type { GameLimit, RateLimiter, Storage, StoredAccount } from '../../store/store';
import { GameError } from '../errors';

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
  /** Open challenges an account has made (default 50). */
  readonly challengesPerAccount?: number;
  /** Open challenges an account has made to one account (default 3). */
  readonly challengesPerPair?: number;
  /** Accounts one account may block (default 1000). */
  readonly blocksPerAccount?: number;
  /** Of those, games against the AI per client address per day (default 100). */
  readonly aiGamesPerIpPerDay?: number;
  /** Ongoing games against the AI without an account per client address (default 5). */
  readonly ongoingAiGamesPerIp?: number;
}

export const DEFAULT_QUOTAS: Quotas = {
  ongoingGamesPerAccount: 200,
  tokensPerAccount: 50,
  accountsPerIpPerDay: 50,
  gamesPerIpPerDay: 1000,
  challengesPerAccount: 50,
  challengesPerPair: 3,
  blocksPerAccount: 1000,
  aiGamesPerIpPerDay: 100,
  ongoingAiGamesPerIp: 5,
};

const DAY_SECONDS = 24 * 60 * 60;

/** A per-address daily count (shared by every node through the store). */
export class DailyQuota {
  private readonly limiter: RateLimiter;

  constructor(
    storage: Storage,
    private readonly name: 'accounts' | 'games' | 'aiGames',
    private readonly limit: number,
  ) {
    this.limiter = storage.limiter({ name: `quota-${name}`, points: limit, windowSeconds: DAY_SECONDS });
  }

  private get what(): string {
    return this.name === 'aiGames' ? 'games against the AI without an account' : this.name;
  }

  /** Counts one creation by `ip`; QUOTA_EXCEEDED past the limit. No address (a direct service call): no count. */
  async consume(ip: string | undefined): Promise<void> {
    if (ip === undefined) return;
    const verdict = await this.limiter.consume(addressBucket(ip));
    if (verdict.allowed) return;
    const retryAfterSeconds = Math.max(1, Math.ceil(verdict.resetMs / 1000));
    throw new GameError(
      'QUOTA_EXCEEDED',
      `This address has created ${this.limit} ${this.what} today, the most allowed; retry in ${retryAfterSeconds} s`,
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

/**
 * The bucket an address counts in: an IPv4 address itself (also IPv4-mapped IPv6), an IPv6
 * address's /64 (one customer usually holds a whole /64, so per-address buckets would not limit it).
 */
export function addressBucket(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(ip.split('%')[0] ?? '')) return ip;
  const [head = '', tail = ''] = (ip.split('%')[0] ?? '').toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::1.2.3.4) counts as two groups; only the first four groups matter here.
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - width(left) - width(right))).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (g.includes('.') ? g : g.replace(/^0+(?=.)/, '')))
    .join(':')}::/64`;
}
