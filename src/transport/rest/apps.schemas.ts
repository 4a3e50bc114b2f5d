import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ACCOUNT_KINDS, ACCOUNT_STATUSES, APP_KEY_SCOPES } from '../../vocabulary';

// Request and response shapes of apps, app keys, app accounts and app usage (the app API under
// /app and the operator API under /admin).
extendZodWithOpenApi(z);

const DateTime = z.string().openapi({ format: 'date-time' });

export const AppId = z
  .string()
  .regex(/^app_[a-z0-9]{16}$/)
  .openapi({ description: 'An app id: app_ and 16 letters or digits', example: 'app_3f9c0a7d21b84e65' });

export const AppKeyId = z
  .string()
  .regex(/^key_[a-f0-9]{16}$/)
  .openapi({ description: 'An app key id (not the secret)', example: 'key_8d0e4b2a9c1f3e77' });

export const ExternalId = z.string().min(1).max(128).openapi({
  description: 'The app’s own id for its user: 1–128 characters, no control, format or bidi characters',
  example: 'user-42',
});

export const AppKeyScope = z.enum(APP_KEY_SCOPES).openapi('AppKeyScope', {
  description:
    'The account scopes an app key lends to the accounts it acts for (game:read, game:play, bot:play, ' +
    'challenge:write, challenge:bulk) and its own: app:accounts (make and change its accounts), app:sessions, ' +
    'app:webhooks, app:moderate',
});

export const AppQuotas = z
  .object({
    accountsPerDay: z
      .number()
      .int()
      .openapi({ description: 'Accounts it may create per day', example: 10000 }),
    gamesPerDay: z
      .number()
      .int()
      .openapi({ description: 'Games its accounts may start per day', example: 100000 }),
    requestsPerSecond: z
      .number()
      .int()
      .openapi({ description: 'Requests per second of its keys and sessions together', example: 200 }),
  })
  .openapi('AppQuotas');

export const AppSettings = z
  .object({
    sharedPool: z.boolean().openapi({
      description: 'In the shared pool its accounts see and play the open accounts and other pooled apps’',
    }),
    corsOrigins: z.array(z.string()).openapi({ example: ['https://play.example.com'] }),
    quotas: AppQuotas,
    sessionSeconds: z
      .number()
      .int()
      .openapi({ description: 'Session token lifetime (60–86400)', example: 3600 }),
    refreshSeconds: z
      .number()
      .int()
      .openapi({ description: 'Refresh token lifetime (3600–31536000)', example: 2592000 }),
    chat: z.boolean().openapi({
      description: 'Its games have chat (default true; false: chat answers 403 CHAT_DISABLED, `by` app)',
    }),
  })
  .openapi('AppSettings');

export const AppSettingsInput = z
  .object({
    sharedPool: z.boolean().optional(),
    corsOrigins: z.array(z.string()).max(20).optional(),
    quotas: z
      .object({
        accountsPerDay: z.number().int().optional(),
        gamesPerDay: z.number().int().optional(),
        requestsPerSecond: z.number().int().optional(),
      })
      .strict()
      .optional(),
    sessionSeconds: z.number().int().optional(),
    refreshSeconds: z.number().int().optional(),
    chat: z.boolean().optional(),
  })
  .strict()
  .openapi('AppSettingsInput', {
    description: 'Settings to change; each omitted one keeps its value',
    example: { sharedPool: false, quotas: { requestsPerSecond: 50 } },
  });

export const App = z
  .object({
    id: AppId,
    name: z.string().openapi({ example: 'Acme Games' }),
    settings: AppSettings,
    createdAt: DateTime,
    disabledAt: DateTime.nullable().openapi({ description: 'Set: its keys and sessions are refused' }),
  })
  .openapi('App');

export const AppList = z.object({ items: z.array(App) }).openapi('AppList');

export const AppKey = z
  .object({
    id: AppKeyId,
    app: AppId,
    label: z.string().openapi({ example: 'backend' }),
    scopes: z.array(AppKeyScope),
    createdAt: DateTime,
    revokedAt: DateTime.nullable(),
    lastUsedAt: DateTime.nullable().openapi({ description: 'About when it last authenticated a request' }),
  })
  .openapi('AppKey');

export const IssuedAppKey = AppKey.extend({
  key: z.string().openapi({ description: 'The secret (bha_…), shown only in this answer' }),
}).openapi('IssuedAppKey');

export const AppKeyList = z.object({ items: z.array(AppKey) }).openapi('AppKeyList');

export const CreateAppBody = z
  .object({
    name: z.string().min(1).max(60).openapi({ example: 'Acme Games' }),
    settings: AppSettingsInput.optional(),
  })
  .strict()
  .openapi('CreateAppBody', {
    example: { name: 'Acme Games', settings: { sharedPool: false, quotas: { requestsPerSecond: 50 } } },
  });

export const CreatedApp = z
  .object({
    app: App,
    key: IssuedAppKey.openapi({ description: 'A first key with every scope (the secret only here)' }),
  })
  .openapi('CreatedApp');

export const UpdateAppBody = z
  .object({
    name: z.string().min(1).max(60).optional(),
    settings: AppSettingsInput.optional(),
    disabled: z
      .boolean()
      .optional()
      .openapi({ description: 'true disables the app (its keys and sessions are refused)' }),
  })
  .strict()
  .openapi('UpdateAppBody', {
    example: { name: 'Acme Games (staging)', settings: { quotas: { requestsPerSecond: 100 } } },
  });

export const CreateAppKeyBody = z
  .object({
    label: z.string().max(60).optional().openapi({ example: 'backend' }),
    scopes: z.array(AppKeyScope).min(1).optional().openapi({ description: 'Default: every scope' }),
  })
  .strict()
  .openapi('CreateAppKeyBody', { example: { label: 'backend', scopes: ['app:accounts', 'app:sessions'] } });

export const AppUsage = z
  .object({
    app: AppId,
    requests: z
      .number()
      .int()
      .openapi({ description: 'Requests of its keys and sessions in its current day window' }),
    gamesCreated: z
      .number()
      .int()
      .openapi({ description: 'Games its accounts started in its current day window' }),
    accountsCreated: z.number().int().openapi({ description: 'Accounts it made in its current day window' }),
    quotas: AppQuotas,
  })
  .openapi('AppUsage', {
    description:
      'An app’s counts over its current day window (24 h from its first count of the kind; the quotas count the ' +
      'same windows). Requests are sent to the store by each node about every second',
  });

const Metadata = z.record(z.string(), z.string()).openapi({
  description:
    'At most 20 keys of 1–40 of A-Z a-z 0-9 _ . -, string values of at most 256 characters, 4 kB in all',
  example: { tier: 'gold' },
});

export const AppAccount = z
  .object({
    id: z.string().openapi({
      description: 'The account id: the app id, a dot and 16 hex digits; never changes',
      example: 'app_3f9c0a7d21b84e65.9a8b7c6d5e4f3a21',
    }),
    app: AppId,
    externalId: ExternalId,
    username: z.string().openapi({ example: 'player-1a2b3c4d' }),
    displayName: z.string().nullable().openapi({ example: 'Ada' }),
    metadata: Metadata,
    kind: z.enum(ACCOUNT_KINDS),
    status: z.enum(ACCOUNT_STATUSES),
    statusReason: z.string().nullable(),
    createdAt: DateTime,
  })
  .openapi('AppAccount');

export const AppAccountList = z
  .object({
    items: z.array(AppAccount),
    next: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `after` for the next page; null on the last page' }),
  })
  .openapi('AppAccountList');

const Username = z.string().min(1).max(64).openapi({
  description:
    '2–30 letters, digits, _ or -, starting with a letter or digit; unique in the app ignoring case',
  example: 'ada',
});
const DisplayName = z.string().min(1).max(50).openapi({ description: '1–50 characters', example: 'Ada L.' });

export const EnsureAppAccountBody = z
  .object({
    username: Username.optional().openapi({ description: 'Default: player-<8 hex digits>' }),
    displayName: DisplayName.optional(),
    metadata: Metadata.optional(),
    kind: z.enum(ACCOUNT_KINDS).optional().openapi({ description: 'Default: human' }),
  })
  .strict()
  .openapi('EnsureAppAccountBody', {
    example: { username: 'ada', displayName: 'Ada L.', metadata: { tier: 'gold' } },
  });

export const UpdateAppAccountBody = z
  .object({
    username: Username.optional(),
    displayName: DisplayName.nullable().optional().openapi({ description: 'null removes it' }),
    metadata: Metadata.nullable()
      .optional()
      .openapi({ description: 'Replaces the metadata whole; null removes it' }),
  })
  .strict()
  .openapi('UpdateAppAccountBody', { example: { username: 'ada2', displayName: 'Ada Lovelace' } });

export const AppAccountsQuery = z
  .object({
    after: z.string().max(200).optional().openapi({ description: 'A previous page’s `next`' }),
    limit: z.coerce.number().int().min(1).max(100).optional().openapi({ description: '1–100, default 50' }),
  })
  .strict();
