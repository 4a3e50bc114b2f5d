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
import type { StandingRow as StandingRowView } from '../../service/tournaments/standings';
import type { StandingsView, TournamentView } from '../../service/tournaments/views';
import { TOURNAMENT_FORMATS, TOURNAMENT_STATUSES } from '../../vocabulary';
import {
  credentialOf,
  IDEMPOTENCY_KEY_DESCRIPTION,
  keyOf,
  withoutNulls,
  type GraphQLContext,
} from './context';
import { GameKindEnum, kindInput } from './enums';
import { TimeControl, TimeControlInput } from './types';

// Tournaments (round robin, Swiss): thin over services.tournaments, as the REST routes.

@ObjectType({ description: 'A player of a tournament.' })
export class TournamentPlayer {
  @Field(() => String) account!: string;
  @Field(() => String) name!: string;
  @Field(() => Float, { description: 'The seeding rating.' }) rating!: number;
  @Field(() => String) joinedAt!: string;
  @Field(() => Int, { nullable: true, description: 'Withdrew after this round; null while in.' })
  withdrawnAfterRound!: number | null;
}

@ObjectType({
  description: 'A pairing of a round: `first` plays seat 0 of the first leg; `second` null is a bye.',
})
export class TournamentPairing {
  @Field(() => Int) round!: number;
  @Field(() => Int) board!: number;
  @Field(() => String) first!: string;
  @Field(() => String, { nullable: true }) second!: string | null;
  @Field(() => [String], { description: 'Game ids, one per leg.' }) games!: string[];
  @Field(() => String, { nullable: true, description: 'Withdrawn before the pairing: not played.' })
  forfeitedBy!: string | null;
  @Field(() => [String], { description: 'Players who lost a game of it on time without moving (forfeits).' })
  noShows!: string[];
  @Field(() => [Float], { nullable: true, description: '[first, second] once decided.' })
  points!: number[] | null;
}

@ObjectType({ description: 'A round robin or Swiss tournament.' })
export class Tournament {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => GameKindEnum) kind!: string;
  @Field(() => GraphQLJSONObject) options!: Record<string, unknown>;
  @Field(() => TimeControl) timeControl!: TimeControl;
  @Field(() => String, { description: TOURNAMENT_FORMATS.join(' or ') }) format!: string;
  @Field(() => Int) rounds!: number;
  @Field(() => Boolean) microMatch!: boolean;
  @Field(() => Float) byePoints!: number;
  @Field(() => Boolean) rated!: boolean;
  @Field(() => Int) minPlayers!: number;
  @Field(() => Int) maxPlayers!: number;
  @Field(() => String, { nullable: true, description: 'null: starts when full.' }) startsAt!: string | null;
  @Field(() => String) createdBy!: string;
  @Field(() => String, { description: TOURNAMENT_STATUSES.join(', ') }) status!: string;
  @Field(() => Int, { description: 'The round being played (0 before the start).' }) round!: number;
  @Field(() => [TournamentPlayer]) players!: TournamentPlayer[];
  @Field(() => [TournamentPairing]) pairings!: TournamentPairing[];
  @Field(() => Int) version!: number;
  @Field(() => String) createdAt!: string;
  @Field(() => String, { nullable: true }) startedAt!: string | null;
  @Field(() => String, { nullable: true }) finishedAt!: string | null;
}

@ObjectType()
export class TournamentPage {
  @Field(() => [Tournament]) items!: Tournament[];
  @Field(() => Int, { nullable: true, description: 'Pass as `before` for the next page.' }) next!:
    number | null;
}

@ObjectType({ description: 'Tie-breaks: SB for round robins, Buchholz and median Buchholz for Swiss.' })
export class TieBreaks {
  @Field(() => Float, { nullable: true }) sonnebornBerger?: number;
  @Field(() => Float, { nullable: true }) buchholz?: number;
  @Field(() => Float, { nullable: true }) medianBuchholz?: number;
  @Field(() => Float) directEncounter!: number;
  @Field(() => Int) wins!: number;
}

@ObjectType()
export class StandingRow {
  @Field(() => Int) rank!: number;
  @Field(() => String) account!: string;
  @Field(() => String) name!: string;
  @Field(() => Float) score!: number;
  @Field(() => Int) played!: number;
  @Field(() => Boolean) withdrawn!: boolean;
  @Field(() => TieBreaks) tieBreaks!: TieBreaks;
}

@ObjectType()
export class Standings {
  @Field(() => ID) tournament!: string;
  @Field(() => String) status!: string;
  @Field(() => Int) round!: number;
  @Field(() => Int) rounds!: number;
  @Field(() => [StandingRow], { description: 'Best first.' }) rows!: StandingRowView[];
  @Field(() => String, { description: 'The same standings as a plain-text table.' }) text!: string;
}

@InputType()
export class CreateTournamentInput {
  @Field(() => String) name!: string;
  @Field(() => String) kind!: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) options?: Record<string, unknown> | null;
  @Field(() => TimeControlInput, { description: 'realtime or correspondence.' })
  timeControl!: TimeControlInput;
  @Field(() => String, { description: TOURNAMENT_FORMATS.join(' or ') }) format!: string;
  @Field(() => Int, { nullable: true, description: 'Swiss: 1–15 (default 5).' }) rounds?: number | null;
  @Field(() => Boolean, { nullable: true }) microMatch?: boolean | null;
  @Field(() => Float, { nullable: true, description: '0, 0.5 or 1 (default) per leg.' }) byePoints?:
    number | null;
  @Field(() => Boolean, { nullable: true }) rated?: boolean | null;
  @Field(() => Int, { nullable: true }) minPlayers?: number | null;
  @Field(() => Int, { nullable: true }) maxPlayers?: number | null;
  @Field(() => String, { nullable: true, description: 'ISO time; absent: starts when full.' })
  startsAt?: string | null;
}

@Resolver(() => Tournament)
export class TournamentResolver {
  @Query(() => Tournament, { description: 'A tournament by id.' })
  tournament(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<TournamentView> {
    return ctx.services.tournaments.get(id, credentialOf(ctx));
  }

  @Query(() => TournamentPage, { description: 'Tournaments newest first, of one status or all.' })
  tournaments(
    @Ctx() ctx: GraphQLContext,
    @Arg('status', () => String, { nullable: true, description: TOURNAMENT_STATUSES.join(', ') })
    status?: string | null,
    @Arg('limit', () => Int, { nullable: true }) limit?: number | null,
    @Arg('before', () => Int, { nullable: true }) before?: number | null,
  ) {
    return ctx.services.tournaments.list(
      (status ?? undefined) as TournamentView['status'] | undefined,
      limit ?? 20,
      before ?? undefined,
      credentialOf(ctx),
    );
  }

  @Query(() => TournamentPage, { description: 'The tournaments the caller joined or created.' })
  myTournaments(
    @Ctx() ctx: GraphQLContext,
    @Arg('limit', () => Int, { nullable: true }) limit?: number | null,
    @Arg('before', () => Int, { nullable: true }) before?: number | null,
  ) {
    return ctx.services.tournaments.mine(credentialOf(ctx), limit ?? 20, before ?? undefined);
  }

  @Query(() => Standings, { description: 'Standings computed from the pairings and finished games.' })
  async tournamentStandings(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<StandingsView & { text: string }> {
    const [view, text] = await Promise.all([
      ctx.services.tournaments.standings(id, credentialOf(ctx)),
      ctx.services.tournaments.standingsText(id, credentialOf(ctx)),
    ]);
    return { ...view, text };
  }

  @Mutation(() => Tournament, { description: 'Create a tournament (scope challenge:write).' })
  createTournament(
    @Arg('input', () => CreateTournamentInput) input: CreateTournamentInput,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DESCRIPTION })
    idempotencyKey?: string | null,
  ): Promise<TournamentView> {
    const { timeControl, ...rest } = withoutNulls(input);
    return ctx.services.tournaments.create(
      credentialOf(ctx),
      { ...rest, kind: kindInput(rest.kind), timeControl: withoutNulls(timeControl) },
      keyOf(idempotencyKey),
    );
  }

  @Mutation(() => Tournament, { description: 'Join an open tournament.' })
  joinTournament(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<TournamentView> {
    return ctx.services.tournaments.join(credentialOf(ctx), id);
  }

  @Mutation(() => Tournament, { description: 'Leave (before the start) or withdraw (after).' })
  leaveTournament(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<TournamentView> {
    return ctx.services.tournaments.leave(credentialOf(ctx), id);
  }
}
