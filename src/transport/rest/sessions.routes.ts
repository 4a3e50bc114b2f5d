import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Services } from '../../service';
import { MAX_SESSIONS_PER_ACCOUNT } from '../../service/apps/sessions';
import { TOKEN_SCOPES } from '../../vocabulary';
import { apiToken, appKey, credentialOf, json, parse, problems, PUBLIC, type RestRoute } from './route';

// Apps' sessions: minted by the app's backend (app key with app:sessions) for one of its accounts,
// refreshed by the app's client with the refresh token (public), revoked by either.
extendZodWithOpenApi(z);

const DateTime = z.string().openapi({ format: 'date-time' });

const ExternalIdParams = z.object({
  externalId: z
    .string()
    .min(1)
    .max(128)
    .openapi({ description: "The app's own id for its user", example: 'user-8841' }),
});

const SessionIdParams = z.object({
  sessionId: z
    .string()
    .regex(/^ses_[0-9a-f]{16}$/)
    .openapi({ description: 'Session id', example: 'ses_4f1c9a0b7e2d5a13' }),
});

const SessionView = z
  .object({
    id: z.string().openapi({ example: 'ses_4f1c9a0b7e2d5a13' }),
    app: z.string().openapi({ example: 'app_0c5e1f7a9b3d2e4f' }),
    account: z
      .string()
      .openapi({ description: "The account's id", example: 'app_0c5e1f7a9b3d2e4f.9a8b7c6d5e4f3a2b' }),
    key: z
      .string()
      .openapi({ description: 'The id of the app key that minted it', example: 'key_1a2b3c4d5e6f7a8b' }),
    label: z.string().openapi({ example: 'iPhone' }),
    scopes: z.array(z.enum(TOKEN_SCOPES)).openapi({ example: ['game:read', 'game:play', 'challenge:write'] }),
    generation: z.number().int().openapi({ description: 'How many times it was refreshed (0: as minted)' }),
    createdAt: DateTime,
    expiresAt: DateTime.openapi({
      description: 'When the current refresh token stops working (each refresh gives refreshSeconds more)',
    }),
    revokedAt: DateTime.nullable(),
    active: z
      .boolean()
      .openapi({ description: 'Neither revoked nor expired, and the key that minted it not revoked' }),
  })
  .openapi('Session');

const IssuedSession = z
  .object({
    session: SessionView,
    accessToken: z.string().openapi({
      description: "A bearer token of the account (bhp_…) with the session's scopes; shown only here",
      example: 'bhp_Zx8aQ1d0lT9vJb7c2Yk4mN6pR3sU5wX0',
    }),
    accessTokenExpiresAt: DateTime.openapi({
      description: "sessionSeconds from now, never after the refresh token's expiry",
    }),
    refreshToken: z.string().openapi({
      description: 'Single use: trade it at POST /sessions/refresh; shown only here',
      example: 'bhr_b1Pq8sV2xZ6nC4mK0jH7gF5dS3aL9wE1rT6yU8iO2pA',
    }),
    refreshTokenExpiresAt: DateTime,
  })
  .openapi('IssuedSession');

const CreateSessionBody = z
  .object({
    scopes: z
      .array(z.enum(TOKEN_SCOPES))
      .min(1)
      .optional()
      .openapi({
        description:
          "Among the key's account scopes, fitting the account (bot:play for bots, game:play for people); " +
          'omitted: all of them that fit',
        example: ['game:read', 'game:play'],
      }),
    label: z
      .string()
      .max(60)
      .optional()
      .openapi({ description: '1–60 characters (default session)', example: 'iPhone' }),
  })
  .strict()
  .openapi('CreateSessionBody', { example: { scopes: ['game:read', 'game:play'], label: 'iPhone' } });

const RefreshBody = z
  .object({
    refreshToken: z.string().max(200).openapi({ example: 'bhr_b1Pq8sV2xZ6nC4mK0jH7gF5dS3aL9wE1rT6yU8iO2pA' }),
  })
  .strict()
  .openapi('RefreshSessionBody', {
    example: { refreshToken: 'bhr_b1Pq8sV2xZ6nC4mK0jH7gF5dS3aL9wE1rT6yU8iO2pA' },
  });

const SessionList = z.object({ items: z.array(SessionView) }).openapi('SessionList');

const LIFETIMES =
  "The access token lives the app's sessionSeconds (default 1 h), never past the refresh token; the " +
  'refresh token lives refreshSeconds (default 30 days) from its issue. Revoking the session or the key ' +
  'that minted it ends both at once, with the streams opened with them (on every node, within a second).';

/** The app's sessions (under /app, with an app key) and the client's refresh and sign-out. */
export function sessionRoutes(services: Services): RestRoute[] {
  const sessions = services.sessions;
  return [
    {
      spec: {
        method: 'post',
        path: '/app/accounts/{externalId}/sessions',
        operationId: 'createSession',
        tags: ['apps'],
        summary: 'Sign one of the app’s accounts in: a session',
        description:
          `An access token and a refresh token for the account, for the app's client. ${LIFETIMES} At most ` +
          `${MAX_SESSIONS_PER_ACCOUNT} active sessions per account: the next is refused (409 ` +
          'APP_LIMIT_REACHED, what sessions; nothing is revoked for it). 404 ACCOUNT_NOT_FOUND for an ' +
          'external id the app does not have; 403 MISSING_SCOPE for a scope the key does not hold. Needs an ' +
          'app key with app:sessions.',
        security: appKey('app:sessions'),
        request: {
          params: ExternalIdParams,
          body: { required: false, content: { 'application/json': { schema: CreateSessionBody } } },
        },
        responses: {
          201: json(IssuedSession, 'The session and its tokens'),
          ...problems(400, 401, 403, 404, 409),
        },
      },
      handle: async (req, res) => {
        const { externalId } = parse(ExternalIdParams, req.params, 'path');
        const body = parse(CreateSessionBody, req.body, 'body');
        res.status(201).json(await sessions.mint(credentialOf(req), externalId, body));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/app/accounts/{externalId}/sessions',
        operationId: 'listSessions',
        tags: ['apps'],
        summary: 'The sessions of one of the app’s accounts',
        description:
          'Oldest first, ended ones too (`active`), without secrets. Needs an app key with app:sessions.',
        security: appKey('app:sessions'),
        request: { params: ExternalIdParams },
        responses: { 200: json(SessionList, 'The sessions'), ...problems(400, 401, 403, 404) },
      },
      handle: async (req, res) => {
        const { externalId } = parse(ExternalIdParams, req.params, 'path');
        res.json({ items: await sessions.list(credentialOf(req), externalId) });
      },
    },
    {
      spec: {
        method: 'delete',
        path: '/app/sessions/{sessionId}',
        operationId: 'revokeSession',
        tags: ['apps'],
        summary: 'Revoke a session',
        description:
          'Its access token and refresh token stop working, and the streams opened with the access token ' +
          'end on every node within a second. Idempotent (a revoked session is answered as it is). Needs ' +
          'an app key with app:sessions.',
        security: appKey('app:sessions'),
        request: { params: SessionIdParams },
        responses: { 200: json(SessionView, 'The revoked session'), ...problems(400, 401, 403, 404) },
      },
      handle: async (req, res) => {
        const { sessionId } = parse(SessionIdParams, req.params, 'path');
        res.json(await sessions.revoke(credentialOf(req), sessionId));
      },
    },
    {
      spec: {
        method: 'post',
        path: '/sessions/refresh',
        operationId: 'refreshSession',
        tags: ['apps'],
        summary: 'Trade a refresh token for new tokens',
        description:
          'A new access token and refresh token; the old ones stop working (the streams opened with the ' +
          'old access token end). Each refresh token works once: one presented again (or two refreshes ' +
          'racing with one token) revokes the whole session. 401 INVALID_REFRESH_TOKEN with `reason` ' +
          'unknown, revoked, expired or reused: sign the user in again. Public: the refresh token is ' +
          `the credential. ${LIFETIMES}`,
        security: PUBLIC,
        request: { body: { content: { 'application/json': { schema: RefreshBody } } } },
        responses: { 200: json(IssuedSession, 'The session and its new tokens'), ...problems(400, 401, 403) },
      },
      handle: async (req, res) => {
        const { refreshToken } = parse(RefreshBody, req.body, 'body');
        res.json(await sessions.refresh(refreshToken));
      },
    },
    {
      spec: {
        method: 'delete',
        path: '/session',
        operationId: 'signOut',
        tags: ['apps'],
        summary: 'Sign out: the session token ends its session',
        description:
          "Revokes the caller's session (its access and refresh tokens). 400 INVALID_INPUT for a credential " +
          'that is not a session token.',
        security: apiToken(),
        responses: { 200: json(SessionView, 'The ended session'), ...problems(400, 401, 403) },
      },
      handle: async (req, res) => {
        res.json(await sessions.signOut(credentialOf(req)));
      },
    },
  ];
}
