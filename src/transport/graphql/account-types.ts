import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import {
  ACCOUNT_KINDS,
  FEED_EVENT_TYPES,
  TIME_CONTROL_TYPES,
  TOKEN_SCOPES,
  type FeedEventType,
} from '../../vocabulary';
import {
  ChallengeStatusEnum,
  DeclineReasonEnum,
  GameKindEnum,
  GameVisibilityEnum,
  TimeControlTypeEnum,
} from './enums';
import {
  Game,
  GameSettings,
  GameSettingsInput,
  START_POSITION,
  TimeControl,
  TimeControlInput,
} from './types';
import { RatingRange, RatingRangeInput } from './rating-range-types';

export { TimeControlInput };

// GraphQL shapes of the account, challenge and feed views (AccountView, TokenView, ChallengeView,
// SeekView, FeedEvent). As in types.ts, payloads stay the services' plain objects.

const list = (values: readonly string[]) => values.join(', ');

@ObjectType({ description: 'What a bot accepts; the server declines other challenges on its behalf.' })
export class BotPolicy {
  @Field(() => [GameKindEnum], { description: 'Game kinds accepted.' }) kinds!: string[];
  @Field(() => [TimeControlTypeEnum], { description: 'Time control types accepted.' })
  timeControls!: string[];
  @Field(() => GraphQLJSONObject, {
    description: 'Per kind, per option name, the values accepted (an option not listed takes any value).',
  })
  options!: Record<string, unknown>;
  @Field(() => Int, { description: 'Ongoing games at most; further challenges are declined.' })
  maxGames!: number;
}

@ObjectType({ description: 'A player: a person or a bot.' })
export class Account {
  @Field(() => ID, {
    description:
      'What seats and challenges name; never changes. Open accounts: the username in lower case; app accounts: ' +
      '<app id>.<16 hex digits>.',
  })
  id!: string;
  @Field(() => String) username!: string;
  @Field(() => String, { description: list(ACCOUNT_KINDS) }) kind!: string;
  @Field(() => BotPolicy, { nullable: true, description: 'Bots only; null accepts every challenge.' })
  bot!: BotPolicy | null;
  @Field(() => String, { nullable: true, description: 'A name to show; null: show the username.' })
  displayName!: string | null;
  @Field(() => String) createdAt!: string;
}

@ObjectType({ description: 'A personal API token, without its secret.' })
export class ApiToken {
  @Field(() => ID, { description: 'Public id, for listing and revoking.' }) id!: string;
  @Field(() => String) label!: string;
  @Field(() => [String], { description: `Among ${list(TOKEN_SCOPES)}.` }) scopes!: string[];
  @Field(() => String) createdAt!: string;
  @Field(() => String, { nullable: true }) revokedAt!: string | null;
  @Field(() => String, { nullable: true, description: 'When the token stops working; null: never.' })
  expiresAt!: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'About when the token last authenticated a request (to the minute); null: not since tracked.',
  })
  lastUsedAt!: string | null;
}

@ObjectType({ description: 'A token as issued: the only answer that shows its secret.' })
export class IssuedToken extends ApiToken {
  @Field(() => String, { description: 'Secret (bhp_…); send it as Authorization: Bearer.' })
  token!: string;
}

@ObjectType()
export class CreatedAccount {
  @Field(() => Account) account!: Account;
  @Field(() => IssuedToken, { description: 'The first token, with every scope of the account kind.' })
  token!: IssuedToken;
}

@InputType({ description: 'What a bot accepts; omitted fields accept everything (maxGames: 10).' })
export class BotPolicyInput {
  @Field(() => [String], { nullable: true }) kinds?: string[] | null;
  @Field(() => [String], { nullable: true, description: list(TIME_CONTROL_TYPES) })
  timeControls?: string[] | null;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'e.g. {"kalah": {"seeds": [4, 6]}}: per kind, per option, the accepted values.',
  })
  options?: Record<string, Record<string, unknown[]>> | null;
  @Field(() => Int, { nullable: true, description: '1–1000 (default 10).' }) maxGames?: number | null;
}

@ObjectType({
  description: 'An invitation to play: direct (to one account) or open (to anyone with the id).',
})
export class Challenge {
  @Field(() => ID) id!: string;
  @Field(() => Int) version!: number;
  @Field(() => ChallengeStatusEnum) status!: string;
  @Field(() => GameKindEnum) kind!: string;
  @Field(() => GraphQLJSONObject, { description: 'Creation options with defaults filled in.' })
  options!: Record<string, unknown>;
  @Field(() => TimeControl) timeControl!: TimeControl;
  @Field(() => String, {
    nullable: true,
    description: 'A challenge to a game from a position: that position; null for the standard start.',
  })
  initialPosition!: string | null;
  @Field(() => String, { description: 'The account that made the challenge.' }) challenger!: string;
  @Field(() => String, { nullable: true, description: 'Direct challenges: the challenged account.' })
  destination!: string | null;
  @Field(() => [String], { nullable: true, description: 'Open challenges limited to two named accounts.' })
  players!: string[] | null;
  @Field(() => String, {
    description: 'Who moves first: challenger, destination, listed (players[0]) or random.',
  })
  starts!: string;
  @Field(() => [String], { description: 'Accounts that accepted, in order.' }) accepted!: string[];
  @Field(() => DeclineReasonEnum, { nullable: true }) declineReason!: string | null;
  @Field(() => String, { nullable: true, description: 'Who declined or canceled.' })
  closedBy!: string | null;
  @Field(() => ID, { nullable: true, description: 'The game the challenge became.' })
  gameId!: string | null;
  @Field(() => Boolean, { description: 'The game it makes is rated.' }) rated!: boolean;
  @Field(() => GameVisibilityEnum, { description: 'Who may read the game it makes.' }) visibility!: string;
  @Field(() => GameSettings, { description: 'What the game it makes allows.' }) settings!: GameSettings;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
  @Field(() => String) expiresAt!: string;
}

@InputType()
export class CreateChallengeInput {
  @Field(() => String, { nullable: true, description: 'Direct challenge: the username challenged.' })
  to?: string | null;
  @Field(() => [String], {
    nullable: true,
    description: 'Open challenge for two named usernames only (omit both `to` and this: anyone).',
  })
  players?: string[] | null;
  @Field(() => String) kind!: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) options?: Record<string, unknown> | null;
  @Field(() => TimeControlInput, { nullable: true }) timeControl?: TimeControlInput | null;
  @Field(() => String, { nullable: true, description: START_POSITION })
  position?: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'Who moves first (from a position: who plays its side to move). Direct: challenger, destination or ' +
      'random (default). Open: listed or random (default).',
  })
  starts?: string | null;
  @Field(() => Int, { nullable: true, description: '10 s to 14 days (default 1 day).' })
  expiresInSeconds?: number | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'A rated game (default false): the standard start only, else RATED_NOT_ALLOWED.',
  })
  rated?: boolean | null;
  @Field(() => GameVisibilityEnum, { nullable: true, description: 'Who may read the game (default public).' })
  visibility?: string | null;
  @Field(() => GameSettingsInput, { nullable: true }) settings?: GameSettingsInput | null;
}

@ObjectType({ description: 'A wish to play anyone: two compatible seeks make a game.' })
export class Seek {
  @Field(() => ID) id!: string;
  @Field(() => String) account!: string;
  @Field(() => GameKindEnum) kind!: string;
  @Field(() => GraphQLJSONObject) options!: Record<string, unknown>;
  @Field(() => TimeControl) timeControl!: TimeControl;
  @Field(() => String, {
    nullable: true,
    description: 'A seek for a game from a position: that position; null for the standard start.',
  })
  initialPosition!: string | null;
  @Field(() => Boolean, { description: 'A seek for a rated game.' }) rated!: boolean;
  @Field(() => GameVisibilityEnum, {
    description: 'Who may read the game (matched: the stricter of the two seeks).',
  })
  visibility!: string;
  @Field(() => RatingRange, { nullable: true, description: 'The opponent ratings admitted; null: any.' })
  ratingRange!: RatingRange | null;
  @Field(() => GameSettings, {
    description: "What the seek asks the game to allow (a match's game: the stricter of the two seeks').",
  })
  settings!: GameSettings;
  @Field(() => String, { description: 'waiting, or matched (then `game` is the new game).' })
  status!: string;
  @Field(() => Game, { nullable: true }) game!: Game | null;
  @Field(() => String) createdAt!: string;
  @Field(() => String) expiresAt!: string;
}

@InputType()
export class CreateSeekInput {
  @Field(() => String) kind!: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) options?: Record<string, unknown> | null;
  @Field(() => TimeControlInput, { nullable: true }) timeControl?: TimeControlInput | null;
  @Field(() => String, {
    nullable: true,
    description: `${START_POSITION} It pairs only with seeks for the same position.`,
  })
  position?: string | null;
  @Field(() => Int, { nullable: true, description: '10 s to 1 day (default 1 hour).' })
  expiresInSeconds?: number | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'A rated game (default false; the standard start only): pairs only with rated seeks.',
  })
  rated?: boolean | null;
  @Field(() => GameVisibilityEnum, { nullable: true, description: 'Who may read the game (default public).' })
  visibility?: string | null;
  @Field(() => RatingRangeInput, {
    nullable: true,
    description:
      "The opponent ratings admitted (absolute, in the seek's perf); pairing honours both seeks' ranges.",
  })
  ratingRange?: RatingRangeInput | null;
  @Field(() => GameSettingsInput, { nullable: true }) settings?: GameSettingsInput | null;
}

/** What each event type carries in `data` (a Record, so a new type cannot go undocumented). */
const FEED_EVENT_DATA: Record<FeedEventType, string> = {
  'challenge.received': 'challenge',
  'challenge.accepted': 'challenge',
  'challenge.declined': 'challenge',
  'challenge.canceled': 'challenge',
  'challenge.expired': 'challenge',
  'game.started': 'game',
  'game.moved': 'game, move (notation), seat, played (the Move, with details)',
  'draw.offered': 'game, by (seat)',
  'draw.declined': 'game, by (seat)',
  'rematch.offered': 'game (the finished one), by (the seat offering); to the opponent',
  'rematch.declined': 'game (the finished one), by (the seat declining); to the offerer',
  'takeback.offered': 'game, by (seat); only to the opponent of the seat that offers',
  'takeback.declined': 'game, by (the seat that declined); only to the seat whose offer it was',
  'game.taken_back': 'game (the shortened move list: query its moves), plies (how many were taken back)',
  'game.finished': 'game, result',
  'game.deadline_soon': 'game, seat (to move), deadlineAt; only to the account to move',
  'game.updated': 'game; a new version no other event names, e.g. a vacation moved the deadline',
  'tournament.started': 'tournament (id, name, kind, format, status, round, rounds); to every player',
  'tournament.round_started': 'tournament, pairings (board, first, second, games) of the round',
  'tournament.finished': 'tournament, standings (rank, account, score)',
  'tournament.cancelled': 'tournament; fewer than minPlayers at the start time',
  'rating.updated': 'game, perf, before, after (ratings), provisional; a rated game counted',
  'chat.message':
    'game, message (a ChatMessage); to the seats other than its author, unless they muted the chat',
};

@ObjectType({ description: "An event of the caller's account feed: numbered 1, 2, 3… without gaps." })
export class FeedEvent {
  @Field(() => Int, { description: 'Pass the last seq seen as `after` to resume.' }) seq!: number;
  @Field(() => String, {
    description:
      'The feed epoch the event was written in: (epoch, seq) names the event. Pass it as `epoch` with `after` to resume.',
  })
  epoch!: string;
  @Field(() => String, {
    nullable: true,
    description:
      "An app feed's events (appEvents, app webhooks): the account whose feed the event is in (`seq` and `epoch` are the app feed's).",
  })
  account?: string;
  @Field(() => String, {
    description: `One of ${FEED_EVENT_TYPES.map((t) => `${t} (data: ${FEED_EVENT_DATA[t]})`).join('; ')}. A game in data is a Game without its moves (the head: every other field; query game(id) { moves(after:) } for them), a challenge a Challenge.`,
  })
  type!: string;
  @Field(() => String, { description: 'Server time of the event (ISO 8601).' }) at!: string;
  @Field(() => GraphQLJSONObject) data!: Record<string, unknown>;
}

@ObjectType()
export class FeedPage {
  @Field(() => [FeedEvent], { description: 'Oldest first.' }) events!: FeedEvent[];
  @Field(() => Int, {
    description:
      'Pass as `after` for the next page: the seq of the last event here (`after` itself when none came).',
  })
  next!: number;
  @Field(() => Int, { description: 'The newest seq of the feed (0 when it never had an event).' })
  last!: number;
  @Field(() => String, { description: "The feed's current epoch." }) epoch!: string;
}
