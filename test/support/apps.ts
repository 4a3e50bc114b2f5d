// Apps for API tests, made through the service (the admin API and CLI are tested apart).
import { randomBytes } from 'node:crypto';
import type { App } from '../../src/app';
import type { AppSettingsInput } from '../../src/service/apps/service';
import type { Storage } from '../../src/store/store';

export interface TestApp {
  readonly id: string;
  /** A key with every app key scope. */
  readonly key: string;
  readonly auth: { readonly authorization: string };
  /** Headers that act as `account` with the app key. */
  as(account: string): { readonly authorization: string; readonly 'boardhost-account': string };
}

/** A new app (a unique name) and a key with every scope. */
export async function newApp(
  app: App,
  settings: AppSettingsInput = {},
  label = 'test-app',
): Promise<TestApp> {
  const created = await app.services.apps.createApp({
    name: `${label}-${randomBytes(3).toString('hex')}`,
    settings,
  });
  const { key } = await app.services.apps.createKey(created.id);
  const authorization = `Bearer ${key}`;
  return {
    id: created.id,
    key,
    auth: { authorization },
    as: (account) => ({ authorization, 'boardhost-account': account }),
  };
}

/**
 * An account of `testApp` with this external id, made straight through the store (the app accounts
 * API is tested apart): its id, `<app>.<16 hex>`.
 */
export async function appAccount(
  storage: Storage,
  testApp: TestApp,
  externalId: string,
  kind: 'human' | 'bot' = 'human',
): Promise<{ readonly id: string; readonly username: string }> {
  const username = `u-${randomBytes(4).toString('hex')}`;
  const result = await storage.accounts.getOrCreateAppAccount({
    id: `${testApp.id}.${randomBytes(8).toString('hex')}`,
    username,
    kind,
    bot: null,
    createdAt: new Date().toISOString(),
    app: testApp.id,
    externalId,
  });
  if (result.status === 'username-taken') throw new Error('username drawn twice');
  return { id: result.account.id, username: result.account.username };
}
