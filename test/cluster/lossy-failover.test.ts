// Lossy failovers on a real Redis Cluster of the test's own (REDIS_WAIT_REPLICAS=0, the default): a
// master's replica is cut off, the master takes writes, dies, and the replica is promoted without
// them (#28 item 19). A game's master and its players' masters fail over apart; whichever lost
// writes, every account feed must end either consistent with the stored game or in a new epoch
// (clients told epoch_changed), and every shard's outbox must drain.
import type { Cluster } from 'ioredis';
import { connectRedisCluster, createRedisStorage, RedisGameStore } from '../../src/store/redis';
import { ALL_SHARDS } from '../../src/store/redis/keys';
import type { FeedPage, Notice, Storage, StoredGame } from '../../src/store/store';
import { uniquePrefix } from '../support/redis';
import { startRedisCluster, type OwnCluster } from '../support/redis-cluster';
import { advanced, gameOf, uid } from '../store/store-contract';
import { updateGame } from '../support/update-game';

let own: OwnCluster;
let client: Cluster;
let storage: Storage;
let games: RedisGameStore;

beforeAll(async () => {
  own = await startRedisCluster();
  const settings = { commandTimeoutMs: 1000 };
  client = await connectRedisCluster(own.nodes, 5000, settings);
  storage = await createRedisStorage({ clusterNodes: own.nodes }, uniquePrefix('lossy'), settings);
  games = storage.games as RedisGameStore;
}, 60_000);
afterAll(async () => {
  await storage?.games.close();
  await storage?.events.close();
  await client?.quit();
  await own?.stop();
});

/** The port of the master serving `key` now. */
async function masterOf(key: string): Promise<number> {
  const slot = (await client.cluster('KEYSLOT', key)) as number;
  const master = (await own.masters()).find((m) => m.slots.some(([a, b]) => slot >= a && slot <= b));
  if (!master) throw new Error(`no master serves slot ${slot}`);
  return master.port;
}

/** A fresh id whose key (`key(id)`) lives on the master on `port`. */
async function idOn(port: number, label: string, key: (id: string) => string): Promise<string> {
  for (;;) {
    const id = uid(label);
    if ((await masterOf(key(id))) === port) return id;
  }
}

/**
 * After a failover: until the clients know the promoted master for every shard's slot (a command
 * auto-pipelined to the old master's address fails with MOVED instead of being redirected).
 */
async function settle(): Promise<void> {
  await retry(() => games.relay.sweep());
  await retry(() => Promise.all(ALL_SHARDS.map((shard) => client.xlen(games.keys.outbox(shard)))));
}

/** `fn` until it answers (the client learns the promoted master on a failed attempt). */
async function retry<T>(fn: () => Promise<T>): Promise<T> {
  for (const end = Date.now() + 20_000; ;) {
    try {
      return await fn();
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function move(game: StoredGame, notation: string): Promise<StoredGame> {
  const next = advanced(game, notation);
  const to = game.seats.flatMap((s) => (s.account === null ? [] : [s.account]));
  const notice: Notice = {
    to,
    type: 'game.moved',
    at: new Date().toISOString(),
    data: { game: game.id, ply: next.ply, notation },
  };
  expect(await updateGame(storage.games, next, game.version, undefined, [notice])).toEqual({
    status: 'updated',
  });
  return next;
}

/** The feeds as a client last read them. */
async function readAll(accounts: readonly string[]): Promise<Map<string, FeedPage>> {
  return new Map(
    await Promise.all(accounts.map(async (a) => [a, await storage.feed.read(a, 0, 100)] as const)),
  );
}

/**
 * Each account's feed, after what its client `seen`: either in the same epoch and naming exactly the
 * game's moves, or in a new epoch (the client is told) whose events name moves the game has.
 * Answers which accounts were moved to a new epoch.
 */
async function checkFeeds(gameId: string, seen: Map<string, FeedPage>): Promise<string[]> {
  const game = await storage.games.get(gameId);
  const moves = game?.moves.map((m) => m.notation) ?? [];
  const changed: string[] = [];
  for (const [account, before] of seen) {
    const page = await storage.feed.read(account, 0, 100);
    const named = (events: FeedPage['events']) => events.map((e) => e.data.notation);
    if ((await storage.feed.read(account, before.last, 100)).epoch === before.epoch) {
      expect({ account, named: named(page.events) }).toEqual({ account, named: moves });
    } else {
      changed.push(account);
      for (const event of page.events.filter((e) => e.epoch === page.epoch)) {
        expect({ account, notation: event.data.notation }).toEqual({
          account,
          notation: game?.moves.find((m) => m.ply === event.data.ply)?.notation,
        });
      }
    }
    // The account's indexes are the game's: applied at its version, counted among its ongoing games.
    expect(await client.hget(games.keys.applied(account), `g:${gameId}`)).toBe(
      String((game?.version ?? 0) + 1),
    );
    expect(await client.sismember(games.keys.ongoing(account), gameId)).toBe(1);
  }
  return changed;
}

/** Every shard's outbox is drained (the relay sweeps; the delivered entries are trimmed by the next). */
async function expectOutboxesDrained(): Promise<void> {
  let left = -1;
  for (const end = Date.now() + 15_000; left !== 0 && Date.now() < end;) {
    await games.relay.sweep();
    const lengths = await Promise.all(ALL_SHARDS.map((shard) => client.xlen(games.keys.outbox(shard))));
    left = lengths.reduce((sum, n) => sum + n, 0);
  }
  expect(left).toBe(0);
}

it("the game's master loses moves: its players' feeds on other masters move to a new epoch, with the game's moves", async () => {
  const [gm, am, bm] = (await own.masters()).map((m) => m.port) as [number, number, number];
  const id = await idOn(gm, 'g', (g) => games.keys.game(g));
  const a = await idOn(am, 'a', (x) => games.keys.applied(x));
  const b = await idOn(bm, 'b', (x) => games.keys.applied(x));
  let game = gameOf([a, b], { id });
  await storage.games.create(game);
  for (const n of ['m1', 'm2']) game = await move(game, n);
  const kept = game;

  let seen = new Map<string, FeedPage>();
  await own.lossyFailover(gm, async () => {
    for (const n of ['lost3', 'lost4']) game = await move(game, n);
    seen = await readAll([a, b]); // the players' clients read the moves the game will lose
  });
  expect(seen.get(a)?.events.map((e) => e.data.notation)).toEqual(['m1', 'm2', 'lost3', 'lost4']);

  // The promoted replica has the game as it was: the next moves reuse the lost versions.
  await settle();
  const stored = await storage.games.get(id);
  expect(stored?.moves.map((m) => m.notation)).toEqual(['m1', 'm2']);
  expect(stored?.version).toBe(kept.version);
  game = kept;
  for (const n of ['new3', 'new4']) game = await move(game, n);
  await expectOutboxesDrained();

  expect((await checkFeeds(id, seen)).sort()).toEqual([a, b].sort());
}, 60_000);

it("a player's master loses its applied moves: its feed moves to a new epoch, the relay goes on, the other player's feed is whole", async () => {
  const masters = (await own.masters()).map((m) => m.port);
  const topology = await own.topology();
  // The victim needs its replica still (the first test's promoted master has none).
  const withReplica = masters.filter((port) => {
    const id = topology.find((n) => n.port === port)?.id;
    return topology.some((n) => n.masterId === id && !n.failing);
  });
  const am = withReplica[0] as number;
  const [gm, bm] = masters.filter((port) => port !== am) as [number, number];
  const id = await idOn(gm, 'g', (g) => games.keys.game(g));
  const a = await idOn(am, 'a', (x) => games.keys.applied(x));
  const b = await idOn(bm, 'b', (x) => games.keys.applied(x));
  let game = gameOf([a, b], { id });
  await storage.games.create(game);
  for (const n of ['m1', 'm2']) game = await move(game, n);

  let seen = new Map<string, FeedPage>();
  await own.lossyFailover(am, async () => {
    for (const n of ['m3', 'm4']) game = await move(game, n);
    // Relayed and trimmed from the game's outbox (else the relay would apply them to A again).
    await games.relay.sweep();
    seen = await readAll([a, b]);
  });
  expect(seen.get(a)?.events.map((e) => e.data.notation)).toEqual(['m1', 'm2', 'm3', 'm4']);
  await settle();
  // A's master lost the versions it applied: the game's next entries skip them for A.
  expect(await client.hget(games.keys.applied(a), `g:${id}`)).toBe(String(game.version - 1));

  for (const n of ['m5', 'm6']) game = await move(game, n);
  await expectOutboxesDrained();
  expect(await checkFeeds(id, seen)).toEqual([a]);
}, 60_000);
