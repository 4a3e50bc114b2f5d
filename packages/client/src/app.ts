// The server side of an app: its backend holds the app key (bha_…), makes an account for each of
// its users by its own id, signs them in with sessions for its clients, and can act for any of them.
// The key never leaves the backend; clients get sessions (createBoardhost({ session })).
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/openapi';
import { retryingFetch, type RetryOptions } from './http';
import { createBoardhost, ok, type Boardhost } from './index';
import { fixedCredentials, type IssuedSession } from './session';

type Schemas = components['schemas'];
export type AppAccount = Schemas['AppAccount'];

export interface BoardhostAppOptions {
  /** The server, e.g. http://localhost:4000. */
  readonly baseUrl: string;
  /** The app key (bha_…): keep it on the server. */
  readonly appKey: string;
  readonly retry?: RetryOptions;
  readonly fetch?: typeof fetch;
}

/** ensureAccount's answer: the account, and whether this call made it. */
export interface EnsuredAccount {
  readonly account: AppAccount;
  readonly created: boolean;
}

export interface BoardhostApp {
  /** Every REST operation, typed, with the app key. */
  readonly api: Client<paths>;
  /** The app: id, name, settings. */
  app(): Promise<Schemas['App']>;
  /** The account of the app's user `externalId`, made now if there is none (PUT: safe to repeat). */
  ensureAccount(externalId: string, profile?: Schemas['EnsureAppAccountBody']): Promise<EnsuredAccount>;
  /** The account of `externalId` (ACCOUNT_NOT_FOUND if there is none). */
  getAccount(externalId: string): Promise<AppAccount>;
  /** Changes its username, displayName or metadata; the account as changed. */
  updateAccount(externalId: string, patch: Schemas['UpdateAppAccountBody']): Promise<AppAccount>;
  /** A page of the app's accounts, by id: pass `next` as `after` for the next one. */
  listAccounts(options?: { after?: string; limit?: number }): Promise<Schemas['AppAccountList']>;
  /** Signs the account of `externalId` in: the tokens to hand to its client. */
  createSession(externalId: string, options?: Schemas['CreateSessionBody']): Promise<IssuedSession>;
  /** The sessions of `externalId`'s account, ended ones too. */
  listSessions(externalId: string): Promise<Schemas['Session'][]>;
  /** Ends a session: its tokens and the streams opened with them. */
  revokeSession(sessionId: string): Promise<Schemas['Session']>;
  /** The ordinary client acting for the app's account `accountId` (the app key + Boardhost-Account). */
  as(accountId: string): Boardhost;
}

export function createBoardhostApp(options: BoardhostAppOptions): BoardhostApp {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const api = createClient<paths>({
    baseUrl,
    fetch: retryingFetch(fixedCredentials(options.appKey), options.retry, options.fetch),
  });
  const external = (externalId: string) => ({ params: { path: { externalId } } });
  return {
    api,
    app: () => ok(api.GET('/api/v1/app')),
    ensureAccount: async (externalId, profile) => {
      const answer = api.PUT('/api/v1/app/accounts/{externalId}', {
        ...external(externalId),
        ...(profile ? { body: profile } : {}),
      });
      const account = await ok(answer);
      return { account, created: (await answer).response.status === 201 };
    },
    getAccount: (externalId) => ok(api.GET('/api/v1/app/accounts/{externalId}', external(externalId))),
    updateAccount: (externalId, patch) =>
      ok(api.PATCH('/api/v1/app/accounts/{externalId}', { ...external(externalId), body: patch })),
    listAccounts: (page = {}) => ok(api.GET('/api/v1/app/accounts', { params: { query: page } })),
    createSession: (externalId, body = {}) =>
      ok(api.POST('/api/v1/app/accounts/{externalId}/sessions', { ...external(externalId), body })),
    listSessions: async (externalId) =>
      (await ok(api.GET('/api/v1/app/accounts/{externalId}/sessions', external(externalId)))).items,
    revokeSession: (sessionId) =>
      ok(api.DELETE('/api/v1/app/sessions/{sessionId}', { params: { path: { sessionId } } })),
    as: (accountId) =>
      createBoardhost({
        baseUrl,
        token: options.appKey,
        account: accountId,
        ...(options.retry ? { retry: options.retry } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
  };
}
