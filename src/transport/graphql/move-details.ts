import { Field, FieldResolver, Int, ObjectType, Resolver, Root, createUnionType } from 'type-graphql';
import * as Views from '../../service/views/move-details';
import { doc, docs } from './docs';
import { BoardFamilyEnum } from './enums';

// What a move did, typed per board family: the engines' describeMove results (congo, draughts,
// mancala), told apart by their `family`. Shapes and descriptions: src/service/views/move-details.ts.

const congo = docs(Views.CongoMoveDetails);
const draughts = docs(Views.DraughtsMoveDetails);
const mancala = docs(Views.MancalaMoveDetails);

@ObjectType({ description: doc(Views.CongoMoveDetails) })
export class CongoMoveDetails {
  @Field(() => BoardFamilyEnum, { description: congo.family }) family!: 'congo';
  @Field(() => [String], { description: congo.captured }) captured!: string[];
  @Field(() => [String], { description: congo.drowned }) drowned!: string[];
  @Field(() => Boolean, { description: congo.promoted }) promoted!: boolean;
}

@ObjectType({ description: doc(Views.DraughtsMoveDetails) })
export class DraughtsMoveDetails {
  @Field(() => BoardFamilyEnum, { description: draughts.family }) family!: 'draughts';
  @Field(() => [String], { description: draughts.captured }) captured!: string[];
  @Field(() => Boolean, { description: draughts.promoted }) promoted!: boolean;
  @Field(() => [String], { description: draughts.path }) path!: string[];
}

// The mancala fields stay nullable, as they were when an illegal move's details could reach them.
@ObjectType({ description: doc(Views.MancalaMoveDetails) })
export class MancalaMoveDetails {
  @Field(() => BoardFamilyEnum, { description: mancala.family }) family!: 'mancala';
  @Field(() => Boolean, { description: mancala.legal }) legal!: boolean;
  @Field(() => Int, { nullable: true, description: mancala.house }) house!: number | null;
  @Field(() => [String], { nullable: true, description: mancala.trace }) trace!: string[] | null;
  @Field(() => [String], { nullable: true, description: mancala.relays }) relays!: string[] | null;
  @Field(() => [String], { nullable: true, description: mancala.capturedFrom })
  capturedFrom!: string[] | null;
  // GraphQL's name: `captured` is a list of squares in the other families.
  @Field(() => Int, {
    name: 'seedsCaptured',
    nullable: true,
    description: doc(Views.MancalaMoveDetails.shape.captured, '(`captured` in `details`)'),
  })
  captured!: number | null;
  @Field(() => Boolean, { nullable: true, description: mancala.extraMove }) extraMove!: boolean | null;
  @Field(() => Boolean, { nullable: true, description: mancala.gameOver }) gameOver!: boolean | null;
}

type Details = Views.MoveDetailsView;

const BY_FAMILY = {
  congo: CongoMoveDetails,
  draughts: DraughtsMoveDetails,
  mancala: MancalaMoveDetails,
} as const satisfies Record<Details['family'], unknown>;

export const MoveDetails = createUnionType({
  name: 'MoveDetails',
  description: doc(Views.MoveDetails),
  types: () => [CongoMoveDetails, DraughtsMoveDetails, MancalaMoveDetails] as const,
  resolveType: (details) => BY_FAMILY[(details as unknown as Details).family],
});

/** `detail` on anything that carries engine `details` (a played move, a move check). */
export function detailResolver(of: () => abstract new () => object) {
  @Resolver(of)
  class DetailResolver {
    @FieldResolver(() => MoveDetails, {
      nullable: true,
      description: 'What the move did, typed by board family (the same facts as `details`).',
    })
    detail(@Root() root: { details?: Details | null }): Details | null {
      return root.details ?? null;
    }
  }
  return DetailResolver;
}
