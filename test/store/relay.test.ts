// The outbox relay (docs/data-model.md): a node that dies between its write and the relay of that
// write leaves entries in its shard's outbox; any other node's sweep delivers them, each notice
// once and in order per game, however many nodes sweep at once. Real Redis, real processes.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { redisStorage, createRedisStorage, connectRedis, RedisGameStore } from '../../src/store/redis';
import type { Storage, StoredGame } from '../../src/store/store';
import { SHARDS } from '../../src/store/redis/keys';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../support/redis';
import { advanced, gameOf, uid } from './store-contract';
import { sampleTournament } from './tournament-contract';
import { updateGame } from '../support/update-game';

const prefixes: string[] = [];
afterAll(() => Promise.all(prefixes.map((p) => deletePrefix(p))));

async function open(prefix: string, relayOwnWrites = true): Promise<Storage> {
  const data = await connectRedis(REDIS_URL);
  const subscriber = await connectRedis(REDIS_URL);
  return redisStorage(data, subscriber, prefix, { relayOwnWrites });
}

async function close(storage: Storage): Promise<void> {
  await storage.games.close();
  await storage.events.close();
}

/** The versions of `gameId` in the account's feed, in feed order (from game.moved notices). */
async function versionsIn(storage: Storage, account: string, gameId: string): Promise<number[]> {
  const versions: number[] = [];
  for (let after = 0; ;) {
    const page = await storage.feed.read(account, after, 500);
    for (const e of page.events) if (e.data.game === gameId) versions.push(e.data.version as number);
    if (page.events.length === 0) return versions;
    after = page.events[page.events.length - 1]!.seq;
  }
}

describe('outbox relay', () => {
  it('delivers what a node left in the outbox once and in order, with three nodes sweeping at once', async () => {
    const prefix = uniquePrefix('relay');
    prefixes.push(prefix);
    // This node writes and "dies" before relaying anything: its entries stay in the outboxes.
    const writer = await open(prefix, false);
    const [a, b] = [uid('a'), uid('b')];
    const games: StoredGame[] = [gameOf([a, b]), gameOf([b, a]), gameOf([a, null])];
    for (const game of games) await writer.games.create(game);
    for (const start of games) {
      let game = start;
      for (let v = 1; v <= 20; v++) {
        const next = advanced(game, String(v));
        const notice = {
          to: [a, b].filter((x) => game.seats.some((s) => s.account === x)),
          type: 'game.moved' as const,
          at: new Date().toISOString(),
          data: { game: game.id, version: next.version },
        };
        expect(await updateGame(writer.games, next, game.version, undefined, [notice])).toEqual({
          status: 'updated',
        });
        game = next;
      }
    }
    expect(await versionsIn(writer, a, games[0]!.id)).toEqual([]);
    expect(await writer.clocks.listTurn(a, {}, 10)).toEqual({ items: [], next: null });
    await close(writer);

    const sweepers = await Promise.all([open(prefix), open(prefix), open(prefix)]);
    await Promise.all(sweepers.map((s) => (s.games as RedisGameStore).relay.sweep()));
    const expected = Array.from({ length: 20 }, (_, i) => i + 1);
    const reader = sweepers[0] as Storage;
    expect(await versionsIn(reader, a, games[0]!.id)).toEqual(expected);
    expect(await versionsIn(reader, b, games[0]!.id)).toEqual(expected);
    expect(await versionsIn(reader, b, games[1]!.id)).toEqual(expected);
    expect(await versionsIn(reader, a, games[2]!.id)).toEqual(expected);
    expect(await versionsIn(reader, b, games[2]!.id)).toEqual([]);
    // The feed is gap-free: 60 events for a (three games), 40 for b.
    expect((await reader.feed.read(a, 0, 500)).last).toBe(60);
    expect((await reader.feed.read(b, 0, 500)).last).toBe(40);
    // The accounts' indexes followed too: listings and ongoing counts.
    expect((await reader.games.list({ account: a }, 10)).items.map((g) => g.id).sort()).toEqual(
      games.map((g) => g.id).sort(),
    );
    expect(await reader.games.countOngoing(b)).toBe(2);
    // Sweeping again delivers nothing twice, and the outboxes are empty.
    await (reader.games as RedisGameStore).relay.sweep();
    expect((await reader.feed.read(a, 0, 500)).last).toBe(60);
    await Promise.all(sweepers.map(close));
  });

  it('delivers every acknowledged write of a node killed (SIGKILL) mid-flight once, in order', async () => {
    const prefix = uniquePrefix('relaykill');
    prefixes.push(prefix);
    const [a, b] = [uid('a'), uid('b')];
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', path.join(__dirname, '../support/relay-writer.ts')],
      {
        env: {
          ...process.env,
          REDIS_URL,
          PREFIX: prefix,
          ACCOUNTS: `${a},${b}`,
          GAMES: '6',
          VERSIONS: '400',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const acked = new Map<string, number>();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let buffered = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          const [word, id, version] = line.split(' ');
          if (word === 'ack') acked.set(id as string, Number(version));
        }
        // Killed in the middle of its writes: some written and relayed, some written only.
        if ([...acked.values()].reduce((x, y) => x + y, 0) >= 300) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.once('exit', (code) => (code === 0 || code === null ? resolve() : reject(new Error(stderr))));
    });
    await exited;
    child.stdout.destroy();
    child.stderr.destroy();
    expect(acked.size).toBe(6);

    const survivor = await createRedisStorage(REDIS_URL, prefix);
    // The killed node may have held a shard's lease (500 ms): sweep until every outbox is empty.
    const games = survivor.games as RedisGameStore;
    const pending = async () => {
      let left = 0;
      for (let shard = 0; shard < SHARDS; shard++) left += await redis.xlen(games.keys.outbox(shard));
      return left;
    };
    const redis = await connectRedis(REDIS_URL);
    for (;;) {
      await games.relay.sweep();
      if ((await pending()) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    redis.disconnect();
    for (const [id, version] of acked) {
      const stored = (await survivor.games.get(id)) as StoredGame;
      // The store may hold one version more than was acknowledged (written, the answer lost).
      expect([version, version + 1]).toContain(stored.version);
      const expected = Array.from({ length: stored.version }, (_, i) => i + 1);
      expect(await versionsIn(survivor, a, id)).toEqual(expected);
      expect(await versionsIn(survivor, b, id)).toEqual(expected);
    }
    // Gap-free: the feed holds exactly one event per stored version of the six games.
    let total = 0;
    for (const id of acked.keys()) total += ((await survivor.games.get(id)) as StoredGame).version;
    expect((await survivor.feed.read(a, 0, 1)).last).toBe(total);
    await close(survivor);
  }, 60_000);
  it("delivers a tournament's notices that a node left in the outbox once and in order", async () => {
    const prefix = uniquePrefix('relay-tn');
    prefixes.push(prefix);
    // The director's node writes three steps and "dies" before relaying any of their notices.
    const writer = await open(prefix, false);
    const [a, b] = [uid('a'), uid('b')];
    let t = sampleTournament();
    await writer.tournaments.create(t);
    for (let round = 1; round <= 3; round++) {
      const next = { ...t, version: t.version + 1, round };
      const notice = {
        to: round === 1 ? [a] : [a, b], // b joined after the first
        type: 'tournament.round_started' as const,
        at: new Date().toISOString(),
        data: { tournament: { id: t.id, round } },
      };
      expect(await writer.tournaments.update(next, t.version, [notice])).toEqual({ status: 'updated' });
      t = next;
    }
    expect((await writer.feed.read(a, 0, 10)).events).toEqual([]);
    await close(writer);

    const sweepers = await Promise.all([open(prefix), open(prefix)]);
    await Promise.all(sweepers.map((s) => (s.games as RedisGameStore).relay.sweep()));
    const rounds = async (account: string) =>
      (await sweepers[0]!.feed.read(account, 0, 10)).events.map(
        (e) => (e.data.tournament as { round: number }).round,
      );
    expect(await rounds(a)).toEqual([1, 2, 3]);
    expect(await rounds(b)).toEqual([2, 3]);
    await Promise.all(sweepers.map(close));
  });
});
