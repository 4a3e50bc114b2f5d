// One contract for every Storage implementation (memory and Redis run it alike).
import type { Storage, StoredGame } from '../../src/store/store';

let counter = 0;

/** A minimal, valid stored game document with a fresh id. */
export function sampleGame(overrides: Partial<StoredGame> = {}): StoredGame {
  counter++;
  const now = new Date().toISOString();
  return {
    id: `test${String(counter).padStart(8, '0')}`,
    kind: 'kalah',
    rulesVersion: '1',
    options: { seeds: 4 },
    first: 0,
    seats: [
      { seat: 0, name: 'south', account: null },
      { seat: 1, name: 'north', account: null },
    ],
    seatTokenHashes: ['a', 'b'],
    status: 'ongoing',
    outcome: null,
    ply: 0,
    version: 0,
    toMove: 0,
    position: '4,4,4,4,4,4/0/4,4,4,4,4,4/0 S',
    legalMoves: ['1', '2', '3', '4', '5', '6'],
    moves: [],
    drawOffer: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

/** The game after one more (fake) move: version and ply up by one. */
export function advanced(game: StoredGame, notation = '3'): StoredGame {
  return {
    ...game,
    version: game.version + 1,
    ply: game.ply + 1,
    moves: [...game.moves, { ply: game.ply + 1, notation, seat: 0, at: new Date().toISOString() }],
  };
}

/** Subscribes now; `updates` resolves with the first `count` updates (or rejects after `ms`). */
export async function collect(
  storage: Storage,
  gameId: string,
  count: number,
  ms = 3000,
): Promise<{ updates: Promise<StoredGame[]> }> {
  const received: StoredGame[] = [];
  let done: (games: StoredGame[]) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const updates = new Promise<StoredGame[]>((resolve, reject) => {
    done = resolve;
    fail = reject;
  });
  const timer = setTimeout(() => fail(new Error(`got ${received.length} of ${count} updates`)), ms);
  const off = await storage.events.subscribe(gameId, (game) => {
    received.push(game);
    if (received.length === count) {
      clearTimeout(timer);
      void off();
      done(received);
    }
  });
  return { updates };
}

export function describeStoreContract(name: string, open: () => Promise<Storage>): void {
  describe(`${name} store contract`, () => {
    let storage: Storage;
    beforeAll(async () => {
      storage = await open();
    });
    afterAll(async () => {
      await storage.games.close();
      await storage.events.close();
    });

    it('answers ping', async () => {
      await expect(storage.games.ping()).resolves.toBeUndefined();
    });

    it('stores a new game and reads it back unchanged', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      expect(await storage.games.get(game.id)).toEqual(game);
    });

    it('refuses to create a game whose id exists', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      await expect(storage.games.create({ ...game, ply: 9 })).rejects.toThrow();
      expect((await storage.games.get(game.id))?.ply).toBe(0);
    });

    it('reads an unknown id as undefined', async () => {
      expect(await storage.games.get('nosuchgame000')).toBeUndefined();
    });

    it('updates at the expected version and refuses a stale one with the current version', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      const next = advanced(game);
      expect(await storage.games.update(next, 0)).toEqual({ status: 'updated' });
      expect(await storage.games.get(game.id)).toEqual(next);
      const stale = await storage.games.update(advanced(game, '5'), 0);
      expect(stale).toEqual({ status: 'conflict', currentVersion: 1 });
      expect(await storage.games.get(game.id)).toEqual(next);
    });

    it('reports an update of a missing game', async () => {
      expect(await storage.games.update(advanced(sampleGame()), 0)).toEqual({ status: 'missing' });
    });

    it('replays the first answer for a repeated idempotency key and writes nothing', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      const first = advanced(game);
      const key = { key: 'k-1', fingerprint: 'move:3' };
      expect(await storage.games.update(first, 0, key)).toEqual({ status: 'updated' });
      const again = await storage.games.update(advanced(first), 1, key);
      expect(again).toEqual({ status: 'replayed', record: { fingerprint: 'move:3', response: first } });
      expect((await storage.games.get(game.id))?.version).toBe(1);
      expect(await storage.games.idempotencyRecord(game.id, 'k-1')).toEqual({
        fingerprint: 'move:3',
        response: first,
      });
      expect(await storage.games.idempotencyRecord(game.id, 'other')).toBeUndefined();
    });

    it('lets exactly one of 50 concurrent writers at one version win', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => storage.games.update(advanced(game, String(i)), 0)),
      );
      expect(results.filter((r) => r.status === 'updated')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'conflict')).toHaveLength(49);
      const stored = await storage.games.get(game.id);
      expect(stored?.moves).toHaveLength(1);
    });

    it('publishes each update to subscribers in order, and stops after unsubscribe', async () => {
      const game = sampleGame();
      await storage.games.create(game);
      const { updates } = await collect(storage, game.id, 3);
      let current = game;
      for (let i = 0; i < 3; i++) {
        const next = advanced(current, String(i + 1));
        expect(await storage.games.update(next, current.version)).toEqual({ status: 'updated' });
        current = next;
      }
      expect((await updates).map((g) => g.version)).toEqual([1, 2, 3]);
      const late: StoredGame[] = [];
      const off = await storage.events.subscribe(game.id, (g) => late.push(g));
      await off();
      await storage.games.update(advanced(current), current.version);
      await new Promise((r) => setTimeout(r, 50));
      expect(late).toEqual([]);
    });

    it('lists newest first with filters and a cursor that pages through every match once', async () => {
      const kind = 'oware';
      const made: StoredGame[] = [];
      for (let i = 0; i < 7; i++) {
        const game = sampleGame({ kind, status: i % 3 === 0 ? 'finished' : 'ongoing' });
        await storage.games.create({ ...game, status: 'ongoing' });
        if (game.status === 'finished') {
          const done = { ...advanced({ ...game, status: 'ongoing' }), status: 'finished' as const };
          await storage.games.update(done, 0);
        }
        made.push(game);
      }
      const seen: string[] = [];
      let before: number | undefined;
      for (;;) {
        const page = await storage.games.list({ kind, status: 'ongoing' }, 2, before);
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items.map((g) => g.id));
        for (const g of page.items) expect([g.kind, g.status]).toEqual([kind, 'ongoing']);
        if (page.next === null) break;
        before = page.next;
      }
      const expected = made.filter((g) => g.status === 'ongoing').map((g) => g.id);
      expect(seen.filter((id) => expected.includes(id))).toEqual([...expected].reverse());
      const finished = await storage.games.list({ kind, status: 'finished' }, 100);
      const finishedIds = made.filter((g) => g.status === 'finished').map((g) => g.id);
      expect(finished.items.map((g) => g.id).filter((id) => finishedIds.includes(id))).toEqual(
        [...finishedIds].reverse(),
      );
    });
  });
}
