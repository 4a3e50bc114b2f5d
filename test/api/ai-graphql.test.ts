// The computer as an opponent over GraphQL, on both stores: challengeAi and createAiGame played to
// the end at level 1 by a client making legal moves; the AI's moves are ordinary moves of the game.
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, chooser, gql, type Running } from '../support/app';

const harness = appHarness();
afterAll(() => harness.stopAll());

const GAME = `query ($id: ID!) {
  game(id: $id) { id status version toMove legalMoves seats { account } moves { ply seat notation } }
}`;
const MOVE = `mutation ($id: ID!, $move: String!, $v: Int, $token: String) {
  submitMove(id: $id, move: $move, expectedVersion: $v, seatToken: $token) { version }
}`;

/** Plays `seat` until the game is over, reading the game between moves; returns the final game. */
async function playOut(run: Running, id: string, seat: number, auth: Record<string, string>, token?: string) {
  const pick = chooser(id.charCodeAt(0));
  for (;;) {
    const { body } = await gql(run.url, GAME, { id });
    const game = body.data!.game;
    if (game.status === 'finished') return game;
    if (game.toMove === seat) {
      const res = await gql(run.url, MOVE, { id, move: pick(game.legalMoves), v: game.version, token }, auth);
      expect(res.body.errors).toBeUndefined();
    } else {
      // The AI's turn: it answers within its budget (the driver hears the move on the feed).
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

describe.each(['memory', 'redis'] as const)('playing the computer over GraphQL (%s)', (store) => {
  let run: Running;
  let human: TestAccount;
  beforeAll(async () => {
    run = await harness.start(store);
    human = await signUp(run.app, 'gql-vs-ai', 'human');
  });

  it.each(['kalah', 'russian-draughts'])(
    'plays a whole %s game with challengeAi at level 1',
    async (kind) => {
      const res = await gql(
        run.url,
        `mutation ($input: AiChallengeInput!) { challengeAi(input: $input) { id seats { account } toMove } }`,
        { input: { kind, level: 1, color: '1' } },
        human.auth,
      );
      expect(res.body.errors).toBeUndefined();
      const game = res.body.data!.challengeAi;
      expect(game.seats.map((s: any) => s.account)).toEqual(['ai-level-1', human.id]);
      const last = await playOut(run, game.id, 1, human.auth);
      expect(last.status).toBe('finished');
      const moves = last.moves as Array<{ ply: number; seat: number }>;
      expect(moves.map((m) => m.ply)).toEqual(moves.map((_, i) => i + 1));
      expect(moves[0]!.seat).toBe(0);
      expect(moves.some((m) => m.seat === 0)).toBe(true);
    },
  );

  it('plays a seat-token game against the computer with createAiGame', async () => {
    const res = await gql(
      run.url,
      `mutation ($input: AiChallengeInput!) {
        createAiGame(input: $input) { game { id seats { account } } seatTokens { seat token } }
      }`,
      { input: { kind: 'congkak', level: 2, color: 'south' } },
    );
    expect(res.body.errors).toBeUndefined();
    const { game, seatTokens } = res.body.data!.createAiGame;
    expect(seatTokens).toHaveLength(1);
    expect(game.seats[1].account).toBe('ai-level-2');
    const last = await playOut(run, game.id, 0, {}, seatTokens[0].token);
    expect(last.status).toBe('finished');
  });

  it('refuses a level out of range and an anonymous challengeAi with typed errors', async () => {
    const mutation = `mutation ($input: AiChallengeInput!) { challengeAi(input: $input) { id } }`;
    const bad = await gql(run.url, mutation, { input: { kind: 'kalah', level: 0 } }, human.auth);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
    const anonymous = await gql(run.url, mutation, { input: { kind: 'kalah', level: 1 } });
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
