import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { kindIds, TOURNAMENT_FORMATS, TOURNAMENT_STATUSES } from '../../vocabulary';
import { orNull, TimeControl, TimeControlInput } from './schemas';

extendZodWithOpenApi(z);

// Request and response shapes of tournaments (round robin, Swiss) and their feed events.

const DateTime = z.string().openapi({ format: 'date-time' });
const Options = z.record(z.string(), z.union([z.number(), z.boolean(), z.string()]));

export const TournamentId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{12}$/)
  .openapi({ description: 'Tournament id (12 characters)', example: 'tN4vB8cX1zQe' });

export const TournamentPlayer = z
  .object({
    account: z.string(),
    name: z.string(),
    rating: z.number().openapi({ description: 'The seeding rating' }),
    joinedAt: DateTime,
    withdrawnAfterRound: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Withdrew after this round (no further pairings); null while in' }),
  })
  .openapi('TournamentPlayer');

export const TournamentPairing = z
  .object({
    round: z.number().int(),
    board: z.number().int(),
    first: z.string().openapi({ description: 'Plays seat 0 (moves first) in the first leg' }),
    second: z.string().nullable().openapi({ description: 'null: `first` has a bye' }),
    games: z.array(z.string()).openapi({ description: 'Game ids, one per leg (two with micro-matches)' }),
    forfeitedBy: z
      .string()
      .nullable()
      .openapi({ description: 'Withdrawn before the pairing: it was not played' }),
    noShows: z
      .array(z.string())
      .openapi({ description: 'Players who lost a game of the pairing on time without moving (forfeits)' }),
    points: z
      .tuple([z.number(), z.number()])
      .nullable()
      .openapi({ description: '[first, second] once the pairing is decided; null before' }),
  })
  .openapi('TournamentPairing');

export const Tournament = z
  .object({
    id: TournamentId,
    name: z.string(),
    kind: z.enum(kindIds()),
    options: Options,
    timeControl: TimeControl,
    format: z.enum(TOURNAMENT_FORMATS),
    rounds: z
      .number()
      .int()
      .openapi({ description: 'Swiss: as configured; round robin: known at the start (0 before)' }),
    microMatch: z.boolean(),
    byePoints: z.number(),
    rated: z.boolean(),
    minPlayers: z.number().int(),
    maxPlayers: z.number().int(),
    startsAt: DateTime.nullable().openapi({ description: 'null: starts when full' }),
    createdBy: z.string(),
    status: z.enum(TOURNAMENT_STATUSES),
    round: z.number().int().openapi({ description: 'The round being played (0 before the start)' }),
    players: z.array(TournamentPlayer),
    pairings: z.array(TournamentPairing).openapi({ description: 'The pairings of the rounds begun so far' }),
    version: z.number().int(),
    createdAt: DateTime,
    startedAt: DateTime.nullable(),
    finishedAt: DateTime.nullable(),
  })
  .openapi('Tournament');

export const TournamentList = z
  .object({
    items: z.array(Tournament),
    next: z.number().int().nullable().openapi({ description: 'Pass as `before` for the next page' }),
  })
  .openapi('TournamentList');

export const CreateTournamentBody = z
  .object({
    name: z.string().openapi({ example: 'Kalah Friday', description: '1 to 80 characters' }),
    kind: z.string().openapi({ example: 'kalah', description: `One of ${kindIds().join(', ')}` }),
    options: z.record(z.string(), z.unknown()).optional(),
    timeControl: orNull(TimeControlInput).optional().openapi({
      description: 'Required in effect: realtime or correspondence (an unlimited game might never end)',
    }),
    format: z.enum(TOURNAMENT_FORMATS),
    rounds: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'Swiss: 1–15 (default 5); round robin: ignored' }),
    microMatch: z
      .boolean()
      .optional()
      .openapi({ description: 'Each pairing plays two games, colours swapped; it scores their sum' }),
    byePoints: z
      .number()
      .optional()
      .openapi({ description: 'Points per leg for a bye: 0, 0.5 or 1 (default)' }),
    rated: z.boolean().optional().openapi({ description: 'Its games are rated' }),
    minPlayers: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'Cancelled with fewer at the start time (default 2)' }),
    maxPlayers: z.number().int().optional().openapi({
      description: 'Starts when this many have joined; at most 20 (round robin) or 64 (Swiss); default 16',
    }),
    startsAt: DateTime.optional().openapi({ description: 'Starts then (absent: when full)' }),
  })
  .strict()
  .openapi('CreateTournamentBody', {
    example: {
      name: 'Kalah Friday',
      kind: 'kalah',
      timeControl: { type: 'realtime', initialSeconds: 180, incrementSeconds: 2 },
      format: 'swiss',
      rounds: 5,
      rated: true,
      maxPlayers: 16,
    },
  });

export const StandingRow = z
  .object({
    rank: z.number().int(),
    account: z.string(),
    name: z.string(),
    score: z.number(),
    played: z.number().int().openapi({ description: 'Games finished (byes and forfeits not counted)' }),
    withdrawn: z.boolean(),
    tieBreaks: z.object({
      sonnebornBerger: z.number().optional().openapi({ description: 'Round robin' }),
      buchholz: z.number().optional().openapi({ description: 'Swiss' }),
      medianBuchholz: z.number().optional().openapi({ description: 'Swiss' }),
      directEncounter: z.number(),
      wins: z.number().int(),
    }),
  })
  .openapi('StandingRow');

export const Standings = z
  .object({
    tournament: TournamentId,
    status: z.enum(TOURNAMENT_STATUSES),
    round: z.number().int(),
    rounds: z.number().int(),
    rows: z.array(StandingRow).openapi({ description: 'Best first' }),
  })
  .openapi('Standings');

export const StandingsQuery = z.object({
  format: z
    .enum(['json', 'text'])
    .optional()
    .openapi({ description: 'text: a plain-text table (text/plain)' }),
});

export const TournamentListQuery = z.object({
  status: z.enum(TOURNAMENT_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional().openapi({ description: '1–100, default 20' }),
  before: z.coerce.number().int().min(0).optional().openapi({ description: "A previous page's `next`" }),
});

const TournamentSummary = z
  .object({
    id: TournamentId,
    name: z.string(),
    kind: z.enum(kindIds()),
    format: z.enum(TOURNAMENT_FORMATS),
    status: z.enum(TOURNAMENT_STATUSES),
    round: z.number().int(),
    rounds: z.number().int(),
  })
  .openapi('TournamentSummary');

/** What tournament feed events carry. */
export const TournamentEventData = z
  .object({
    tournament: TournamentSummary,
    pairings: z
      .array(
        z.object({
          board: z.number().int(),
          first: z.string(),
          second: z.string().nullable(),
          games: z.array(z.string()),
        }),
      )
      .optional()
      .openapi({ description: 'tournament.round_started: the round’s pairings' }),
    standings: z
      .array(z.object({ rank: z.number().int(), account: z.string(), score: z.number() }))
      .optional()
      .openapi({ description: 'tournament.finished: the final standings' }),
  })
  .openapi('TournamentEventData');
