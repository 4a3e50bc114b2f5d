import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import type { Request } from 'express';
import { z } from 'zod';
import type { Services } from '../../service';
import type { LifecycleTarget } from '../../service/apps/lifecycle';
import { ACCOUNT_STATUSES } from '../../vocabulary';
import { requireOperator } from './admin';
import { appKey, credentialOf, json, operatorKey, parse, problems, type RestRoute } from './route';

// Suspend, ban, erase and export: by an app for its own accounts (/app/accounts/{externalId}/…, an
// app key with app:moderate) and by the operator for any account (/admin/accounts/{accountId}/…,
// OPERATOR_KEY). One table of actions makes both sets of routes; the service does the work
// (service/apps/lifecycle.ts).
extendZodWithOpenApi(z);

const APP_SECURITY = appKey('app:moderate');
const OPERATOR_SECURITY = operatorKey;

const ExternalIdParams = z.object({
  externalId: z
    .string()
    .min(1)
    .max(128)
    .openapi({ description: 'The app’s own id for its user', example: 'user-42' }),
});
const AccountIdParams = z.object({
  accountId: z.string().min(1).max(200).openapi({
    description: 'The account id (open accounts: the username)',
    example: 'app_3f9c0a7d21b84e65.9f3e2d1c0b4a5968',
  }),
});
const ReasonBody = z
  .object({
    reason: z
      .string()
      .optional()
      .openapi({ description: 'Why (1–200 characters): shown to the account in ACCOUNT_RESTRICTED' }),
  })
  .openapi({ example: { reason: 'Spam in game chat' } });

export const ModeratedAccount = z
  .object({
    id: z.string(),
    app: z.string().openapi({ description: 'The account’s app (`open` for open accounts)' }),
    externalId: z.string().nullable(),
    username: z.string(),
    displayName: z.string().nullable(),
    kind: z.enum(['human', 'bot']),
    status: z.enum(ACCOUNT_STATUSES),
    statusReason: z.string().nullable(),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('ModeratedAccount');

export const AccountExport = z
  .object({
    exportedAt: z.string().openapi({ format: 'date-time' }),
    account: z.record(z.string(), z.unknown()).openapi({ description: 'Every stored field of the account' }),
    tokens: z.array(z.record(z.string(), z.unknown())).openapi({ description: 'Token views (no secrets)' }),
    sessions: z.array(z.record(z.string(), z.unknown())),
    webhooks: z.array(z.record(z.string(), z.unknown())),
    pushEndpoint: z.record(z.string(), z.unknown()).nullable(),
    blocks: z.array(z.record(z.string(), z.unknown())),
    ratings: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'Per perf: the rating and its history' }),
    games: z
      .array(z.record(z.string(), z.unknown()))
      .openapi({ description: 'Its games, moves and results' }),
    challenges: z.array(z.record(z.string(), z.unknown())),
    tournaments: z.array(z.string()),
    feed: z.array(z.record(z.string(), z.unknown())).openapi({ description: 'The events its feed keeps' }),
  })
  .openapi('AccountExport');

type Action = 'suspend' | 'unsuspend' | 'ban' | 'unban';

const ACTIONS: ReadonlyArray<{ action: Action; summary: string; description: string; reason: boolean }> = [
  {
    action: 'suspend',
    summary: 'Suspend an account',
    description:
      'It can no longer start games, challenges, seeks, bulk pairings or tournament entries (nor be ' +
      'challenged or paired): 403 ACCOUNT_RESTRICTED with its status and reason. Its ongoing games go on.',
    reason: true,
  },
  {
    action: 'unsuspend',
    summary: 'Lift a suspension',
    description: 'Back to active. A banned account answers 403 ACCOUNT_RESTRICTED (unban it).',
    reason: false,
  },
  {
    action: 'ban',
    summary: 'Ban an account',
    description:
      'Every credential of the account is refused from now on (403 ACCOUNT_RESTRICTED); its tokens and ' +
      'sessions are revoked (its open streams end within a second, on every node), its open challenges ' +
      'closed, and its ongoing games lost by forfeit (result reason `banned`; rated games count it as a loss).',
    reason: true,
  },
  {
    action: 'unban',
    summary: 'Lift a ban',
    description: 'Back to active. Its revoked tokens and sessions stay revoked: the app mints new sessions.',
    reason: false,
  },
];

const ERASE =
  'Removes the account’s personal data: username, display name, external id, metadata, tokens, ' +
  'sessions, webhooks, push endpoint, feed, blocks (both ways) and open challenges; its ongoing games ' +
  'are lost by forfeit first (reason `banned`). Its finished games stay as they are (moves and results; ' +
  'a game stores no username), so its opponents’ histories and ratings stay whole; leaderboards and ' +
  'tournament standings show it as `deleted-<n>`. The username cannot be taken again in the app for 30 ' +
  'days. Afterwards every route answers 404 ACCOUNT_NOT_FOUND for it.';
const EXPORT =
  'One JSON document: the account (every field), its tokens (no secrets), sessions, webhooks, push ' +
  'endpoint, blocks, ratings and their histories, games (with moves and results), open challenges, ' +
  'tournaments and the events its feed keeps.';

export function lifecycleRoutes(services: Services): RestRoute[] {
  const lifecycle = services.lifecycle;
  const sides = [
    {
      base: '/app/accounts/{externalId}',
      params: ExternalIdParams,
      prefix: '',
      tag: 'apps',
      who: 'The app’s own account, by external id. Needs an app key with the scope app:moderate.',
      security: APP_SECURITY,
      target: (req: Request): LifecycleTarget => ({
        credential: credentialOf(req),
        externalId: parse(ExternalIdParams, req.params, 'path').externalId,
      }),
    },
    {
      base: '/admin/accounts/{accountId}',
      params: AccountIdParams,
      prefix: 'admin',
      tag: 'admin',
      who: 'Any account, by id. Needs the operator key (OPERATOR_KEY); unset, 403 OPERATOR_ONLY.',
      security: OPERATOR_SECURITY,
      target: (req: Request): LifecycleTarget => {
        requireOperator(req);
        return { operator: true, accountId: parse(AccountIdParams, req.params, 'path').accountId };
      },
    },
  ];
  const named = (prefix: string, name: string) =>
    prefix === '' ? name : `${prefix}${name[0]?.toUpperCase()}${name.slice(1)}`;
  return sides.flatMap((side): RestRoute[] => [
    ...ACTIONS.map(({ action, summary, description, reason }): RestRoute => ({
      spec: {
        method: 'post',
        path: `${side.base}/${action}`,
        operationId: named(side.prefix, `${action}Account`),
        tags: [side.tag],
        summary,
        description: `${description} ${side.who}`,
        security: side.security,
        request: {
          params: side.params,
          ...(reason
            ? { body: { required: false, content: { 'application/json': { schema: ReasonBody } } } }
            : {}),
        },
        responses: {
          200: json(ModeratedAccount, 'The account’s status now'),
          ...problems(400, 401, 403, 404, 503),
        },
      },
      handle: async (req, res) => {
        const target = side.target(req);
        const why = reason ? parse(ReasonBody, req.body, 'body').reason : undefined;
        res.json(await lifecycle[action](target, why));
      },
    })),
    {
      spec: {
        method: 'delete',
        path: side.base,
        operationId: named(side.prefix, 'eraseAccount'),
        tags: [side.tag],
        summary: 'Erase an account',
        description:
          `${ERASE} ${side.who}` +
          (side.prefix === 'admin'
            ? ' Open accounts (id = username) are refused with 403 FORBIDDEN (reason open-account): ban them.'
            : ''),
        security: side.security,
        request: { params: side.params },
        responses: { 204: { description: 'Erased' }, ...problems(400, 401, 403, 404, 503) },
      },
      handle: async (req, res) => {
        await lifecycle.erase(side.target(req));
        res.status(204).end();
      },
    },
    {
      spec: {
        method: 'get',
        path: `${side.base}/export`,
        operationId: named(side.prefix, 'exportAccount'),
        tags: [side.tag],
        summary: 'Export an account’s data',
        description: `${EXPORT} ${side.who}`,
        security: side.security,
        request: { params: side.params },
        responses: { 200: json(AccountExport, 'The account’s data'), ...problems(400, 401, 403, 404, 503) },
      },
      handle: async (req, res) => {
        res.json(await lifecycle.export(side.target(req)));
      },
    },
  ]);
}
