// The engine-state cache is bounded by the estimated bytes of the states it keeps, oldest out first,
// and the service's moves still agree with a full replay when the cache keeps nothing.
import { KINDS } from '../../src/engines/kinds';
import { StateCache } from '../../src/service/game/state-cache';
import { createServices } from '../../src/service';
import { createMemoryStorage } from '../../src/store/memory';

const entry = (version: number) => ({ version, position: `p${version}`, state: { version } });

describe('StateCache', () => {
  it('keeps the total estimate within its budget, evicting the oldest first', () => {
    const cache = new StateCache(1000);
    cache.set('a', entry(1), 400);
    cache.set('b', entry(1), 400);
    expect(cache.bytes).toBe(800);
    cache.set('c', entry(1), 400);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.version).toBe(1);
    expect(cache.get('c')?.version).toBe(1);
    expect(cache.bytes).toBe(800);
    // Replacing a game's entry counts only its new size; it becomes the newest.
    cache.set('b', entry(2), 100);
    expect(cache.bytes).toBe(500);
    cache.set('d', entry(1), 600);
    expect(cache.get('c')).toBeUndefined();
    expect([cache.get('b')?.version, cache.get('d')?.version]).toEqual([2, 1]);
    expect(cache.bytes).toBe(700);
  });

  it('does not keep an entry larger than the whole budget, and a zero budget keeps nothing', () => {
    const cache = new StateCache(1000);
    cache.set('a', entry(1), 300);
    cache.set('a', entry(2), 5000);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.bytes).toBe(0);
    const none = new StateCache(0);
    none.set('a', entry(1), 1);
    expect(none.size).toBe(0);
  });
});

describe('engine state sizes', () => {
  it('grow with the history a state keeps alive', () => {
    for (const { engine } of KINDS) {
      let state = engine.setup({});
      const start = engine.stateBytes(state);
      expect(start).toBeGreaterThan(0);
      for (let ply = 0; ply < 6 && engine.moves(state).length > 0; ply++) {
        const next = engine.play(state, engine.moves(state)[0]);
        if (!next.ok) throw new Error(next.error.message);
        state = next.value;
      }
      expect(engine.stateBytes(state)).toBeGreaterThan(0);
    }
  });
});

describe('the game service with a state cache that keeps nothing', () => {
  it('replays each game and plays on exactly as with a cache', async () => {
    const play = async (engineCacheBytes: number) => {
      const services = createServices(createMemoryStorage(), () => new Date(), { engineCacheBytes });
      const created = await services.games.createGame({ kind: 'russian-draughts' });
      const tokens = created.seatTokens.map((s) => s.token);
      let view = created.game;
      for (const ply of [0, 1, 2, 3, 4, 5]) {
        view = await services.games.submitMove(
          view.id,
          view.legalMoves[ply % view.legalMoves.length] as string,
          {
            credential: { token: tokens[view.toMove as number] as string },
          },
        );
      }
      return view.position;
    };
    expect(await play(0)).toBe(await play(64 * 1024 * 1024));
  });
});
