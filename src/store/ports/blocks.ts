// Blocks: an account (the blocker) refuses challenges and pairings with another (the blocked).

/** One account a blocker blocks, and since when. */
export interface StoredBlock {
  /** The blocked account's id. */
  readonly account: string;
  readonly createdAt: string;
}

export interface BlockPage {
  readonly items: readonly StoredBlock[];
  /** Pass back as `after` for the next page (the last item's account id); null on the last page. */
  readonly next: string | null;
}

/** 'blocked': recorded now; 'exists': it was already; 'full': the blocker has `max` blocks, nothing written. */
export type BlockResult = 'blocked' | 'exists' | 'full';

export interface BlockStore {
  /** Records that `blocker` blocks `blocked` since `at`, unless it blocks `max` accounts already. */
  block(blocker: string, blocked: string, at: string, max: number): Promise<BlockResult>;
  /** Removes the block; false when there was none. */
  unblock(blocker: string, blocked: string): Promise<boolean>;
  /** Whether `blocker` blocks `blocked`. */
  isBlocked(blocker: string, blocked: string): Promise<boolean>;
  /** A page of the accounts `blocker` blocks, by account id, those after `after` (an id), at most `limit`. */
  listBlocks(blocker: string, limit: number, after?: string): Promise<BlockPage>;
  /** The accounts that block `account` (in no order). */
  blockersOf(account: string): Promise<string[]>;
}

/** Sorts blocks by account id and takes the page after `after`: what both stores answer. */
export function pageOfBlocks(all: readonly StoredBlock[], limit: number, after?: string): BlockPage {
  const sorted = [...all]
    .filter((b) => after === undefined || b.account > after)
    .sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  const items = sorted.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next: sorted.length > limit && last ? last.account : null };
}
