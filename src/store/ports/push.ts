// Push-mode bots: an account's move endpoint, which the server asks for a move on its turns.

export interface StoredPushEndpoint {
  /** The account id (one endpoint per account). */
  readonly account: string;
  readonly url: string;
  /** Signs every request (HMAC-SHA256, as webhooks); stored encrypted as StoredWebhook.secret. */
  readonly secret: string;
  readonly createdAt: string;
}

export interface PushEndpointStore {
  /** Stores (or replaces) the account's endpoint. */
  setPushEndpoint(endpoint: StoredPushEndpoint): Promise<void>;
  getPushEndpoint(account: string): Promise<StoredPushEndpoint | undefined>;
  /** Removes the account's endpoint; false when it had none. */
  deletePushEndpoint(account: string): Promise<boolean>;
  /** Every account with an endpoint (each node drives their turns). */
  listPushAccounts(): Promise<string[]>;
}
