// The RatingStore's part of the store contract (run by describeStoreContract on memory, Redis and
// a Redis Cluster): a result counts once per account and game, however often and from however
// many callers it is applied; histories page newest first; leaderboards hold settled ratings only.
import {
  initialRating,
  nextRating,
  type AccountKind,
  type RatingResult,
  type Storage,
} from '../../src/store/store';
import { gameOf } from './store-contract';
import { updateGame } from '../support/update-game';

let games = 0;

export function ratingResult(account: string, overrides: Partial<RatingResult> = {}): RatingResult {
  games++;
  return {
    account,
    name: account.toUpperCase(),
    category: 'human',
    game: `rated${games}x${Math.random().toString(36).slice(2, 8)}`,
    perf: 'kalah.realtime',
    score: 1,
    opponent: { rating: 1500, rd: 45, volatility: 0.06 },
    at: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    ...overrides,
  };
}

let accounts = 0;
const fresh = (label: string) => `${label}${++accounts}r${Math.random().toString(36).slice(2, 8)}`;

/** Enough results against a settled opponent to bring a new rating's RD under 110 (not provisional). */
async function settle(storage: Storage, account: string, perf: string, category: AccountKind, score = 1) {
  for (let i = 0; i < 16; i++) {
    await storage.ratings.record(ratingResult(account, { perf, category, score: i % 2 === 0 ? score : 0.5 }));
  }
}

export function describeRatingContract(store: () => Storage): void {
  describe('ratings', () => {
    it('starts humans at 1500 and bots at 2000, and applies a result with Glicko-2', async () => {
      const storage = store();
      const [ann, bot] = [fresh('ann'), fresh('bot')];
      expect(await storage.ratings.get(ann)).toEqual({});
      const result = ratingResult(ann);
      const update = await storage.ratings.record(result);
      expect(update?.before).toEqual(initialRating('human'));
      expect(update?.after).toEqual(nextRating(initialRating('human'), result));
      expect(update?.after.rating).toBeGreaterThan(1500);
      expect(await storage.ratings.get(ann)).toEqual({ 'kalah.realtime': update?.after });
      const botUpdate = await storage.ratings.record(ratingResult(bot, { category: 'bot', score: 0 }));
      expect(botUpdate?.before.rating).toBe(2000);
      expect(botUpdate?.after.rating).toBeLessThan(2000);
      const feed = await storage.feed.read(ann, 0, 10);
      expect(feed.events.map((e) => [e.type, e.data])).toEqual([
        [
          'rating.updated',
          {
            game: result.game,
            perf: 'kalah.realtime',
            before: 1500,
            after: Math.round(update?.after.rating ?? 0),
            provisional: true,
          },
        ],
      ]);
    });

    it('counts a game once per account, applied again or by racing callers', async () => {
      const storage = store();
      const ann = fresh('ann');
      const result = ratingResult(ann);
      const answers = await Promise.all(Array.from({ length: 6 }, () => storage.ratings.record(result)));
      expect(answers.filter((a) => a !== null)).toHaveLength(1);
      expect(await storage.ratings.record(result)).toBeNull();
      const rating = (await storage.ratings.get(ann))['kalah.realtime'];
      expect(rating).toMatchObject({ games: 1, version: 1 });
      expect(rating).toEqual(nextRating(initialRating('human'), result));
      expect((await storage.ratings.history(ann, 'kalah.realtime', 10)).items).toHaveLength(1);
      expect((await storage.feed.read(ann, 0, 10)).events).toHaveLength(1);
    });

    it('applies different games racing on one rating each once (compare-and-set)', async () => {
      const storage = store();
      const ann = fresh('ann');
      await Promise.all(
        Array.from({ length: 5 }, (_, i) => storage.ratings.record(ratingResult(ann, { score: i % 2 }))),
      );
      expect((await storage.ratings.get(ann))['kalah.realtime']).toMatchObject({ games: 5, version: 5 });
      const history = await storage.ratings.history(ann, 'kalah.realtime', 10);
      expect(history.items.map((e) => e.n)).toEqual([5, 4, 3, 2, 1]);
    });

    it('keeps perfs apart and grows RD with the days since the last rated game', async () => {
      const storage = store();
      const ann = fresh('ann');
      const first = ratingResult(ann, { perf: 'oware.correspondence' });
      const a = await storage.ratings.record(first);
      const later = ratingResult(ann, { perf: 'oware.correspondence', at: '2026-12-01T00:00:00.000Z' });
      const b = await storage.ratings.record(later);
      expect(b?.before).toEqual(a?.after);
      expect(b?.after).toEqual(nextRating(a?.after ?? initialRating('human'), later));
      expect(Object.keys(await storage.ratings.get(ann))).toEqual(['oware.correspondence']);
    });

    it('pages a history newest first', async () => {
      const storage = store();
      const ann = fresh('ann');
      const played: string[] = [];
      for (let i = 0; i < 5; i++) {
        const result = ratingResult(ann, { perf: 'congo.realtime', score: i % 2 });
        played.push(result.game);
        await storage.ratings.record(result);
      }
      const first = await storage.ratings.history(ann, 'congo.realtime', 2);
      expect(first.items.map((e) => e.game)).toEqual([played[4], played[3]]);
      expect(first.next).toBe(4);
      const second = await storage.ratings.history(ann, 'congo.realtime', 2, first.next ?? undefined);
      expect(second.items.map((e) => e.game)).toEqual([played[2], played[1]]);
      const last = await storage.ratings.history(ann, 'congo.realtime', 2, second.next ?? undefined);
      expect(last.items.map((e) => e.game)).toEqual([played[0]]);
      expect(last.next).toBeNull();
      expect((await storage.ratings.history(fresh('nobody'), 'congo.realtime', 2)).items).toEqual([]);
    });

    it('ranks settled ratings only, best first, bots and humans apart, in pages', async () => {
      const storage = store();
      const perf = `${fresh('kind')}.realtime`;
      const [ann, bob, cyd, bot] = [fresh('ann'), fresh('bob'), fresh('cyd'), fresh('bot')];
      await storage.ratings.record(ratingResult(cyd, { perf }));
      expect((await storage.ratings.leaderboard(perf, 'human', 10)).items).toEqual([]); // provisional
      await settle(storage, ann, perf, 'human', 1);
      await settle(storage, bob, perf, 'human', 0);
      await settle(storage, bot, perf, 'bot', 1);
      const ratings = {
        ann: (await storage.ratings.get(ann))[perf],
        bob: (await storage.ratings.get(bob))[perf],
      };
      expect(ratings.ann?.rd).toBeLessThan(110);
      const board = await storage.ratings.leaderboard(perf, 'human', 10);
      expect(board.items).toEqual([
        { account: ann, name: ann.toUpperCase(), rating: ratings.ann?.rating, rd: ratings.ann?.rd },
        { account: bob, name: bob.toUpperCase(), rating: ratings.bob?.rating, rd: ratings.bob?.rd },
      ]);
      expect(board.next).toBeNull();
      const page = await storage.ratings.leaderboard(perf, 'human', 1);
      expect(page.items.map((e) => e.account)).toEqual([ann]);
      expect(page.next).toBe(1);
      const next = await storage.ratings.leaderboard(perf, 'human', 1, 1);
      expect(next.items.map((e) => e.account)).toEqual([bob]);
      expect(next.next).toBeNull();
      expect((await storage.ratings.leaderboard(perf, 'bot', 10)).items.map((e) => e.account)).toEqual([bot]);
    });

    it('keeps a leaderboard per pool: the open pool’s where it always was, an island’s apart', async () => {
      const storage = store();
      const perf = `${fresh('kind')}.realtime`;
      const [ann, isa] = [fresh('ann'), fresh('isa')];
      await settle(storage, ann, perf, 'human', 1);
      for (let i = 0; i < 16; i++) {
        await storage.ratings.record(
          ratingResult(isa, { perf, score: i % 2 === 0 ? 1 : 0.5, pool: 'app_island' }),
        );
      }
      const ids = async (pool?: string) =>
        (await storage.ratings.leaderboard(perf, 'human', 10, 0, pool)).items.map((e) => e.account);
      expect(await ids()).toEqual([ann]);
      expect(await ids('open')).toEqual([ann]);
      expect(await ids('app_island')).toEqual([isa]);
      expect(await ids('app_other')).toEqual([]);
    });

    it("applies a rated game's results with its ending write, once, and never again on a replay", async () => {
      const storage = store();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      const game = gameOf([ann, bob], { rated: true });
      await storage.games.create(game);
      const ended = {
        ...game,
        version: 1,
        status: 'finished' as const,
        outcome: { winner: 0 as const, reason: 'resignation' as const },
        toMove: null,
      };
      const results = [
        ratingResult(ann, { game: game.id, score: 1, opponent: { rating: 1500, rd: 500, volatility: 0.09 } }),
        ratingResult(bob, { game: game.id, score: 0, opponent: { rating: 1500, rd: 500, volatility: 0.09 } }),
      ];
      const key = { key: 'end', fingerprint: '0:resign' };
      expect(await updateGame(storage.games, ended, 0, key, [], results)).toEqual({ status: 'updated' });
      expect((await updateGame(storage.games, ended, 0, key, [], results)).status).toBe('replayed');
      expect((await updateGame(storage.games, ended, 0, undefined, [], results)).status).toBe('conflict');
      const [annRating, bobRating] = [
        (await storage.ratings.get(ann))['kalah.realtime'],
        (await storage.ratings.get(bob))['kalah.realtime'],
      ];
      expect(annRating).toMatchObject({ games: 1 });
      expect(Math.round(annRating?.rating ?? 0)).toBe(1741);
      expect(Math.round(bobRating?.rating ?? 0)).toBe(1259);
    });
  });
}
