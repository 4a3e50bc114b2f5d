// GraphQL client mistakes answer 4xx with stable codes (never 5xx), and every INTERNAL is logged
// with its stack.
import fc from 'fast-check';
import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { createApp, type App } from '../../src/app';
import { createMemoryStorage } from '../../src/store/memory';
import { appHarness, gql, wsClient, type Running } from '../support/app';

/** Pieces of GraphQL, valid and not, that the fuzzer strings together. */
const PIECES = [
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ':',
  '...',
  '@',
  '$',
  '!',
  '=',
  '|',
  '&',
  '"',
  '"""',
  '#',
  'query',
  'mutation',
  'subscription',
  'fragment',
  'on',
  'Game',
  'F',
  'game',
  'games',
  'kinds',
  'id',
  'board',
  'items',
  'first',
  'createGame',
  'input',
  'gameUpdated',
  '__schema',
  '__type',
  '__typename',
  'types',
  'fields',
  '...F',
  'fragment F on Game { ...F }',
  '100',
  '-1',
  '1e999',
  'null',
  'true',
  '"AAAAAAAAAAAA"',
  '"\\u00"',
  '\u0000',
  '\uFFFF',
  ' ',
  '\n',
];

describe('GraphQL errors', () => {
  const harness = appHarness();
  let run: Running;
  beforeAll(async () => {
    run = await harness.start('memory');
  });
  afterAll(() => harness.stopAll());

  it('answers a syntax error with 400 GRAPHQL_PARSE_FAILED', async () => {
    const { status, body } = await gql(run.url, '{ kinds');
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('answers a subscription sent over HTTP with 400 INVALID_INPUT, pointing at WebSocket', async () => {
    const { status, body } = await gql(run.url, 'subscription { gameUpdated(id: "AAAAAAAAAAAA") { id } }');
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
    expect(body.errors?.[0]?.message).toMatch(/WebSocket/);
  });

  it('answers malformed request bodies with 4xx', async () => {
    const bodies = [
      '{"query": 5}',
      '{"query": "{ kinds }", "variables": "x"}',
      '[',
      'null',
      '{}',
      '{"query": ""}',
    ];
    for (const body of bodies) {
      const res = await fetch(`${run.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect([body, res.status >= 400 && res.status < 500]).toEqual([body, true]);
    }
  });

  it('never answers 5xx to garbage queries and variables (fuzz, HTTP)', async () => {
    const query = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((parts) => parts.join(' ')),
    );
    const variables = fc.dictionary(
      fc.constantFrom('id', 'n', 'input', 'after'),
      fc.jsonValue({ maxDepth: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(query, variables, async (q, v) => {
        const { status, body } = await gql(run.url, q, v);
        const codes = (body.errors ?? []).map((e) => e.extensions?.code);
        return status < 500 && !codes.includes('INTERNAL');
      }),
      { numRuns: 300 },
    );
  });

  it('never answers INTERNAL to garbage over graphql-ws (fuzz)', async () => {
    const client = wsClient(run.url);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join(' ')),
          async (q) => {
            const codes: unknown[] = [];
            try {
              for await (const result of client.iterate({ query: q })) {
                codes.push(...(result.errors ?? []).map((e) => e.extensions?.code));
                break;
              }
            } catch (errors) {
              if (!Array.isArray(errors)) throw errors;
              codes.push(...errors.map((e: { extensions?: { code?: string } }) => e.extensions?.code));
            }
            return !codes.includes('INTERNAL') && codes.every((c) => typeof c === 'string');
          },
        ),
        { numRuns: 100 },
      );
    } finally {
      await client.dispose();
    }
  });
});

describe('INTERNAL errors', () => {
  let app: App;
  let url: string;
  const lines: Array<Record<string, any>> = [];
  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
    });
    const storage = createMemoryStorage();
    // A bug stand-in: the store throws a plain Error (not an outage) when reading a game.
    storage.games.get = async () => {
      throw new Error('bug: the board fell over');
    };
    app = await createApp({ storage, logger: pino({ level: 'info' }, stream), sweepIntervalMs: 0 });
    url = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`;
  });
  afterAll(() => app.stop());

  it('answers INTERNAL with a generic message and logs it with its stack (HTTP and WebSocket)', async () => {
    const { status, body } = await gql(url, '{ game(id: "AAAAAAAAAAAA") { id } }');
    expect(status).toBe(200);
    expect(body.errors?.[0]).toMatchObject({
      message: 'Internal server error',
      extensions: { code: 'INTERNAL' },
    });
    expect(JSON.stringify(body)).not.toMatch(/board fell over/);
    await new Promise((r) => setImmediate(r));
    const logged = lines.filter((l) => l.msg === 'internal error');
    expect(logged).toHaveLength(1);
    expect(logged[0]?.level).toBe(50);
    expect(logged[0]?.err?.message).toBe('bug: the board fell over');
    expect(logged[0]?.err?.stack).toMatch(/bug: the board fell over\n\s+at /);

    const client = wsClient(url);
    try {
      const first = await client
        .iterate({ query: 'subscription { gameUpdated(id: "AAAAAAAAAAAA") { id } }' })
        .next();
      expect((first.value as any)?.errors?.[0]?.extensions?.code).toBe('INTERNAL');
    } finally {
      await client.dispose();
    }
    await new Promise((r) => setImmediate(r));
    expect(lines.filter((l) => l.msg === 'internal error')).toHaveLength(2);
  });
});
