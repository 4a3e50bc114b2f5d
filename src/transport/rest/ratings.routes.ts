import { z } from 'zod';
import { pageLimit } from './schemas';
import type { Services } from '../../service';
import { kindIds, LEADERBOARD_CATEGORIES, SPEEDS } from '../../vocabulary';
import { Username } from './accounts.schemas';
import { json, parse, problems, PUBLIC, readerCredentialOf, type RestRoute } from './route';

// Ratings (docs/competition.md, "Ratings"): an account's Glicko-2 rating per perf (kind + speed), its history,
// and the leaderboards of each perf, bots and humans apart.

const Kind = z.string().openapi({ example: 'kalah', description: `One of ${kindIds().join(', ')}` });
const SpeedParam = z.enum(SPEEDS).openapi({
  description: 'realtime (clocks) or correspondence (days per move, unlimited)',
  example: 'correspondence',
});

const PerfRating = z
  .object({
    kind: z.enum(kindIds()),
    speed: z.enum(SPEEDS),
    rating: z.number().int(),
    rd: z
      .number()
      .int()
      .openapi({ description: 'Rating deviation, grown with the time since the last rated game' }),
    provisional: z.boolean().openapi({ description: 'RD ≥ 110: not yet on the leaderboards' }),
    games: z.number().int().openapi({ description: 'Rated games played in the perf' }),
    latest: z
      .string()
      .nullable()
      .openapi({ format: 'date-time', description: 'When the last rated game ended' }),
  })
  .openapi('PerfRating');

const AccountRatings = z
  .object({
    username: z.string(),
    perfs: z
      .array(PerfRating)
      .openapi({ description: 'The perfs the account played rated (others: 1500, bots 2000)' }),
  })
  .openapi('AccountRatings');

const RatingHistory = z
  .object({
    items: z.array(
      z.object({
        at: z.string().openapi({ format: 'date-time' }),
        rating: z.number().int(),
        rd: z.number().int(),
        game: z.string().openapi({ description: 'The rated game that made this rating' }),
      }),
    ),
    next: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Pass as `before` for older entries; null: no more' }),
  })
  .openapi('RatingHistory', { description: 'Newest first; the newest 500 entries are kept' });

const Leaderboard = z
  .object({
    items: z.array(
      z.object({
        rank: z.number().int(),
        username: z.string(),
        rating: z.number().int(),
        rd: z.number().int(),
      }),
    ),
    next: z.string().nullable().openapi({ description: 'Pass as `cursor` for the next page; null: no more' }),
  })
  .openapi('Leaderboard', { description: 'Best first; accounts whose rating is not provisional' });

const perfParams = z.object({ username: Username, kind: Kind, speed: SpeedParam });
const boardParams = z.object({ kind: Kind, speed: SpeedParam });
const HistoryQuery = z.object({
  limit: pageLimit(50),
  before: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .openapi({ type: 'integer', description: '`next` of the previous page' }),
});
const LeaderboardQuery = z.object({
  category: z
    .enum(LEADERBOARD_CATEGORIES)
    .optional()
    .openapi({ description: 'Default human', example: 'human' }),
  limit: pageLimit(20),
  cursor: z.string().max(16).optional().openapi({ description: '`next` of the previous page' }),
});

export function ratingRoutes(services: Services): RestRoute[] {
  const ratings = services.ratings;
  return [
    {
      spec: {
        method: 'get',
        path: '/accounts/{username}/ratings',
        operationId: 'getRatings',
        tags: ['ratings'],
        summary: "An account's ratings, per perf",
        security: PUBLIC,
        request: { params: z.object({ username: Username }) },
        responses: { 200: json(AccountRatings, 'The ratings'), ...problems(400, 404, 503) },
      },
      handle: async (req, res) => {
        const { username } = parse(z.object({ username: Username }), req.params, 'path');
        res.json(await ratings.ratings(username, readerCredentialOf(req)));
      },
    },
    {
      spec: {
        method: 'get',
        path: '/accounts/{username}/ratings/{kind}/{speed}/history',
        operationId: 'getRatingHistory',
        tags: ['ratings'],
        summary: "An account's rating history in a perf, newest first",
        security: PUBLIC,
        request: { params: perfParams, query: HistoryQuery },
        responses: { 200: json(RatingHistory, 'A page of the history'), ...problems(400, 404, 503) },
      },
      handle: async (req, res) => {
        const { username, kind, speed } = parse(perfParams, req.params, 'path');
        const query = parse(HistoryQuery, req.query, 'query');
        res.json(
          await ratings.history(
            username,
            kind,
            speed,
            {
              ...(query.limit === undefined ? {} : { limit: query.limit }),
              ...(query.before === undefined ? {} : { before: query.before }),
            },
            readerCredentialOf(req),
          ),
        );
      },
    },
    {
      spec: {
        method: 'get',
        path: '/leaderboards/{kind}/{speed}',
        operationId: 'getLeaderboard',
        tags: ['ratings'],
        summary: 'The best ratings of a perf, bots and humans apart',
        description: 'Accounts whose rating is provisional (RD ≥ 110) are not listed.',
        security: PUBLIC,
        request: { params: boardParams, query: LeaderboardQuery },
        responses: { 200: json(Leaderboard, 'A page of the leaderboard'), ...problems(400, 503) },
      },
      handle: async (req, res) => {
        const { kind, speed } = parse(boardParams, req.params, 'path');
        const query = parse(LeaderboardQuery, req.query, 'query');
        res.json(
          await ratings.leaderboard(
            kind,
            speed,
            query.category,
            {
              ...(query.limit === undefined ? {} : { limit: query.limit }),
              ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
            },
            readerCredentialOf(req),
          ),
        );
      },
    },
  ];
}
