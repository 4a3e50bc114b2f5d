import type Redis from 'ioredis';
import { Keys } from './keys';

// Revocations (a token's, an app key's, a session's access token's hash) reach every node on one
// channel. On one Redis the revoking script PUBLISHes in the same step as the write. A Cluster's
// nodes listen with SSUBSCRIBE (sharded pub/sub: a plain PUBLISH never reaches them) and a script
// cannot SPUBLISH to a channel outside its slot, so there the store SPUBLISHes right after the
// script: a node dying between the two leaves streams open until the token's expiry or the
// listeners' resync re-check (TokenStreams.recheck).

export class Revocations {
  readonly channel: string;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly publish: 'PUBLISH' | 'SPUBLISH',
  ) {
    this.channel = new Keys(prefix).revocations();
  }

  /** The channel a revoking script publishes on itself ('' when the store publishes after it). */
  get scriptChannel(): string {
    return this.publish === 'PUBLISH' ? this.channel : '';
  }

  /** Tells every node of a hash no script published (PUBLISH, or SPUBLISH on a Cluster). */
  async publishNow(hash: string): Promise<void> {
    await this.redis.call(this.publish, this.channel, hash);
  }

  /** After a revoking script succeeded: tells every node of a Cluster (a no-op on one Redis). */
  async after(...hashes: string[]): Promise<void> {
    if (this.publish === 'PUBLISH') return;
    for (const hash of hashes) if (hash !== '') await this.redis.call('SPUBLISH', this.channel, hash);
  }
}
