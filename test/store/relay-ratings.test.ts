// A rated game's ending through the outbox relay when a node dies midway: its entry stays in the
// outbox until every part of it (the account's listings and feed, then its rating) went through,
// so the next sweep finishes the job, and the rating still changes exactly once.
import { connectRedis, redisStorage, type RedisGameStore } from '../../src/store/redis';
import { rank } from '../../src/store/redis/ratings/scripts';
import { defineScripts } from '../../src/store/redis/script';
import { SCRIPTS } from '../../src/store/redis/scripts';
import { OutboxRelay } from '../../src/store/redis/relay/relay';
import { Keys } from '../../src/store/redis/keys';
import type { RatingResult, Storage, StoredGame } from '../../src/store/store';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';
import { gameOf, uid } from './store-contract';
import { updateGame } from '../support/update-game';

const prefixes: string[] = [];
afterAll(() => Promise.all(prefixes.map((p) => deletePrefix(p))));

it('applies the rating of a part relayed before a crash on the next sweep, once', async () => {
  const prefix = uniquePrefix('relayrate');
  prefixes.push(prefix);
  const data = await connectRedis(REDIS_URL);
  const subscriber = await connectRedis(REDIS_URL);
  // A node that relays nothing of its own: the sweeps below stand for the other nodes.
  const storage: Storage = redisStorage(data, subscriber, prefix, { relayOwnWrites: false });
  const relay = (storage.games as RedisGameStore).relay;
  try {
    const [ann, bob] = [uid('ann'), uid('bob')];
    const game = gameOf([ann, bob], { rated: true });
    await storage.games.create(game);
    await relay.sweep();
    const ended: StoredGame = {
      ...game,
      version: 1,
      status: 'finished',
      outcome: { winner: 0, reason: 'resignation' },
      toMove: null,
      legalMoves: [],
      updatedAt: new Date().toISOString(),
    };
    const result = (account: string, score: number): RatingResult => ({
      account,
      name: account,
      category: 'human',
      game: game.id,
      perf: 'kalah.correspondence',
      score,
      opponent: { rating: 1500, rd: 500, volatility: 0.09 },
      at: ended.updatedAt,
    });
    expect(
      await updateGame(storage.games, ended, 0, undefined, [], [result(ann, 1), result(bob, 0)]),
    ).toEqual({
      status: 'updated',
    });
    // A relay that got as far as ann's part and died before her rating: the cursor did not move.
    const dying = new OutboxRelay(data, new Keys(prefix), { publish: 'PUBLISH' });
    const parts = JSON.stringify({ epoch: 'x', notices: [] });
    expect(await dying.applyPart(`g:${game.id}`, 2, 1, ann, parts, '[]')).toBe('applied');
    expect(await storage.ratings.get(ann)).toEqual({});
    // The sweeps of the others: ann's part comes again (a duplicate), and her rating counts once.
    await Promise.all([relay.sweep(), relay.sweep()]);
    await relay.sweep();
    const [annRating, bobRating] = [
      (await storage.ratings.get(ann))['kalah.correspondence'],
      (await storage.ratings.get(bob))['kalah.correspondence'],
    ];
    expect(annRating).toMatchObject({ games: 1, version: 1 });
    expect(bobRating).toMatchObject({ games: 1, version: 1 });
    expect(Math.round(annRating?.rating ?? 0)).toBe(1741);
    expect(Math.round(bobRating?.rating ?? 0)).toBe(1259);
    const feed = await storage.feed.read(ann, 0, 100);
    expect(feed.events.filter((e) => e.type === 'rating.updated')).toHaveLength(1);
  } finally {
    await storage.games.close();
    await storage.events.close();
  }
});

it('never lets a late leaderboard write of an older rating overwrite a newer one', async () => {
  const prefix = uniquePrefix('board');
  prefixes.push(prefix);
  const data = await connectRedis(REDIS_URL);
  defineScripts(data, SCRIPTS);
  try {
    const [board, entries] = new Keys(prefix).leaderboard('kalah.realtime', 'human');
    const entry = (v: number, rating: number) =>
      JSON.stringify({ v, account: 'ann', name: 'Ann', rating, rd: 60 });
    const put = (version: number, ranked: '0' | '1', rating: number) =>
      rank.run(
        data,
        { board, entries },
        { account: 'ann', version, ranked, rating, entry: entry(version, rating) },
      );
    expect(await put(7, '1', 1700)).toBe(1);
    // Version 6 arrives late (its relay was slower): refused, the board keeps version 7.
    expect(await put(6, '1', 1650)).toBe(0);
    expect(await data.zscore(board, 'ann')).toBe('1700');
    // Version 8 made the rating provisional again: off the board.
    expect(await put(8, '0', 1600)).toBe(1);
    expect(await data.zscore(board, 'ann')).toBeNull();
  } finally {
    data.disconnect();
  }
});
