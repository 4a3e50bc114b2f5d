// Accounts for API tests, made through the service (each transport's own sign-up is tested apart).
import { randomBytes } from 'node:crypto';
import type { App } from '../../src/app';

export interface TestAccount {
  readonly username: string;
  readonly id: string;
  /** The first API token (all scopes of the account's kind). */
  readonly token: string;
  readonly auth: { readonly authorization: string };
}

/** A new account with a unique name (`label` + random suffix). */
export async function signUp(app: App, label: string, kind: 'human' | 'bot' = 'bot'): Promise<TestAccount> {
  const username = `${label}-${randomBytes(3).toString('hex')}`;
  const { account, token } = await app.services.accounts.createAccount({ username, kind });
  return { username, id: account.id, token: token.token, auth: { authorization: `Bearer ${token.token}` } };
}
