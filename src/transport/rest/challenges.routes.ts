import { z } from 'zod';
import type { Services } from '../../service';
import type { Credential } from '../../service/accounts/auth';
import { DEFAULT_CHALLENGE_PAGE, type ChallengeView } from '../../service/challenges/service';
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

const idParams = z.object({ id: A.ChallengeId });
const seekParams = z.object({ id: A.SeekId });

const WRITE = 'Needs an API token with the scope challenge:write.';

/** Challenges and seeks under /api/v1: the ways two accounts come to play. */
export function challengeRoutes(services: Services): RestRoute[] {
  const challenges = services.challenges;
  const seeks = services.seeks;
  const transition = <B extends z.ZodType>(
    path: string,
    operationId: string,
    summary: string,
    description: string,
    run: (credential: Credential, id: string, body: z.infer<B> | undefined) => Promise<ChallengeView>,
    body?: B,
  ): RestRoute => ({
    spec: {
      method: 'post',
      path,
      operationId,
      tags: ['challenges'],
      summary,
      description: `${description} ${WRITE} 409 CHALLENGE_CLOSED (with its \`status\`) once it is no longer open.`,
      security: apiToken('challenge:write'),
      request: {
        params: idParams,
        ...(body ? { body: { content: { 'application/json': { schema: body } }, required: false } } : {}),
      },
      responses: {
        200: json(A.Challenge, 'The challenge after the action'),
        ...problems(400, 401, 403, 404, 409, 503),
      },
    },
    handle: async (req, res) => {
      const { id } = parse(idParams, req.params, 'path');
      const parsed = body ? parse(body, req.body, 'body') : undefined;
      res.json(await run(credentialOf(req), id, parsed));
    },
  });

  return [
    {
      spec: {
        method: 'post',
        path: '/challenges',
        operationId: 'createChallenge',
        tags: ['challenges'],
        summary: 'Challenge an account, or open a challenge',
        description:
          'With `to`: a direct challenge to that account. With `players`: an open challenge for those two ' +
          'accounts. With neither: an open challenge anyone may accept. An open challenge becomes a game once ' +
          'two accounts have accepted. A bot whose declarations refuse the challenge declines it at once: the ' +
          'answer is still 201, with status declined and the declineReason. 403 BLOCKED when the challenged ' +
          `account (or a named player) blocks the caller. ${WRITE}`,
        security: apiToken('challenge:write'),
        request: {
          headers: idempotencyHeader,
          body: { content: { 'application/json': { schema: A.CreateChallengeBody } } },
        },
        responses: {
          201: json(A.Challenge, 'The new challenge', 'Location'),
          ...problems(400, 401, 403, 404, 409, 422, 503),
        },
      },
      handle: async (req, res) => {
        const body = parse(A.CreateChallengeBody, req.body, 'body');
        const challenge = await challenges.create(credentialOf(req), body, idempotencyKeyOf(req));
        res.status(201).setHeader('Location', `/api/v1/challenges/${challenge.id}`).json(challenge);
      },
    },
    {
      spec: {
        method: 'get',
        path: '/challenges',
        operationId: 'listChallenges',
        tags: ['challenges'],
        summary: 'My open challenges',
        description:
          'Open challenges the account made or received, newest first, a page at a time (`limit`, default ' +
          '50; pass `next` back as `before` for the next page). Needs an API token with the scope ' +
          'game:read or challenge:write.',
        security: apiToken('game:read', 'challenge:write'),
        request: { query: A.ChallengeListQuery },
        responses: {
          200: json(A.ChallengeList, 'A page of open challenges'),
          ...problems(400, 401, 403, 503),
        },
      },
      handle: async (req, res) => {
        const q = parse(A.ChallengeListQuery, req.query, 'query');
        res.json(await challenges.listOpen(credentialOf(req), q.limit ?? DEFAULT_CHALLENGE_PAGE, q.before));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/challenges/{id}',
        operationId: 'getChallenge',
        tags: ['challenges'],
        summary: 'Read a challenge',
        description: 'Anyone with the id (the link) may read it.',
        security: PUBLIC,
        request: { params: idParams },
        responses: { 200: json(A.Challenge, 'The challenge'), ...problems(400, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(idParams, req.params, 'path');
        res.json(await challenges.get(id, readerCredentialOf(req)));
      },
    },
    transition(
      '/challenges/{id}/accept',
      'acceptChallenge',
      'Accept a challenge',
      'A direct challenge by the challenged account; an open one by anyone (or one of its named players). ' +
        'The game starts (`gameId`, and `game.started` in both feeds) when the pair is complete.',
      (credential, id) => challenges.accept(credential, id),
    ),
    transition(
      '/challenges/{id}/decline',
      'declineChallenge',
      'Decline a challenge',
      'By the challenged account (or a named player), with a reason code.',
      (credential, id, body) => challenges.decline(credential, id, body?.reason),
      A.DeclineBody,
    ),
    transition(
      '/challenges/{id}/cancel',
      'cancelChallenge',
      'Withdraw a challenge',
      'By the challenger.',
      (credential, id) => challenges.cancel(credential, id),
    ),
    {
      spec: {
        method: 'post',
        path: '/seeks',
        operationId: 'createSeek',
        tags: ['challenges'],
        summary: 'Seek a game',
        description:
          'Matched at once with the oldest waiting seek of another account for the same kind, options and ' +
          'time control (200, status matched, with the game; `game.started` in both feeds), or left waiting ' +
          `(201, status waiting) until it expires or is withdrawn. ${WRITE}`,
        security: apiToken('challenge:write'),
        request: {
          headers: idempotencyHeader,
          body: { content: { 'application/json': { schema: A.CreateSeekBody } } },
        },
        responses: {
          200: json(A.Seek, 'Matched: the seek and its game'),
          201: json(A.Seek, 'Waiting for a partner'),
          ...problems(400, 401, 403, 409, 422, 503),
        },
      },
      handle: async (req, res) => {
        const body = parse(A.CreateSeekBody, req.body, 'body');
        const seek = await seeks.createSeek(credentialOf(req), body, idempotencyKeyOf(req));
        res.status(seek.status === 'matched' ? 200 : 201).json(seek);
      },
    },
    {
      spec: {
        method: 'delete',
        path: '/seeks/{id}',
        operationId: 'cancelSeek',
        tags: ['challenges'],
        summary: 'Withdraw a waiting seek',
        description: `Only one's own. 404 SEEK_NOT_FOUND once matched or expired. ${WRITE}`,
        security: apiToken('challenge:write'),
        request: { params: seekParams },
        responses: { 204: { description: 'Withdrawn' }, ...problems(400, 401, 403, 404, 503) },
      },
      handle: async (req, res) => {
        const { id } = parse(seekParams, req.params, 'path');
        await seeks.cancelSeek(credentialOf(req), id);
        res.status(204).end();
      },
    },
  ];
}
