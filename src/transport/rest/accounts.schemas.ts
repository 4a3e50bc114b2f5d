import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ChatMessage } from './chat.schemas';
import {
  kindIds,
  ACCOUNT_KINDS,
  CHALLENGE_STARTS,
  CHALLENGE_STATUSES,
  DECLINE_REASONS,
  FEED_EVENT_TYPES,
  TIME_CONTROL_TYPES,
  TOKEN_SCOPES,
} from '../../vocabulary';
import {
  GameHead,
  GameResult,
  Move,
  orNull,
  GameVisibility,
  GameSettings,
  GameSettingsInput,
  StartPosition,
  TimeControl,
  TimeControlInput,
} from './schemas';
import { TournamentEventData } from './tournaments.schemas';

export { TimeControlInput };
export { CreateSeekBody, Seek, SeekId } from './seeks.schemas';

// Request and response shapes of accounts, API tokens, challenges, seeks and the account event
// feed (the game shapes are in schemas.ts). Closed sets come from the store's `as const` lists.
extendZodWithOpenApi(z);

const DateTime = z.string().openapi({ format: 'date-time' });
const Options = z.record(z.string(), z.union([z.number(), z.boolean(), z.string()]));

// ---------------------------------------------------------------------------------------------
// Accounts and tokens.

export const Username = z.string().min(1).max(64).openapi({
  description: '2–30 letters, digits, _ or -, starting with a letter or digit; unique ignoring case',
  example: 'ada',
});

export const TokenScope = z.enum(TOKEN_SCOPES).openapi('TokenScope', {
  description:
    'game:read — read the account and its event feed; game:play — play in its games (humans); ' +
    'bot:play — play in its games and declare what it accepts (bots); challenge:write — challenges and seeks',
});

export const BotPolicy = z
  .object({
    kinds: z.array(z.enum(kindIds())),
    timeControls: z.array(z.enum(TIME_CONTROL_TYPES)),
    options: z
      .record(z.string(), z.record(z.string(), z.array(z.unknown())))
      .openapi({ description: 'Per kind, per option name: the values accepted (unlisted: any value)' }),
    maxGames: z.number().int().openapi({ description: 'Ongoing games at most' }),
  })
  .openapi('BotPolicy');

export const Account = z
  .object({
    id: z.string().openapi({
      description:
        'Seats and games refer to it; never changes. Open accounts: the username in lower case; app accounts: ' +
        '<app id>.<16 hex digits>',
    }),
    username: z.string(),
    kind: z.enum(ACCOUNT_KINDS),
    bot: orNull(BotPolicy).openapi({ description: 'Bots: what the bot accepts; null accepts everything' }),
    displayName: z.string().nullable().openapi({ description: 'A name to show; null: show the username' }),
    createdAt: DateTime,
  })
  .openapi('Account');

export const Token = z
  .object({
    id: z.string().openapi({ description: 'Public id, for listing and revoking' }),
    label: z.string(),
    scopes: z.array(TokenScope),
    createdAt: DateTime,
    revokedAt: DateTime.nullable(),
    expiresAt: DateTime.nullable().openapi({ description: 'When the token stops working; null: never' }),
    lastUsedAt: DateTime.nullable().openapi({
      description:
        'About when the token last authenticated a request (to the minute); null: not since tracked',
    }),
  })
  .openapi('Token');

export const IssuedToken = Token.extend({
  token: z.string().openapi({ description: 'The secret (bhp_…), shown only in this answer' }),
}).openapi('IssuedToken');

export const TokenList = z.object({ items: z.array(Token) }).openapi('TokenList');

export const CreateAccountBody = z
  .object({
    username: Username,
    kind: z.enum(ACCOUNT_KINDS).optional().openapi({ description: 'Default: human' }),
  })
  .strict()
  .openapi('CreateAccountBody', { example: { username: 'alan', kind: 'human' } });

export const SignedUp = z
  .object({
    account: Account,
    token: IssuedToken.openapi({
      description: 'The first API token, with every scope of the account kind (the secret only here)',
    }),
  })
  .openapi('SignedUp');

export const CreateTokenBody = z
  .object({
    label: z.string().max(100).optional(),
    scopes: z.array(TokenScope).min(1).openapi({
      description: 'Each must be among the scopes of the token making the request',
    }),
    expiresInSeconds: z.number().int().optional().openapi({
      description: 'The token stops working after this many seconds (60 to 31622400); omitted: never',
    }),
  })
  .strict()
  .openapi('CreateTokenBody', {
    example: { label: 'scoreboard', scopes: ['game:read'], expiresInSeconds: 2_592_000 },
  });

export const BotPolicyBody = z
  .object({
    kinds: z.array(z.string()).optional().openapi({ description: 'Default: every hosted kind' }),
    timeControls: z.array(z.string()).optional().openapi({ description: 'Default: every type' }),
    options: z
      .record(z.string(), z.record(z.string(), z.array(z.unknown())))
      .optional()
      .openapi({ example: { kalah: { seeds: [4, 6] } } }),
    maxGames: z.number().int().optional().openapi({ description: '1–1000, default 10' }),
  })
  .strict()
  .openapi('BotPolicyBody', {
    example: {
      kinds: ['kalah', 'oware'],
      timeControls: ['realtime', 'correspondence'],
      options: { kalah: { seeds: [4, 6] } },
      maxGames: 20,
    },
  });

// ---------------------------------------------------------------------------------------------
// Time controls, challenges and seeks.

export const ChallengeId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{12}$/)
  .openapi({ description: 'Challenge id (12 characters)', example: 'hR2k9QmZ0aLx' });

export const Challenge = z
  .object({
    id: ChallengeId,
    version: z.number().int(),
    status: z.enum(CHALLENGE_STATUSES),
    kind: z.enum(kindIds()),
    options: Options,
    timeControl: TimeControl,
    initialPosition: z.string().nullable().openapi({
      description: 'A challenge to a game from a position: that position; null: the standard start',
    }),
    challenger: z.string().openapi({ description: 'Account id of the challenger' }),
    destination: z.string().nullable().openapi({ description: 'Direct challenges: the challenged account' }),
    players: z
      .array(z.string())
      .nullable()
      .openapi({ description: 'Open challenges for a named pair; null: anyone may accept' }),
    starts: z.enum(CHALLENGE_STARTS),
    accepted: z
      .array(z.string())
      .openapi({ description: 'Accounts that accepted (an open challenge needs 2)' }),
    declineReason: z.enum(DECLINE_REASONS).nullable(),
    closedBy: z.string().nullable().openapi({ description: 'Who declined or canceled' }),
    gameId: z.string().nullable().openapi({ description: 'The game the accepted challenge became' }),
    rated: z.boolean().openapi({ description: 'The game it makes is rated' }),
    visibility: GameVisibility,
    settings: GameSettings.openapi({ description: 'What the game it makes allows' }),
    createdAt: DateTime,
    updatedAt: DateTime,
    expiresAt: DateTime,
  })
  .openapi('Challenge');

export const ChallengeList = z
  .object({
    items: z.array(Challenge),
    next: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Pass as `before` for the next page; null on the last page' }),
  })
  .openapi('ChallengeList');

export const ChallengeListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().openapi({ description: '1–100, default 50' }),
  before: z.coerce.number().int().min(0).optional().openapi({ description: "A previous page's `next`" }),
});

export const CreateChallengeBody = z
  .object({
    to: Username.optional().openapi({ description: 'Direct challenge: the username challenged' }),
    players: z.array(Username).optional().openapi({
      description: 'Open challenge for two named usernames (omit both `to` and `players`: anyone)',
    }),
    kind: z.string().openapi({ example: 'kalah', description: `One of ${kindIds().join(', ')}` }),
    options: z.record(z.string(), z.unknown()).optional(),
    timeControl: orNull(TimeControlInput).optional().openapi({ description: 'Default: unlimited' }),
    position: StartPosition.optional(),
    starts: z
      .enum(['challenger', 'destination', 'listed', 'random'])
      .optional()
      .openapi({
        description:
          'Who moves first (from a position: who plays its side to move). Direct: challenger | destination | ' +
          'random (default). Open: listed (players[0]) | random (default)',
      }),
    expiresInSeconds: z.number().int().optional().openapi({ description: '10 s to 14 days, default 1 day' }),
    rated: z.boolean().optional().openapi({
      description:
        'A rated game (default false): needs the standard start (no position); else 422 RATED_NOT_ALLOWED',
    }),
    visibility: GameVisibility.optional(),
    settings: GameSettingsInput.optional(),
  })
  .strict()
  .openapi('CreateChallengeBody', {
    example: {
      to: 'grace',
      kind: 'kalah',
      options: { seeds: 4 },
      timeControl: { type: 'correspondence', daysPerMove: 3 },
      starts: 'challenger',
      rated: true,
    },
  });

export const DeclineBody = z
  .object({ reason: z.enum(DECLINE_REASONS).optional().openapi({ description: 'Default: generic' }) })
  .strict()
  .openapi('DeclineBody', { example: { reason: 'later' } });

// ---------------------------------------------------------------------------------------------
// The account event feed.

/** A feed epoch id. */
export const FeedEpochId = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/);

export const FeedEventType = z
  .enum(FEED_EVENT_TYPES)
  .openapi('FeedEventType', { description: 'What a feed event is about; `data` depends on it' });

const envelope = <T extends (typeof FEED_EVENT_TYPES)[number], D extends z.ZodType>(type: T, data: D) =>
  z.object({
    seq: z.number().int().openapi({ description: '1, 2, 3… per account, without gaps' }),
    epoch: FeedEpochId.openapi({
      description:
        'The feed epoch the event was written in: (epoch, seq) names the event; pass both to resume',
    }),
    account: z
      .string()
      .optional()
      .openapi({
        description:
          "An app feed's events (GET /app/events, app webhooks): the account whose feed the event is in (its " +
          "own seq and epoch there are not shown; `seq` and `epoch` are the app feed's)",
      }),
    type: z.literal(type),
    at: DateTime,
    data,
  });

const challengeData = z.object({ challenge: Challenge });

export const FeedEvent = z
  .discriminatedUnion('type', [
    envelope('challenge.received', challengeData),
    envelope('challenge.accepted', challengeData),
    envelope('challenge.declined', challengeData),
    envelope('challenge.canceled', challengeData),
    envelope('challenge.expired', challengeData),
    envelope('game.started', z.object({ game: GameHead })),
    envelope(
      'game.moved',
      z.object({
        game: GameHead,
        move: z.string().openapi({ description: 'The move played, in notation' }),
        seat: z.number().int().openapi({ description: 'Who moved' }),
        played: Move,
      }),
    ),
    envelope('draw.offered', z.object({ game: GameHead, by: z.number().int() })),
    envelope('draw.declined', z.object({ game: GameHead, by: z.number().int() })),
    envelope(
      'rematch.offered',
      z.object({ game: GameHead, by: z.number().int() }).openapi({
        description: 'A rematch of the finished game `game` is offered by the seat `by` (to the opponent)',
      }),
    ),
    envelope(
      'rematch.declined',
      z.object({ game: GameHead, by: z.number().int() }).openapi({
        description: 'The seat `by` declined the rematch of `game` (to the offerer)',
      }),
    ),
    envelope(
      'takeback.offered',
      z
        .object({ game: GameHead, by: z.number().int().openapi({ description: 'The seat that offers' }) })
        .openapi({ description: 'A takeback offer, to the opponent of the seat that offers' }),
    ),
    envelope(
      'takeback.declined',
      z
        .object({ game: GameHead, by: z.number().int().openapi({ description: 'The seat that declined' }) })
        .openapi({ description: 'A takeback offer declined, to the seat whose offer it was' }),
    ),
    envelope(
      'game.taken_back',
      z
        .object({
          game: GameHead,
          plies: z.number().int().openapi({ description: 'How many plies left the move list' }),
        })
        .openapi({
          description:
            'Moves were taken back (to both seats): the game is at `game.ply`, its moves after it are gone ' +
            '(read them again: GET /games/{id}/moves)',
        }),
    ),
    envelope('game.finished', z.object({ game: GameHead, result: GameResult })),
    envelope(
      'game.updated',
      z.object({ game: GameHead }).openapi({
        description:
          'A new version of the game that no other event names, e.g. a vacation that moved the deadline ' +
          'or shows on a seat (`seats[].vacationUntil`); every version change of a game is an event',
      }),
    ),
    envelope(
      'game.deadline_soon',
      z
        .object({
          game: GameHead,
          seat: z.number().int().openapi({ description: 'The seat to move (the account this goes to)' }),
          deadlineAt: DateTime,
        })
        .openapi({
          description:
            'Correspondence: the account to move has 10% of the period (at most 24 h) left; once per turn',
        }),
    ),
    envelope('tournament.started', TournamentEventData),
    envelope('tournament.round_started', TournamentEventData),
    envelope('tournament.finished', TournamentEventData),
    envelope('tournament.cancelled', TournamentEventData),
    envelope(
      'rating.updated',
      z
        .object({
          game: z.string().openapi({ description: 'The rated game that ended' }),
          perf: z.string().openapi({ example: 'kalah.realtime', description: 'The perf: kind.speed' }),
          before: z.number().int().openapi({ description: 'The rating before the game' }),
          after: z.number().int().openapi({ description: 'The rating after it' }),
          provisional: z.boolean().openapi({ description: 'The new rating is provisional (RD ≥ 110)' }),
        })
        .openapi({ description: 'A rated game counted: once per game and account, after game.finished' }),
    ),
    envelope(
      'chat.message',
      z.object({ game: GameHead, message: ChatMessage }).openapi({
        description:
          'A chat message of one of my games, sent by another seat or a spectator (not to its author, not to a ' +
          'seat that muted the chat)',
      }),
    ),
  ])
  .openapi('FeedEvent', {
    description:
      'One event of an account feed: `seq` numbers the account’s events, `type` says what `data` holds. A game ' +
      'in `data` is a GameHead: the game without its moves (read them with GET /games/{id}/moves or ' +
      'GET /games/{id}); `game.moved` carries the move played',
  });

export const FeedPage = z
  .object({
    events: z.array(FeedEvent).openapi({ description: 'Oldest first' }),
    next: z
      .number()
      .int()
      .openapi({
        description:
          'Pass as `after` for the next page: the seq of the last event here (`after` itself when none came). ' +
          'A feed has no last page: poll again with it',
      }),
    last: z.number().int().openapi({ description: 'The newest seq of the feed (0: never an event)' }),
    epoch: FeedEpochId.openapi({ description: 'The feed’s current epoch' }),
  })
  .openapi('FeedPage');

export const FeedReady = z
  .object({
    type: z.literal('ready'),
    last: z.number().int().openapi({ description: 'The stream continues after this seq' }),
    epoch: FeedEpochId.openapi({ description: 'The feed’s current epoch: pass it with `after` to resume' }),
  })
  .openapi('FeedReady', { description: 'The first line of a feed stream (NDJSON); SSE: `event: ready`' });

export const FeedEpochChanged = z
  .object({
    type: z.literal('epoch_changed'),
    epoch: FeedEpochId.openapi({ description: 'The feed’s new epoch' }),
    after: z.number().int().openapi({ description: 'Resume after this seq, in the new epoch' }),
    last: z.number().int(),
    message: z.string(),
  })
  .openapi('FeedEpochChanged', {
    description:
      'The last line of a feed stream whose store came back older mid-stream (NDJSON); SSE: `event: epoch_changed`',
  });

export const StreamRevoked = z
  .object({ type: z.literal('revoked') })
  .strict()
  .openapi('StreamRevoked', {
    description:
      'The last line of an NDJSON feed when the API token it was opened with is revoked: do not reconnect with it',
  });

export const StreamShutdown = z
  .object({ type: z.literal('shutdown') })
  .strict()
  .openapi('StreamShutdown', {
    description: 'The last line of an NDJSON stream when the server stops: reconnect (resume with `after`)',
  });

export const EventsQuery = z
  .object({
    // The type is spelled out: zod-to-openapi renders a coerced number with min(0) as integer | null.
    after: z.coerce.number().int().min(0).optional().openapi({
      type: 'integer',
      description:
        'Resume after this seq (the last one seen). Streams without it start from now; the JSON page from 0',
    }),
    epoch: FeedEpochId.optional().openapi({
      description:
        'The epoch of that seq (of the last event seen, or of `ready`). With it, a store that came back older ' +
        'is detected (409 FEED_EPOCH_CHANGED) instead of silently skipping the events that reused seqs',
    }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(500)
      .optional()
      .openapi({ description: 'application/json only: events per page (default 100)' }),
  })
  .strict();
