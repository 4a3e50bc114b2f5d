import { pageOfBlocks, type BlockPage, type BlockResult, type BlockStore } from '../store';

/** Blocks in this process: per blocker, blocked → since; and the reverse index. */
export class MemoryBlockStore implements BlockStore {
  private readonly blocks = new Map<string, Map<string, string>>();
  private readonly blockers = new Map<string, Set<string>>();

  async block(blocker: string, blocked: string, at: string, max: number): Promise<BlockResult> {
    const mine = this.blocks.get(blocker) ?? new Map<string, string>();
    if (mine.has(blocked)) return 'exists';
    if (mine.size >= max) return 'full';
    mine.set(blocked, at);
    this.blocks.set(blocker, mine);
    const theirs = this.blockers.get(blocked) ?? new Set<string>();
    theirs.add(blocker);
    this.blockers.set(blocked, theirs);
    return 'blocked';
  }

  async unblock(blocker: string, blocked: string): Promise<boolean> {
    const removed = this.blocks.get(blocker)?.delete(blocked) ?? false;
    this.blockers.get(blocked)?.delete(blocker);
    return removed;
  }

  async isBlocked(blocker: string, blocked: string): Promise<boolean> {
    return this.blocks.get(blocker)?.has(blocked) ?? false;
  }

  async listBlocks(blocker: string, limit: number, after?: string): Promise<BlockPage> {
    const all = [...(this.blocks.get(blocker) ?? new Map<string, string>())].map(([account, createdAt]) => ({
      account,
      createdAt,
    }));
    return pageOfBlocks(all, limit, after);
  }

  async blockersOf(account: string): Promise<string[]> {
    return [...(this.blockers.get(account) ?? [])];
  }
}
