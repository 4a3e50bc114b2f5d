import type { Services } from '../../service';
import { GameError } from '../../service/errors';
import { json, parse, problems, PUBLIC, type RestRoute } from './route';
import * as V from './verification.schemas';

const ABOUT =
  'Rules verification for bot authors: a seeded set of positions, each with a legal move; a program computes ' +
  'the position after each move and POSTs the answers to be scored. The same kind, options, seed and count ' +
  'always pose the same set. Public (rate-limited per address).';

/** The options query parameter: JSON text. */
function optionsOf(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new GameError('INVALID_INPUT', 'options must be JSON, e.g. {"seeds":3}', { field: 'options' });
  }
}

export function verificationRoutes(services: Services): RestRoute[] {
  const verification = services.verification;
  return [
    {
      spec: {
        method: 'get',
        path: '/kinds/{kind}/verification',
        operationId: 'getVerification',
        summary: 'A seeded set of positions and moves to check a move generator against',
        description: ABOUT,
        security: PUBLIC,
        request: { params: V.KindParams, query: V.VerificationQuery },
        responses: { 200: json(V.VerificationSet, 'The set'), ...problems(400, 503) },
      },
      handle: async (req, res) => {
        const { kind } = parse(V.KindParams, req.params, 'path');
        const query = parse(V.VerificationQuery, req.query, 'query');
        res.json(
          verification.pose(kind, {
            seed: query.seed,
            ...(query.count === undefined ? {} : { count: query.count }),
            options: optionsOf(query.options),
          }),
        );
      },
    },
    {
      spec: {
        method: 'post',
        path: '/kinds/{kind}/verification',
        operationId: 'scoreVerification',
        summary: 'Score the positions a program computed for a verification set',
        description:
          `${ABOUT} Answers are compared as positions (read, then written canonically). Each wrong answer ` +
          'comes back with the expected position and the legal moves of the posed position.',
        security: PUBLIC,
        request: {
          params: V.KindParams,
          body: { content: { 'application/json': { schema: V.VerificationAnswers } } },
        },
        responses: {
          200: json(V.VerificationScore, 'The score, item by item'),
          ...problems(400, 413, 415, 503),
        },
      },
      handle: async (req, res) => {
        const { kind } = parse(V.KindParams, req.params, 'path');
        const body = parse(V.VerificationAnswers, req.body, 'body');
        res.json(verification.score(kind, body));
      },
    },
  ];
}
