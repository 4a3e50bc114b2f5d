// Acceptance for every hosted game: a whole game over REST, and a whole game over GraphQL watched
// by a subscription, against Redis, ending with the result the engine's rules give.
import request from 'supertest';
import { getEngine } from '../../src/engines/kinds';
import { GAME_KINDS } from '../../src/engines/types';
import { appHarness, chooser, gql, wsClient, type Running } from '../support/app';
import { referee } from '../support/referee';

const harness = appHarness();
let run: Running;
beforeAll(async () => {
  run = await harness.start('redis');
});
afterAll(() => harness.stopAll());

/** Random games of draughts and Congo end well within this (draw rules, lion captures). */
const MAX_PLIES = 1500;

describe.each(GAME_KINDS)('%s', (kind) => {
  it('plays a whole game over REST to the result the rules give', async () => {
    const created = await request(run.url).post('/api/v1/games').send({ kind }).expect(201);
    const tokens: string[] = created.body.seatTokens.map((t: { token: string }) => t.token);
    let game = created.body.game;
    const pick = chooser(kind.length * 31 + 5);
    const played: string[] = [];
    while (game.status === 'ongoing' && played.length < MAX_PLIES) {
      const move = pick(game.legalMoves);
      const res = await request(run.url)
        .post(`/api/v1/games/${game.id}/moves`)
        .set('Authorization', `Bearer ${tokens[game.toMove]}`)
        .send({ move });
      expect(res.status).toBe(200);
      played.push(move);
      game = res.body;
    }
    expect(game.status).toBe('finished');
    const expected = referee(kind, {}, played);
    expect(game.position).toBe(expected.position);
    expect(game.result.reason).toBe(expected.outcome?.reason);
    expect(game.result.winner).toBe(expected.outcome?.winner ?? null);
    const record = await request(run.url).get(`/api/v1/games/${game.id}/export`).set('Accept', 'text/plain');
    expect(record.status).toBe(200);
    expect(record.text.length).toBeGreaterThan(20);
  });

  it('plays a whole game over GraphQL while a subscriber sees every version in order', async () => {
    const { body } = await gql(
      run.url,
      `mutation ($kind: String!) { createGame(input: { kind: $kind }) {
        game { id status toMove version legalMoves } seatTokens { token } } }`,
      { kind },
    );
    const tokens: string[] = body.data!.createGame.seatTokens.map((t: { token: string }) => t.token);
    let game = body.data!.createGame.game;
    const client = wsClient(run.url);
    const feed = client.iterate<{ gameUpdated: { version: number; status: string } }>({
      query: 'subscription ($id: ID!) { gameUpdated(id: $id) { version status } }',
      variables: { id: game.id },
    });
    const seen: number[] = [];
    seen.push((await feed.next()).value.data!.gameUpdated.version);
    const pick = chooser(kind.length * 17 + 3);
    let plies = 0;
    while (game.status === 'ongoing' && plies < MAX_PLIES) {
      const res = await gql(
        run.url,
        `mutation ($id: ID!, $move: String!) { submitMove(id: $id, move: $move) {
          status toMove version legalMoves } }`,
        { id: game.id, move: pick(game.legalMoves) },
        { authorization: `Bearer ${tokens[game.toMove]}` },
      );
      expect(res.body.errors).toBeUndefined();
      game = { ...game, ...res.body.data!.submitMove };
      plies++;
    }
    expect(game.status).toBe('finished');
    while (seen.length < plies + 1) seen.push((await feed.next()).value.data!.gameUpdated.version);
    await feed.return?.();
    await client.dispose();
    expect(seen).toEqual(Array.from({ length: plies + 1 }, (_, i) => i));
  });
});

describe('draughts through the API', () => {
  it('exports PDN over REST (Accept: application/x-draughts-pdn) and GraphQL', async () => {
    const created = await request(run.url)
      .post('/api/v1/games')
      .send({ kind: 'russian-draughts' })
      .expect(201);
    const { id } = created.body.game;
    await request(run.url)
      .post(`/api/v1/games/${id}/moves`)
      .set('Authorization', `Bearer ${created.body.seatTokens[0].token}`)
      .send({ move: 'c3-d4' })
      .expect(200);
    const pdn = await request(run.url)
      .get(`/api/v1/games/${id}/export`)
      .set('Accept', 'application/x-draughts-pdn');
    expect(pdn.status).toBe(200);
    expect(pdn.headers['content-type']).toMatch(/^application\/x-draughts-pdn/);
    expect(pdn.text).toContain('[GameType "25"]');
    expect(pdn.text).toMatch(/1\. c3-d4/);
    const viaGraphQL = await gql(run.url, 'query ($id: ID!) { exportGame(id: $id) }', { id });
    expect(viaGraphQL.body.data!.exportGame).toBe(pdn.text);
  });

  it('answers a from–to capture that matches several sequences with AMBIGUOUS_MOVE and its candidates', async () => {
    // A white man on h4 reaches f2 two ways: over f6, crowned on d8, round by b6; or over f6 and d4.
    const position = 'W:Wh4:Be3,e5,g5,d6,a7,c7,e7';
    const shorthand = 'h4:f2';
    const engine = getEngine('russian-draughts')!;
    const state = engine.parseState(position);
    if (!state.ok) throw new Error(state.error.message);
    const expected = engine.parseMove(state.value, shorthand);
    if (expected.ok || expected.error.code !== 'AMBIGUOUS_MOVE')
      throw new Error('the fixture is no longer ambiguous');
    const created = await request(run.url)
      .post('/api/v1/games')
      .send({ kind: 'russian-draughts', position })
      .expect(201);
    const token: string = created.body.seatTokens[0].token;
    const game = created.body.game;
    const res = await request(run.url)
      .post(`/api/v1/games/${game.id}/moves`)
      .set('Authorization', `Bearer ${token}`)
      .send({ move: shorthand });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('AMBIGUOUS_MOVE');
    expect([...res.body.candidates].sort()).toEqual([...(expected.error.candidates ?? [])].sort());
    expect(res.body.candidates.length).toBeGreaterThan(1);
    const after = (await request(run.url).get(`/api/v1/games/${game.id}`)).body;
    expect(after.version).toBe(game.version);
  });
});
