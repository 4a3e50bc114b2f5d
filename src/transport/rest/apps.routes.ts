import { z } from 'zod';
import type { Services } from '../../service';
import * as P from './apps.schemas';
import { appKey, credentialOf, json, parse, problems, type RestRoute } from './route';

// The app's own API under /api/v1/app: the calling app, and the accounts it makes for its users by
// its own ids. An app key without Boardhost-Account.

const externalParams = z.object({ externalId: P.ExternalId });

const ACCOUNT_BODY_RULES =
  'username: 2–30 letters, digits, _ or - (unique in the app, ignoring case); displayName: 1–50 characters; ' +
  'metadata: at most 20 string pairs (keys 1–40 of A-Z a-z 0-9 _ . -, values at most 256 characters, 4 kB in ' +
  'all). Text with control, format or bidi characters is refused (INVALID_CHARACTER).';

export function appRoutes(services: Services): RestRoute[] {
  const accounts = services.appAccounts;
  return [
    {
      spec: {
        method: 'get',
        path: '/app',
        operationId: 'getApp',
        tags: ['apps'],
        summary: 'The calling app',
        description: 'Its id, name and settings (quotas included). Any app key, without Boardhost-Account.',
        security: appKey(),
        responses: { 200: json(P.App, 'The app'), ...problems(400, 401, 503) },
      },
      handle: async (req, res) => {
        res.json(await accounts.app(credentialOf(req)));
      },
    },
    {
      spec: {
        method: 'put',
        path: '/app/accounts/{externalId}',
        operationId: 'ensureAppAccount',
        tags: ['apps'],
        summary: 'Get or create the account of an external id',
        description:
          'The app’s account for its user `externalId`, made if there is none (201) or returned as it is (200: the ' +
          'body does not change an existing account; PATCH does). Concurrent calls for one external id make one ' +
          `account. A creation counts against the app’s accountsPerDay (429 QUOTA_EXCEEDED). ${ACCOUNT_BODY_RULES} ` +
          'A username taken in the app: 409 USERNAME_TAKEN. The account acts through the app key with the ' +
          'Boardhost-Account header naming its id.',
        security: appKey('app:accounts'),
        request: {
          params: externalParams,
          body: { required: false, content: { 'application/json': { schema: P.EnsureAppAccountBody } } },
        },
        responses: {
          200: json(P.AppAccount, 'The existing account, unchanged'),
          201: json(P.AppAccount, 'The account, made now'),
          ...problems(400, 401, 403, 409),
        },
      },
      handle: async (req, res) => {
        const { externalId } = parse(externalParams, req.params, 'path');
        const body = parse(P.EnsureAppAccountBody, req.body, 'body');
        const { created, account } = await accounts.ensure(credentialOf(req), externalId, body);
        res.status(created ? 201 : 200).json(account);
      },
    },
    {
      spec: {
        method: 'get',
        path: '/app/accounts/{externalId}',
        operationId: 'getAppAccount',
        tags: ['apps'],
        summary: 'The account of an external id',
        security: appKey('app:accounts'),
        request: { params: externalParams },
        responses: { 200: json(P.AppAccount, 'The account'), ...problems(400, 401, 403, 404) },
      },
      handle: async (req, res) => {
        const { externalId } = parse(externalParams, req.params, 'path');
        res.json(await accounts.get(credentialOf(req), externalId));
      },
    },
    {
      spec: {
        method: 'patch',
        path: '/app/accounts/{externalId}',
        operationId: 'updateAppAccount',
        tags: ['apps'],
        summary: 'Change an account’s username, display name or metadata',
        description:
          `Each field given changes; the account id never does, so its games, ratings and feed stay its own. ${ACCOUNT_BODY_RULES} ` +
          'A username taken in the app: 409 USERNAME_TAKEN.',
        security: appKey('app:accounts'),
        request: {
          params: externalParams,
          body: { content: { 'application/json': { schema: P.UpdateAppAccountBody } } },
        },
        responses: {
          200: json(P.AppAccount, 'The account as changed'),
          ...problems(400, 401, 403, 404, 409),
        },
      },
      handle: async (req, res) => {
        const { externalId } = parse(externalParams, req.params, 'path');
        const body = parse(P.UpdateAppAccountBody, req.body, 'body');
        res.json(await accounts.update(credentialOf(req), externalId, body));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/app/accounts',
        operationId: 'listAppAccounts',
        tags: ['apps'],
        summary: 'The app’s accounts',
        description: 'By account id, a page at a time: pass `next` as `after` for the next page.',
        security: appKey('app:accounts'),
        request: { query: P.AppAccountsQuery },
        responses: { 200: json(P.AppAccountList, 'A page of accounts'), ...problems(400, 401, 403) },
      },
      handle: async (req, res) => {
        const query = parse(P.AppAccountsQuery, req.query, 'query');
        res.json(await accounts.list(credentialOf(req), query));
      },
    },
  ];
}
