// The public views are declared once, as schemas (src/service/views); GraphQL keeps decorated classes
// that describe the same views. This test holds the two together: the same fields, the same
// nullability and the same descriptions, but for the differences listed here on purpose.
import 'reflect-metadata';
import { isNonNullType, isObjectType, type GraphQLSchema } from 'graphql';
import type { z } from 'zod';
import * as Views from '../../src/service/views/game';
import * as Details from '../../src/service/views/move-details';
import { descriptionOf } from '../../src/service/views/schema';
import * as Classes from '../../src/transport/graphql/move-details';
import { buildGameSchema } from '../../src/transport/graphql/server';
import * as Types from '../../src/transport/graphql/types';

// Compile-time: each class declares the view's fields, by the same property names (a GraphQL
// field resolver, such as Game.moves, is on its resolver instead).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Keys<S extends z.ZodObject> = keyof z.infer<S>;
const sameKeys: ReadonlyArray<true> = [
  true as Equal<keyof Types.Game | 'moves', Keys<typeof Views.Game>>,
  true as Equal<keyof Types.Seat, Keys<typeof Views.Seat>>,
  true as Equal<keyof Types.GameResult, Keys<typeof Views.GameResult>>,
  true as Equal<keyof Types.Move, Keys<typeof Views.Move>>,
  true as Equal<keyof Types.GameClock, Keys<typeof Views.GameClock>>,
  true as Equal<keyof Types.GamePage, Keys<typeof Views.GamePage>>,
  true as Equal<keyof Types.MoveCheck, Keys<typeof Views.MoveCheck>>,
  true as Equal<keyof Classes.CongoMoveDetails, Keys<typeof Details.CongoMoveDetails>>,
  true as Equal<keyof Classes.DraughtsMoveDetails, Keys<typeof Details.DraughtsMoveDetails>>,
  true as Equal<keyof Classes.MancalaMoveDetails, Keys<typeof Details.MancalaMoveDetails>>,
];
it('declares the same property names in each GraphQL class as in its view (checked by tsc)', () => {
  expect(sameKeys.every(Boolean)).toBe(true);
});

interface Difference {
  /** Fields only GraphQL has (field resolvers, typed companions of JSON fields). */
  readonly graphqlOnly?: readonly string[];
  /** GraphQL's name for a view field. */
  readonly renamed?: Readonly<Record<string, string>>;
  /** Fields GraphQL declares nullable though the view never holds null. */
  readonly nullableInGraphql?: readonly string[];
  /** Fields whose GraphQL description is its own (about GraphQL), not the view's. */
  readonly ownDescription?: readonly string[];
}

const MANCALA_FIELDS = ['house', 'trace', 'relays', 'capturedFrom', 'seedsCaptured', 'extraMove', 'gameOver'];

/** Each GraphQL type with the view it describes, and why they differ where they do. */
const PAIRS: ReadonlyArray<readonly [string, z.ZodObject, Difference]> = [
  [
    'Game',
    Views.Game,
    {
      // lastMove: the last of `moves`, O(1) in a live update (game.resolver.ts).
      graphqlOnly: ['lastMove'],
      ownDescription: ['timeControl', 'moves'],
    },
  ],
  ['Seat', Views.Seat, {}],
  ['GameResult', Views.GameResult, {}],
  // detail: the typed union of the JSON `details`.
  ['Move', Views.Move, { graphqlOnly: ['detail'], ownDescription: ['details'] }],
  ['GameClock', Views.GameClock, {}],
  ['GamePage', Views.GamePage, {}],
  ['MoveCheck', Views.MoveCheck, { graphqlOnly: ['detail'], ownDescription: ['details'] }],
  ['CongoMoveDetails', Details.CongoMoveDetails, {}],
  ['DraughtsMoveDetails', Details.DraughtsMoveDetails, {}],
  [
    'MancalaMoveDetails',
    Details.MancalaMoveDetails,
    // `captured` is a list of squares in the other families; the fields stayed nullable from when
    // an illegal move's details (`legal: false`, nothing else) could reach them.
    { renamed: { captured: 'seedsCaptured' }, nullableInGraphql: MANCALA_FIELDS },
  ],
];

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildGameSchema();
});

/** A description without its final period (GraphQL writes sentences). */
const bare = (text: string | undefined | null) => text?.replace(/\.$/, '');

describe.each(PAIRS)('GraphQL %s and its view', (name, view, difference) => {
  const graphqlName = (field: string) => difference.renamed?.[field] ?? field;
  const fieldsOf = () => {
    const type = schema.getType(name);
    if (!isObjectType(type)) throw new Error(`${name} is not an object type`);
    return type.getFields();
  };

  it('has the same fields', () => {
    const expected = [...Object.keys(view.shape).map(graphqlName), ...(difference.graphqlOnly ?? [])];
    expect(Object.keys(fieldsOf()).sort()).toEqual(expected.sort());
  });

  it('has the same nullability', () => {
    const fields = fieldsOf();
    for (const [field, shape] of Object.entries(view.shape)) {
      const nullable = !isNonNullType(fields[graphqlName(field)]?.type);
      const listed = difference.nullableInGraphql?.includes(graphqlName(field)) ?? false;
      expect({ field, nullable }).toEqual({ field, nullable: shape.safeParse(null).success || listed });
    }
  });

  it('takes its descriptions from the view', () => {
    const fields = fieldsOf();
    for (const [field, shape] of Object.entries(view.shape)) {
      if (difference.ownDescription?.includes(field)) continue;
      const own = descriptionOf(shape as z.ZodType);
      const graphql = bare(fields[graphqlName(field)]?.description);
      // GraphQL may add a note after the view's text (the `(ISO 8601)` of a time).
      if (own === undefined) expect({ field, graphql }).toEqual({ field, graphql: undefined });
      else
        expect({ field, starts: graphql?.startsWith(bare(own) as string) }).toEqual({ field, starts: true });
    }
  });
});

it('GraphQL TimeControl flattens the view union: every member field, the type alone non-null', () => {
  const type = schema.getType('TimeControl');
  if (!isObjectType(type)) throw new Error('TimeControl is not an object type');
  const members = Views.TimeControl.options.flatMap((member) => Object.keys(member.shape));
  const fields = type.getFields();
  expect(Object.keys(fields).sort()).toEqual([...new Set(members)].sort());
  expect(
    Object.values(fields)
      .filter((f) => isNonNullType(f.type))
      .map((f) => f.name),
  ).toEqual(['type']);
});

it('GraphQL MoveDetails has one member per view member, by the same names', () => {
  const union = schema.getType('MoveDetails');
  const members = Details.MoveDetails.options.map((member) => member.shape.family.value);
  expect(members.sort()).toEqual(['congo', 'draughts', 'mancala']);
  expect(
    union && 'getTypes' in union
      ? union
          .getTypes()
          .map((t) => t.name)
          .sort()
      : [],
  ).toEqual(['CongoMoveDetails', 'DraughtsMoveDetails', 'MancalaMoveDetails']);
});
