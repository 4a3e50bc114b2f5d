// Ratings over GraphQL: a rated challenge, its game's seat ratings, and after the game the
// account's ratings, history and the leaderboard; refusals with their codes.
import { signUp } from '../support/accounts';
import { appHarness, gql } from '../support/app';

const harness = appHarness();
afterAll(() => harness.stopAll());

describe.each(['memory', 'redis'] as const)('GraphQL ratings (%s)', (store) => {
  it('plays a rated game and reads the ratings, history and leaderboard', async () => {
    const node = await harness.start(store);
    const alice = await signUp(node.app, 'alice', 'human');
    const bob = await signUp(node.app, 'bob', 'human');
    const created = await gql(
      node.url,
      'mutation($input: CreateChallengeInput!) { createChallenge(input: $input) { id rated } }',
      { input: { to: bob.username, kind: 'oware', rated: true, starts: 'challenger' } },
      alice.auth,
    );
    expect(created.body.data?.createChallenge.rated).toBe(true);
    const accepted = await gql(
      node.url,
      'mutation($id: ID!) { acceptChallenge(id: $id) { gameId } }',
      { id: created.body.data?.createChallenge.id },
      bob.auth,
    );
    const gameId = accepted.body.data?.acceptChallenge.gameId as string;
    const game = await gql(
      node.url,
      'query($id: ID!) { game(id: $id) { rated seats { rating provisional } } }',
      {
        id: gameId,
      },
    );
    expect(game.body.data?.game).toEqual({
      rated: true,
      seats: [
        { rating: 1500, provisional: true },
        { rating: 1500, provisional: true },
      ],
    });
    await node.app.services.writer.apply(gameId, { type: 'resign' }, { credential: { token: bob.token } });
    const read = await gql(
      node.url,
      `query($u: String!) { account(username: $u) {
         ratings { kind speed rating provisional games }
         ratingHistory(kind: "oware", speed: "correspondence", first: 5) { items { game rating } next }
       }
       leaderboard(kind: "oware", speed: "correspondence", category: "human", first: 5) { items { username } next } }`,
      { u: alice.username },
    );
    expect(read.body.errors).toBeUndefined();
    const account = read.body.data?.account;
    expect(account.ratings).toEqual([
      { kind: 'oware', speed: 'correspondence', rating: expect.any(Number), provisional: true, games: 1 },
    ]);
    expect(account.ratings[0].rating).toBeGreaterThan(1500);
    expect(account.ratingHistory).toEqual({
      items: [{ game: gameId, rating: account.ratings[0].rating }],
      next: null,
    });
    expect(read.body.data?.leaderboard).toEqual({ items: [], next: null });
    const refused = await gql(
      node.url,
      'mutation { challengeAi(input: { kind: "kalah", level: 1, rated: true }) { id } }',
      {},
      alice.auth,
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('RATED_NOT_ALLOWED');
    const badSpeed = await gql(node.url, '{ leaderboard(kind: "oware", speed: "blitz") { next } }');
    expect(badSpeed.body.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
  });
});
