// The GraphQL limits (tokens, depth, cost, aliases) on real queries: the queries clients send pass,
// with their measured depth and cost recorded here, and abusive ones get QUERY_TOO_COMPLEX (400) over
// HTTP and over graphql-ws alike.
import 'reflect-metadata';
import { getIntrospectionQuery, parse, validate } from 'graphql';
import { GAME_KINDS } from '../../src/engines/types';
import { DEFAULT_GRAPHQL_LIMITS, limitRules, operationCost } from '../../src/transport/graphql/limits';
import { buildGameSchema } from '../../src/transport/graphql/server';
import { appHarness, gql, wsClient, type Running } from '../support/app';

/** Every field of a game, boards and moves included: what a dashboard shows. */
const GAME_ALL = `id kind rulesVersion options seats { seat name account vacationUntil } status
  result { winner winnerName reason score } ply version toMove toMoveName position
  board { ... on MancalaBoard { houses stores } ... on GridBoard { files ranks pieces { square side piece } zones { name side squares } } }
  legalMoves moves { ply notation seat seatName at details } drawOffer
  timeControl { type initialSeconds incrementSeconds daysPerMove } clock { remainingMs runningSeat runningSince }
  deadlineAt createdAt updatedAt`;

/** What a dashboard lists of each game: every field, with the last move instead of every move. */
const GAME_LISTED = GAME_ALL.replace('moves {', 'lastMove {');

/** Real queries (docs/integrating.md's, the GraphQL bot's, a dashboard's) and their measured depth and cost. */
const REAL: ReadonlyArray<{ name: string; query: string; depth: number; cost: number }> = [
  {
    name: 'docs/integrating.md: createGame with the board',
    query: `mutation { createGame(input: { kind: "russian-draughts" }) { game { id position legalMoves board { ... on GridBoard { pieces { square piece side } } } } seatTokens { seat name token } } }`,
    depth: 6,
    cost: 65.66,
  },
  {
    name: 'docs/integrating.md: submitMove',
    query: `mutation { submitMove(id: "AAAAAAAAAAAA", move: "c3-d4", seatToken: "t", expectedVersion: 0) { version toMoveName legalMoves } }`,
    depth: 2,
    cost: 6.5,
  },
  {
    name: 'docs/integrating.md: games, 10 a page',
    query: `query { games(kind: "russian-draughts", status: "ongoing", limit: 10) { items { id ply } next } }`,
    depth: 3,
    cost: 110,
  },
  {
    name: 'docs/integrating.md: gameUpdated subscription',
    query: `subscription { gameUpdated(id: "AAAAAAAAAAAA") { version ply toMove legalMoves result { winner reason } } }`,
    depth: 3,
    cost: 15.5,
  },
  {
    name: 'bot: events subscription',
    query: `subscription Feed($after: Int) { events(after: $after) { seq type at data } }`,
    depth: 2,
    cost: 8,
  },
  {
    name: 'bot: submitMove with variables',
    query: `mutation Move($id: ID!, $move: String!, $v: Int) { submitMove(id: $id, move: $move, expectedVersion: $v) { version toMove status } }`,
    depth: 2,
    cost: 6.5,
  },
  {
    name: '20 games with boards (refused at 1755 > 1000 before)',
    query: `query { games(limit: 20) { items { id board { ... on GridBoard { pieces { square piece side } } ... on MancalaBoard { houses stores } } } } }`,
    depth: 6,
    cost: 1365.63,
  },
  {
    // Every move: costed at the longest game (1000 plies).
    name: 'one game, every field',
    query: `query { game(id: "AAAAAAAAAAAA") { ${GAME_ALL} } }`,
    depth: 5,
    cost: 16639.63,
  },
  {
    // With every move of each game instead of the last, it costs 2,496,294: refused.
    name: 'dashboard: 100 games with boards and last moves, every field',
    query: `query { games(limit: 100) { items { ${GAME_LISTED} } next } }`,
    depth: 6,
    cost: 23768.75,
  },
];

/** The depth graphql-armor measures (read from the refusal at a limit of 0), and the cost. */
async function measure(query: string): Promise<{ depth: number; cost: number }> {
  const schema = await buildGameSchema();
  const document = parse(query);
  expect(validate(schema, document)).toEqual([]);
  const errors = validate(schema, document, limitRules({ ...DEFAULT_GRAPHQL_LIMITS, maxDepth: 0 }));
  const found = (limit: string) =>
    Number(
      /found (\d+(?:\.\d+)?)/.exec(errors.find((e) => e.extensions.limit === limit)?.message ?? '')?.[1],
    );
  const cost = operationCost(schema, document, undefined, { id: 'AAAAAAAAAAAA', move: '1', after: 0, v: 1 });
  return { depth: found('depth'), cost: Math.round(cost! * 100) / 100 };
}

const ID = '"AAAAAAAAAAAA"';

/** Queries over the default limits, each with the limit it breaks. */
const REFUSED: ReadonlyArray<{ name: string; query: string; limit: string }> = [
  {
    name: 'too deep (13 levels)',
    query: `{ game(id: ${ID}) { ${'... on Game { '.repeat(12)}id${' }'.repeat(12)} } }`,
    limit: 'depth',
  },
  {
    name: 'too costly (three dashboards in one)',
    query: `{ ${['a', 'b', 'c'].map((a) => `${a}: games(limit: 100) { items { ${GAME_ALL} } }`).join(' ')} }`,
    limit: 'cost',
  },
  {
    name: 'too many aliases (31)',
    query: `{ game(id: ${ID}) { ${Array.from({ length: 31 }, (_, i) => `a${i}: id`).join(' ')} } }`,
    limit: 'aliases',
  },
  {
    name: 'too many tokens (over 4000)',
    query: `{ game(id: ${ID}) { ${'__typename '.repeat(4000)} } }`,
    limit: 'tokens',
  },
  {
    name: 'introspection nesting four lists',
    query: '{ __schema { types { fields { type { fields { args { name } } } } } } }',
    limit: 'introspection',
  },
];

/** Subscriptions over the limits of an app with maxCost 150 (the rest default). */
const REFUSED_SUBSCRIPTIONS: ReadonlyArray<{ name: string; query: string; limit: string }> = [
  {
    name: 'too deep (13 levels)',
    query: `subscription { gameUpdated(id: ${ID}) { ${'... on Game { '.repeat(12)}id${' }'.repeat(12)} } }`,
    limit: 'depth',
  },
  {
    name: 'too costly (every field: 16,640 > 150)',
    query: `subscription { gameUpdated(id: ${ID}) { ${GAME_ALL} } }`,
    limit: 'cost',
  },
  {
    name: 'too many aliases (31)',
    query: `subscription { gameUpdated(id: ${ID}) { ${Array.from({ length: 31 }, (_, i) => `a${i}: id`).join(' ')} } }`,
    limit: 'aliases',
  },
  {
    name: 'too many tokens (over 4000)',
    query: `subscription { gameUpdated(id: ${ID}) { ${'__typename '.repeat(4000)} } }`,
    limit: 'tokens',
  },
];

describe('GraphQL limits', () => {
  const harness = appHarness();
  let run: Running;
  beforeAll(async () => {
    run = await harness.start('memory');
  });
  afterAll(() => harness.stopAll());
  let cheapApp: Running | undefined;
  const strictCost = async () => (cheapApp ??= await harness.start('memory', { graphql: { maxCost: 150 } }));

  it('has defaults with headroom over the measured real queries', async () => {
    const measured = [];
    for (const q of REAL) measured.push({ name: q.name, ...(await measure(q.query)) });
    expect(measured).toEqual(REAL.map(({ name, depth, cost }) => ({ name, depth, cost })));
    const deepest = Math.max(...REAL.map((q) => q.depth));
    const costliest = Math.max(...REAL.map((q) => q.cost));
    expect(DEFAULT_GRAPHQL_LIMITS.maxDepth).toBeGreaterThanOrEqual(deepest * 2);
    expect(DEFAULT_GRAPHQL_LIMITS.maxCost).toBeGreaterThanOrEqual(costliest * 2);
  });

  it.each(REAL.filter((q) => !q.query.startsWith('subscription')))(
    'passes over HTTP: $name',
    async ({ query }) => {
      const { status, body } = await gql(run.url, query, { id: 'AAAAAAAAAAAA', move: '1' });
      const codes = (body.errors ?? []).map((e) => e.extensions?.code);
      // Validation passed: what remains are the service's answers for a made-up id or token.
      expect(codes.filter((c) => !['GAME_NOT_FOUND', 'FORBIDDEN', 'UNAUTHENTICATED'].includes(c))).toEqual(
        [],
      );
      expect(status).toBeLessThan(500);
    },
  );

  it('lets the standard introspection query through (code generators use it)', async () => {
    const query = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
    });
    const { status, body } = await gql(run.url, query);
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    expect((body.data as any).__schema.queryType.name).toBe('Query');
  });

  it.each(REFUSED)('refuses over HTTP with QUERY_TOO_COMPLEX (400): $name', async ({ query, limit }) => {
    const { status, body } = await gql(run.url, query);
    expect(status).toBe(400);
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit });
    expect(body.errors?.[0]?.message).not.toMatch(/Syntax Error/);
  });

  it.each([
    ...REFUSED.map((q) => ({ ...q, name: `query ${q.name}`, cheap: false })),
    ...REFUSED_SUBSCRIPTIONS.map((q) => ({ ...q, name: `subscription ${q.name}`, cheap: true })),
  ])('refuses over graphql-ws with QUERY_TOO_COMPLEX: $name', async ({ query, limit, cheap }) => {
    const client = wsClient((cheap ? await strictCost() : run).url);
    try {
      const subscription = client.iterate({ query });
      const errors = await subscription.next().then(
        () => [],
        (e: unknown) => e as Array<{ message: string; extensions?: Record<string, unknown> }>,
      );
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((e) => e.extensions?.code === 'QUERY_TOO_COMPLEX')).toBe(true);
      expect(errors.map((e) => e.extensions?.limit)).toContain(limit);
    } finally {
      await client.dispose();
    }
  });

  it('takes its limits from the options', async () => {
    const strict = await harness.start('memory', {
      graphql: { maxDepth: 2, maxCost: 10, maxAliases: 1, maxTokens: 20 },
    });
    const deep = await gql(strict.url, '{ games { items { id } } }');
    expect(deep.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'depth' });
    const aliased = await gql(strict.url, '{ a: kinds { kind } b: kinds { kind } }');
    expect(aliased.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'aliases' });
    const long = await gql(strict.url, `{ ${'kinds '.repeat(20)}}`);
    expect(long.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'tokens' });
    expect((await gql(strict.url, '{ kinds { kind } }')).body.data).toEqual({
      kinds: GAME_KINDS.map((kind) => ({ kind })),
    });
  });
});
