import { Field, FieldResolver, Int, ObjectType, Resolver, Root, createUnionType } from 'type-graphql';

// What a move did, typed per game family: the engines' describeMove results (congo, draughts,
// mancala), told apart by their fields.

@ObjectType({ description: 'Congo: what a move took, drowned in the river, or promoted.' })
export class CongoMoveDetails {
  @Field(() => [String], { description: 'Squares whose pieces were captured.' }) captured!: string[];
  @Field(() => [String], { description: 'Squares whose pieces drowned in the river.' }) drowned!: string[];
  @Field(() => Boolean, { description: 'A pawn became a superpawn.' }) promoted!: boolean;
}

@ObjectType({ description: 'Draughts: the path of the move, the men and kings it took, promotion.' })
export class DraughtsMoveDetails {
  @Field(() => [String], { description: 'Squares of the pieces taken, in order.' }) captured!: string[];
  @Field(() => Boolean, { description: 'The man became a king.' }) promoted!: boolean;
  @Field(() => [String], { description: 'Every square the piece stood on, from start to end.' })
  path!: string[];
}

@ObjectType({ description: 'Mancala: the sowing of a move and what it captured.' })
export class MancalaMoveDetails {
  @Field(() => Boolean, { description: 'False: the move was not legal (nothing else is given).' })
  legal!: boolean;
  @Field(() => Int, { nullable: true, description: 'The house sown from (1 first).' }) house!: number | null;
  @Field(() => [String], { nullable: true, description: 'Every pit a seed was dropped into, in order.' })
  trace!: string[] | null;
  @Field(() => [String], { nullable: true, description: 'Pits from which a relay sowing went on.' })
  relays!: string[] | null;
  @Field(() => [String], { nullable: true, description: 'Pits whose seeds were captured.' })
  capturedFrom!: string[] | null;
  @Field(() => Int, {
    name: 'seedsCaptured',
    nullable: true,
    description: 'Seeds captured (`captured` in `details`).',
  })
  captured!: number | null;
  @Field(() => Boolean, { nullable: true, description: 'The mover moves again.' }) extraMove!: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'The move ended the game.' }) gameOver!:
    boolean | null;
}

type Details = Readonly<Record<string, unknown>>;

/** The family a describeMove result belongs to, from its fields. */
function familyOf(
  details: Details,
): typeof CongoMoveDetails | typeof DraughtsMoveDetails | typeof MancalaMoveDetails {
  if ('drowned' in details) return CongoMoveDetails;
  if ('path' in details) return DraughtsMoveDetails;
  return MancalaMoveDetails;
}

export const MoveDetails = createUnionType({
  name: 'MoveDetails',
  description: 'What a move did, by game family.',
  types: () => [CongoMoveDetails, DraughtsMoveDetails, MancalaMoveDetails] as const,
  resolveType: (details) => familyOf(details as unknown as Details),
});

/** Mancala details lack fields when the move was illegal: GraphQL gets them as null. */
export function typedDetails(details: Details | null | undefined): Details | null {
  if (!details) return null;
  if (familyOf(details) !== MancalaMoveDetails) return details;
  return {
    house: null,
    trace: null,
    relays: null,
    capturedFrom: null,
    captured: null,
    extraMove: null,
    gameOver: null,
    ...details,
  };
}

/** `detail` on anything that carries engine `details` (a played move, a move check). */
export function detailResolver(of: () => abstract new () => object) {
  @Resolver(of)
  class DetailResolver {
    @FieldResolver(() => MoveDetails, {
      nullable: true,
      description: 'What the move did, typed by game family (the same facts as `details`).',
    })
    detail(@Root() root: { details?: Details | null }): Details | null {
      return typedDetails(root.details);
    }
  }
  return DetailResolver;
}
