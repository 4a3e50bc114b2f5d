import { GraphQLJSONObject } from 'graphql-scalars';
import {
  Arg,
  Ctx,
  Field,
  Float,
  ID,
  InputType,
  Int,
  Mutation,
  ObjectType,
  Query,
  Resolver,
} from 'type-graphql';
import type { AnalysisView } from '../../service/bots/analysis';
import type { GameView } from '../../service/game/view';
import {
  credentialOf,
  IDEMPOTENCY_KEY_DESCRIPTION,
  keyOf,
  withoutNulls,
  type GraphQLContext,
} from './context';
import { kindInput } from './enums';
import { CreatedGame, Game, GameSettingsInput, START_POSITION, TimeControlInput } from './types';

// The built-in AI: games against it and analysis (see README "Playing the computer", "Analysis").

@InputType({ description: 'A game against the built-in AI.' })
export class AiChallengeInput {
  @Field(() => String, { description: 'A GameKind value: kalah, russian-draughts (or russian_draughts), …' })
  kind!: string;
  @Field(() => Int, {
    description: 'Playing strength 1–8: 1 almost random, 8 as strong as its budget allows.',
  })
  level!: number;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'e.g. {"seeds": 5}' })
  options?: Record<string, unknown> | null;
  @Field(() => TimeControlInput, { nullable: true }) timeControl?: TimeControlInput | null;
  @Field(() => String, {
    nullable: true,
    description:
      'challengeAi: your seat; createAiGame: the seat token’s seat. A seat name of the kind, "0", "1" ' +
      'or "random" (default). The AI takes the other seat.',
  })
  color?: string | null;
  @Field(() => String, { nullable: true, description: START_POSITION })
  position?: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'AI games are casual: true is refused (RATED_NOT_ALLOWED).',
  })
  rated?: boolean | null;
  @Field(() => GameSettingsInput, {
    nullable: true,
    description: 'What the game allows (the AI accepts every takeback at once).',
  })
  settings?: GameSettingsInput | null;
}

@InputType({ description: 'What to analyse: a position, a game’s current position, or the start.' })
export class AnalysisInput {
  @Field(() => String, { nullable: true, description: 'A GameKind value; required without gameId.' })
  kind?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) options?: Record<string, unknown> | null;
  @Field(() => String, { nullable: true, description: 'A position in the game’s notation.' })
  position?: string | null;
  @Field(() => ID, { nullable: true, description: 'The current position of this game.' })
  gameId?: string | null;
  @Field(() => Int, { nullable: true, description: 'Search depth, 1–30.' }) depth?: number | null;
  @Field(() => Int, { nullable: true, description: 'Search time in ms, 1–AI_ANALYSIS_MAX_MS; default 1000.' })
  timeMs?: number | null;
}

@ObjectType({ description: 'An exact game-theoretic value, from the side to move’s point of view.' })
export class SolvedValue {
  @Field(() => String, { description: 'win, draw or loss' }) result!: string;
  @Field(() => Int, { description: 'Plies to the end with best play.' }) plies!: number;
  @Field(() => Boolean, {
    description:
      'true: solved exactly (score is the final margin, plies exact); false: the result is proven, score and ' +
      'plies are those of the line found, bounds (a win or loss by at least that margin).',
  })
  exact!: boolean;
}

@ObjectType({ description: 'The search’s verdict on a position.' })
export class Analysis {
  @Field(() => String) kind!: string;
  @Field(() => String, { description: 'The position analysed (canonical notation).' }) position!: string;
  @Field(() => String) bestMove!: string;
  @Field(() => [String], { description: 'Principal variation, starting with bestMove.' }) pv!: string[];
  @Field(() => Float, { description: 'For the side to move, in hundredths of a seed / man / pawn.' })
  score!: number;
  @Field(() => SolvedValue, { nullable: true, description: 'When the search solved the position exactly.' })
  solved!: SolvedValue | null;
  @Field(() => Int) depth!: number;
  @Field(() => Int) nodes!: number;
  @Field(() => Int) timeMs!: number;
}

@Resolver()
export class AiResolver {
  @Mutation(() => Game, {
    description:
      'Play the computer: a started game between your account and the AI of `level` (account ' +
      'ai-level-<level>); scope challenge:write.',
  })
  challengeAi(
    @Arg('input', () => AiChallengeInput) input: AiChallengeInput,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DESCRIPTION })
    idempotencyKey?: string | null,
  ): Promise<GameView> {
    const { timeControl, kind, ...rest } = withoutNulls(input);
    return ctx.services.ai.challenge(
      credentialOf(ctx),
      { ...rest, kind: kindInput(kind), ...(timeControl ? { timeControl: withoutNulls(timeControl) } : {}) },
      keyOf(idempotencyKey),
    );
  }

  @Mutation(() => CreatedGame, {
    description: 'A game against the computer held by one seat token (`color`: its seat), shown only here.',
  })
  createAiGame(
    @Arg('input', () => AiChallengeInput) input: AiChallengeInput,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DESCRIPTION })
    idempotencyKey?: string | null,
  ) {
    const { timeControl, kind, color, ...rest } = withoutNulls(input);
    return ctx.services.ai.createGame(
      {
        ...rest,
        kind: kindInput(kind),
        ...(color === undefined ? {} : { seat: color }),
        ...(timeControl ? { timeControl: withoutNulls(timeControl) } : {}),
      },
      { ...keyOf(idempotencyKey), ...(ctx.ip ? { ip: ctx.ip } : {}) },
    );
  }

  @Query(() => Analysis, {
    description:
      'Analyse a position (or a game’s, or the start): best move, pv, score and the solved value when ' +
      'known. Rate-limited per account or address apart from requests (AI_ANALYSIS_PER_MINUTE).',
  })
  analysis(
    @Arg('input', () => AnalysisInput) input: AnalysisInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AnalysisView> {
    const { kind, ...rest } = withoutNulls(input);
    return ctx.services.analysis.analyze(credentialOf(ctx), {
      ...rest,
      ...(kind === undefined ? {} : { kind: kindInput(kind) }),
    });
  }
}
