import type { Services } from '../../service';
import { DEFAULT_BLOCK_PAGE } from '../../service/accounts/blocks';
import * as B from './blocks.schemas';
import { apiToken, credentialOf, json, parse, problems, type RestRoute } from './route';

const EFFECT =
  'A blocked account’s challenges to the blocker are refused with 403 BLOCKED (so is accepting the ' +
  'blocker’s open challenges), and seeks never pair the two accounts (either way).';

/** The caller's blocks under /api/v1/account/blocks. */
export function blockRoutes(services: Services): RestRoute[] {
  const blocks = services.blocks;
  return [
    {
      spec: {
        method: 'get',
        path: '/account/blocks',
        operationId: 'listBlocks',
        tags: ['accounts'],
        summary: 'The accounts I block',
        description:
          'By username, a page at a time (`limit`, default 50; pass `next` back as `after`). Needs an API ' +
          'token with the scope game:read or challenge:write.',
        security: apiToken('game:read', 'challenge:write'),
        request: { query: B.BlockListQuery },
        responses: { 200: json(B.BlockList, 'A page of blocked accounts'), ...problems(400, 401, 403, 503) },
      },
      handle: async (req, res) => {
        const q = parse(B.BlockListQuery, req.query, 'query');
        res.json(await blocks.list(credentialOf(req), q.limit ?? DEFAULT_BLOCK_PAGE, q.after));
      },
    },
    {
      spec: {
        method: 'put',
        path: '/account/blocks/{username}',
        operationId: 'blockAccount',
        tags: ['accounts'],
        summary: 'Block an account',
        description:
          `Idempotent. ${EFFECT} The blocked account’s open challenges to the blocker are declined now ` +
          '(reason generic, with the usual challenge.declined notices). 400 INVALID_INPUT for oneself, 404 ' +
          'ACCOUNT_NOT_FOUND for an unknown username, 409 TOO_MANY_BLOCKS past MAX_BLOCKS_PER_ACCOUNT. Needs an ' +
          'API token with the scope challenge:write.',
        security: apiToken('challenge:write'),
        request: { params: B.BlockParams },
        responses: { 204: { description: 'Blocked' }, ...problems(400, 401, 403, 404, 409, 503) },
      },
      handle: async (req, res) => {
        const { username } = parse(B.BlockParams, req.params, 'path');
        await blocks.block(credentialOf(req), username);
        res.status(204).end();
      },
    },
    {
      spec: {
        method: 'delete',
        path: '/account/blocks/{username}',
        operationId: 'unblockAccount',
        tags: ['accounts'],
        summary: 'Unblock an account',
        description:
          'Idempotent: an account not blocked stays so. Needs an API token with the scope challenge:write.',
        security: apiToken('challenge:write'),
        request: { params: B.BlockParams },
        responses: { 204: { description: 'Not blocked' }, ...problems(400, 401, 403, 404, 503) },
      },
      handle: async (req, res) => {
        const { username } = parse(B.BlockParams, req.params, 'path');
        await blocks.unblock(credentialOf(req), username);
        res.status(204).end();
      },
    },
  ];
}
