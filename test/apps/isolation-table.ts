// Isolation, every operation (#30): for each REST operation of openapi/openapi.json and each GraphQL
// root field of the schema, called by app A's key, A's key acting for A's account, A's session token
// and anonymously with app B's objects in its path and arguments: nothing of B's is read, changed,
// listed, rated, paired or erased. A 2xx answer never names B (B's island public game excepted: it
// is public), operations that name B's object never answer 2xx, none answers 5xx, and B's state in
// the store is the same afterwards. An operation without a rule (isolation-rules.ts) fails.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
} from 'graphql';
import { appHarness, wsClient, type Running } from '../support/app';
import { graphqlRule, idIsGame, restBody, restQuery, restRule, valuesOf, type Rule } from './isolation-rules';
import { makeWorld, mintSession, snapshot, type World } from './isolation-world';

const ROOT = join(__dirname, '..', '..');
const openapi = JSON.parse(readFileSync(join(ROOT, 'openapi', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};
const schema = buildSchema(readFileSync(join(ROOT, 'schema', 'schema.graphql'), 'utf8'));
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
/** Operations whose body names a game (run with each of B's games). */
const BODY_GAME = new Set(['analyze']);

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** One request; a stream's first chunk (or 300 ms of it) is its body. */
async function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 15_000);
  try {
    const res = await fetch(url, {
      method: method.toUpperCase(),
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: controller.signal,
    });
    const type = res.headers.get('content-type') ?? '';
    if (/event-stream|ndjson/.test(type) && res.body) {
      const reader = res.body.getReader();
      const first = await Promise.race([
        reader.read().then((r) => (r.value ? Buffer.from(r.value).toString('utf8') : '')),
        new Promise<string>((resolve) => setTimeout(() => resolve(''), 300)),
      ]);
      controller.abort();
      return { status: res.status, body: first };
    }
    return { status: res.status, body: await res.text() };
  } catch (error) {
    // No answer at all is a breach too (status 0), not a crash of the whole table.
    return { status: 0, body: `no answer: ${String(error)}` };
  } finally {
    clearTimeout(timer);
  }
}

/** The variants of a path: each combination of its parameters' values (B's objects). */
function paths(path: string, w: World): string[] | string {
  let out = [path];
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    const values = valuesOf(name as string, path, w);
    if (!values) return `no value for path parameter {${name}} of ${path}`;
    out = out.flatMap((p) => values.map((v) => p.replace(`{${name}}`, encodeURIComponent(v))));
  }
  return out;
}

/** Why an answer breaks its rule, or null. `game`: the game variant it named, if any. */
function breach(rule: Rule, answer: Answer, w: World, game: string | undefined): string | null {
  if (answer.status >= 500 || answer.status === 0)
    return `answered ${answer.status} ${answer.body.slice(0, 100)}`;
  if (rule === 'unchecked') return null;
  const ok = answer.status >= 200 && answer.status < 300;
  if (!ok) return null;
  const mayNameB = rule === 'game-read' && game === w.ids.publicGame;
  if (rule === 'refused' || (rule === 'game-read' && !mayNameB)) {
    return `answered ${answer.status}: ${answer.body.slice(0, 200)}`;
  }
  const named = w.markers.find((m) => answer.body.includes(m));
  return named && !mayNameB
    ? `answered ${answer.status} naming ${named}: ${answer.body.slice(0, 200)}`
    : null;
}

/** A's callers; the session is minted afresh per operation (one may sign its session out). */
async function callers(run: Running, w: World): Promise<Record<string, Record<string, string>>> {
  const session = await mintSession(run, w.a, w.a1.id);
  return {
    'A key': { ...w.a.auth },
    'A acting': { ...w.a.as(w.a1.id) },
    'A session': { authorization: `Bearer ${session.token}` },
    anonymous: {},
  };
}

// GraphQL: arguments filled with B's objects, selections of every field without required arguments.
function argValue(name: string, type: GraphQLInputType, field: string, w: World, game: string): unknown {
  const named = getNamedType(type);
  if (isListType(isNonNullType(type) ? type.ofType : type)) {
    if (name === 'pairs') return [[w.b1Session.token, w.b2Session.token]];
    if (name === 'players') return [w.b1.id, w.b2.id];
    const item = (isNonNullType(type) ? type.ofType : type) as { ofType: GraphQLInputType };
    return [argValue(name, item.ofType, field, w, game)];
  }
  if (isInputObjectType(named)) {
    const out: Record<string, unknown> = {};
    for (const [key, f] of Object.entries(named.getFields())) {
      const wanted =
        isNonNullType(f.type) || ['gameId', 'to', 'kind', 'pairs', 'move', 'depth'].includes(key);
      if (wanted) out[key] = argValue(key, f.type, field, w, game);
    }
    return out;
  }
  if (name === 'gameId' || (name === 'id' && idIsGame(field))) return game;
  const known = valuesOf(name, field, w);
  if (known) return known[0];
  if (name === 'to') return w.b1.id;
  if (name === 'move') return '1';
  if (name === 'depth') return 2; // a shallow search: the answer, not the analysis, is under test
  if (isEnumType(named)) return named.getValues()[0]?.value;
  if (isScalarType(named)) {
    if (named.name === 'Int' || named.name === 'Float') return 1;
    if (named.name === 'Boolean') return false;
    if (named.name === 'JSONObject') return {};
    return 'x';
  }
  return null;
}

function selection(type: GraphQLOutputType, depth: number): string {
  const named = getNamedType(type);
  if (!isObjectType(named)) return isScalarType(named) || isEnumType(named) ? '' : '{ __typename }';
  if (depth === 0) return '{ __typename }';
  const parts = Object.values(named.getFields())
    .filter((f) => !f.args.some((a) => isNonNullType(a.type)))
    .map((f) => `${f.name} ${selection(f.type, depth - 1)}`);
  return `{ __typename ${parts.join(' ')} }`;
}

function operation(
  kind: 'query' | 'mutation' | 'subscription',
  f: GraphQLField<unknown, unknown>,
  w: World,
  game: string,
) {
  const args = f.args.filter((a) => isNonNullType(a.type) || ['id', 'gameId', 'username'].includes(a.name));
  const variables = Object.fromEntries(args.map((a) => [a.name, argValue(a.name, a.type, f.name, w, game)]));
  const decl = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const call = args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const query = `${kind}${decl ? `(${decl})` : ''} { ${f.name}${call ? `(${call})` : ''} ${selection(f.type, 3)} }`;
  return { query, variables };
}

/** Whether the field takes B's game (then each of B's games is tried). */
function namesGame(f: GraphQLField<unknown, unknown>): boolean {
  return f.args.some((a) => {
    const named = getNamedType(a.type);
    if (isInputObjectType(named)) return 'gameId' in named.getFields();
    return (a.name === 'id' && idIsGame(f.name)) || a.name === 'gameId';
  });
}

/** The table on a server `start` starts with the harness (memory, Redis, the Cluster). */
export function describeIsolationTable(label: string, start: (harness: Harness) => Promise<Running>): void {
  const harness = appHarness();
  afterAll(() => harness.stopAll());
  describe(`isolation table (${label})`, () => tables(harness, start));
}

type Harness = ReturnType<typeof appHarness>;

function tables(harness: Harness, start: (harness: Harness) => Promise<Running>): void {
  let running: Running;
  let world: World;
  let before: string;

  beforeAll(async () => {
    running = await start(harness);
    world = await makeWorld(running);
    before = await snapshot(running, world);
    // B's objects are there to be found: b1 ranked on B's leaderboard, B's seek waiting.
    const state = JSON.parse(before) as { board: { items: unknown[] }; seek: unknown };
    expect(state.board.items).toHaveLength(1);
    expect(state.seek).toBeDefined();
  }, 30_000);

  test('every REST operation, as A and anonymous, with B’s objects', async () => {
    const problems: string[] = [];
    let calls = 0;
    for (const [path, item] of Object.entries(openapi.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const id = op.operationId ?? `${method} ${path}`;
        const rule = restRule(id, path);
        if (!rule) {
          problems.push(`${id}: no rule (add it to test/apps/isolation-rules.ts)`);
          continue;
        }
        const variants = paths(path, world);
        if (typeof variants === 'string') {
          problems.push(`${id}: ${variants}`);
          continue;
        }
        const games = BODY_GAME.has(id) ? [world.ids.privateGame, world.ids.publicGame] : [undefined];
        const query = new URLSearchParams(restQuery(id, world)).toString();
        const as = await callers(running, world);
        await Promise.all(
          variants.flatMap((p) =>
            games.flatMap((bodyGame) =>
              Object.entries(as).map(async ([who, headers]) => {
                const game =
                  bodyGame ?? [world.ids.privateGame, world.ids.publicGame].find((g) => p.includes(g));
                const body =
                  method === 'get' || method === 'delete' ? undefined : restBody(id, world, game ?? '');
                const answer = await send(
                  `${running.url}${p}${query ? `?${query}` : ''}`,
                  method,
                  headers,
                  body,
                );
                calls++;
                const why = breach(rule, answer, world, game);
                if (why) problems.push(`${id} ${method.toUpperCase()} ${p} as ${who}: ${why}`);
              }),
            ),
          ),
        );
      }
    }
    expect(problems).toEqual([]);
    expect(calls).toBeGreaterThan(300);
    expect(await snapshot(running, world)).toEqual(before);
  }, 60_000);

  test('every GraphQL query and mutation, as A and anonymous, with B’s objects', async () => {
    const problems: string[] = [];
    for (const kind of ['query', 'mutation'] as const) {
      const root = kind === 'query' ? schema.getQueryType() : schema.getMutationType();
      for (const f of Object.values(root?.getFields() ?? {})) {
        const rule = graphqlRule(f.name);
        if (!rule) {
          problems.push(`${f.name}: no rule (add it to test/apps/isolation-rules.ts)`);
          continue;
        }
        const games = namesGame(f) ? [world.ids.privateGame, world.ids.publicGame] : [undefined];
        const as = await callers(running, world);
        await Promise.all(
          games.flatMap((game) =>
            Object.entries(as).map(async ([who, headers]) => {
              const body = operation(kind, f, world, game ?? world.ids.privateGame);
              const answer = await send(`${running.url}/graphql`, 'post', headers, body);
              if (answer.status >= 500) problems.push(`${f.name} as ${who}: answered ${answer.status}`);
              const data = (JSON.parse(answer.body) as { data?: Record<string, unknown> | null }).data;
              const value = data?.[f.name];
              const result: Answer = {
                status: value === null || value === undefined ? 404 : 200,
                body: JSON.stringify(value ?? null),
              };
              const why = breach(rule, result, world, game);
              if (why) problems.push(`${f.name} (${game ?? '-'}) as ${who}: ${why}`);
            }),
          ),
        );
      }
    }
    expect(problems).toEqual([]);
    expect(await snapshot(running, world)).toEqual(before);
  }, 60_000);

  test('every GraphQL subscription, as A and anonymous, with B’s objects', async () => {
    const problems: string[] = [];
    for (const f of Object.values(schema.getSubscriptionType()?.getFields() ?? {})) {
      const rule = graphqlRule(f.name);
      if (!rule) {
        problems.push(`${f.name}: no rule (add it to test/apps/isolation-rules.ts)`);
        continue;
      }
      const games = namesGame(f) ? [world.ids.privateGame, world.ids.publicGame] : [undefined];
      for (const game of games) {
        for (const [who, headers] of Object.entries(await callers(running, world))) {
          const params: Record<string, string> = {};
          if (headers.authorization) params.authorization = headers.authorization;
          if (headers['boardhost-account']) params.boardhostAccount = headers['boardhost-account'];
          const client = wsClient(running.url, params);
          const first = await new Promise<Answer>((resolve) => {
            const timer = setTimeout(() => resolve({ status: 404, body: '' }), 400);
            client.subscribe(operation('subscription', f, world, game ?? world.ids.privateGame), {
              next: (message) => {
                clearTimeout(timer);
                const value = message.data?.[f.name];
                resolve({ status: value ? 200 : 404, body: JSON.stringify(value ?? null) });
              },
              error: () => {
                clearTimeout(timer);
                resolve({ status: 404, body: '' });
              },
              complete: () => undefined,
            });
          });
          await client.dispose();
          const why = breach(rule, first, world, game);
          if (why) problems.push(`${f.name} (${game ?? '-'}) as ${who}: ${why}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(await snapshot(running, world)).toEqual(before);
  }, 30_000);
}
