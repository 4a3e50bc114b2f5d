import type { Request } from 'express';
import { z } from 'zod';
import { GameError } from '../../service/errors';
import type { Services } from '../../service';
import * as A from './accounts.schemas';
import {
  apiToken,
  credentialOf,
  idempotencyHeader,
  idempotencyKeyOf,
  json,
  parse,
  problems,
  type RestRoute,
} from './route';
import { streamFeed, type OpenStreams } from './stream';

const usernameParams = z.object({ username: A.Username });
const tokenParams = z.object({
  tokenId: z.string().openapi({ description: 'The token id (not the secret)' }),
});

const SSE = 'text/event-stream';
const NDJSON = 'application/x-ndjson';
const JSON_TYPE = 'application/json';

const FEED_DESCRIPTION = `The account's events (challenges, its games' starts, moves, draw offers and results), numbered
1, 2, 3… by \`seq\` and kept 7 days. Needs an API token with the scope game:read. The Accept header chooses the form:

- \`${SSE}\`: Server-Sent Events. First \`event: ready\` whose data is \`{"last": N}\` (and \`id: N\`): the
  stream continues after seq N. Then each event as \`id: <seq>\`, \`event: <type>\`, \`data: <the FeedEvent JSON>\`.
  A \`retry:\` line comes first, a \`: keep-alive\` comment every 15 s, and \`event: shutdown\` when the server stops.
  Resume with the \`Last-Event-ID\` header (browsers send it on reconnect; it wins over \`after\`) or \`?after=\`.
- \`${NDJSON}\` (also for \`*/*\`, no Accept, or anything else): one JSON document per line. First
  \`{"type":"ready","last":N}\`, then one FeedEvent per line; an empty line every 15 s keeps the connection open and
  \`{"type":"shutdown"}\` ends it when the server stops. Resume with \`?after=\`.
- \`${JSON_TYPE}\`: one page \`{events, last}\` of the events after \`after\` (default 0), for clients that poll.

Streams without \`after\` start from now (\`ready.last\` is the newest seq). With \`after\` every later event comes
exactly once, in order, the missed ones first. Errors come before the stream starts, as problems: 400 for an
\`after\` beyond the newest event, 410 EVENTS_EXPIRED when the events after it were trimmed (\`first\` is the oldest
kept). If the store fails mid-stream the response ends; reconnect with the last seq seen.`;

/** Last-Event-ID of an SSE reconnect, if any. */
function lastEventId(req: Request): number | undefined {
  const header = req.headers['last-event-id'];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^\d{1,15}$/.test(header.trim())) {
    throw new GameError('INVALID_INPUT', 'Last-Event-ID must be a seq from the feed', {
      field: 'Last-Event-ID',
    });
  }
  return Number(header.trim());
}

/** Accounts, API tokens, bot declarations and the account event feed under /api/v1. */
export function accountRoutes(services: Services, streams: OpenStreams = new Set()): RestRoute[] {
  const accounts = services.accounts;
  return [
    {
      spec: {
        method: 'post',
        path: '/accounts',
        tags: ['accounts'],
        summary: 'Sign up',
        description:
          'Creates a human or bot account and its first API token, with every scope of the kind ' +
          '(humans: game:read, game:play, challenge:write; bots: game:read, bot:play, challenge:write). ' +
          'The secret is shown only in this answer. 409 USERNAME_TAKEN when the name is taken (ignoring case).',
        request: {
          headers: idempotencyHeader,
          body: { content: { 'application/json': { schema: A.CreateAccountBody } } },
        },
        responses: {
          201: json(A.SignedUp, 'The account and its first token'),
          ...problems(400, 409, 422, 429, 503),
        },
      },
      handle: async (req, res) => {
        const body = parse(A.CreateAccountBody, req.body, 'body');
        const created = await accounts.createAccount(body, {
          ...idempotencyKeyOf(req),
          ...(req.ip ? { ip: req.ip } : {}),
        });
        res
          .status(201)
          .setHeader('Location', `/api/v1/accounts/${encodeURIComponent(created.account.username)}`)
          .json(created);
      },
    },
    {
      spec: {
        method: 'get',
        path: '/accounts/{username}',
        tags: ['accounts'],
        summary: "An account's public profile",
        request: { params: usernameParams },
        responses: { 200: json(A.Account, 'The account'), ...problems(400, 404, 503) },
      },
      handle: async (req, res) => {
        const { username } = parse(usernameParams, req.params, 'path');
        res.json(await accounts.getAccount(username));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/account',
        tags: ['accounts'],
        summary: 'The account of the token',
        description: 'Needs an API token with the scope game:read.',
        security: apiToken('game:read'),
        responses: { 200: json(A.Account, 'The account'), ...problems(401, 403, 503) },
      },
      handle: async (req, res) => {
        res.json(await accounts.me(credentialOf(req)));
      },
    },
    {
      spec: {
        method: 'put',
        path: '/account/bot',
        tags: ['accounts'],
        summary: 'Declare what a bot accepts',
        description:
          'Bot accounts only, with the scope bot:play. Challenges outside the declaration are declined at once ' +
          'on the bot’s behalf, with the reason kind, timeControl, options or tooManyGames (maxGames ongoing games).',
        security: apiToken('bot:play'),
        request: { body: { content: { 'application/json': { schema: A.BotPolicyBody } } } },
        responses: { 200: json(A.Account, 'The bot account'), ...problems(400, 401, 403, 503) },
      },
      handle: async (req, res) => {
        const body = parse(A.BotPolicyBody, req.body, 'body');
        res.json(await accounts.setBotPolicy(credentialOf(req), body));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/account/tokens',
        tags: ['accounts'],
        summary: "The account's API tokens",
        description:
          'Any API token of the account; ids, labels and scopes, never secrets (revoked ones too).',
        security: apiToken(),
        responses: { 200: json(A.TokenList, 'The tokens, oldest first'), ...problems(401, 503) },
      },
      handle: async (req, res) => {
        res.json({ items: await accounts.listTokens(credentialOf(req)) });
      },
    },
    {
      spec: {
        method: 'post',
        path: '/account/tokens',
        tags: ['accounts'],
        summary: 'Create an API token',
        description:
          'Any API token of the account; the new token’s scopes must be among the calling token’s ' +
          '(403 MISSING_SCOPE otherwise). The secret is shown only in this answer. With `expiresInSeconds` ' +
          'the token stops working then (401 TOKEN_EXPIRED). 409 TOO_MANY_TOKENS past the active tokens quota.',
        security: apiToken(),
        request: {
          headers: idempotencyHeader,
          body: { content: { 'application/json': { schema: A.CreateTokenBody } } },
        },
        responses: { 201: json(A.IssuedToken, 'The new token'), ...problems(400, 401, 403, 409, 422, 503) },
      },
      handle: async (req, res) => {
        const body = parse(A.CreateTokenBody, req.body, 'body');
        res.status(201).json(await accounts.createToken(credentialOf(req), body, idempotencyKeyOf(req)));
      },
    },
    {
      spec: {
        method: 'delete',
        path: '/account/tokens/{tokenId}',
        tags: ['accounts'],
        summary: 'Revoke an API token',
        description:
          'The token in use may revoke itself; another token of the account only if the calling token holds ' +
          'every scope of it (403 MISSING_SCOPE otherwise). The token stops working at once. The account’s last ' +
          'token that never expires and holds every scope of its kind cannot be revoked (409 LAST_ROOT_TOKEN): ' +
          'create another such token first.',
        security: apiToken(),
        request: { params: tokenParams },
        responses: { 200: json(A.Token, 'The revoked token'), ...problems(400, 401, 403, 404, 409, 503) },
      },
      handle: async (req, res) => {
        const { tokenId } = parse(tokenParams, req.params, 'path');
        res.json(await accounts.revokeToken(credentialOf(req), tokenId));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/account/events',
        tags: ['feed'],
        summary: "The account's event feed (SSE, NDJSON or a JSON page)",
        description: FEED_DESCRIPTION,
        security: apiToken('game:read'),
        request: {
          query: A.EventsQuery,
          headers: z.object({
            'last-event-id': z
              .string()
              .optional()
              .openapi({ description: 'SSE: the last seq seen; the stream resumes after it' }),
          }),
        },
        responses: {
          200: {
            description: 'The feed',
            content: {
              [SSE]: {
                schema: z.string().openapi({
                  description: 'event: ready (data FeedReady without type), then id/event/data per FeedEvent',
                }),
              },
              // By reference: zod-to-openapi would inline every FeedEvent variant into the union.
              [NDJSON]: {
                schema: {
                  description: 'Each line: FeedReady first, then one FeedEvent per line',
                  anyOf: [
                    { $ref: '#/components/schemas/FeedReady' },
                    { $ref: '#/components/schemas/FeedEvent' },
                  ],
                },
              },
              [JSON_TYPE]: { schema: A.FeedPage },
            },
          },
          ...problems(400, 401, 403, 410, 503),
        },
      },
      handle: async (req, res) => {
        const query = parse(A.EventsQuery, req.query, 'query');
        const credential = credentialOf(req);
        res.setHeader('Vary', 'Accept');
        const wanted = req.accepts([NDJSON, SSE, JSON_TYPE]) || NDJSON;
        if (wanted === JSON_TYPE) {
          res.json(await services.feed.read(credential, query.after ?? 0, query.limit ?? 100));
          return;
        }
        if (wanted === SSE) {
          const after = lastEventId(req) ?? query.after;
          await streamFeed(services.feed, credential, after, res, streams, 'sse');
        } else {
          await streamFeed(services.feed, credential, query.after, res, streams, 'ndjson');
        }
      },
    },
  ];
}
