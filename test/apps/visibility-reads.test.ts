// Every operation on a game by id goes through the one read check (service/game/audience.ts): the
// lists below are made from the REST route table and the GraphQL schema, so an operation added
// later is tested here without anyone remembering to.
import request from 'supertest';
import { restRoutes } from '../../src/transport/rest/routes';
import { appHarness, gql, wsClient, type Running } from '../support/app';
import { signUp, type TestAccount } from '../support/accounts';
import { appAccount, newApp, type TestApp } from '../support/apps';

const harness = appHarness();
afterAll(() => harness.stopAll());

/** Each GraphQL query field that takes a game id, as a query (a new one must be added here). */
const QUERIES: Record<string, string> = {
  game: 'query($id: ID!) { game(id: $id) { id } }',
  legalMoves: 'query($id: ID!) { legalMoves(id: $id) }',
  validateMove: 'query($id: ID!) { validateMove(id: $id, move: "1") { move } }',
  exportGame: 'query($id: ID!) { exportGame(id: $id) }',
  gameChat: 'query($id: ID!) { gameChat(id: $id) { muted } }',
};

/** Query fields whose `id` names something else than a game. */
const OTHER_IDS = new Set([
  'bulkPairing',
  'challenge',
  'tournament',
  'tournamentStandings',
  'webhook',
  'webhookDeliveries',
  'appWebhook',
  'appWebhookDeliveries',
]);

describe.each(['memory', 'redis'] as const)('every read of a private game (%s)', (store) => {
  let running: Running;
  let a: TestApp;
  let seat: { readonly id: string };
  let stranger: TestAccount;
  let id: string;

  beforeAll(async () => {
    running = await harness.start(store);
    a = await newApp(running.app);
    const [one, two] = await Promise.all([
      appAccount(running.storage, a, 'one'),
      appAccount(running.storage, a, 'two'),
    ]);
    seat = one;
    stranger = await signUp(running.app, 'stranger', 'human');
    const made = await request(running.url)
      .post('/api/v1/challenges')
      .set(a.as(one.id))
      .send({ to: two.id, kind: 'kalah', visibility: 'private' });
    await request(running.url).post(`/api/v1/challenges/${made.body.id}/accept`).set(a.as(two.id));
    id = made.body.id;
  });

  test('every REST operation on /games/{id}…: 404 GAME_NOT_FOUND to a stranger, read by a seat', async () => {
    const routes = restRoutes(running.app.services).filter((r) => r.spec.path.startsWith('/games/{id}'));
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const path = `/api/v1${route.spec.path.replace('{id}', id)}`;
      const method = route.spec.method as 'get' | 'post' | 'put' | 'delete';
      for (const headers of [{}, stranger.auth]) {
        const res = await request(running.url)
          [method](path)
          .set(headers)
          .send(method === 'get' ? undefined : bodyOf(route.spec.path));
        expect([route.spec.operationId, res.status, res.body.code]).toEqual([
          route.spec.operationId,
          404,
          'GAME_NOT_FOUND',
        ]);
      }
      if (method !== 'get' || path.endsWith('/stream')) continue;
      const read = await request(running.url).get(path).set(a.as(seat.id));
      expect([route.spec.operationId, read.status]).toEqual([route.spec.operationId, 200]);
    }
  });

  /** A well-formed body for a write (so that it reaches the service). */
  const bodyOf = (path: string) =>
    /\/(moves|validate)$/.test(path) ? { move: '1' } : path.endsWith('/chat') ? { text: 'hi' } : {};

  test('the live stream: 404 to a stranger, open to a seat', async () => {
    const url = `${running.url}/api/v1/games/${id}/stream`;
    const refused = await fetch(url, { headers: { ...stranger.auth, accept: 'application/x-ndjson' } });
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { code: string }).code).toBe('GAME_NOT_FOUND');
    const open = await fetch(url, { headers: { ...a.as(seat.id), accept: 'application/x-ndjson' } });
    expect(open.status).toBe(200);
    const reader = open.body?.getReader();
    const first = await reader?.read();
    expect(JSON.parse(new TextDecoder().decode(first?.value).split('\n')[0] ?? '')).toMatchObject({
      type: 'game',
      game: { id },
    });
    await reader?.cancel();
  });

  test('every GraphQL query field taking a game id, and the subscription', async () => {
    const schema = await gql(
      running.url,
      '{ __schema { queryType { fields { name args { name } } } subscriptionType { fields { name args { name } } } } }',
    );
    const byId = (type: { fields: Array<{ name: string; args: Array<{ name: string }> }> }) =>
      type.fields
        .filter((f) => f.args.some((arg) => arg.name === 'id') && !OTHER_IDS.has(f.name))
        .map((f) => f.name);
    expect(byId(schema.body.data?.__schema.queryType).sort()).toEqual(Object.keys(QUERIES).sort());
    expect(byId(schema.body.data?.__schema.subscriptionType).sort()).toEqual(['gameChat', 'gameUpdated']);
    for (const [field, query] of Object.entries(QUERIES)) {
      const refused = await gql(running.url, query, { id }, stranger.auth);
      expect([field, refused.body.errors?.[0]?.extensions?.code]).toEqual([field, 'GAME_NOT_FOUND']);
      const read = await gql(running.url, query, { id }, a.as(seat.id));
      expect([field, read.body.errors]).toEqual([field, undefined]);
    }
    const subscribe = async (
      params: Record<string, unknown>,
      query = `subscription { gameUpdated(id: "${id}") { id } }`,
    ) => {
      const client = wsClient(running.url, params);
      try {
        const sub = client.iterate({ query });
        const first = await sub.next();
        await sub.return?.();
        return first.value;
      } catch (error) {
        return { errors: error };
      } finally {
        await client.dispose();
      }
    };
    const refused = await subscribe({ authorization: `Bearer ${stranger.token}` });
    expect(JSON.stringify(refused)).toContain('GAME_NOT_FOUND');
    const chat = `subscription { gameChat(id: "${id}") { id } }`;
    expect(JSON.stringify(await subscribe({ authorization: `Bearer ${stranger.token}` }, chat))).toContain(
      'GAME_NOT_FOUND',
    );
    // The app's bare key (acting for an account over graphql-ws is another part's).
    const watched = await subscribe({ authorization: `Bearer ${a.key}` });
    expect(watched).toEqual({ data: { gameUpdated: { id } } });
  });

  test('the analysis of a private game, and the service read without a viewer', async () => {
    const analysis = await request(running.url)
      .post('/api/v1/analysis')
      .set(stranger.auth)
      .send({ gameId: id });
    expect(analysis.body.code).toBe('GAME_NOT_FOUND');
    await expect(running.app.services.games.getGame(id)).rejects.toMatchObject({ code: 'GAME_NOT_FOUND' });
    await expect(running.app.services.games.getGame(id, { token: stranger.token })).rejects.toMatchObject({
      code: 'GAME_NOT_FOUND',
    });
  });
});
