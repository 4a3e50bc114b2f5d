import type { Request } from 'express';
import { z } from 'zod';
import { GameError } from '../../service/errors';
import type { Services } from '../../service';
import type { FeedService } from '../../service/delivery/feed';
import * as A from './accounts.schemas';
import {
  apiToken,
  credentialOf,
  idempotencyHeader,
  idempotencyKeyOf,
  json,
  parse,
  problems,
  PUBLIC,
  readerCredentialOf,
  type RestRoute,
} from './route';
import {
  JSON_MEDIA,
  lastEventIdHeader,
  NDJSON_MEDIA,
  negotiate,
  SSE_MEDIA,
  holdStreamSlot,
  streamFeed,
  type OpenStreams,
} from './stream';

const usernameParams = z.object({
  username: A.Username.openapi({
    description: 'A username (open accounts) or an account id (any account; an app account’s has a dot)',
    example: 'ada',
  }),
});
const tokenParams = z.object({
  tokenId: z.string().openapi({ description: 'The token id (not the secret)', example: 'Tq4mZ8rL2xVw' }),
});

const SSE = SSE_MEDIA;
const NDJSON = NDJSON_MEDIA;
const JSON_TYPE = JSON_MEDIA;

const FEED_DESCRIPTION = `The account's events (challenges, its games' starts, moves, draw offers and results), numbered
1, 2, 3… by \`seq\` and kept 21 days (FEED_RETENTION_DAYS). Needs an API token with the scope game:read. Each event
also names its \`epoch\`: the feed begins a new one when the event store comes back older (see "Durability").
The Accept header chooses the form:

- \`${SSE}\`: Server-Sent Events. First \`event: ready\` whose data is \`{"last": N, "epoch": E}\` (and
  \`id: E:N\`): the stream continues after seq N. Then each event as \`id: <epoch>:<seq>\`, \`event: <type>\`,
  \`data: <the FeedEvent JSON>\`. A \`retry:\` line comes first, a \`: keep-alive\` comment every 15 s, and
  \`event: shutdown\` when the server stops. Resume with the \`Last-Event-ID\` header (browsers send it on
  reconnect; it wins over \`after\` and \`epoch\`; a bare seq is accepted too) or \`?after=&epoch=\`.
- \`${NDJSON}\` (also for \`*/*\`, no Accept, or anything else): one JSON document per line. First
  \`{"type":"ready","last":N,"epoch":E}\`, then one FeedEvent per line; an empty line every 15 s keeps the connection
  open and \`{"type":"shutdown"}\` ends it when the server stops. Resume with \`?after=&epoch=\`.
- \`${JSON_TYPE}\`: one page \`{events, next, last, epoch}\` of the events after \`after\` (default 0), for clients
  that poll: pass \`next\` as \`after\` to poll on.

Streams without \`after\` start from now (\`ready.last\` is the newest seq). With \`after\` every later event comes
exactly once, in order, the missed ones first. Errors come before the stream starts, as problems: 400 for an
\`after\` beyond the newest event, 410 EVENTS_EXPIRED when the events after it were trimmed (\`first\` is the oldest
kept), 409 FEED_EPOCH_CHANGED when \`epoch\` is given and the store lost events after the seq where that epoch and
the current one part (re-read your games and challenges, then resume with the \`epoch\` and \`after\` it names).
If the store fails mid-stream the response ends; reconnect with the last epoch and seq seen. If the feed begins a new
epoch mid-stream, the stream ends with \`epoch_changed\` (the same facts as the 409). Revoking the token the stream
was opened with ends it within a second, on any server node, with \`event: revoked\` (SSE) or \`{"type":"revoked"}\`
(NDJSON).`;

/** Last-Event-ID of an SSE reconnect, if any: `<epoch>:<seq>`, or a bare seq. */
export function lastEventId(req: Request): { after: number; epoch?: string } | undefined {
  const header = req.headers['last-event-id'];
  if (header === undefined) return undefined;
  const match =
    typeof header === 'string' ? /^(?:([A-Za-z0-9_-]{1,32}):)?(\d{1,15})$/.exec(header.trim()) : null;
  if (!match) {
    throw new GameError('INVALID_INPUT', 'Last-Event-ID must be an id from the feed (<epoch>:<seq>)', {
      field: 'Last-Event-ID',
    });
  }
  return { after: Number(match[2]), ...(match[1] ? { epoch: match[1] } : {}) };
}

/** Accounts, API tokens, bot declarations and the account event feed under /api/v1. */
export function accountRoutes(services: Services, streams: OpenStreams = new Set()): RestRoute[] {
  const accounts = services.accounts;
  return [
    {
      spec: {
        method: 'post',
        path: '/accounts',
        operationId: 'createAccount',
        tags: ['accounts'],
        summary: 'Sign up',
        description:
          'Creates a human or bot account and its first API token, with every scope of the kind ' +
          '(humans: game:read, game:play, challenge:write; bots: game:read, bot:play, challenge:write). ' +
          'The secret is shown only in this answer. 409 USERNAME_TAKEN when the name is taken (ignoring case).',
        security: PUBLIC,
        request: {
          headers: idempotencyHeader,
          body: { content: { 'application/json': { schema: A.CreateAccountBody } } },
        },
        responses: {
          201: json(A.SignedUp, 'The account and its first token', 'Location'),
          ...problems(400, 409, 422, 503),
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
        operationId: 'getAccount',
        tags: ['accounts'],
        summary: "An account's public profile",
        security: PUBLIC,
        request: { params: usernameParams },
        responses: { 200: json(A.Account, 'The account'), ...problems(400, 404, 503) },
      },
      handle: async (req, res) => {
        const { username } = parse(usernameParams, req.params, 'path');
        res.json(await accounts.getAccount(username, readerCredentialOf(req)));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/account',
        operationId: 'getMyAccount',
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
        operationId: 'setBotPolicy',
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
        operationId: 'listTokens',
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
        operationId: 'createToken',
        tags: ['accounts'],
        summary: 'Create an API token',
        description:
          'Any API token of the account; the new token’s scopes must be among the calling token’s ' +
          '(403 MISSING_SCOPE otherwise), and a calling token that expires creates only tokens that expire no ' +
          'later (403 TOKEN_OUTLIVES_CALLER). The secret is shown only in this answer. With `expiresInSeconds` ' +
          'the token stops working then (401 TOKEN_EXPIRED). 409 TOO_MANY_TOKENS past the active tokens quota. ' +
          'An Idempotency-Key is the calling token’s own: another token of the account never replays its answer.',
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
        operationId: 'revokeToken',
        tags: ['accounts'],
        summary: 'Revoke an API token',
        description:
          'The token in use may revoke itself; another token of the account only if the calling token holds ' +
          'every scope of it (403 MISSING_SCOPE otherwise); a root token (never expiring, every scope of the ' +
          'kind) only with a root token (403 ROOT_TOKEN_REQUIRED). The token stops working at once. The account’s last ' +
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
    feedRoute(services.feed, services, streams, {
      path: '/account/events',
      operationId: 'listEvents',
      summary: "The account's event feed (SSE, NDJSON or a JSON page)",
      description: FEED_DESCRIPTION,
      security: apiToken('game:read'),
    }),
  ];
}

/**
 * A feed as a route (an account's, an app's): SSE, NDJSON or a JSON page by Accept, resumable by
 * `after`/`epoch` or SSE's Last-Event-ID; its stream holds a slot and ends when its credential does.
 */
export function feedRoute(
  feed: FeedService,
  services: Services,
  streams: OpenStreams,
  spec: Pick<RestRoute['spec'], 'path' | 'operationId' | 'summary' | 'description' | 'security'>,
): RestRoute {
  return {
    spec: {
      method: 'get',
      tags: ['feed'],
      ...spec,
      request: { query: A.EventsQuery, headers: lastEventIdHeader },
      responses: {
        200: {
          description: 'The feed',
          content: {
            [SSE]: { schema: { $ref: '#/components/schemas/FeedStreamEvent' } },
            [NDJSON]: { schema: { $ref: '#/components/schemas/FeedStreamLine' } },
            [JSON_TYPE]: { schema: A.FeedPage },
          },
        },
        ...problems(400, 401, 403, 409, 410, 503),
      },
    },
    handle: async (req, res) => {
      const query = parse(A.EventsQuery, req.query, 'query');
      const cursor =
        query.after === undefined
          ? undefined
          : { after: query.after, ...(query.epoch === undefined ? {} : { epoch: query.epoch }) };
      const credential = credentialOf(req);
      const wanted = negotiate(req, res, [NDJSON, SSE, JSON_TYPE]);
      if (wanted === JSON_TYPE) {
        res.json(await feed.read(credential, cursor ?? { after: 0 }, query.limit ?? 100));
        return;
      }
      const format = wanted === SSE ? 'sse' : 'ndjson';
      await holdStreamSlot(services.streamSlots, req, res);
      await streamFeed(
        feed,
        services.tokenStreams,
        credential,
        (format === 'sse' ? lastEventId(req) : undefined) ?? cursor,
        res,
        streams,
        format,
      );
    },
  };
}
