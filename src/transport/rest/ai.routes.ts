import { z } from 'zod';
import { kindIds } from '../../vocabulary';
import type { Services } from '../../service';
import { MAX_ANALYSIS_DEPTH } from '../../service/bots/analysis';
import {
  apiToken,
  credentialOf,
  idempotencyHeader,
  idempotencyKeyOf,
  json,
  parse,
  problems,
  PUBLIC,
  type RestRoute,
} from './route';
import * as S from './schemas';

// The built-in AI under /api/v1: games against it (with an account, or with a seat token) and
// analysis of positions. See docs/bots.md, "Playing the computer" and "Analysis".

const Level = z.number().int().min(1).max(8).openapi({
  description: 'Playing strength: 1 plays almost at random, 8 as strongly as its time budget allows',
  example: 3,
});
const Kind = z.string().openapi({ example: 'kalah', description: `One of ${kindIds().join(', ')}` });
const Options = z
  .record(z.string(), z.unknown())
  .optional()
  .openapi({ example: { houses: 6, seeds: 4 } });

export const AiChallengeBody = z
  .object({
    kind: Kind,
    level: Level,
    options: Options,
    timeControl: S.orNull(S.TimeControlInput).optional().openapi({ description: 'Default: unlimited' }),
    color: z.string().optional().openapi({
      description: 'Your seat: a seat name of the kind (`white`, `south`…), "0", "1" or "random" (default)',
      example: 'south',
    }),
    position: S.StartPosition.optional(),
    rated: z.boolean().optional().openapi({
      description: 'AI games are casual: true is refused with 422 RATED_NOT_ALLOWED',
      example: false,
    }),
    settings: S.GameSettingsInput.optional(),
  })
  .strict()
  .openapi('AiChallengeBody', {
    example: { kind: 'kalah', level: 3, options: { houses: 6, seeds: 4 }, color: 'south', rated: false },
  });

export const AiGameBody = z
  .object({
    kind: Kind,
    level: Level,
    options: Options,
    timeControl: S.orNull(S.TimeControlInput).optional().openapi({ description: 'Default: unlimited' }),
    seat: z.string().optional().openapi({
      description:
        'The seat of the one seat token (the AI takes the other): a seat name, "0", "1" or "random" (default)',
      example: 'south',
    }),
    position: S.StartPosition.optional(),
    rated: z.boolean().optional().openapi({
      description: 'AI games are casual: true is refused with 422 RATED_NOT_ALLOWED',
      example: false,
    }),
    settings: S.GameSettingsInput.optional(),
  })
  .strict()
  .openapi('AiGameBody', {
    example: { kind: 'kalah', level: 3, options: { houses: 6, seeds: 4 }, seat: 'south', rated: false },
  });

export const AnalysisBody = z
  .object({
    kind: Kind.optional().openapi({ description: 'Required without gameId' }),
    options: Options,
    position: S.orNull(z.string().max(1000))
      .optional()
      .openapi({ description: "A position in the game's notation; with neither it nor gameId: the start" }),
    gameId: S.orNull(S.GameId).optional().openapi({
      description: 'Analyse the current position of this game (anyone with its id may read it)',
    }),
    depth: S.orNull(z.number().int())
      .optional()
      .openapi({ description: `Search depth, 1–${MAX_ANALYSIS_DEPTH}` }),
    timeMs: S.orNull(z.number().int())
      .optional()
      .openapi({ description: 'Search time in ms, 1–AI_ANALYSIS_MAX_MS (default 5000); default 1000' }),
  })
  .strict()
  .openapi('AnalysisBody', {
    example: { kind: 'kalah', position: '4,4,0,5,5,5/1/4,4,4,4,4,4/0 S', depth: 6 },
  });

export const Analysis = z
  .object({
    kind: z.string(),
    position: z.string().openapi({ description: 'The position analysed (canonical notation)' }),
    bestMove: z.string(),
    pv: z.array(z.string()).openapi({ description: 'Principal variation, starting with bestMove' }),
    score: z.number().openapi({
      description: "From the side to move's point of view, in hundredths of a seed / man / pawn",
    }),
    solved: S.orNull(
      z.object({
        result: z.enum(['win', 'draw', 'loss']),
        plies: z.number().int().openapi({ description: 'Plies to the end with best play' }),
        exact: z.boolean().openapi({
          description:
            'true: solved exactly (score is the final margin, plies exact); false: the result is proven, ' +
            'score and plies are those of the line found, bounds (a win or loss by at least that margin)',
        }),
      }),
    ).openapi({ description: 'The proven value, when the search proved the result; else null' }),
    depth: z.number().int(),
    nodes: z.number().int(),
    timeMs: z.number().int(),
  })
  .openapi('Analysis');

export function aiRoutes(services: Services): RestRoute[] {
  return [
    {
      spec: {
        method: 'post',
        path: '/challenges/ai',
        operationId: 'challengeAi',
        tags: ['ai'],
        summary: 'Play the computer',
        description:
          'Starts a game at once between your account and the built-in AI of `level` (the account ' +
          '`ai-level-<level>`). The AI plays its turns as any player does: its moves are ordinary moves ' +
          'in the feed, the game stream and the record. `game.started` goes to your feed. Needs an API ' +
          'token with the scope challenge:write; counts in your ongoing games (409 TOO_MANY_GAMES).',
        security: apiToken('challenge:write'),
        request: {
          headers: idempotencyHeader,
          body: { content: { 'application/json': { schema: AiChallengeBody } } },
        },
        responses: {
          201: json(S.Game, 'The started game', 'Location'),
          ...problems(400, 401, 403, 409, 422, 503),
        },
      },
      handle: async (req, res) => {
        const body = parse(AiChallengeBody, req.body, 'body');
        const game = await services.ai.challenge(credentialOf(req), body, idempotencyKeyOf(req));
        res.status(201).setHeader('Location', `/api/v1/games/${game.id}`).json(game);
      },
    },
    {
      spec: {
        method: 'post',
        path: '/games/ai',
        operationId: 'createAiGame',
        summary: 'Create a game against the computer (seat token)',
        description:
          'A game without accounts on your side: one secret seat token for your seat (shown only here), ' +
          'the built-in AI of `level` in the other. Counts against the client address’s daily games and AI ' +
          'games quotas (429 QUOTA_EXCEEDED) and its ongoing AI games without an account (409 ' +
          'TOO_MANY_AI_GAMES). Idempotency-Key retries are scoped to the address.',
        security: PUBLIC,
        request: {
          headers: idempotencyHeader,
          body: { content: { 'application/json': { schema: AiGameBody } } },
        },
        responses: {
          201: json(S.CreatedGame, 'The new game and your seat token', 'Location'),
          ...problems(400, 409, 422, 503),
        },
      },
      handle: async (req, res) => {
        const body = parse(AiGameBody, req.body, 'body');
        const created = await services.ai.createGame(body, {
          ...idempotencyKeyOf(req),
          ...(req.ip ? { ip: req.ip } : {}),
        });
        res.status(201).setHeader('Location', `/api/v1/games/${created.game.id}`).json(created);
      },
    },
    {
      spec: {
        method: 'post',
        path: '/analysis',
        operationId: 'analyze',
        tags: ['ai'],
        summary: 'Analyse a position',
        description:
          'The best move, principal variation and score of a position (`position`), of a game’s current ' +
          'position (`gameId`), or of the start position of `kind` and `options` (neither given); `solved` ' +
          `when the search solved it exactly. Bounded by \`depth\` (1–${MAX_ANALYSIS_DEPTH}) and/or \`timeMs\` ` +
          '(1–AI_ANALYSIS_MAX_MS); more is 400. Any caller; counted per account (or address) against ' +
          'AI_ANALYSIS_PER_MINUTE (429 RATE_LIMITED) apart from the request limits, with at most ' +
          'AI_MAX_PER_ACCOUNT running at once (429 TOO_MANY_ANALYSES) and 503 AI_BUSY when the queue is full.',
        security: PUBLIC,
        request: { body: { content: { 'application/json': { schema: AnalysisBody } } } },
        responses: {
          200: json(Analysis, 'The analysis'),
          ...problems(400, 401, 404, 409, 503),
        },
      },
      handle: async (req, res) => {
        const body = parse(AnalysisBody, req.body, 'body');
        res.json(await services.analysis.analyze(credentialOf(req), body));
      },
    },
  ];
}
