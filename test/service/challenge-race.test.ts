// Accept and cancel of one challenge, fired together from two server nodes on one Redis: exactly one
// wins, every time, and the loser is told why (CHALLENGE_CLOSED with the winner's status).
import { GameError } from '../../src/service/errors';
import { signUp } from '../support/accounts';
import { appHarness } from '../support/app';
import { uniquePrefix } from '../support/redis';

const harness = appHarness();
afterAll(() => harness.stopAll());

describe.each(['redis', 'memory'] as const)('accept racing cancel (%s)', (store) => {
  it('has exactly one winner in each of 100 races, and a game only when accept won', async () => {
    const prefix = uniquePrefix('race');
    const nodeA = await harness.start(store, prefix);
    // Memory storage lives in one process: the second "node" is the same app there.
    const nodeB = store === 'redis' ? await harness.start(store, prefix) : nodeA;
    const alice = await signUp(nodeA.app, 'alice');
    const bob = await signUp(nodeA.app, 'bob');
    const tally = { accepted: 0, canceled: 0 };
    for (let round = 0; round < 100; round++) {
      const challenge = await nodeA.app.services.challenges.create(
        { token: alice.token },
        { to: bob.username, kind: 'kalah' },
      );
      const [accept, cancel] = await Promise.allSettled([
        nodeB.app.services.challenges.accept({ token: bob.token }, challenge.id),
        nodeA.app.services.challenges.cancel({ token: alice.token }, challenge.id),
      ]);
      const winners = [accept, cancel].filter((r) => r.status === 'fulfilled');
      expect(winners).toHaveLength(1);
      const loser = [accept, cancel].find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(loser.reason).toBeInstanceOf(GameError);
      expect((loser.reason as GameError).code).toBe('CHALLENGE_CLOSED');
      const stored = await nodeA.app.services.challenges.get(challenge.id);
      if (accept.status === 'fulfilled') {
        tally.accepted++;
        expect(stored.status).toBe('accepted');
        expect((loser.reason as GameError).details.challengeStatus).toBe('accepted');
        const game = await nodeA.app.service.getGame(stored.gameId as string);
        expect(game.seats.map((s) => s.account).sort()).toEqual([alice.id, bob.id].sort());
      } else {
        tally.canceled++;
        expect(stored.status).toBe('canceled');
        expect(stored.gameId).toBeNull();
        expect((loser.reason as GameError).details.challengeStatus).toBe('canceled');
      }
    }
    expect(tally.accepted + tally.canceled).toBe(100);
    // Each game created belongs to an accepted challenge: bob has exactly that many games.
    const games = await nodeA.app.service.listGames({ account: bob.username, limit: 100 });
    expect(games.items).toHaveLength(tally.accepted);
  }, 60_000);
});
