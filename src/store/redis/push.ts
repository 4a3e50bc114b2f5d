import type Redis from 'ioredis';
import type { PushEndpointStore, StoredPushEndpoint } from '../store';
import { Keys } from './keys';

/**
 * Push endpoints in one hash, `p pushbots` (account id → StoredPushEndpoint JSON): one key, so one
 * slot on a Cluster; every node reads the whole list to drive those accounts' turns.
 */
export class RedisPushEndpointStore implements PushEndpointStore {
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.key = new Keys(prefix).pushBots();
  }

  async setPushEndpoint(endpoint: StoredPushEndpoint): Promise<void> {
    await this.redis.hset(this.key, endpoint.account, JSON.stringify(endpoint));
  }

  async getPushEndpoint(account: string): Promise<StoredPushEndpoint | undefined> {
    const json = await this.redis.hget(this.key, account);
    return json === null ? undefined : (JSON.parse(json) as StoredPushEndpoint);
  }

  async deletePushEndpoint(account: string): Promise<boolean> {
    return (await this.redis.hdel(this.key, account)) > 0;
  }

  async listPushAccounts(): Promise<string[]> {
    return (await this.redis.hkeys(this.key)).sort();
  }
}
