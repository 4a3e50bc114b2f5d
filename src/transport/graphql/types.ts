import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, createUnionType } from 'type-graphql';
import {
  kindIds,
  type BoardView,
  type ChatMode,
  type GameKind,
  type GameStatus,
  type OutcomeReason,
  type TimeControlType,
} from '../../vocabulary';
import * as Views from '../../service/views/game';
import { doc, docs } from './docs';
import {
  BoardFamilyEnum,
  ChatModeEnum,
  GameKindEnum,
  GameStatusEnum,
  GameVisibilityEnum,
  OutcomeReasonEnum,
  TimeControlTypeEnum,
} from './enums';

// GraphQL shapes of the service's views. Payloads stay plain objects (GameView and friends);
// these classes only describe them, so resolvers return service results unchanged.

const seat = docs(Views.Seat);
@ObjectType({ description: doc(Views.Seat) })
export class Seat {
  @Field(() => Int, { description: seat.seat }) seat!: number;
  @Field(() => String, { description: seat.name }) name!: string;
  @Field(() => String, { nullable: true, description: seat.account }) account!: string | null;
  @Field(() => String, { nullable: true, description: seat.vacationUntil }) vacationUntil!: string | null;
  @Field(() => Int, { nullable: true, description: seat.rating }) rating!: number | null;
  @Field(() => Boolean, { nullable: true, description: seat.provisional }) provisional!: boolean | null;
}

const result = docs(Views.GameResult);
@ObjectType({ description: doc(Views.GameResult) })
export class GameResult {
  @Field(() => Int, { nullable: true, description: result.winner }) winner!: number | null;
  @Field(() => String, { nullable: true, description: result.winnerName }) winnerName!: string | null;
  @Field(() => OutcomeReasonEnum, { description: result.reason }) reason!: OutcomeReason;
  @Field(() => [Int], { nullable: true, description: result.score }) score!: number[] | null;
}

const move = docs(Views.Move);
@ObjectType({ description: doc(Views.Move) })
export class Move {
  @Field(() => Int, { description: move.ply }) ply!: number;
  @Field(() => String, { description: move.notation }) notation!: string;
  @Field(() => Int, { description: move.seat }) seat!: number;
  @Field(() => String, { description: move.seatName }) seatName!: string;
  @Field(() => String, { description: doc(Views.Move.shape.at, '(ISO 8601)') }) at!: string;
  // GraphQL's own: the details as JSON (the typed union is `detail`, game.resolver.ts).
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

// GraphQL flattens the TimeControl union into one type whose other fields are null.
const [, realtime, correspondence] = Views.TimeControl.options;
const timeControl = { ...docs(realtime), ...docs(correspondence) };
@ObjectType({ description: 'How long players may think. Fields that do not apply to the type are null.' })
export class TimeControl {
  @Field(() => TimeControlTypeEnum) type!: TimeControlType;
  @Field(() => Int, { nullable: true, description: timeControl.initialSeconds }) initialSeconds?: number;
  @Field(() => Int, { nullable: true, description: timeControl.incrementSeconds }) incrementSeconds?: number;
  @Field(() => Int, { nullable: true, description: timeControl.daysPerMove }) daysPerMove?: number;
}

const clock = docs(Views.GameClock);
@ObjectType({ description: doc(Views.GameClock) })
export class GameClock {
  @Field(() => [Int], { description: clock.remainingMs }) remainingMs!: number[];
  @Field(() => Int, { nullable: true, description: clock.runningSeat }) runningSeat!: number | null;
  @Field(() => String, { nullable: true, description: clock.runningSince }) runningSince!: string | null;
}

const rematch = docs(Views.RematchState);
@ObjectType({ description: doc(Views.RematchState) })
export class RematchState {
  @Field(() => Int, { nullable: true, description: rematch.offeredBy }) offeredBy!: number | null;
  @Field(() => Int, { nullable: true, description: rematch.declinedBy }) declinedBy!: number | null;
  @Field(() => String, { nullable: true, description: rematch.game }) game!: string | null;
}

const settings = docs(Views.GameSettings);
@ObjectType({ description: doc(Views.GameSettings) })
export class GameSettings {
  @Field(() => Boolean, { description: settings.takeback }) takeback!: boolean;
  @Field(() => ChatModeEnum, { description: settings.chat }) chat!: ChatMode;
}

const takeback = docs(Views.TakebackOffer);
@ObjectType({ description: doc(Views.TakebackOffer) })
export class TakebackOffer {
  @Field(() => Int, { description: takeback.seat }) seat!: number;
  @Field(() => Int, { description: takeback.plies }) plies!: number;
}

@InputType({ description: 'What the game allows; omitted fields take their defaults.' })
export class GameSettingsInput {
  @Field(() => Boolean, {
    nullable: true,
    description: 'Seats may ask to take back moves (default true; rated games never allow it).',
  })
  takeback?: boolean | null;
  @Field(() => ChatModeEnum, { nullable: true, description: 'Who may chat (default seats).' })
  chat?: ChatMode | null;
}

const game = docs(Views.Game);
@ObjectType({
  description:
    'A game: the same document every read returns and every update pushes. In gameUpdated, every field but ' +
    '`moves` costs the same however long the game is: select `lastMove` (or `moves(after: …)`) to follow it.',
})
export class Game {
  @Field(() => ID, { description: game.id }) id!: string;
  @Field(() => GameKindEnum, { description: game.kind }) kind!: GameKind;
  @Field(() => String, { description: game.rulesVersion }) rulesVersion!: string;
  @Field(() => GraphQLJSONObject, { description: game.options }) options!: Record<string, unknown>;
  @Field(() => [Seat], { description: game.seats }) seats!: Seat[];
  @Field(() => GameStatusEnum, { description: game.status }) status!: GameStatus;
  @Field(() => GameResult, { nullable: true, description: game.result }) result!: GameResult | null;
  @Field(() => Int, { description: game.ply }) ply!: number;
  @Field(() => Int, { description: game.version }) version!: number;
  @Field(() => Int, { nullable: true, description: game.toMove }) toMove!: number | null;
  @Field(() => String, { nullable: true, description: game.toMoveName }) toMoveName!: string | null;
  @Field(() => String, { description: game.position }) position!: string;
  @Field(() => String, { nullable: true, description: game.initialPosition }) initialPosition!: string | null;
  @Field(() => Boolean, { description: game.rated }) rated!: boolean;
  @Field(() => GameSettings, { description: game.settings }) settings!: GameSettings;
  @Field(() => Board, { description: game.board }) board!: BoardView;
  @Field(() => [String], { description: game.legalMoves }) legalMoves!: string[];
  // moves(after, limit) and lastMove: field resolvers (game.resolver.ts).
  @Field(() => Int, { nullable: true, description: game.drawOffer }) drawOffer!: number | null;
  @Field(() => RematchState, { description: game.rematch }) rematch!: RematchState;
  @Field(() => String, { nullable: true, description: game.rematchOf }) rematchOf!: string | null;
  @Field(() => TakebackOffer, { nullable: true, description: game.takebackOffer })
  takebackOffer!: TakebackOffer | null;
  @Field(() => TimeControl, { description: 'Chosen at creation (by challenge, seek or createGame).' })
  timeControl!: TimeControl;
  @Field(() => GameClock, { nullable: true, description: game.clock }) clock!: GameClock | null;
  @Field(() => String, { nullable: true, description: game.deadlineAt }) deadlineAt!: string | null;
  @Field(() => String, { nullable: true, description: game.claimableAt }) claimableAt!: string | null;
  @Field(() => String, { description: game.createdAt }) createdAt!: string;
  @Field(() => String, { description: game.updatedAt }) updatedAt!: string;
}

const page = docs(Views.GamePage);
@ObjectType({ description: doc(Views.GamePage) })
export class GamePage {
  @Field(() => [Game], { description: page.items }) items!: Game[];
  @Field(() => String, { nullable: true, description: page.next }) next!: string | null;
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

const check = docs(Views.MoveCheck);
@ObjectType({ description: doc(Views.MoveCheck) })
export class MoveCheck {
  @Field(() => String, { description: check.move }) move!: string;
  @Field(() => String, { description: check.position }) position!: string;
  @Field(() => Board, { description: check.board }) board!: BoardView;
  @Field(() => [String], { description: check.legalMoves }) legalMoves!: string[];
  @Field(() => Int, { nullable: true, description: check.toMove }) toMove!: number | null;
  @Field(() => String, { nullable: true, description: check.toMoveName }) toMoveName!: string | null;
  @Field(() => GameStatusEnum, { description: check.status }) status!: GameStatus;
  @Field(() => GameResult, { nullable: true, description: check.result }) result!: GameResult | null;
  // GraphQL's own: the details as JSON (the typed union is `detail`).
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
  @Field(() => GameVisibilityEnum, { nullable: true, description: 'Who may read the game (default public).' })
  visibility?: string | null;
  @Field(() => GameSettingsInput, { nullable: true }) settings?: GameSettingsInput | null;
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
