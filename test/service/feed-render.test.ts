// The rendering feed (src/service/delivery/feed-render.ts) over the memory store: one read of the
// games' fixed fields per page, bounded caches, live events in order, a failed render told as a resync.
import { FeedRenderer, RenderedFeed } from '../../src/service/delivery/feed-render';
import { slimNotice } from '../../src/service/delivery/feed-events';
import { GameService } from '../../src/service/game/service';
import { Authenticator } from '../../src/service/accounts/auth';
import { createMemoryStorage } from '../../src/store/memory';
import type { FeedEvent, GameHead, Notice, StoredGame } from '../../src/store/store';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const storage = createMemoryStorage(() => T0);
const games = new GameService(storage, new Authenticator(storage.accounts, storage.apps, () => new Date(T0)));

async function newGame(): Promise<StoredGame> {
  const engine = games.engineFor('kalah');
  const game = games.newGame({
    kind: 'kalah',
    options: games.parseOptions(engine, {}),
    first: 0,
    accounts: ['alice', 'bob'],
    timeControl: { type: 'correspondence', daysPerMove: 2 },
    at: new Date(T0).toISOString(),
  });
  await storage.games.create(game);
  return game;
}

function updated(game: StoredGame, account = 'alice'): Notice {
  const at = new Date(T0 + 1000).toISOString();
  return slimNotice({ to: [account], type: 'game.updated', at, data: { game: games.headView(game) } });
}

/** The store's games with a count of reads (and a switch that makes them fail). */
function countedGames() {
  const reads: string[][] = [];
  let failing = false;
  return {
    reads,
    fail: (on: boolean) => (failing = on),
    heads: async (ids: readonly string[]): Promise<(GameHead | undefined)[]> => {
      if (failing) throw new Error('store down');
      reads.push([...ids]);
      return storage.games.heads(ids);
    },
  };
}

describe('the rendering feed', () => {
  it('reads a page of events with one read of their games, then from its cache', async () => {
    const [one, two] = [await newGame(), await newGame()];
    const account = `reader-${one.id}`;
    await storage.feed.append([updated(one, account), updated(two, account), updated(one, account)]);
    const counted = countedGames();
    const feed = new RenderedFeed(storage.feed, new FeedRenderer(counted));
    const page = await feed.read(account, 0, 10);
    expect(counted.reads).toEqual([[one.id, two.id]]);
    expect(page.events.map((e) => JSON.stringify(e.data))).toEqual(
      [one, two, one].map((g) => JSON.stringify({ game: games.headView(g) })),
    );
    await feed.read(account, 0, 10);
    expect(counted.reads).toHaveLength(1);
  });

  it('keeps at most maxGames games, for at most maxAgeMs', async () => {
    const made = [await newGame(), await newGame(), await newGame()];
    const account = `bounded-${made[0]?.id}`;
    await storage.feed.append(made.map((g) => updated(g, account)));
    const counted = countedGames();
    let now = T0;
    const feed = new RenderedFeed(
      storage.feed,
      new FeedRenderer(counted, { maxGames: 2, maxAgeMs: 1000, now: () => now }),
    );
    await feed.read(account, 0, 10);
    await feed.read(account, 2, 10);
    // The third game pushed out the first: reading the first again reads it (and the third stays).
    await feed.read(account, 0, 1);
    expect(counted.reads).toEqual([made.map((g) => g.id), [made[0]?.id]]);
    now += 1001;
    await feed.read(account, 2, 10);
    expect(counted.reads.at(-1)).toEqual([made[2]?.id]);
  });

  it('delivers live events in order, and tells a failed render as a resync', async () => {
    const game = await newGame();
    const account = `live-${game.id}`;
    const counted = countedGames();
    const feed = new RenderedFeed(storage.feed, new FeedRenderer(counted));
    const seen: FeedEvent[] = [];
    let resyncs = 0;
    const stop = await feed.subscribe(
      account,
      (event) => seen.push(event),
      () => resyncs++,
    );
    const plain: Notice = {
      to: [account],
      type: 'game.deadline_soon',
      at: new Date(T0).toISOString(),
      data: {},
    };
    await storage.feed.append([updated(game, account), plain]);
    await waitFor(() => seen.length === 2);
    expect(seen.map((e) => [e.seq, e.type])).toEqual([
      [1, 'game.updated'],
      [2, 'game.deadline_soon'],
    ]);
    expect(JSON.stringify(seen[0]?.data)).toBe(JSON.stringify({ game: games.headView(game) }));
    counted.fail(true);
    const other = await newGame();
    await storage.feed.append([updated(other, account)]);
    await waitFor(() => resyncs === 1);
    expect(seen).toHaveLength(2);
    await stop();
  });
});

async function waitFor(ready: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
