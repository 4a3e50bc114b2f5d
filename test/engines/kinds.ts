// The contract of every kind in the list (src/engines/kinds.ts): its descriptor agrees with its
// engine, and the engine passes the engine contract with its default options, every random game
// ending by the descriptor's move limit. Iterates the list when called, so a kind registered
// before (the toy-kind test's) is checked too. Each engine's own test file runs the engine contract
// with more option sets.
import { BOARD_FAMILIES, type AnyKind } from '../../src/engines/kind';
import { KINDS, kindOf } from '../../src/engines/kinds';
import { describeEngineContract } from './contract';

function describeKind(kind: AnyKind): void {
  const { engine } = kind;
  describe(`${engine.kind} descriptor`, () => {
    it('is the list entry of its id, with a name, a family and notation texts', () => {
      expect(kindOf(engine.kind)).toBe(kind);
      expect(KINDS.filter((k) => k.engine.kind === engine.kind)).toHaveLength(1);
      expect(kind.name).toMatch(/\S/);
      expect(BOARD_FAMILIES).toContain(kind.family);
      expect(kind.notation.moves.length).toBeGreaterThan(10);
      expect(kind.notation.position.length).toBeGreaterThan(10);
      expect(kind.record.mediaType).toMatch(/^[a-z]+\/[a-z0-9.+-]+$/);
    });

    it('describes the options the engine validates with, and draws the board of its family', () => {
      const defaults = engine.parseOptions({});
      if (!defaults.ok) throw new Error(defaults.error.message);
      expect(Object.keys(defaults.value).sort()).toEqual(kind.options.map((o) => o.name).sort());
      for (const spec of kind.options) {
        if (typeof spec.default !== 'function') expect(defaults.value[spec.name]).toBe(spec.default);
      }
      const board = engine.board(engine.setup(defaults.value, 0));
      expect(board.type).toBe(kind.family === 'mancala' ? 'mancala' : 'grid');
    });
  });
  describeEngineContract(engine, { optionSets: [{}], playouts: 5, maxPlies: kind.moveLimit + 1 });
}

/** The descriptor and engine contracts of every kind in the list (or those `only` keeps). */
export function describeKindContracts(only: (kind: AnyKind) => boolean = () => true): void {
  for (const kind of KINDS.filter(only)) describeKind(kind);
}
