// Upgrading a deployment from the v1 Redis layout (issue #14): games, accounts, feeds and
// idempotency records written by v1 (test/support/v1-layout.ts) stay usable through REST once a v2
// node has started on them (createRedisStorage runs migrateV1). The v1 data is what a real game
// leaves: played on an app over the memory store, then written in the v1 layout.
import Redis from 'ioredis';
import request from 'supertest';
import type { StoredGame } from '../../src/store/store';
import type { TestAccount } from '../support/accounts';
import { signUp } from '../support/accounts';
import { appHarness, chooser, type Running } from '../support/app';
import { challengeGame, DAY, fakeClock, feedOf, gameOf, restAs } from '../support/clocks';
import { REDIS_URL, uniquePrefix } from '../support/redis';
import { writeV1Account, writeV1Feed, writeV1Game, writeV1Idempotency } from '../support/v1-layout';

const harness = appHarness();
let redis: Redis;
beforeAll(() => {
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  await harness.stopAll();
  redis.disconnect();
});

const T0 = Date.UTC(2026, 0, 5, 12);

/** Plays `count` moves as the accounts whose turn it is; the last with an Idempotency-Key. */
async function play(run: Running, game: any, seats: readonly TestAccount[], count: number, key?: string) {
  const pick = chooser(11);
  let last: { by: TestAccount; move: string; answer: unknown } | undefined;
  for (let i = 0; i < count && game.status === 'ongoing'; i++) {
    const by = seats[game.toMove] as TestAccount;
    const move = pick(game.legalMoves);
    let req = request(run.url).post(`/api/v1/games/${game.id}/moves`).set(by.auth);
    if (key !== undefined && i === count - 1) req = req.set('Idempotency-Key', key);
    game = (await req.send({ move }).expect(200)).body;
    last = { by, move, answer: game };
  }
  return { game, last };
}

/** Everything v1 kept of these accounts and games, written in the v1 layout under `prefix`. */
async function toV1(
  from: Running,
  prefix: string,
  accounts: readonly TestAccount[],
  games: ReadonlyArray<{ id: string; idempotencyKey?: string }>,
) {
  const store = from.storage;
  for (const a of accounts) {
    const account = await store.accounts.getAccount(a.id);
    // v1 kept a token's last use apart from its document (p tokenused:<hash>).
    const tokens = (await store.accounts.listTokens(a.id)).map(({ lastUsedAt: _used, ...t }) => t);
    if (account) await writeV1Account(redis, prefix, account, tokens);
    await writeV1Feed(redis, prefix, a.id, await store.feed.read(a.id, 0, 1000));
  }
  for (const { id, idempotencyKey } of games) {
    const game = (await store.games.get(id)) as StoredGame;
    await writeV1Game(redis, prefix, game);
    if (idempotencyKey) {
      const record = await store.games.idempotencyRecord(id, idempotencyKey);
      if (record) await writeV1Idempotency(redis, prefix, id, idempotencyKey, record, 3600);
    }
  }
}

describe('a v1 deployment upgraded to v2', () => {
  it('keeps its games playable through REST, with their listings, feeds, deadlines and retries', async () => {
    const clock = fakeClock(T0);
    const v1 = await harness.start('memory', { now: clock.now });
    const ann = await signUp(v1.app, 'ann', 'human');
    const bob = await signUp(v1.app, 'bob', 'bot');
    const seats = [ann, bob];
    const started = await challengeGame(v1, ann, bob);
    const { game: before, last } = await play(v1, started, seats, 4, 'retry-4');
    const slow = await challengeGame(v1, ann, bob, {
      timeControl: { type: 'correspondence', daysPerMove: 1 },
    });
    const feedsBefore = { ann: await feedOf(v1, ann), bob: await feedOf(v1, bob) };

    const prefix = uniquePrefix('upgrade');
    await toV1(v1, prefix, seats, [{ id: before.id, idempotencyKey: 'retry-4' }, { id: slow.id }]);
    const v2 = await harness.start('redis', { prefix, now: clock.now });

    // The games read back as v1 served them.
    expect(await gameOf(v2, before.id)).toEqual(before);
    expect(await gameOf(v2, slow.id)).toEqual(await gameOf(v1, slow.id));
    // Listed for their accounts: ongoing, my turn.
    const mine = async (who: TestAccount, filter: string) =>
      (await restAs(v2).get(`/account/games?filter=${filter}`, who).expect(200)).body.items.map(
        (g: { id: string }) => g.id,
      );
    expect(await mine(ann, 'ongoing')).toEqual([slow.id, before.id]);
    const mover = seats[before.toMove] as TestAccount;
    expect(await mine(mover, 'my-turn')).toContain(before.id);
    // A retry of the last v1 move replays its answer.
    const retried = await request(v2.url)
      .post(`/api/v1/games/${before.id}/moves`)
      .set(last?.by.auth ?? {})
      .set('Idempotency-Key', 'retry-4')
      .send({ move: last?.move })
      .expect(200);
    expect(retried.body).toEqual(last?.answer);

    // Played on to the end; the notices follow the v1 ones in each feed, in the same epoch.
    const { game: after } = await play(v2, before, seats, 1000);
    expect(after.status).toBe('finished');
    expect(await gameOf(v2, before.id)).toEqual(after);
    expect(await mine(ann, 'finished')).toEqual([before.id]);
    for (const who of [ann, bob]) {
      const old = feedsBefore[who === ann ? 'ann' : 'bob'];
      const now = await feedOf(v2, who);
      expect(now.slice(0, old.length)).toEqual(old);
      expect(now.length).toBeGreaterThan(old.length);
      expect(new Set(now.map((e) => e.epoch))).toEqual(new Set([old[0].epoch]));
      expect(now.at(-1).type).toBe('game.finished');
    }

    // The correspondence game's deadline still fires.
    clock.set(T0 + 2 * DAY);
    expect((await v2.app.services.clocks.sweep()).timeouts).toBe(1);
    expect(await gameOf(v2, slow.id)).toMatchObject({ status: 'finished', result: { reason: 'timeout' } });
  });
});
