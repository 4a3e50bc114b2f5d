import { z } from 'zod';
import type { Services } from '../../service';
import { apiToken, credentialOf, json, parse, problems, type RestRoute } from './route';
import './schemas';

// Push-mode bots: the account's move endpoint (PUT, GET, DELETE /account/push-endpoint).

export const PushEndpointBody = z
  .object({
    url: z.string().openapi({ example: 'https://bot.example/move', description: 'https; a public address' }),
    secret: z
      .string()
      .optional()
      .openapi({ description: '16–200 visible ASCII characters; default: a new random secret' }),
  })
  .strict()
  .openapi('PushEndpointBody', { example: { url: 'https://bot.example/move' } });

export const PushEndpoint = z
  .object({ url: z.string(), createdAt: z.string().openapi({ format: 'date-time' }) })
  .openapi('PushEndpoint');

export const CreatedPushEndpoint = PushEndpoint.extend({
  secret: z.string().openapi({ description: 'Signs every request; shown only here' }),
}).openapi('CreatedPushEndpoint');

const ABOUT = `On each of the account's turns, in every game, the server POSTs the turn to the endpoint and plays the
move the answer names, through the ordinary write path (one move per game version, however many server nodes):

- Body (JSON): \`type\` "turn", \`account\`, \`seat\` (its seat name), \`legalMoves\`, \`timeLeftMs\` (the mover's clock, or
  until its deadline; null without a limit), \`answerWithinMs\`, \`attempt\` and \`attempts\`, and \`game\` (the game
  without its move list, with \`moves\` as notations).
- Headers as webhooks: \`Boardhost-Delivery\` (a UUID per request), \`Boardhost-Event: turn\`, \`Boardhost-Timestamp\`,
  \`Boardhost-Signature\` (\`v1=\` hex HMAC-SHA256 of \`<timestamp>.<raw body>\` with the endpoint's secret).
- Answer: 2xx with JSON \`{"move": "<a legal move>"}\` within \`answerWithinMs\`. Anything else (another status, not
  JSON, an illegal move, late) fails the attempt; a turn gets 3 attempts, 1 s apart, within the time left. Then the
  turn is given up and the game runs on: its clock or deadline ends it as usual.`;

export function pushRoutes(services: Services): RestRoute[] {
  const push = services.push;
  return [
    {
      spec: {
        method: 'put',
        path: '/account/push-endpoint',
        operationId: 'setPushEndpoint',
        tags: ['push'],
        summary: 'Register (or replace) the move endpoint of a push-mode bot',
        description:
          `${ABOUT}\n\nNeeds the account's play scope (bot:play for bots, game:play for people). The secret is shown ` +
          'only in this answer. 400 UNSAFE_WEBHOOK_URL when the host is or resolves to an address that is not ' +
          'public; the check is made again for every request.',
        security: apiToken('bot:play', 'game:play'),
        request: { body: { content: { 'application/json': { schema: PushEndpointBody } } } },
        responses: {
          200: json(CreatedPushEndpoint, 'The endpoint and its secret'),
          ...problems(400, 401, 403, 413, 415, 503),
        },
      },
      handle: async (req, res) => {
        const body = parse(PushEndpointBody, req.body, 'body');
        res.json(await push.register(credentialOf(req), body));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/account/push-endpoint',
        operationId: 'getPushEndpoint',
        tags: ['push'],
        summary: 'The move endpoint of the account (without its secret)',
        description: 'Any token of the account. 404 NOT_FOUND when it has none.',
        security: apiToken(),
        responses: { 200: json(PushEndpoint, 'The endpoint'), ...problems(401, 404, 503) },
      },
      handle: async (req, res) => {
        res.json(await push.get(credentialOf(req)));
      },
    },
    {
      spec: {
        method: 'delete',
        path: '/account/push-endpoint',
        operationId: 'deletePushEndpoint',
        tags: ['push'],
        summary: 'Remove the move endpoint: the account plays its turns itself again',
        description: "Needs the account's play scope. 404 NOT_FOUND when it has none.",
        security: apiToken('bot:play', 'game:play'),
        responses: { 204: { description: 'Removed' }, ...problems(401, 403, 404, 503) },
      },
      handle: async (req, res) => {
        await push.remove(credentialOf(req));
        res.status(204).end();
      },
    },
  ];
}
