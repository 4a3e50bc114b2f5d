// A rated game finished from two server nodes at once (both players resign, or one resigns from
// both): one ending write wins, and each player's rating changes exactly once, whoever relays the
// ending and however often. On memory the "second node" is the same app (one process).
import { GameError } from '../../src/service/errors';
import { ratingAt } from '../../src/service/ratings/results';
import { initialRating, nextRating, type RatingResult, type Storage } from '../../src/store/store';
import type { RedisGameStore } from '../../src/store/redis';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, type Running } from '../support/app';
import { uniquePrefix } from '../support/redis';

const harness = appHarness();
afterAll(() => harness.stopAll());

const PERF = 'kalah.correspondence';

async function ratedGame(node: Running, alice: TestAccount, bob: TestAccount): Promise<string> {
  const challenge = await node.app.services.challenges.create(
    { token: alice.token },
    { to: bob.username, kind: 'kalah', rated: true, starts: 'challenger' },
  );
  const accepted = await node.app.services.challenges.accept({ token: bob.token }, challenge.id);
  return accepted.gameId as string;
}

async function ratingOf(storage: Storage, account: string) {
  return (await storage.ratings.get(account))[PERF];
}

describe.each(['redis', 'memory'] as const)('a rated game ended from two nodes at once (%s)', (store) => {
  it('changes each rating exactly once per game, in 12 races', async () => {
    const prefix = uniquePrefix('rated');
    const nodeA = await harness.start(store, prefix);
    const nodeB = store === 'redis' ? await harness.start(store, prefix) : nodeA;
    const alice = await signUp(nodeA.app, 'alice', 'human');
    const bob = await signUp(nodeA.app, 'bob', 'human');
    let expected = { alice: initialRating('human'), bob: initialRating('human') };
    for (let round = 0; round < 12; round++) {
      const id = await ratedGame(nodeA, alice, bob);
      const game = await nodeA.app.service.getGame(id);
      expect(game.rated).toBe(true);
      // Each seat's rating when the game began: what the store held then, rounded.
      expect(game.seats.map((s) => [s.account, s.rating, s.provisional])).toEqual([
        [alice.id, Math.round(expected.alice.rating), true],
        [bob.id, Math.round(expected.bob.rating), true],
      ]);
      // Even rounds: both resign, one from each node; odd rounds: alice resigns from both nodes.
      const resigners = round % 2 === 0 ? [alice, bob] : [alice, alice];
      const answers = await Promise.allSettled([
        nodeA.app.services.writer.apply(
          id,
          { type: 'resign' },
          { credential: { token: (resigners[0] as TestAccount).token } },
        ),
        nodeB.app.services.writer.apply(
          id,
          { type: 'resign' },
          { credential: { token: (resigners[1] as TestAccount).token } },
        ),
      ]);
      const won = answers.filter((a) => a.status === 'fulfilled');
      expect(won).toHaveLength(1);
      const lost = answers.find((a) => a.status === 'rejected') as PromiseRejectedResult;
      expect((lost.reason as GameError).code).toBe('GAME_OVER');
      const ended = await nodeA.app.service.getGame(id);
      const aliceWon = ended.result?.winner === 0;
      // The result as the relay sees it: the opponent's rating when the game ended (no time passed).
      const at = ended.updatedAt;
      const aliceResult = { score: aliceWon ? 1 : 0, opponent: ratingAt(expected.bob, 'human', at), at };
      const bobResult = { score: aliceWon ? 0 : 1, opponent: ratingAt(expected.alice, 'human', at), at };
      expected = {
        alice: nextRating(expected.alice, aliceResult as unknown as RatingResult),
        bob: nextRating(expected.bob, bobResult as unknown as RatingResult),
      };
      // Both nodes' relays (each relays its own write; the loser wrote nothing) have run by now on
      // the winner's node; a sweep from the other node finds nothing left to count.
      if (store === 'redis') await (nodeB.storage.games as RedisGameStore).relay.sweep();
      expect(await ratingOf(nodeB.storage, alice.id)).toEqual(expected.alice);
      expect(await ratingOf(nodeA.storage, bob.id)).toEqual(expected.bob);
    }
    expect((await ratingOf(nodeA.storage, alice.id))?.games).toBe(12);
    const history = await nodeA.storage.ratings.history(bob.id, PERF, 100);
    expect(history.items).toHaveLength(12);
    const feed = await nodeA.storage.feed.read(alice.id, 0, 1000);
    expect(feed.events.filter((e) => e.type === 'rating.updated')).toHaveLength(12);
  }, 120_000);
});

describe('the relay applying a rated ending again (redis)', () => {
  it('counts the game once when the rating was applied and the account part is relayed again', async () => {
    const prefix = uniquePrefix('rated');
    const node = await harness.start('redis', prefix);
    const alice = await signUp(node.app, 'alice', 'human');
    const bob = await signUp(node.app, 'bob', 'human');
    const id = await ratedGame(node, alice, bob);
    await node.app.services.writer.apply(id, { type: 'resign' }, { credential: { token: bob.token } });
    const before = await ratingOf(node.storage, alice.id);
    expect(before?.games).toBe(1);
    expect(before?.rating).toBeGreaterThan(1500);
    const ended = await node.storage.games.get(id);
    const result: RatingResult = {
      account: alice.id,
      name: alice.username,
      category: 'human',
      game: id,
      perf: PERF,
      score: 1,
      opponent: { rating: 1500, rd: 500, volatility: 0.09 },
      at: ended?.updatedAt ?? '',
    };
    // What a relay re-sends when it died before the outbox cursor moved past the entry: the same
    // entry (the game's version) with its 'rate' operation, refused as a duplicate part.
    const relay = (node.storage.games as RedisGameStore).relay;
    const ops = JSON.stringify([['rate', result]]);
    const notices = JSON.stringify({ epoch: 'x', notices: [] });
    const version = (ended?.version ?? 0) + 1;
    expect(await relay.applyPart(`g:${id}`, version, '', alice.id, notices, ops)).toBe('dup');
    // A newer entry of the same game (a relay racing another) still does not count it again.
    expect(await relay.applyPart(`g:${id}`, version + 1, '', alice.id, notices, ops)).toBe('applied');
    expect(await ratingOf(node.storage, alice.id)).toEqual(before);
    expect(await node.storage.ratings.record(result)).toBeNull();
    expect(await ratingOf(node.storage, alice.id)).toEqual(before);
  });
});

describe.each(['redis', 'memory'] as const)('what is rated (%s)', (store) => {
  it('refuses rated games from a position and against the AI, and leaves aborted games unrated', async () => {
    const node = await harness.start(store, uniquePrefix('rated'));
    const alice = await signUp(node.app, 'alice', 'human');
    const bob = await signUp(node.app, 'bob', 'human');
    const refused = (promise: Promise<unknown>) =>
      promise.then(
        () => 'accepted',
        (error: GameError) => error.code,
      );
    expect(
      await refused(
        node.app.services.challenges.create(
          { token: alice.token },
          { to: bob.username, kind: 'kalah', rated: true, position: '4,4,4,4,4,4/0/4,4,4,4,4,4/0 S' },
        ),
      ),
    ).toBe('RATED_NOT_ALLOWED');
    expect(
      await refused(
        node.app.services.ai.challenge({ token: alice.token }, { kind: 'kalah', level: 1, rated: true }),
      ),
    ).toBe('RATED_NOT_ALLOWED');
    expect(
      await refused(
        node.app.services.seeks.createSeek({ token: alice.token }, { kind: 'kalah', rated: 'yes' as never }),
      ),
    ).toBe('INVALID_INPUT');
    const id = await ratedGame(node, alice, bob);
    await node.app.services.writer.apply(id, { type: 'abort' }, { credential: { token: alice.token } });
    expect(await node.storage.ratings.get(alice.id)).toEqual({});
    expect(await node.storage.ratings.get(bob.id)).toEqual({});
  });

  it('counts an agreed draw as ½ for both', async () => {
    const node = await harness.start(store, uniquePrefix('rated'));
    const alice = await signUp(node.app, 'alice', 'human');
    const bob = await signUp(node.app, 'bob', 'human');
    const id = await ratedGame(node, alice, bob);
    await node.app.services.writer.apply(id, { type: 'draw.offer' }, { credential: { token: alice.token } });
    await node.app.services.writer.apply(id, { type: 'draw.offer' }, { credential: { token: bob.token } });
    expect((await node.app.service.getGame(id)).result).toMatchObject({ winner: null, reason: 'agreement' });
    for (const who of [alice, bob]) {
      const rating = await ratingOf(node.storage, who.id);
      // Equal ratings, score ½ = E: the rating stays, the RD shrinks (396.69 as in the glicko2 test).
      expect(rating?.games).toBe(1);
      expect(rating?.rating).toBeCloseTo(1500, 6);
      expect(rating?.rd).toBeCloseTo(396.69, 2);
    }
  });

  it('pairs rated seeks with rated seeks only', async () => {
    const node = await harness.start(store, uniquePrefix('rated'));
    const [alice, bob, cyd] = await Promise.all(
      ['alice', 'bob', 'cyd'].map((label) => signUp(node.app, label, 'human')),
    );
    const seek = (who: TestAccount, rated: boolean) =>
      node.app.services.seeks.createSeek({ token: who.token }, { kind: 'oware', rated });
    expect((await seek(alice as TestAccount, true)).status).toBe('waiting');
    expect((await seek(bob as TestAccount, false)).status).toBe('waiting');
    const matched = await seek(cyd as TestAccount, true);
    expect(matched.status).toBe('matched');
    expect(matched.rated).toBe(true);
    expect(matched.game?.rated).toBe(true);
    expect(matched.game?.seats.map((s) => s.account).sort()).toEqual([alice?.id, cyd?.id].sort());
    expect(matched.game?.seats.map((s) => s.rating)).toEqual([1500, 1500]);
  });
});
