// migrateV1 (src/store/redis/migrate/migrate.ts): data written in the v1 layout (test/support/v1-layout.ts
// documents it) is served by the v2 store after createRedisStorage, and moving it is safe to
// repeat, to interrupt and to run on two nodes at once.
import Redis, { Cluster } from 'ioredis';
import { createRedisStorage, migrateV1, type MigrationReport } from '../../src/store/redis';
import { Keys } from '../../src/store/redis/keys';
import { migrateGame } from '../../src/store/redis/migrate/games';
import type { Notice, Storage, StoredGame, StoredMoveDetails } from '../../src/store/store';
import { startRedisServer, type OwnRedis } from '../support/redis-server';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';
import { snapshot, writeV1Feed, writeV1Game, writeV1Idempotency, redisOrigin } from '../support/v1-layout';
import { advanced, gameOf, uid } from './store-contract';
import { updateGame } from '../support/update-game';

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const prefixes: string[] = [];
const storages: Storage[] = [];
let redis: Redis;
beforeAll(async () => {
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  for (const storage of storages) {
    await storage.games.close();
    await storage.events.close();
  }
  redis.disconnect();
  await Promise.all(prefixes.map((p) => deletePrefix(p)));
});

function newPrefix(): string {
  const prefix = uniquePrefix('migrate');
  prefixes.push(prefix);
  return prefix;
}

async function open(prefix: string): Promise<{ storage: Storage; report: MigrationReport | undefined }> {
  let report: MigrationReport | undefined;
  const storage = await createRedisStorage(REDIS_URL, prefix, {
    onMigrated: (r) => {
      report = r;
    },
  });
  storages.push(storage);
  return { storage, report };
}

/** Moves made a minute apart from `start`, seats alternating from 0. */
function withMoves(game: StoredGame, count: number, start: number): StoredGame {
  const moves = Array.from({ length: count }, (_, i) => ({
    ply: i + 1,
    notation: String((i % 6) + 1),
    seat: (i % 2) as 0 | 1,
    at: iso(start + (i + 1) * MINUTE),
    ...(i === 0 ? { details: { captured: 0, trace: [1, 2] } as unknown as StoredMoveDetails } : {}),
  }));
  return { ...game, moves, ply: count, version: count, toMove: (count % 2) as 0 | 1 };
}

/** A v1 deployment: three games between ann, bob and cy, their feeds and an idempotency record. */
async function v1Deployment(prefix: string) {
  const [ann, bob, cy] = [uid('ann'), uid('bob'), uid('cy')];
  const t0 = Date.now() - 60 * MINUTE;
  // Ongoing, ann to move, its deadline and its reminder both passed.
  const g1 = withMoves(gameOf([ann, bob], { createdAt: iso(t0), updatedAt: iso(t0 + 2 * MINUTE) }), 2, t0);
  const live: StoredGame = { ...g1, deadlineAt: iso(t0), reminderAt: iso(t0 - MINUTE) };
  // Finished (packed once moved).
  const done: StoredGame = {
    ...withMoves(gameOf([ann, bob], { kind: 'oware', createdAt: iso(t0) }), 3, t0),
    status: 'finished',
    outcome: { winner: 0, reason: 'resignation' } as unknown as StoredGame['outcome'],
    toMove: null,
    legalMoves: [],
  };
  // Ongoing, cy to move (no deadline), reminded for this turn already.
  const quiet = withMoves(gameOf([bob, cy], { createdAt: iso(t0) }), 1, t0);
  const quietWithReminder: StoredGame = { ...quiet, reminderAt: iso(t0) };
  const seqs = {
    live: await writeV1Game(redis, prefix, live),
    done: await writeV1Game(redis, prefix, done),
    quiet: await writeV1Game(redis, prefix, quietWithReminder, { reminded: true }),
  };
  await writeV1Idempotency(
    redis,
    prefix,
    live.id,
    'retry:1',
    { fingerprint: '0:move', response: live },
    1000,
  );
  const event = (seq: number, epoch: string) => ({
    seq,
    epoch,
    type: 'game.moved' as const,
    at: iso(t0 + seq * MINUTE),
    data: { gameId: live.id, seq },
  });
  const annEpochs = [
    { id: 'ann-e2', since: 1 },
    { id: 'ann-e1', since: 0 },
  ];
  await writeV1Feed(redis, prefix, ann, {
    events: [event(1, 'ann-e1'), event(2, 'ann-e2'), event(3, 'ann-e2')],
    last: 3,
    epoch: 'ann-e2',
    epochs: annEpochs,
  });
  await writeV1Feed(redis, prefix, bob, {
    events: [event(4, 'bob-e1'), event(5, 'bob-e1')],
    last: 5,
    epoch: 'bob-e1',
    epochs: [{ id: 'bob-e1', since: 0 }],
  });
  return { ann, bob, cy, live, done, quiet: quietWithReminder, seqs, annEpochs };
}

describe('migrateV1', () => {
  it('serves v1 games, feeds and idempotency records through the v2 store', async () => {
    const prefix = newPrefix();
    const v1 = await v1Deployment(prefix);
    const { ann, bob, cy, live, done, quiet } = v1;
    const { storage, report } = await open(prefix);
    expect(report?.steps).toMatchObject({
      games: { moved: 3 },
      feeds: { moved: 2 },
      idempotency: { moved: 1 },
    });
    const keys = new Keys(prefix);

    // Games read back as they were, moves and head; a finished one is packed, without the moves'
    // details (the service derives them again by replaying).
    expect(await storage.games.get(live.id)).toEqual(live);
    expect(await storage.games.get(done.id)).toEqual({
      ...done,
      moves: done.moves.map(({ details: _details, ...move }) => move),
    });
    expect(await storage.games.get(quiet.id)).toEqual(quiet);
    expect((await storage.games.moves(live.id, 1, 5))?.items).toEqual(live.moves.slice(1));
    expect(await redis.hget(keys.game(done.id), 'nmoves')).toBe('3');
    expect(await redis.exists(keys.moves(done.id))).toBe(0);
    expect(await redis.hget(keys.game(live.id), 'lseq')).toBe(String(v1.seqs.live));

    // Listings by account, kind and status, newest first (v1 order), paged.
    const ids = async (filter: Parameters<Storage['games']['list']>[0], limit = 10, before?: number) =>
      (await storage.games.list(filter, limit, before)).items.map((g) => g.id);
    expect(await ids({ account: ann })).toEqual([done.id, live.id]);
    expect(await ids({ account: bob })).toEqual([quiet.id, done.id, live.id]);
    expect(await ids({ account: ann, kind: 'oware' })).toEqual([done.id]);
    expect(await ids({ account: bob, status: 'ongoing' })).toEqual([quiet.id, live.id]);
    expect(await ids({ account: bob, kind: 'kalah', status: 'ongoing' })).toEqual([quiet.id, live.id]);
    expect(await ids({ status: 'finished' })).toEqual([done.id]);
    expect(await ids({ kind: 'kalah' })).toEqual([quiet.id, live.id]);
    expect(await ids({})).toEqual([quiet.id, done.id, live.id]);
    const first = await storage.games.list({ account: bob }, 2);
    expect(first.items.map((g) => g.id)).toEqual([quiet.id, done.id]);
    expect(await ids({ account: bob }, 2, first.next ?? undefined)).toEqual([live.id]);

    // My turn, ongoing counts, deadlines and reminders.
    expect((await storage.clocks.listTurn(ann, {}, 10)).items.map((g) => g.id)).toEqual([live.id]);
    expect((await storage.clocks.listTurn(cy, {}, 10)).items.map((g) => g.id)).toEqual([quiet.id]);
    expect((await storage.clocks.listTurn(bob, {}, 10)).items).toEqual([]);
    expect(await storage.games.countOngoing(bob)).toBe(2);
    expect(await storage.games.countOngoing(ann)).toBe(1);
    const now = Date.now();
    expect(await storage.clocks.claimDeadlines(now, 10, now + MINUTE)).toEqual([live.id]);
    expect(await storage.clocks.claimReminders(now, 10, now + MINUTE)).toEqual([live.id]);
    // The quiet game was reminded of this turn in v1: once per turn still holds.
    expect(await storage.clocks.markReminded(quiet.id, String(quiet.ply), [])).toBe(false);

    // The idempotency record replays, with the time it had left (not a new day).
    const replay = await updateGame(storage.games, advanced(live), live.version, {
      key: 'retry:1',
      fingerprint: '0:move',
    });
    expect(replay).toEqual({ status: 'replayed', record: { fingerprint: '0:move', response: live } });
    const ttl = await redis.pttl(keys.gameIdempotency(live.id, 'retry:1'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1_000_000);

    // A reminder and a move on the v1 game: their notices follow the v1 seqs, in the same epochs.
    const at = iso(Date.now());
    const remind: Notice = { to: [ann], type: 'game.deadline_soon', at, data: { gameId: live.id } };
    expect(await storage.clocks.markReminded(live.id, String(live.ply), [remind])).toBe(true);
    const next: StoredGame = { ...advanced(live), toMove: 1, deadlineAt: null, reminderAt: null };
    const moved: Notice = { to: [ann, bob], type: 'game.moved', at, data: { gameId: live.id } };
    expect(
      await updateGame(storage.games, next, live.version, { key: 'retry:2', fingerprint: '0:move' }, [moved]),
    ).toEqual({ status: 'updated' });
    expect(await storage.games.get(live.id)).toEqual(next);
    const annFeed = await storage.feed.read(ann, 0, 50);
    expect(annFeed.events.map((e) => [e.seq, e.epoch, e.type])).toEqual([
      [1, 'ann-e1', 'game.moved'],
      [2, 'ann-e2', 'game.moved'],
      [3, 'ann-e2', 'game.moved'],
      [4, 'ann-e2', 'game.deadline_soon'],
      [5, 'ann-e2', 'game.moved'],
    ]);
    expect(annFeed).toMatchObject({ last: 5, first: 1, epoch: 'ann-e2', epochs: v1.annEpochs });
    const bobFeed = await storage.feed.read(bob, 0, 50);
    expect(bobFeed.events.map((e) => [e.seq, e.epoch])).toEqual([
      [4, 'bob-e1'],
      [5, 'bob-e1'],
      [6, 'bob-e1'],
    ]);
    // The relay took the move: bob's turn now, ann's no more.
    expect((await storage.clocks.listTurn(bob, {}, 10)).items.map((g) => g.id)).toEqual([live.id]);
    expect((await storage.clocks.listTurn(ann, {}, 10)).items).toEqual([]);
    // A game created now lists before the v1 ones (v1 seqs are far below v2 listing scores).
    const fresh = gameOf([cy, ann]);
    expect(await storage.games.create(fresh)).toEqual({ status: 'created' });
    expect(await ids({ account: ann })).toEqual([fresh.id, done.id, live.id]);
    expect(await ids({}, 2)).toEqual([fresh.id, quiet.id]);
  });

  it('leaves no v1 key, and running it again changes nothing', async () => {
    const prefix = newPrefix();
    const { ann } = await v1Deployment(prefix);
    await redis.set(`${prefix}account:${ann}`, '{}'); // moved by the accounts step too
    const first = await migrateV1(redis, prefix);
    expect(first.outcome).toBe('done');
    expect(first.steps).toMatchObject({
      feeds: { moved: 2, conflicts: 0 },
      games: { moved: 3, gone: 0, conflict: 0 },
      idempotency: { moved: 1 },
    });
    const after = await snapshot(redis, prefix);
    const v1Keys = Object.keys(after).filter((k) => !/\{s\d+\}/.test(k) && k !== 'layout');
    expect(v1Keys).toEqual([]);
    expect(after[new Keys(prefix).account(ann).slice(prefix.length)]).toBeDefined();
    expect(await migrateV1(redis, prefix)).toMatchObject({ outcome: 'marked', steps: {} });
    await redis.del(`${prefix}layout`);
    const again = await migrateV1(redis, prefix);
    expect(again.steps).toMatchObject({
      feeds: { moved: 0 },
      games: { moved: 0 },
      idempotency: { moved: 0 },
      'v1-indexes': { deleted: 0 },
    });
    expect(await snapshot(redis, prefix)).toEqual(after);
  });

  it('ends the same after a crash midway and with two nodes moving at once', async () => {
    const clean = newPrefix();
    const rough = newPrefix();
    // The same v1 data under both prefixes (ids and times included).
    const v1 = await v1Deployment(clean);
    const games = [v1.live, v1.done, v1.quiet];
    for (const [i, game] of games.entries()) await writeV1Game(redis, rough, game, { reminded: i === 2 });
    await writeV1Idempotency(
      redis,
      rough,
      v1.live.id,
      'retry:1',
      { fingerprint: '0:move', response: v1.live },
      1000,
    );
    for (const account of [v1.ann, v1.bob]) {
      for (const name of ['feed', 'feedseq', 'feedepoch']) {
        const dump = await redis.dumpBuffer(`${clean}${name}:{${account}}`);
        await redis.restore(`${rough}${name}:{${account}}`, 0, dump);
      }
    }
    await migrateV1(redis, clean);
    // A node died after moving one game and one feed; then two nodes start together.
    const keys = new Keys(rough);
    expect(await migrateGame(redis, rough, keys, v1.done.id, '2')).toBe('moved');
    await redis.rename(`${rough}feed:{${v1.ann}}`, keys.feed(v1.ann));
    const other = new Redis(REDIS_URL);
    const reports = await Promise.all([migrateV1(redis, rough), migrateV1(other, rough)]);
    other.disconnect();
    expect(reports.reduce((n, r) => n + (r.steps.games?.moved ?? 0), 0)).toBe(2);
    expect(await snapshot(redis, rough)).toEqual(await snapshot(redis, clean));
  });

  it('moves early v1 documents: no status field in the hash, a seat without an account field', async () => {
    const prefix = newPrefix();
    const ann = uid('ann');
    const base = gameOf([ann, null]);
    const early = { ...base, seats: [base.seats[0], { seat: 1, name: 'north' }] } as unknown as StoredGame;
    await writeV1Game(redis, prefix, early);
    await redis.hdel(`${prefix}game:{${early.id}}`, 'status');
    const { storage } = await open(prefix);
    expect(await storage.games.get(early.id)).toEqual(early);
    expect((await storage.games.list({ account: ann, status: 'ongoing' }, 5)).items).toEqual([early]);
    expect((await storage.clocks.listTurn(ann, {}, 5)).items).toEqual([early]);
    expect(await storage.games.countOngoing(ann)).toBe(1);
    expect(Object.keys(await snapshot(redis, prefix)).filter((k) => k.includes('undefined'))).toEqual([]);
  });

  it('feeds keep their epoch: the Redis origin moves with them', async () => {
    const prefix = newPrefix();
    const ann = uid('ann');
    await writeV1Feed(redis, prefix, ann, {
      events: [],
      last: 7,
      epoch: 'e',
      epochs: [{ id: 'e', since: 2 }],
    });
    const { storage } = await open(prefix);
    expect(await storage.feed.read(ann, 0, 10)).toEqual({
      events: [],
      last: 7,
      first: 8,
      epoch: 'e',
      epochs: [{ id: 'e', since: 2 }],
    });
    expect(await redis.hget(new Keys(prefix).feedEpoch(ann), 'origin')).toBe(await redisOrigin(redis));
  });
});

describe('migrateV1 on a Redis Cluster', () => {
  let server: OwnRedis;
  let cluster: Cluster;
  beforeAll(async () => {
    // One node holding every slot; it announces 127.0.0.1 (else CLUSTER SLOTS names no host).
    server = await startRedisServer([
      ...['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf'],
      ...['--cluster-announce-ip', '127.0.0.1'],
    ]);
    const admin = new Redis(server.port, '127.0.0.1');
    await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
    for (let i = 0; !/cluster_state:ok/.test(String(await admin.call('CLUSTER', 'INFO'))); i++) {
      if (i === 500) throw new Error('the one-node cluster did not come up');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    admin.disconnect();
    cluster = new Cluster([{ host: '127.0.0.1', port: server.port }]);
  });
  afterAll(async () => {
    cluster.disconnect();
    await server.stop();
  });

  it('only sets the marker where there is no v1 data, and refuses v1 data', async () => {
    const prefix = uniquePrefix('migrate');
    expect(await migrateV1(cluster, prefix)).toMatchObject({ outcome: 'cluster' });
    expect(await cluster.get(`${prefix}layout`)).toBe('2');
    expect(await migrateV1(cluster, prefix)).toMatchObject({ outcome: 'marked' });
    const old = uniquePrefix('migrate');
    await cluster.zadd(`${old}games:all`, 1, 'g');
    await expect(migrateV1(cluster, old)).rejects.toThrow(/games:all exists on a Redis Cluster/);
    expect(await cluster.get(`${old}layout`)).toBeNull();
  });
});
