// The lobby across server nodes (issue #31): two accounts take one listed seek at once from two
// nodes sharing one store: exactly one game, every time, and the loser is told SEEK_NOT_FOUND; a
// seek posted on one node is heard live on another; a live lobby opens with at most its snapshot
// cap of seeks and says whether more wait; a sent seek is removed (expired) at its expiresAt.
import { createServices } from '../../src/service';
import type { LobbyEvent } from '../../src/service/challenges/lobby';
import { GameError } from '../../src/service/errors';
import { createMemoryStorage } from '../../src/store/memory';
import { signUp } from '../support/accounts';
import { appHarness } from '../support/app';
import { uniquePrefix } from '../support/redis';

const harness = appHarness();
afterAll(() => harness.stopAll());

/** Collects a live lobby's events; `until` waits for one that matches. */
function collector() {
  const events: LobbyEvent[] = [];
  return {
    events,
    push: (event: LobbyEvent) => events.push(event),
    async until(match: (event: LobbyEvent) => boolean): Promise<LobbyEvent> {
      for (let i = 0; i < 500; i++) {
        const found = events.find(match);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`no such lobby event among ${JSON.stringify(events)}`);
    },
  };
}

describe.each(['redis', 'memory'] as const)('the lobby across nodes (%s)', (store) => {
  it('gives a listed seek to exactly one of two accepters on two nodes, in each of 30 races', async () => {
    const prefix = uniquePrefix('lobby-race');
    const nodeA = await harness.start(store, prefix);
    // Memory storage lives in one process: the second "node" is the same app there.
    const nodeB = store === 'redis' ? await harness.start(store, prefix) : nodeA;
    const [ann, bob, cat] = await Promise.all(
      ['ann', 'bob', 'cat'].map((l) => signUp(nodeA.app, l, 'human')),
    );
    const wins = { bob: 0, cat: 0 };
    for (let round = 0; round < 30; round++) {
      const seek = await nodeA.app.services.seeks.createSeek(
        { token: ann!.token },
        {
          kind: 'kalah',
          options: { seeds: 3 + (round % 4) },
          timeControl: { type: 'correspondence', daysPerMove: 1 + (round % 7) },
        },
      );
      expect(seek.status).toBe('waiting');
      const [b, c] = await Promise.allSettled([
        nodeA.app.services.lobby.accept({ token: bob!.token }, seek.id),
        nodeB.app.services.lobby.accept({ token: cat!.token }, seek.id),
      ]);
      const won = [b, c].filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      const lost = [b, c].find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(lost.reason).toBeInstanceOf(GameError);
      expect((lost.reason as GameError).code).toBe('SEEK_NOT_FOUND');
      const game = (
        won[0] as PromiseFulfilledResult<{
          game: { id: string; seats: Array<{ account: string | null }> } | null;
        }>
      ).value.game;
      const winner = b.status === 'fulfilled' ? bob! : cat!;
      wins[winner === bob ? 'bob' : 'cat']++;
      expect(game?.seats.map((s) => s.account).sort()).toEqual([ann!.id, winner.id].sort());
      await nodeA.app.services.writer.apply(
        game!.id,
        { type: 'abort' },
        { credential: { token: ann!.token } },
      );
    }
    expect(wins.bob + wins.cat).toBe(30);
    // One game per race: ann played 30 games in all, none left ongoing.
    const all = await nodeA.app.service.listGames({ account: ann!.username, limit: 100 });
    expect(all.items).toHaveLength(30);
  });

  it('hears a seek posted on another node, and its removal', async () => {
    const prefix = uniquePrefix('lobby-live');
    const nodeA = await harness.start(store, prefix);
    const nodeB = store === 'redis' ? await harness.start(store, prefix) : nodeA;
    const ann = await signUp(nodeA.app, 'ann', 'human');
    const live = collector();
    const stop = await nodeB.app.services.lobby.watch(undefined, { kind: 'oware' }, live.push, (error) => {
      throw error;
    });
    try {
      expect(live.events).toEqual([{ type: 'ready', listed: 0, more: false }]);
      const seek = await nodeA.app.services.seeks.createSeek({ token: ann.token }, { kind: 'oware' });
      const added = await live.until((e) => e.type === 'seek.added');
      expect(added).toMatchObject({ seek: { id: seek.id, username: ann.username, rating: 1500 } });
      await nodeA.app.services.seeks.cancelSeek({ token: ann.token }, seek.id);
      expect(await live.until((e) => e.type === 'seek.removed')).toEqual({
        type: 'seek.removed',
        id: seek.id,
        reason: 'canceled',
      });
    } finally {
      await stop();
    }
  });
});

describe('a live lobby', () => {
  it('opens with at most its snapshot cap of seeks, oldest first, and says more wait', async () => {
    const services = createServices(createMemoryStorage(), undefined, { lobbySnapshotMax: 2 });
    const ids: string[] = [];
    for (const label of ['ann', 'bob', 'cat']) {
      // The lobby orders by createdAt in milliseconds, ties by id: seeks a few ms apart have one order.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const { token } = await services.accounts.createAccount({ username: `${label}-cap`, kind: 'human' });
      ids.push(
        (
          await services.seeks.createSeek(
            { token: token.token },
            { kind: 'kalah', options: { seeds: 3 + ids.length } },
          )
        ).id,
      );
    }
    const live = collector();
    const stop = await services.lobby.watch(undefined, {}, live.push, () => undefined);
    await stop();
    expect(live.events.map((e) => (e.type === 'seek.added' ? e.seek.id : e.type))).toEqual([
      ids[0],
      ids[1],
      'ready',
    ]);
    expect(live.events[2]).toEqual({ type: 'ready', listed: 2, more: true });
    // The page the list answers is not capped by it.
    expect((await services.lobby.list(undefined, {}, { limit: 100 })).items).toHaveLength(3);
  });

  it('removes a seek it sent (expired) once its expiresAt has passed', async () => {
    let offset = 0;
    const now = () => new Date(Date.now() + offset);
    const services = createServices(
      createMemoryStorage(() => now().getTime()),
      now,
    );
    const { token } = await services.accounts.createAccount({ username: 'ann-expiry', kind: 'human' });
    const seek = await services.seeks.createSeek(
      { token: token.token },
      { kind: 'kalah', expiresInSeconds: 10 },
    );
    // 0.3 s before it expires.
    offset = 9_700;
    const live = collector();
    const stop = await services.lobby.watch(undefined, {}, live.push, () => undefined);
    try {
      expect(live.events.map((e) => e.type)).toEqual(['seek.added', 'ready']);
      expect(await live.until((e) => e.type === 'seek.removed')).toEqual({
        type: 'seek.removed',
        id: seek.id,
        reason: 'expired',
      });
      expect((await services.lobby.list(undefined, {})).items).toEqual([]);
    } finally {
      await stop();
    }
  });
});
