import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, createUnionType } from 'type-graphql';
import { kindIds, type BoardView } from '../../vocabulary';
import {
  BoardFamilyEnum,
  GameKindEnum,
  GameStatusEnum,
  OutcomeReasonEnum,
  TimeControlTypeEnum,
} from './enums';

// GraphQL shapes of the service's views. Payloads stay plain objects (GameView and friends);
// these classes only describe them, so resolvers return service results unchanged.

@ObjectType({ description: 'A seat of a game: 0 moves first in the standard game.' })
export class Seat {
  @Field(() => Int) seat!: number;
  @Field(() => String, { description: 'white/black or south/north' }) name!: string;
  @Field(() => String, { nullable: true, description: 'The account holding the seat, if bound.' })
  account!: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      "Correspondence: the end of the seat account's vacation, during which its clock stands still (as of the last write).",
  })
  vacationUntil!: string | null;
  @Field(() => Int, {
    nullable: true,
    description: "Rated games: the account's rating in the game's perf when the game began.",
  })
  rating!: number | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Rated games: that rating was provisional (RD ≥ 110).',
  })
  provisional!: boolean | null;
}

@ObjectType()
export class GameResult {
  @Field(() => Int, { nullable: true, description: 'The winning seat; null for a draw.' }) winner!:
    number | null;
  @Field(() => String, { nullable: true }) winnerName!: string | null;
  @Field(() => OutcomeReasonEnum, { description: 'Why the game ended.' })
  reason!: string;
  @Field(() => [Int], { nullable: true, description: 'Final score where the game has one (mancala).' })
  score!: number[] | null;
}

@ObjectType()
export class Move {
  @Field(() => Int) ply!: number;
  @Field(() => String, { description: "The move in the game's notation." }) notation!: string;
  @Field(() => Int) seat!: number;
  @Field(() => String) seatName!: string;
  @Field(() => String, { description: 'Server time of the move (ISO 8601).' }) at!: string;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Captures, sowing trace, … (untyped; `detail` has the same facts typed).',
  })
  details!: Record<string, unknown> | null;
}

@ObjectType({ description: 'A mancala board: houses per seat in sowing order (house 1 first) and stores.' })
export class MancalaBoard {
  @Field(() => [[Int]]) houses!: number[][];
  @Field(() => [Int]) stores!: number[];
}

@ObjectType()
export class GridPiece {
  @Field(() => String) square!: string;
  @Field(() => Int) side!: number;
  @Field(() => String, { description: 'man, king, lion, zebra, superpawn, …' }) piece!: string;
}

@ObjectType({ description: 'Special squares: the Congo river and castles.' })
export class GridZone {
  @Field(() => String) name!: string;
  @Field(() => Int, { nullable: true }) side!: number | null;
  @Field(() => [String]) squares!: string[];
}

@ObjectType({ description: 'A board of squares (draughts, Congo) with the pieces on it.' })
export class GridBoard {
  @Field(() => Int) files!: number;
  @Field(() => Int) ranks!: number;
  @Field(() => [GridPiece]) pieces!: GridPiece[];
  @Field(() => [GridZone]) zones!: GridZone[];
}

export const Board = createUnionType({
  name: 'Board',
  types: () => [MancalaBoard, GridBoard] as const,
  resolveType: (board) => ((board as unknown as BoardView).type === 'mancala' ? MancalaBoard : GridBoard),
});

@ObjectType({ description: 'How long players may think. Fields that do not apply to the type are null.' })
export class TimeControl {
  @Field(() => TimeControlTypeEnum) type!: string;
  @Field(() => Int, { nullable: true, description: 'realtime: seconds on each clock at the start.' })
  initialSeconds?: number;
  @Field(() => Int, { nullable: true, description: 'realtime: seconds added after each move.' })
  incrementSeconds?: number;
  @Field(() => Int, { nullable: true, description: 'correspondence: days per move.' })
  daysPerMove?: number;
}

@ObjectType({
  description:
    'Realtime clocks (Fischer): the running seat has remainingMs[runningSeat] − (now − runningSince) left; it flags at deadlineAt.',
})
export class GameClock {
  @Field(() => [Int], {
    description: 'Per seat: milliseconds left, as of runningSince for the running seat.',
  })
  remainingMs!: number[];
  @Field(() => Int, {
    nullable: true,
    description: 'The seat whose clock runs (the side to move); null once over.',
  })
  runningSeat!: number | null;
  @Field(() => String, {
    nullable: true,
    description:
      "When the running clock started: the last move's server time (the start for the first mover).",
  })
  runningSince!: string | null;
}

@ObjectType({
  description:
    'A game: the same document every read returns and every update pushes. In gameUpdated, every field but ' +
    '`moves` costs the same however long the game is: select `lastMove` (or `moves(after: …)`) to follow it.',
})
export class Game {
  @Field(() => ID) id!: string;
  @Field(() => GameKindEnum) kind!: string;
  @Field(() => String) rulesVersion!: string;
  @Field(() => GraphQLJSONObject, { description: 'Creation options with defaults filled in.' })
  options!: Record<string, unknown>;
  @Field(() => [Seat]) seats!: Seat[];
  @Field(() => GameStatusEnum) status!: string;
  @Field(() => GameResult, { nullable: true }) result!: GameResult | null;
  @Field(() => Int) ply!: number;
  @Field(() => Int, { description: 'Bumped by every change; pass it back as expectedVersion.' })
  version!: number;
  @Field(() => Int, { nullable: true, description: 'The seat to move; null once the game is over.' })
  toMove!: number | null;
  @Field(() => String, { nullable: true }) toMoveName!: string | null;
  @Field(() => String, { description: "The position in the game's notation." }) position!: string;
  @Field(() => String, {
    nullable: true,
    description:
      'A game from a position: the position it started from; null for the standard start. ' +
      'A game with an initial position is never rated.',
  })
  initialPosition!: string | null;
  @Field(() => Boolean, {
    description: "A rated game: its result changes both accounts' ratings once it ends.",
  })
  rated!: boolean;
  @Field(() => Board) board!: BoardView;
  @Field(() => [String]) legalMoves!: string[];
  // moves(after, limit) and lastMove: field resolvers (game.resolver.ts).
  @Field(() => Int, { nullable: true, description: 'The seat with a standing draw offer.' })
  drawOffer!: number | null;
  @Field(() => TimeControl, { description: 'Chosen at creation (by challenge, seek or createGame).' })
  timeControl!: TimeControl;
  @Field(() => GameClock, { nullable: true, description: 'Realtime games: the clocks; null otherwise.' })
  clock!: GameClock | null;
  @Field(() => String, {
    nullable: true,
    description:
      'When the side to move runs out of time (realtime: flags; correspondence: the move deadline, later by any ' +
      'vacation); null without a time limit or once over. Past it, the game ends by timeout.',
  })
  deadlineAt!: string | null;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}

@ObjectType()
export class GamePage {
  @Field(() => [Game]) items!: Game[];
  @Field(() => String, {
    nullable: true,
    description: 'Pass as `after` for the next page; null: this is the last page.',
  })
  next!: string | null;
}

@ObjectType()
export class SeatToken {
  @Field(() => Int) seat!: number;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'Secret; shown only once. Send it to act for this seat.' })
  token!: string;
}

@ObjectType()
export class CreatedGame {
  @Field(() => Game) game!: Game;
  @Field(() => [SeatToken]) seatTokens!: SeatToken[];
}

@ObjectType({ description: 'What a move would do, computed without storing anything.' })
export class MoveCheck {
  @Field(() => String, { description: 'The move in canonical notation.' }) move!: string;
  @Field(() => String) position!: string;
  @Field(() => Board) board!: BoardView;
  @Field(() => [String]) legalMoves!: string[];
  @Field(() => Int, { nullable: true }) toMove!: number | null;
  @Field(() => String, { nullable: true }) toMoveName!: string | null;
  @Field(() => GameStatusEnum) status!: string;
  @Field(() => GameResult, { nullable: true }) result!: GameResult | null;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'What the move would do (untyped; `detail` has the same facts typed).',
  })
  details!: Record<string, unknown> | null;
}

/** The description of every `position` input. */
export const START_POSITION =
  "Start from this position, in the game's notation (see the kinds query), instead of the standard start. " +
  'Refused with INVALID_POSITION when it does not parse, is impossible or is already decided. ' +
  'A game from a position is never rated.';

@InputType({ description: 'Omitted: unlimited.' })
export class TimeControlInput {
  @Field(() => String, {
    description: 'unlimited, realtime or correspondence (the values of the TimeControlType enum)',
  })
  type!: string;
  @Field(() => Int, { nullable: true, description: 'realtime: 10–10800.' }) initialSeconds?: number | null;
  @Field(() => Int, { nullable: true, description: 'realtime: 0–180 (default 0).' })
  incrementSeconds?: number | null;
  @Field(() => Int, { nullable: true, description: 'correspondence: 1–14.' }) daysPerMove?: number | null;
}

@InputType()
export class CreateGameInput {
  @Field(() => String, { description: 'A GameKind value: kalah, russian-draughts (or russian_draughts), …' })
  kind!: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'e.g. {"seeds": 5}' })
  options?: Record<string, unknown>;
  @Field(() => String, {
    nullable: true,
    description:
      'Who moves first: a seat name of the kind (white or black; south or north), "random", or the seat ' +
      'number "0" or "1". Default: seat 0 (white / south). With a position, its side to move moves first ' +
      'and `first` may only repeat it.',
  })
  first?: string;
  @Field(() => String, { nullable: true, description: START_POSITION })
  position?: string | null;
  @Field(() => TimeControlInput, { nullable: true }) timeControl?: TimeControlInput | null;
}

@ObjectType()
export class KindNotation {
  @Field(() => String, { description: 'How moves are written.' }) moves!: string;
  @Field(() => String, { description: 'How positions are written (also `position` on create).' })
  position!: string;
  @Field(() => String, { description: 'The standard start with the default options.' }) start!: string;
}

@ObjectType()
export class KindRules {
  @Field(() => String, { description: 'The rules page in the repository, e.g. docs/rules/kalah.md.' })
  path!: string;
  @Field(() => String, { description: 'The same page served by this server as text/markdown.' })
  url!: string;
}

@ObjectType({ description: 'A hosted game kind: what a client needs to create a game of it.' })
export class GameKindInfo {
  @Field(() => String, { description: `${kindIds().slice(0, -1).join(', ')} or ${kindIds().at(-1)}` })
  kind!: string;
  @Field(() => String) name!: string;
  @Field(() => BoardFamilyEnum, { description: 'How its moves are described and its board drawn.' })
  family!: string;
  @Field(() => [String], { description: 'Seat 0 first.' }) seatNames!: string[];
  @Field(() => GraphQLJSONObject, {
    description: 'The creation options as a JSON Schema (draft 2020-12); unknown options are refused.',
  })
  options!: Record<string, unknown>;
  @Field(() => GraphQLJSONObject, { description: 'What omitted options become.' })
  defaults!: Record<string, unknown>;
  @Field(() => KindNotation) notation!: KindNotation;
  @Field(() => KindRules) rules!: KindRules;
}
