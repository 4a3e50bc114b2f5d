import { GAME_KINDS, OUTCOME_REASONS } from '../../src/engines/types';
import { GAME_STATUSES, TIME_CONTROL_TYPES } from '../../src/store/store';
import { enumName } from '../../src/transport/graphql/enums';
import { appHarness, chooser, gql, wsClient, type Running } from '../support/app';
import { uniquePrefix } from '../support/redis';
import { referee } from '../support/referee';

const harness = appHarness();
afterAll(() => harness.stopAll());

const GAME_FIELDS = `id kind status ply version toMove position legalMoves
  result { winner reason score } moves { notation seat }
  board { __typename ... on MancalaBoard { houses stores } ... on GridBoard { files ranks pieces { square piece side } } }`;

/** 13 levels deep (each inline fragment counts one), over the default depth limit of 12. */
const DEEP_QUERY = `{ game(id: "AAAAAAAAAAAA") { ${'... on Game { '.repeat(12)}id${' }'.repeat(12)} } }`;

const CREATE = `mutation ($input: CreateGameInput!) {
  createGame(input: $input) { game { ${GAME_FIELDS} } seatTokens { seat name token } } }`;
const MOVE = `mutation ($id: ID!, $move: String!, $token: String, $v: Int, $key: String) {
  submitMove(id: $id, move: $move, seatToken: $token, expectedVersion: $v, idempotencyKey: $key) { ${GAME_FIELDS} } }`;

async function create(run: Running, input: Record<string, unknown>) {
  const { body } = await gql(run.url, CREATE, { input });
  expect(body.errors).toBeUndefined();
  const created = body.data!.createGame;
  return {
    game: created.game,
    tokens: created.seatTokens.map((t: { token: string }) => t.token) as string[],
  };
}

describe('GraphQL on Redis', () => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start('redis');
  });

  it('plays a whole Kalah game to the result the rules give', async () => {
    const created = await create(run, { kind: 'kalah', options: { seeds: 3 } });
    const tokens = created.tokens;
    let game = created.game;
    expect(game.board.__typename).toBe('MancalaBoard');
    const pick = chooser(1234);
    const played: string[] = [];
    while (game.status === 'ongoing') {
      const move = pick(game.legalMoves);
      const { body } = await gql(run.url, MOVE, {
        id: game.id,
        move,
        token: tokens[game.toMove],
        v: game.version,
      });
      expect(body.errors).toBeUndefined();
      played.push(move);
      game = body.data!.submitMove;
    }
    const expected = referee('kalah', { seeds: 3 }, played);
    expect(game.position).toBe(expected.position);
    expect(game.result).toEqual({
      winner: expected.outcome?.winner ?? null,
      // The OutcomeReason enum's name of the engine's reason (row-empty → row_empty).
      reason: enumName(expected.outcome?.reason ?? ''),
      score: expected.outcome?.score ?? null,
    });
  });

  it('takes the seat token from the Authorization header too', async () => {
    const { game, tokens } = await create(run, { kind: 'oware' });
    const { body } = await gql(
      run.url,
      MOVE,
      { id: game.id, move: '1' },
      { authorization: `Bearer ${tokens[0]}` },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.submitMove.ply).toBe(1);
  });

  it('answers errors with the same codes as REST and leaves the game unchanged', async () => {
    const { game, tokens } = await create(run, { kind: 'kalah' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ id: game.id, move: '3' }, 'UNAUTHENTICATED'],
      [{ id: game.id, move: '3', token: 'bhs_forged' }, 'FORBIDDEN'],
      [{ id: game.id, move: '3', token: tokens[1] }, 'NOT_YOUR_TURN'],
      [{ id: game.id, move: '9', token: tokens[0] }, 'ILLEGAL_MOVE'],
      [{ id: game.id, move: '3', token: tokens[0], v: 4 }, 'VERSION_CONFLICT'],
      [{ id: 'bad id', move: '3', token: tokens[0] }, 'INVALID_INPUT'],
      [{ id: 'AAAAAAAAAAAA', move: '3', token: tokens[0] }, 'GAME_NOT_FOUND'],
    ];
    for (const [variables, code] of cases) {
      const { body } = await gql(run.url, MOVE, variables);
      expect(body.errors?.[0]?.extensions?.code).toBe(code);
    }
    const unknownKind = await gql(run.url, CREATE, { input: { kind: 'go' } });
    expect(unknownKind.body.errors?.[0]?.extensions?.code).toBe('UNKNOWN_GAME_KIND');
    const badOptions = await gql(run.url, CREATE, { input: { kind: 'congkak', options: { houses: 12 } } });
    expect(badOptions.body.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
    const after = await gql(run.url, `query ($id: ID!) { game(id: $id) { ${GAME_FIELDS} } }`, {
      id: game.id,
    });
    expect(after.body.data!.game).toEqual(game);
  });

  it('ends a draughts game by draw agreement: offer, a declined offer, then offer and accept', async () => {
    const { game, tokens } = await create(run, { kind: 'russian-draughts' });
    const act = (mutation: string, seat: number) =>
      gql(
        run.url,
        `mutation ($id: ID!) { ${mutation}(id: $id) { status drawOffer result { winner reason } } }`,
        {
          id: game.id,
        },
        { authorization: `Bearer ${tokens[seat]}` },
      );
    expect((await act('offerDraw', 0)).body.data!.offerDraw).toMatchObject({
      status: 'ongoing',
      drawOffer: 0,
    });
    expect((await act('acceptDraw', 0)).body.errors?.[0]?.extensions?.code).toBe('NO_DRAW_OFFER');
    expect((await act('declineDraw', 1)).body.data!.declineDraw.drawOffer).toBeNull();
    await act('offerDraw', 1);
    const accepted = (await act('acceptDraw', 0)).body.data!.acceptDraw;
    expect(accepted).toEqual({
      status: 'finished',
      drawOffer: null,
      result: { winner: null, reason: 'agreement' },
    });
  });

  it('dry-runs a move with validateMove and lists legal moves', async () => {
    const { game } = await create(run, { kind: 'kalah' });
    const { body } = await gql(
      run.url,
      `query ($id: ID!) { legalMoves(id: $id) validateMove(id: $id, move: "3") { move position toMove status } }`,
      { id: game.id },
    );
    expect(body.data).toEqual({
      legalMoves: ['1', '2', '3', '4', '5', '6'],
      validateMove: { move: '3', position: '4,4,0,5,5,5/1/4,4,4,4,4,4/0 S', toMove: 0, status: 'ongoing' },
    });
  });

  it('rejects queries deeper than the limit', async () => {
    const { status, body } = await gql(run.url, DEEP_QUERY);
    expect(status).toBe(400);
    expect(body.errors?.[0]?.message).toMatch(/depth/i);
    expect(body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'depth' });
  });

  it('returns a repeated idempotency key’s first answer without a second move', async () => {
    const { game, tokens } = await create(run, { kind: 'kalah' });
    const vars = { id: game.id, move: '1', token: tokens[0], key: 'gql-key-1' };
    const first = await gql(run.url, MOVE, vars);
    const again = await gql(run.url, MOVE, vars);
    expect(again.body.data).toEqual(first.body.data);
    expect(first.body.data!.submitMove.moves).toHaveLength(1);
  });
});

describe('subscriptions across server instances', () => {
  it('delivers to a subscriber on instance A, in order, every move made through instance B', async () => {
    const prefix = uniquePrefix('cross');
    const a = await harness.start('redis', prefix);
    const b = await harness.start('redis', prefix);
    const { game, tokens } = await create(b, { kind: 'kalah' });
    const client = wsClient(a.url);
    const received: Array<{ version: number; moves: Array<{ notation: string }> }> = [];
    const subscription = client.iterate<{ gameUpdated: any }>({
      query: `subscription ($id: ID!) { gameUpdated(id: $id) { version status moves { notation } } }`,
      variables: { id: game.id },
    });
    // The first event is the game as it is now: the subscription is live from here on.
    const first = await subscription.next();
    received.push(first.value.data.gameUpdated);
    const pick = chooser(99);
    let current = game;
    const played: string[] = [];
    for (let i = 0; i < 8 && current.status === 'ongoing'; i++) {
      const move = pick(current.legalMoves);
      const { body } = await gql(b.url, MOVE, { id: game.id, move, token: tokens[current.toMove] });
      current = body.data!.submitMove;
      played.push(move);
    }
    while (received.length < played.length + 1) {
      const next = await subscription.next();
      received.push(next.value.data.gameUpdated);
    }
    await subscription.return?.();
    await client.dispose();
    expect(received.map((g) => g.version)).toEqual(Array.from({ length: played.length + 1 }, (_, i) => i));
    expect(received[received.length - 1]?.moves.map((m) => m.notation)).toEqual(played);
  });

  it('lets a subscriber follow a game by lastMove and moves(after:, limit:) instead of every move', async () => {
    const run = await harness.start('redis');
    const { game, tokens } = await create(run, { kind: 'kalah' });
    const client = wsClient(run.url);
    const subscription = client.iterate<{ gameUpdated: any }>({
      query: `subscription ($id: ID!) { gameUpdated(id: $id) {
        version ply lastMove { ply notation seat detail { __typename } } later: moves(after: 1, limit: 2) { ply } } }`,
      variables: { id: game.id },
    });
    const received = [(await subscription.next()).value.data.gameUpdated];
    const pick = chooser(7);
    let current = game;
    const played: string[] = [];
    for (let i = 0; i < 4 && current.status === 'ongoing'; i++) {
      const move = pick(current.legalMoves);
      const { body } = await gql(run.url, MOVE, { id: game.id, move, token: tokens[current.toMove] });
      current = body.data!.submitMove;
      played.push(move);
    }
    while (received.length < played.length + 1)
      received.push((await subscription.next()).value.data.gameUpdated);
    await subscription.return?.();
    await client.dispose();
    expect(received[0]).toEqual({ version: 0, ply: 0, lastMove: null, later: [] });
    for (const [version, update] of received.slice(1).entries()) {
      const ply = version + 1;
      expect(update).toMatchObject({ version: ply, ply, lastMove: { ply, notation: played[version] } });
      expect(update.lastMove.detail.__typename).toBe('MancalaMoveDetails');
      expect(update.later.map((m: { ply: number }) => m.ply)).toEqual([2, 3].filter((p) => p <= ply));
    }
    // The same arguments on a query; a page size out of range is INVALID_INPUT.
    const { body } = await gql(
      run.url,
      'query ($id: ID!) { game(id: $id) { lastMove { ply } moves(after: 2, limit: 1) { ply notation } } }',
      { id: game.id },
    );
    expect(body.data!.game).toEqual({
      lastMove: { ply: played.length },
      moves: [{ ply: 3, notation: played[2] }],
    });
    const bad = await gql(run.url, 'query ($id: ID!) { game(id: $id) { moves(limit: 0) { ply } } }', {
      id: game.id,
    });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
  });

  it('answers a subscription to an unknown game with GAME_NOT_FOUND', async () => {
    const run = await harness.start('redis');
    const client = wsClient(run.url);
    const subscription = client.iterate({
      query: 'subscription { gameUpdated(id: "AAAAAAAAAAAA") { version } }',
    });
    const first = await subscription.next();
    await client.dispose();
    expect((first.value as any).errors?.[0]?.extensions?.code).toBe('GAME_NOT_FOUND');
  });

  it('applies the depth limit to subscriptions over WebSocket too', async () => {
    const run = await harness.start('memory', undefined, { maxDepth: 3, maxCost: 1000 });
    const client = wsClient(run.url);
    const subscription = client.iterate({
      query:
        'subscription { gameUpdated(id: "AAAAAAAAAAAA") { board { ... on GridBoard { zones { squares } } } } }',
    });
    const errors = await subscription.next().then(
      () => [],
      (e: unknown) => e as Array<{ message: string }>,
    );
    expect(errors[0]?.message).toMatch(/depth/i);
    await client.dispose();
  });
});

describe('GraphQL enums and typed move details', () => {
  let run: Running;
  beforeAll(async () => {
    run = await harness.start('memory');
  });

  it('makes each enum from the one list in the code', async () => {
    const values = async (name: string) => {
      const { body } = await gql(run.url, `{ __type(name: "${name}") { kind enumValues { name } } }`);
      expect(body.data!.__type.kind).toBe('ENUM');
      return body.data!.__type.enumValues.map((v: { name: string }) => v.name);
    };
    expect(await values('GameKind')).toEqual(GAME_KINDS.map(enumName));
    expect(await values('GameStatus')).toEqual([...GAME_STATUSES]);
    expect(await values('OutcomeReason')).toEqual(OUTCOME_REASONS.map(enumName));
    expect(await values('TimeControlType')).toEqual([...TIME_CONTROL_TYPES]);
    expect(GAME_KINDS.map(enumName)).toContain('russian_draughts');
  });

  it('answers kind as an enum and takes a kind as the value or as the enum name', async () => {
    for (const kind of ['russian-draughts', 'russian_draughts']) {
      const { body } = await gql(
        run.url,
        'mutation ($kind: String!) { createGame(input: { kind: $kind }) { game { kind status timeControl { type } } } }',
        { kind },
      );
      expect(body.errors).toBeUndefined();
      expect(body.data!.createGame.game).toEqual({
        kind: 'russian_draughts',
        status: 'ongoing',
        timeControl: { type: 'unlimited' },
      });
    }
    const { body } = await gql(run.url, '{ games(kind: "russian_draughts", limit: 1) { items { kind } } }');
    expect(body.data!.games.items).toEqual([{ kind: 'russian_draughts' }]);
  });

  it('types move details per game family (draughts, Congo, mancala), for moves and move checks', async () => {
    const DETAIL = `detail {
      __typename
      ... on DraughtsMoveDetails { family captured promoted path }
      ... on CongoMoveDetails { family captured drowned promoted }
      ... on MancalaMoveDetails { family legal house trace relays capturedFrom seedsCaptured extraMove gameOver }
    }`;
    const play = async (kind: string, moves: string[]) => {
      const created = await run.app.services.games.createGame({ kind });
      for (const [i, move] of moves.entries()) {
        await run.app.services.games.submitMove(created.game.id, move, {
          credential: { token: created.seatTokens[i % 2]!.token },
        });
      }
      return created.game.id;
    };
    const movesOf = async (id: string) => {
      const { body } = await gql(
        run.url,
        // A page: every move (no limit) is costed as the longest game, 1000 moves (104,252 here).
        `query ($id: ID!) { game(id: $id) { moves(limit: 100) { details ${DETAIL} } } }`,
        {
          id,
        },
      );
      expect(body.errors).toBeUndefined();
      return body.data!.game.moves as Array<{
        details: Record<string, unknown>;
        detail: Record<string, unknown>;
      }>;
    };

    // Draughts: white c3-d4, black f6-e5, white d4xf6 takes e5.
    const draughts = await movesOf(await play('russian-draughts', ['c3-d4', 'f6-e5', 'd4xf6']));
    expect(draughts[2]?.detail).toEqual({
      __typename: 'DraughtsMoveDetails',
      family: 'draughts',
      captured: ['e5'],
      promoted: false,
      path: ['d4', 'f6'],
    });
    // Kalah: house 3 of 4 seeds ends in the store: the mover moves again.
    const kalah = await movesOf(await play('kalah', ['3']));
    expect(kalah[0]?.detail).toMatchObject({
      __typename: 'MancalaMoveDetails',
      family: 'mancala',
      legal: true,
      house: 3,
      seedsCaptured: 0,
      extraMove: true,
      gameOver: false,
    });
    expect(kalah[0]?.detail.trace).toEqual(kalah[0]?.details.trace);
    // Congo: any first move, described with the same facts as the untyped details.
    const congoGame = await run.app.services.games.createGame({ kind: 'congo' });
    const congoMove = congoGame.game.legalMoves[0] as string;
    const congo = await movesOf(await play('congo', [congoMove]));
    expect(congo[0]?.detail).toEqual({ __typename: 'CongoMoveDetails', ...congo[0]?.details });

    // validateMove carries the same union.
    const oware = await run.app.services.games.createGame({ kind: 'oware' });
    const check = await gql(run.url, `query ($id: ID!) { validateMove(id: $id, move: "3") { ${DETAIL} } }`, {
      id: oware.game.id,
    });
    expect(check.body.errors).toBeUndefined();
    expect(check.body.data!.validateMove.detail).toMatchObject({
      __typename: 'MancalaMoveDetails',
      family: 'mancala',
      house: 3,
    });
  });
});
