// The API through a failover: two bots play a game over REST against an app on a Redis Cluster with
// REDIS_WAIT_REPLICAS=1, and the master holding the game's shard is killed mid-game. The moves tried
// while it is down answer 503 STORE_UNAVAILABLE with Retry-After; the bot retries with the same
// Idempotency-Key until its move is acknowledged (played once, or its first answer replayed). At the
// end every acknowledged move is in the stored game once, versions have no gap, and both players'
// feeds hold every notice of the game once and in order. With WAIT 1, the promoted replica takes
// writes only once it has a replica again: the dead node is restarted and rejoins as one. On a cluster of the test's own (with
// replicas): it kills a node. The replica is held back until the outage has been seen, so that the
// 503s do not depend on timing.
import Redis from 'ioredis';
import request from 'supertest';
import { createRedisStorage } from '../../src/store/redis';
import { shardOf, shardTag } from '../../src/store/redis/keys';
import type { Storage } from '../../src/store/store';
import { signUp, type TestAccount } from '../support/accounts';
import { appHarness, chooser, type Running } from '../support/app';
import { challengeGame } from '../support/clocks';
import { uniquePrefix } from '../support/redis';
import { startRedisCluster, type OwnCluster } from '../support/redis-cluster';

const harness = appHarness();
let own: OwnCluster;
let storage: Storage;
let run: Running;

beforeAll(async () => {
  own = await startRedisCluster();
  storage = await createRedisStorage({ clusterNodes: own.nodes }, uniquePrefix('api-failover'), {
    commandTimeoutMs: 1000,
    waitReplicas: 1,
  });
  run = await harness.start('redis', { storage });
}, 90_000);
afterAll(async () => {
  await harness.stopAll();
  await own?.stop();
}, 30_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Acknowledged {
  readonly ply: number;
  readonly notation: string;
  readonly version: number;
}

/** An unavailable answer as a client sees it. */
interface Outage {
  readonly status: number;
  readonly code: string;
  readonly retryAfter: number;
}

/**
 * One move of a bot: POST with an Idempotency-Key and Prefer: return=minimal, retried with the same
 * key while the store is unavailable (each such answer is kept in `outages`). Anything but 200 or
 * 503 STORE_UNAVAILABLE fails the test.
 */
async function play(
  who: TestAccount,
  gameId: string,
  move: string,
  key: string,
  outages: Outage[],
): Promise<{ game: any; move: any }> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const res = await request(run.url)
      .post(`/api/v1/games/${gameId}/moves`)
      .set(who.auth)
      .set('Idempotency-Key', key)
      .set('Prefer', 'return=minimal')
      .send({ move });
    if (res.status === 200) return res.body;
    const outage = {
      status: res.status,
      code: res.body?.code,
      retryAfter: Number(res.headers['retry-after']),
    };
    expect(outage).toEqual({ status: 503, code: 'STORE_UNAVAILABLE', retryAfter: expect.any(Number) });
    expect(outage.retryAfter).toBeGreaterThan(0);
    outages.push(outage);
    await sleep(250);
  }
  throw new Error(`move ${move} (${key}) was never acknowledged`);
}

/** An account's whole feed (retrying while the store is unavailable). */
async function feed(who: TestAccount): Promise<{ events: any[]; last: number }> {
  for (;;) {
    const res = await request(run.url)
      .get('/api/v1/account/events?after=0&limit=500')
      .set(who.auth)
      .set('Accept', 'application/json');
    if (res.status === 200) return res.body;
    expect(res.status).toBe(503);
    await sleep(250);
  }
}

it('keeps every acknowledged move once, gap-free versions and in-order feeds through a failover', async () => {
  const [alice, bob] = await Promise.all([signUp(run.app, 'fo-alice'), signUp(run.app, 'fo-bob')]);
  const bots = [alice, bob] as const;
  const start = await challengeGame(run, alice, bob, { kind: 'oware' });
  const id = start.id as string;
  const choose = chooser(0xf00d);

  // The master serving the game's shard (every key of the game is in that slot).
  const masters = await own.masters();
  const slotOf = await slotOfTag(shardTag(shardOf(id)));
  const victim = masters.find((m) => m.slots.some(([first, last]) => slotOf >= first && slotOf <= last));
  if (!victim) throw new Error(`no master serves slot ${slotOf}`);

  const acknowledged: Acknowledged[] = [];
  const outages: Outage[] = [];
  let game = start;
  let versionBefore = start.version as number;
  const step = async () => {
    const who = bots[game.toMove as number] as TestAccount;
    const move = choose(game.legalMoves);
    const key = `${id}-ply-${(game.ply as number) + 1}`;
    const answer = await play(who, id, move, key, outages);
    // Each acknowledged answer is the next version, with the move just played.
    expect([answer.game.version, answer.move.ply]).toEqual([versionBefore + 1, (game.ply as number) + 1]);
    acknowledged.push({ ply: answer.move.ply, notation: answer.move.notation, version: answer.game.version });
    versionBefore = answer.game.version;
    game = answer.game;
  };

  for (let i = 0; i < 8; i++) await step();
  expect(outages).toEqual([]);

  // The master dies; its replica waits until told.
  const killed = await own.killMaster(victim.port, { holdFailover: true });
  const who = bots[game.toMove as number] as TestAccount;
  const move = choose(game.legalMoves);
  const key = `${id}-ply-${(game.ply as number) + 1}`;
  // While the slot has no master, the move cannot be played: 503 with Retry-After, twice.
  const during = play(who, id, move, key, outages);
  during.catch(() => undefined); // awaited below; a failure must not go unhandled meanwhile
  while (outages.length < 2) await sleep(50);
  await killed.releaseFailover();
  await own.waitForFailover();
  // The promoted replica has no replica of its own, so WAIT 1 cannot be met and the move still
  // answers 503, until the dead master comes back (as the new master's replica), as an operator
  // would bring it back.
  await own.restartNode(victim.port);
  const answer = await during;
  expect(outages.length).toBeGreaterThanOrEqual(2);
  expect([answer.game.version, answer.move.ply]).toEqual([versionBefore + 1, (game.ply as number) + 1]);
  acknowledged.push({ ply: answer.move.ply, notation: answer.move.notation, version: answer.game.version });
  versionBefore = answer.game.version;
  game = answer.game;

  // The game goes on on the promoted replica.
  for (let i = 0; i < 8 && game.status === 'ongoing'; i++) await step();

  // The stored game: every acknowledged move once, in order, and its version the last acknowledged.
  const stored = (await request(run.url).get(`/api/v1/games/${id}`).expect(200)).body;
  expect(stored.moves.map((m: any) => ({ ply: m.ply, notation: m.notation }))).toEqual(
    acknowledged.map(({ ply, notation }) => ({ ply, notation })),
  );
  expect(stored.version).toBe(acknowledged[acknowledged.length - 1]?.version);
  expect(acknowledged.map((a) => a.version)).toEqual(
    acknowledged.map((_, i) => (start.version as number) + 1 + i),
  );

  // Both feeds: every move once and in order, seqs without gaps (the relay catches up after the
  // failover, within a few sweeps).
  for (const bot of bots) {
    let events: any[];
    const deadline = Date.now() + 60_000;
    for (;;) {
      const page = await feed(bot);
      events = page.events;
      const seqs = events.map((e) => e.seq as number);
      expect(seqs).toEqual(seqs.map((_, i) => page.last - seqs.length + 1 + i));
      const moved = events.filter((e) => e.type === 'game.moved' && e.data.game.id === id);
      if (moved.length >= acknowledged.length || Date.now() > deadline) break;
      await sleep(250);
    }
    const mine = events.filter((e) => e.data?.game?.id === id);
    const moved = mine.filter((e) => e.type === 'game.moved');
    expect(
      moved.map((e) => ({ ply: e.data.played.ply, notation: e.data.move, version: e.data.game.version })),
    ).toEqual(acknowledged);
    // Every notice of the game once, in version order.
    const versions = mine.map((e) => e.data.game.version as number);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    const notices = mine.map((e) => `${e.type}@${e.data.game.version}`);
    expect(new Set(notices).size).toBe(notices.length);
  }
}, 180_000);

/** The hash slot of a shard tag, as the cluster computes it. */
async function slotOfTag(tag: string): Promise<number> {
  const [seed] = own.nodes;
  const [host, port] = (seed as string).split(':') as [string, string];
  const redis = new Redis(Number(port), host, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    return (await redis.call('CLUSTER', 'KEYSLOT', `x${tag}`)) as number;
  } finally {
    redis.disconnect();
  }
}
