// GraphQL cost with variables and unpaged lists, and a query's time and response-size budgets
// (issue #28, item 2): 30 aliased `games(limit: $n)` with n = 100 are refused exactly as the same
// query written with `limit: 100` is (over HTTP POST, HTTP GET and graphql-ws); `Game.moves`
// without arguments is costed at the longest game; a query past its budgets gets one
// QUERY_BUDGET_EXCEEDED error instead of tying up the node.
import 'reflect-metadata';
import { parse, type GraphQLSchema } from 'graphql';
import request from 'supertest';
import { KINDS } from '../../src/engines/kinds';
import { DEFAULT_GRAPHQL_LIMITS, operationCost } from '../../src/transport/graphql/limits';
import { buildGameSchema } from '../../src/transport/graphql/server';
import { appHarness, gql, wsClient, type Running } from '../support/app';

const ITEMS = `items { id kind status ply toMove position legalMoves
  board { ... on GridBoard { pieces { square piece side } } ... on MancalaBoard { houses stores } } }`;
const aliased = (limit: string) =>
  Array.from({ length: 30 }, (_, i) => `a${i}: games(limit: ${limit}) { ${ITEMS} }`).join(' ');
/** The audit's attack: 30 aliased lists of 100 games, with the page size a variable. */
const ATTACK = `query Attack($n: Int) { ${aliased('$n')} }`;
const LITERAL = `query Attack { ${aliased('100')} }`;
const GAMES = 100;

type Errors = Array<{ message: string; extensions?: Record<string, unknown> }>;

async function overWebSocket(url: string, query: string, variables: Record<string, unknown>) {
  const client = wsClient(url);
  try {
    const first = await client.iterate({ query, variables }).next();
    return { errors: [] as Errors, value: first.value as { data?: unknown; errors?: Errors } | undefined };
  } catch (errors) {
    return { errors: errors as Errors, value: undefined };
  } finally {
    await client.dispose();
  }
}

describe('GraphQL cost with variables, unpaged lists, and query budgets', () => {
  const harness = appHarness();
  let run: Running;
  let schema: GraphQLSchema;
  const cost = (query: string, variables?: Record<string, unknown>) =>
    operationCost(schema, parse(query), undefined, variables);

  beforeAll(async () => {
    schema = await buildGameSchema();
    run = await harness.start('memory');
    for (let i = 0; i < GAMES; i++) {
      await run.app.service.createGame({ kind: i % 2 ? 'congo' : 'russian-draughts' });
    }
  });
  afterAll(() => harness.stopAll());

  it('costs a variable page size at its value, as the same literal', () => {
    for (const n of [1, 10, 20, 100]) {
      expect(cost(ATTACK, { n })).toBe(cost(aliased(String(n)).replace(/^/, '{ ') + ' }'));
    }
    // Not given (or null): the page a field answers by default (games: 20).
    expect(cost(ATTACK, {})).toBe(cost(`{ ${aliased('20')} }`));
    expect(cost(ATTACK, { n: null })).toBe(cost(`{ ${aliased('20')} }`));
    expect(cost('{ games { items { id } } }')).toBe(cost('{ games(limit: 20) { items { id } } }'));
    expect(cost(LITERAL)).toBeGreaterThan(DEFAULT_GRAPHQL_LIMITS.maxCost);
    expect(cost(ATTACK, { n: 100 })).toBe(cost(LITERAL));
  });

  it('measures one document again for each page size (its costs are kept per document and page size)', () => {
    // Apollo hands every request of one query text the same DocumentNode: what is kept for it must
    // follow the page-size variables, and a request whose variables do not coerce keeps nothing.
    const document = parse(ATTACK);
    const again = (variables: Record<string, unknown>) =>
      operationCost(schema, document, undefined, variables);
    const small = cost(ATTACK, { n: 1 });
    const large = cost(ATTACK, { n: 100 });
    expect(large).toBeGreaterThan(small!);
    expect(again({ n: 1 })).toBe(small);
    expect(again({ n: 'many' })).toBeUndefined();
    expect(again({ n: 100 })).toBe(large);
    expect(again({ n: 1 })).toBe(small);
    expect(again({ n: 100 })).toBe(large);
  });

  it('refuses the variable form as the literal one over HTTP POST', async () => {
    const literal = await gql(run.url, LITERAL);
    const variable = await gql(run.url, ATTACK, { n: 100 });
    expect(literal.status).toBe(400);
    expect(variable.status).toBe(400);
    expect(variable.body.data).toBeUndefined();
    expect(variable.body.errors).toEqual(literal.body.errors);
    expect(variable.body.errors).toHaveLength(1);
    expect(variable.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'cost' });
    // A small page in a variable still runs.
    const small = await gql(run.url, `query($n: Int) { games(limit: $n) { items { id } } }`, { n: 3 });
    expect(small.body.errors).toBeUndefined();
    expect(small.body.data?.games.items).toHaveLength(3);
  });

  it('refuses the variable form over HTTP GET', async () => {
    const res = await request(run.url)
      .get('/graphql')
      .query({ query: ATTACK, variables: JSON.stringify({ n: 100 }) })
      .set('apollo-require-preflight', 'true');
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'cost' });
  });

  it('refuses the variable form over graphql-ws', async () => {
    const { errors, value } = await overWebSocket(run.url, ATTACK, { n: 100 });
    expect(value).toBeUndefined();
    expect(errors.map((e) => e.extensions)).toEqual([{ code: 'QUERY_TOO_COMPLEX', limit: 'cost' }]);
    const small = await overWebSocket(run.url, `query($n: Int) { games(limit: $n) { items { id } } }`, {
      n: 2,
    });
    expect(small.errors).toEqual([]);
    expect((small.value?.data as { games: { items: unknown[] } }).games.items).toHaveLength(2);
  });

  it('counts the cost with its own variables when a text comes again over graphql-ws (its parse is reused)', async () => {
    // Short enough to be kept parsed (websocket.ts Documents): 12 aliased lists, the page size a variable.
    const short = `query Short($n: Int) { ${aliased('$n').split(' a12:')[0]} }`;
    expect(short.length).toBeLessThan(4096);
    const cheap = await overWebSocket(run.url, short, { n: 1 });
    expect(cheap.errors).toEqual([]);
    const costly = await overWebSocket(run.url, short, { n: 100 });
    expect(costly.errors.map((e) => e.extensions)).toEqual([{ code: 'QUERY_TOO_COMPLEX', limit: 'cost' }]);
    expect((await overWebSocket(run.url, short, { n: 1 })).errors).toEqual([]);
  });

  it('costs Game.moves without arguments at the longest game, and refuses it where that is too much', async () => {
    const longest = Math.max(...KINDS.map((k) => k.moveLimit));
    const all = '{ game(id: "AAAAAAAAAAAA") { moves { ply notation seat at } } }';
    expect(cost(all)).toBe(
      cost(`{ game(id: "AAAAAAAAAAAA") { moves(limit: ${longest}) { ply notation seat at } } }`),
    );
    expect(cost(all)).toBeGreaterThan(
      (1000 * cost('{ game(id: "AAAAAAAAAAAA") { lastMove { ply notation seat at } } }')!) / 2,
    );
    const { url } = await harness.start('memory', { storage: run.storage, graphql: { maxCost: 5000 } });
    const listed = await gql(url, '{ games(limit: 1) { items { id } } }');
    const id = (listed.body.data as { games: { items: Array<{ id: string }> } }).games.items[0]!.id;
    const unpaged = await gql(url, `query($id: ID!) { game(id: $id) { moves { ply notation seat at } } }`, {
      id,
    });
    expect(unpaged.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'cost' });
    // A page of moves (or the last one) is cheap.
    const paged = await gql(url, `query($id: ID!) { game(id: $id) { moves(limit: 50) { ply } } }`, { id });
    expect(paged.body).toEqual({ data: { game: { moves: [] } } });
  });

  it('answers a query past its time budget with one QUERY_BUDGET_EXCEEDED error (HTTP and graphql-ws)', async () => {
    // Costs unbounded here: only the budget stands in the attack's way.
    const lax = await harness.start('memory', {
      storage: run.storage,
      graphql: { maxCost: 100_000_000, maxOperationMs: 50 },
    });
    const { status, body } = await gql(lax.url, ATTACK, { n: 100 });
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      {
        message: 'The query ran longer than its 50 ms budget; ask for fewer items or smaller pages',
        extensions: { code: 'QUERY_BUDGET_EXCEEDED', limit: 'time', max: 50 },
      },
    ]);
    const ws = await overWebSocket(lax.url, ATTACK, { n: 100 });
    expect(ws.errors).toEqual([]);
    expect(ws.value?.data).toBeUndefined();
    expect(ws.value?.errors?.map((e) => e.extensions)).toEqual([
      { code: 'QUERY_BUDGET_EXCEEDED', limit: 'time', max: 50 },
    ]);
    // A small query is well within it.
    expect((await gql(lax.url, '{ games(limit: 5) { items { id } } }')).body.errors).toBeUndefined();
  });

  it('answers a query larger than its response budget with one QUERY_BUDGET_EXCEEDED error', async () => {
    const small = await harness.start('memory', {
      storage: run.storage,
      graphql: { maxResponseBytes: 20_000 },
    });
    const big = await gql(small.url, `{ games(limit: 100) { items { id position legalMoves } } }`);
    expect(big.status).toBe(400);
    expect(big.body).toEqual({
      errors: [
        {
          message: 'The answer is larger than its 20000-byte budget; ask for fewer items or smaller pages',
          extensions: { code: 'QUERY_BUDGET_EXCEEDED', limit: 'responseBytes', max: 20_000 },
        },
      ],
    });
    const ws = await overWebSocket(
      small.url,
      `{ games(limit: 100) { items { id position legalMoves } } }`,
      {},
    );
    expect(ws.value).toEqual(big.body);
    const fits = await gql(small.url, '{ games(limit: 5) { items { id } } }');
    expect(fits.body.errors).toBeUndefined();
    expect(fits.body.data?.games.items).toHaveLength(5);
  });

  it('keeps /healthz answering while three attack queries arrive at once', async () => {
    const health = request(run.url).get('/healthz');
    const attacks = [1, 2, 3].map(() => gql(run.url, ATTACK, { n: 100 }));
    const started = performance.now();
    const [answer, ...refused] = await Promise.all([health, ...attacks]);
    const healthMs = performance.now() - started;
    expect(answer.status).toBe(200);
    for (const r of refused) expect(r.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
    // Before: three at once held /healthz 2.6 s (each ran 3 s and answered 10 MB). Refused now, at
    // validation: a generous bound that a loaded machine still meets.
    expect(healthMs).toBeLessThan(2000);
  });
});
