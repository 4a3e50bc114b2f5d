// Part of the store contract: a game of every kind in the list (src/engines/kinds.ts) is stored,
// moved, read back and listed under its kind alone. Iterates the list when called, so a kind
// registered before (the toy-kind test's) is stored too: a store knows no kind by name.
import { KINDS } from '../../src/engines/kinds';
import type { Storage } from '../../src/store/store';
import { updateGame } from '../support/update-game';
import { advanced, gameOf, uid } from './store-contract';

export function describeKindContract(storage: () => Storage): void {
  describe('every hosted kind', () => {
    it.each(KINDS.map((kind) => [kind.engine.kind, kind] as const))(
      '%s: a game of it is stored, moved, read back and listed by its kind',
      async (id, { engine }) => {
        const options = engine.parseOptions({});
        if (!options.ok) throw new Error(options.error.message);
        const start = engine.setup(options.value, 0);
        const account = uid('kinds');
        const game = {
          ...gameOf([account, null], {
            kind: id,
            options: options.value,
            position: engine.formatState(start),
          }),
          rulesVersion: engine.rulesVersion,
        };
        await storage().games.create(game);
        const move = engine.moves(start)[0];
        const after = engine.play(start, move);
        if (!after.ok) throw new Error(after.error.message);
        const moved = {
          ...advanced(game, engine.formatMove(start, move)),
          position: engine.formatState(after.value),
        };
        expect(await updateGame(storage().games, moved, 0)).toEqual({ status: 'updated' });
        expect(await storage().games.get(game.id)).toEqual(moved);
        const listed = async (kind: typeof id) =>
          (await storage().games.list({ account, kind }, 10)).items.map((g) => g.id);
        expect(await listed(id)).toEqual([game.id]);
        for (const other of KINDS) {
          if (other.engine.kind !== id) expect(await listed(other.engine.kind)).toEqual([]);
        }
      },
    );
  });
}
