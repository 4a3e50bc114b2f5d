import type { PushEndpointStore, StoredPushEndpoint } from '../store';

export class MemoryPushEndpointStore implements PushEndpointStore {
  private readonly endpoints = new Map<string, StoredPushEndpoint>();

  async setPushEndpoint(endpoint: StoredPushEndpoint): Promise<void> {
    this.endpoints.set(endpoint.account, endpoint);
  }

  async getPushEndpoint(account: string): Promise<StoredPushEndpoint | undefined> {
    return this.endpoints.get(account);
  }

  async deletePushEndpoint(account: string): Promise<boolean> {
    return this.endpoints.delete(account);
  }

  async listPushAccounts(): Promise<string[]> {
    return [...this.endpoints.keys()].sort();
  }
}
