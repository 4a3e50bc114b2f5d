import type { Storage, StoredAccount } from '../../store/store';
import type { Authenticator, Credential } from './auth';
import type { ChallengeService } from '../challenges/service';
import type { Pools } from '../apps/pools';
import { GameError } from '../errors';
import type { Quotas } from './quotas';

/** Blocks listed per page unless the client asks for another size. */
export const DEFAULT_BLOCK_PAGE = 50;
const DEFAULT_MAX_BLOCKS = 1000;

export interface BlockView {
  readonly username: string;
  readonly createdAt: string;
}

/**
 * An account blocks another: the blocked account's challenges to it are refused (403 BLOCKED), its
 * open ones declined when the block is made, and seeks never pair the two (either way).
 */
export class BlockService {
  constructor(
    private readonly storage: Storage,
    private readonly auth: Authenticator,
    private readonly challenges: ChallengeService,
    private readonly now: () => Date,
    private readonly quotas: Quotas,
    private readonly pools: Pools,
  ) {}

  /** Idempotent; declines the blocked account's open challenges to the caller (also on a repeat). */
  async block(credential: Credential, username: string): Promise<void> {
    const { account } = await this.auth.requireAccount(credential, 'challenge:write');
    const other = await this.other(account, username);
    const max = this.quotas.blocksPerAccount ?? DEFAULT_MAX_BLOCKS;
    const result = await this.storage.blocks.block(account.id, other.id, this.now().toISOString(), max);
    if (result === 'full') {
      throw new GameError(
        'TOO_MANY_BLOCKS',
        `${account.username} already blocks ${max} accounts, the most allowed`,
        {
          max,
        },
      );
    }
    await this.challenges.declineAllFrom(account, other.id);
  }

  /** Idempotent: unblocking an account that is not blocked changes nothing. */
  async unblock(credential: Credential, username: string): Promise<void> {
    const { account } = await this.auth.requireAccount(credential, 'challenge:write');
    const other = await this.other(account, username);
    await this.storage.blocks.unblock(account.id, other.id);
  }

  /** The accounts the caller blocks, by username, a page at a time (`limit` 1–100, default 50). */
  async list(
    credential: Credential,
    limit: number = DEFAULT_BLOCK_PAGE,
    after?: string,
  ): Promise<{ items: BlockView[]; next: string | null }> {
    const { account } = await this.auth.requireAccount(credential, 'game:read', 'challenge:write');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new GameError('INVALID_INPUT', 'limit must be an integer from 1 to 100', { field: 'limit' });
    const page = await this.storage.blocks.listBlocks(account.id, limit, after?.toLowerCase());
    const accounts = await Promise.all(page.items.map((b) => this.storage.accounts.getAccount(b.account)));
    return {
      items: page.items.map((b, i) => ({
        username: accounts[i]?.username ?? b.account,
        createdAt: b.createdAt,
      })),
      next: page.next,
    };
  }

  /** The account named, as the caller's pool sees it (another pool's answers as a missing one). */
  private async other(account: StoredAccount, username: string): Promise<StoredAccount> {
    const other = await this.pools.visible(
      await this.pools.ofAccount(account.id),
      await this.storage.accounts.getAccount(String(username).toLowerCase()),
    );
    if (!other) throw new GameError('ACCOUNT_NOT_FOUND', `No account named ${username}`, { username });
    if (other.id === account.id)
      throw new GameError('INVALID_INPUT', 'You cannot block yourself', { field: 'username' });
    return other;
  }
}

/** The refusal when `blocker` blocks the caller: says no more than that. */
export function blocked(): GameError {
  return new GameError('BLOCKED', 'That account does not accept challenges or games from you');
}

/** The accounts `account` must not be paired with: those it blocks and those that block it. */
export async function avoidedBy(storage: Storage, account: string): Promise<string[]> {
  const [mine, theirs] = await Promise.all([
    storage.blocks.listBlocks(account, Number.MAX_SAFE_INTEGER),
    storage.blocks.blockersOf(account),
  ]);
  return [...new Set([...mine.items.map((b) => b.account), ...theirs])];
}
